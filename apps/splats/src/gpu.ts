import { createContext, type ScanContext } from '@scan/core';

/** Why the page cannot run: shown to the user instead of the simulation. */
export class WebGpuUnavailable extends Error {
  override readonly name = 'WebGpuUnavailable';
}

const HELP =
  'This demo needs WebGPU: use a recent Chrome, Edge or Opera (113+), Safari 26+, or Firefox 141+ on Windows; ' +
  'on Linux, Chrome needs --enable-unsafe-webgpu (and Vulkan) for now.';

// Chromium destroys a device whose adapter was garbage-collected ("A valid external Instance
// reference no longer exists"), so the adapter is kept for the page's lifetime.
let keptAdapter: GPUAdapter | undefined;

/**
 * Asks the browser for a WebGPU device (with `subgroups` when offered, which the sort and pack
 * can use) and wraps it in a `ScanContext`. Throws {@link WebGpuUnavailable} with a message for
 * the page when there is no WebGPU, no adapter, or no device.
 */
export async function acquireContext(): Promise<ScanContext> {
  const gpu = (navigator as Navigator & { gpu?: GPU }).gpu;
  if (!gpu) throw new WebGpuUnavailable(`WebGPU is not available in this browser (navigator.gpu is missing). ${HELP}`);
  let adapter: GPUAdapter | null = null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch {
    adapter = null;
  }
  if (!adapter) throw new WebGpuUnavailable(`WebGPU is present but no GPU adapter could be had (requestAdapter returned nothing). ${HELP}`);
  const requiredFeatures = (['subgroups', 'timestamp-query'] as const).filter((f) => adapter.features.has(f)) as GPUFeatureName[];
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({
      requiredFeatures,
      // 8 M splats need 256 MiB bindings: ask for what the adapter allows rather than the default.
      requiredLimits: {
        maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
        maxBufferSize: adapter.limits.maxBufferSize,
      },
      label: 'splats',
    });
  } catch (error) {
    throw new WebGpuUnavailable(`The GPU adapter refused to create a device: ${(error as Error).message}. ${HELP}`);
  }
  keptAdapter = adapter;
  return createContext(device, { adapterInfo: keptAdapter.info });
}
