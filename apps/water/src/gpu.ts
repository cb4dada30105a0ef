import { createContext, type ScanContext, scanDeviceDescriptor } from '@scan/core';

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
 * Asks the browser for a WebGPU device (with `subgroups` when offered, which the tridiagonal solver
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
  let device: GPUDevice;
  try {
    // The scan family's descriptor: subgroups, timestamps and the rest where offered, and limits
    // raised to the adapter's own (large grids and scenes need bindings past the defaults).
    device = await adapter.requestDevice(scanDeviceDescriptor(adapter, 'water'));
  } catch (error) {
    throw new WebGpuUnavailable(`The GPU adapter refused to create a device: ${(error as Error).message}. ${HELP}`);
  }
  keptAdapter = adapter;
  return createContext(device, { adapterInfo: keptAdapter.info });
}
