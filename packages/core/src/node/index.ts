/**
 * `@scan/core/node`: a {@link ScanContext} in Node through Dawn (the optional `webgpu` package),
 * on the machine's GPU or, with none, on SwiftShader's Vulkan.
 *
 * @example
 * ```ts
 * import { scan } from '@scan/core';
 * import { createNodeContext } from '@scan/core/node';
 * const ctx = await createNodeContext();
 * console.log(await scan(ctx, new Uint32Array([1, 2, 3]))); // Uint32Array [0, 1, 3]
 * ctx.destroy();
 * ```
 * @module
 */
import { createContext, type ScanContext } from '../context.js';
import { acquireAdapter } from './acquire.js';
import { normalizeAdapterInfo, requestScanDevice } from './device.js';
import { keepInstanceWithDevice } from './instance-lifetime.js';
import { loadWebGpu } from './load-webgpu.js';
import { defaultMachine } from './machine.js';
import { checkNodeContextOptions } from './options.js';
import { resolveDawnToggles } from './toggles.js';

export { SCAN_FEATURES, SCAN_LIMITS, scanDeviceDescriptor } from '../device-descriptor.js';
export { DAWN_TOGGLES_ENV, parseDawnToggles } from './toggles.js';
export { CHROMIUM_SWIFTSHADER_ICD, SWIFTSHADER_ICD_ENV } from './vulkan-icd.js';

/** Options of {@link createNodeContext}. */
export interface NodeContextOptions {
  /**
   * Dawn options for `create()` of the `webgpu` package, each `key=value`, e.g.
   * `['enable-dawn-features=allow_unsafe_apis,vulkan_enable_f16_on_nvidia', 'disable-dawn-features=timestamp_quantization']`
   * (f16 and subgroup matrices on NVIDIA, exact timestamps). Default: the space-separated
   * `SCAN_DAWN_TOGGLES` environment variable; pass `[]` to ignore it.
   */
  toggles?: readonly string[];
  /** Passed to `requestAdapter` (matters on machines with two GPUs). */
  powerPreference?: GPUPowerPreference;
  /**
   * Use a software adapter even where a GPU exists: SwiftShader's Vulkan on Linux (`SCAN_VK_ICD`
   * or Debian chromium's `/usr/lib/chromium/vk_swiftshader_icd.json`), Dawn's fallback adapter
   * elsewhere. Without it SwiftShader is used only when there is no GPU.
   */
  software?: boolean;
  /** `false` makes kernels take their portable paths even where the device has `subgroups`. */
  subgroups?: boolean;
  /** `false` keeps tensor-core (subgroup-matrix) kernels off. */
  subgroupMatrix?: boolean;
  /** `false` keeps f16 kernels off. */
  shaderF16?: boolean;
  /**
   * Define Dawn's `GPUBufferUsage`, `GPUMapMode`, `GPUShaderStage`, … on `globalThis` where they are
   * missing, as WebGPU code written for the browser expects (default `true`; existing ones are kept).
   */
  globals?: boolean;
}

/** Defines the WebGPU globals Node lacks, never replacing one that exists. */
function defineMissingGlobals(globals: object): void {
  const target = globalThis as Record<string, unknown>;
  for (const [name, value] of Object.entries(globals)) {
    if (!(name in target)) target[name] = value;
  }
}

