import { createContext, type ScanContext, scanDeviceDescriptor } from '@scan/core';
import { setVerifyKernelKeys } from '@scan/core/kit';

// Tests hold every kernel key to its WGSL: a cache hit whose generator now gives other WGSL fails.
setVerifyKernelKeys(true);

/** Options of {@link getTestContext}. */
export interface TestContextOptions {
  /** `false` forces the portable (workgroup-memory) kernels even where the device has subgroups. */
  subgroups?: boolean;
}

const HOW_TO_GET_ONE =
  'GPU tests run in headless Chromium through Vitest browser mode: install Debian `chromium` ' +
  '(`apt-get install chromium`, or point SCAN_CHROMIUM at a Chromium binary) and run them with the ' +
  "README's test command (`pnpm test`, i.e. `vitest run --project browser`), which starts Chromium with " +
  '--enable-unsafe-webgpu; without a GPU, Chromium falls back to SwiftShader.';

interface Acquired {
  adapter: GPUAdapter;
  device: GPUDevice;
}

/** Requests an adapter and a device with every wanted feature and raised limits. */
async function acquire(): Promise<Acquired> {
  const gpu = (globalThis as { navigator?: { gpu?: GPU } }).navigator?.gpu;
  if (!gpu) throw new Error(`WebGPU is not available here (navigator.gpu is missing). ${HOW_TO_GET_ONE}`);
  const adapter = await gpu.requestAdapter();
  if (!adapter) throw new Error(`navigator.gpu.requestAdapter() returned null: this browser has no WebGPU adapter. ${HOW_TO_GET_ONE}`);
  // Every optional feature the kernels use that the adapter has, and its largest limits, so tests
  // reach the sizes the device allows.
  const device = await adapter.requestDevice(scanDeviceDescriptor(adapter, 'scan test device'));
  return { adapter, device };
}

// One adapter and device per page: creating a device per test would be slow on SwiftShader and
// would hide the pipeline-cache reuse that real users get.
let shared: Promise<Acquired> | undefined;

function sharedDevice(): Promise<Acquired> {
  if (shared) return shared;
  const pending = acquire();
  shared = pending;
  // A failed request or a lost device must not poison every later test: forget it so the next
  // call asks again (a test that destroyed the shared device by mistake then fails alone).
  pending.then(
    ({ device }) => {
      void device.lost.then(() => {
        if (shared === pending) shared = undefined;
      });
    },
    () => {
      if (shared === pending) shared = undefined;
    },
  );
  return pending;
}

/**
 * A `ScanContext` on the page's shared test device (created on first use with every optional
 * feature the adapter has and its maximum limits). Contexts are cheap: each call wraps the same
 * device, so pass `{ subgroups: false }` to test the portable kernels on the same device.
 * Throws, with instructions, when the page has no WebGPU; tests never skip silently.
 *
 * @example
 * ```ts
 * const ctx = await getTestContext();
 * const portable = await getTestContext({ subgroups: false });
 * expect(await scan(ctx, data)).toEqual(cpu.scan(data));
 * ```
 */
export async function getTestContext(options: TestContextOptions = {}): Promise<ScanContext> {
  const { adapter, device } = await sharedDevice();
  return createContext(device, { adapterInfo: adapter.info, subgroups: options.subgroups });
}

/**
 * A new device (from a new adapter, since an adapter gives out one device), not shared with other
 * tests: for tests that destroy or lose their device. Destroy it when done.
 *
 * @example
 * ```ts
 * const device = await freshTestDevice();
 * const ctx = createContext(device);
 * device.destroy();
 * await expect(scan(ctx, data)).rejects.toThrow(/DEVICE_LOST|destroyed/);
 * ```
 */
export async function freshTestDevice(): Promise<GPUDevice> {
  return (await acquire()).device;
}

/**
 * Like {@link freshTestDevice}, wrapped in a context that knows the adapter's subgroup sizes.
 *
 * @example
 * ```ts
 * const ctx = await freshTestContext();
 * ctx.device.destroy();
 * ```
 */
export async function freshTestContext(options: TestContextOptions = {}): Promise<ScanContext> {
  const { adapter, device } = await acquire();
  return createContext(device, { adapterInfo: adapter.info, subgroups: options.subgroups });
}