/**
 * Creates a {@link ScanContext} in Node on a device from Dawn (the `webgpu` package, an optional
 * peer dependency: `npm install webgpu`).
 *
 * - **Adapter.** The GPU when the machine has a Vulkan (Linux), Metal or D3D12 driver; on Linux
 *   without one, SwiftShader's Vulkan from Debian's `chromium` package (or `SCAN_VK_ICD`), selected
 *   by setting `VK_ICD_FILENAMES` and `VK_DRIVER_FILES` in `process.env` while Dawn looks for
 *   adapters (they are put back afterwards). When the system has no Vulkan loader
 *   (`libvulkan.so.1`, package `libvulkan1`), chromium's copy is loaded into the process instead.
 * - **Device.** Every optional feature the adapter has among `subgroups`, `shader-f16`,
 *   `timestamp-query` and `chromium-experimental-subgroup-matrix`, and the adapter's own maxima of
 *   the limits in {@link SCAN_LIMITS}; `ctx.caps` reports them with the subgroup sizes.
 * - **Errors.** `UNSUPPORTED` `ScanError` when `webgpu` is missing or will not load, or when no
 *   adapter can be had (the message lists what was tried and what to install); `INVALID_ARGUMENT`
 *   for an unknown option, a value of the wrong type or a malformed toggle.
 * - **Lifetime.** The context holds the Dawn instance (the object `create()` returns) for the
 *   device's whole life: `webgpu@0.6.2`'s device does not keep its instance alive, and once the
 *   instance is garbage-collected the device's threads run on freed state — the crashes (futex and
 *   mutex errors, segfaults, hangs) once put down to megabyte uploads (core's README, "Node", and
 *   `scripts/dawn-instance-lifetime.mjs`). The instance lives as long as the device can be
 *   reached (by the context, `ctx.device`, or a call still running), and is collected with it;
 *   `ctx.destroy()` destroys the device but keeps the instance, because Dawn still delivers the
 *   destroyed device's callbacks through it. Node exits by itself all the same: a held instance
 *   keeps no handle on the event loop, and nothing global refers to it.
 * - **Size.** Host arrays are limited only by the device: every package's array-level functions
 *   are checked in CI at up to 2^22 elements on SwiftShader, and at 2^26 on the lent H100 by
 *   `scripts/node-stress` (core's README, "Node", has the results and the transfer speeds).
 * - **Device loss.** Calls on a destroyed context, or whose device is lost mid-call, reject with
 *   `ScanError` `DEVICE_LOST`. `ctx.destroy()` may follow `ctx.device.destroy()`. Releasing the
 *   instance at `destroy()`, even once the queue was idle, crashed Node at exit when a rejected
 *   call's work still created pipelines on the destroyed device (core's README, "Node").
 *
 * @example
 * ```ts
 * import { createNodeContext } from '@scan/core/node';
 * const ctx = await createNodeContext({ toggles: ['disable-dawn-features=timestamp_quantization'] });
 * console.log(ctx.caps.adapter.description, ctx.caps.subgroupMinSize); // "SwiftShader driver 5.0.0" 4 without a GPU
 * ctx.destroy(); // Node exits normally afterwards
 * ```
 */
export async function createNodeContext(options: NodeContextOptions = {}): Promise<ScanContext> {
  checkNodeContextOptions(options);
  const toggles = resolveDawnToggles(options.toggles, process.env);
  const webgpu = await loadWebGpu();
  if (options.globals !== false) defineMissingGlobals(webgpu.globals);
  const acquired = await acquireAdapter(
    webgpu,
    { toggles, powerPreference: options.powerPreference, software: options.software },
    defaultMachine(),
  );
  const device = await requestScanDevice(acquired.adapter);
  // The Dawn instance lives as long as the device can be reached, destroyed or not: releasing it
  // at destroy() crashed Node at exit under work still pending (instance-lifetime.ts says why).
  keepInstanceWithDevice(device, acquired.gpu);
  return createContext(device, {
    adapterInfo: normalizeAdapterInfo(acquired.adapter.info),
    ...(options.subgroups === undefined ? {} : { subgroups: options.subgroups }),
    ...(options.subgroupMatrix === undefined ? {} : { subgroupMatrix: options.subgroupMatrix }),
    ...(options.shaderF16 === undefined ? {} : { shaderF16: options.shaderF16 }),
    // Destroying a device twice is allowed (the user may have destroyed `ctx.device` already).
    onDestroy: () => device.destroy(),
  });
}
