import { WebGPUDevice } from '@luma.gl/webgpu';
import type { ScanContext } from '@scan/core';
import { createNodeContext, DAWN_TOGGLES_ENV, parseDawnToggles } from '@scan/core/node';

/** The GPU device shared by luma.gl and the harness's own timer and copy kernel. */
export interface LumaDeviceContext {
  /** The scan context (Dawn instance kept alive, `caps`, the raw `GPUDevice`). */
  readonly ctx: ScanContext;
  /** luma.gl's device object wrapping the same `GPUDevice`. */
  readonly luma: WebGPUDevice;
  /** Dawn toggles in effect (from `SCAN_DAWN_TOGGLES`). */
  readonly toggles: readonly string[];
  /** Destroys the device and lets go of both Dawn instances. */
  destroy(): void;
}

/** The part of the `webgpu` package this module uses. */
interface WebGpuPackage {
  create(options: string[]): GPU;
}

/** Node has no `navigator.gpu`; luma reads it (WGSL language features, canvas format) when wrapping a device. */
function installNavigatorGpu(gpu: GPU): () => void {
  const g = globalThis as { navigator?: object };
  const created = g.navigator === undefined;
  if (created) Object.defineProperty(globalThis, 'navigator', { value: {}, configurable: true, writable: true });
  const nav = g.navigator as Record<string, unknown>;
  const had = Object.getOwnPropertyDescriptor(nav, 'gpu');
  Object.defineProperty(nav, 'gpu', { value: gpu, configurable: true, writable: true });
  return () => {
    if (had) Object.defineProperty(nav, 'gpu', had);
    else delete nav['gpu'];
    if (created) delete g.navigator;
  };
}

/**
 * Creates the device exactly as the bench does (`createNodeContext` of `@scan/core/node`: the GPU,
 * or SwiftShader's Vulkan where there is none; every optional feature the adapter has, including
 * `timestamp-query`; the adapter's limits; Dawn toggles from `SCAN_DAWN_TOGGLES`), then hands the
 * same `GPUDevice` to luma.gl by constructing its exported `WebGPUDevice` around it —
 * `webgpuAdapter.attach()` throws "not implemented" in luma.gl 9.4.2.
 *
 * luma reads `navigator.gpu` while wrapping (its WGSL language features decide whether its subgroup
 * kernels may run), which Node lacks: a second Dawn instance, made with the same toggles and never
 * asked for an adapter, is installed there until {@link LumaDeviceContext.destroy}.
 *
 * @example
 * ```ts
 * const dev = await createLumaDevice();
 * console.log(dev.luma.info.gpu, dev.ctx.caps.features.timestampQuery);
 * dev.destroy();
 * ```
 */
export async function createLumaDevice(): Promise<LumaDeviceContext> {
  const toggles = parseDawnToggles(process.env[DAWN_TOGGLES_ENV]);
  const ctx = await createNodeContext({ toggles });
  const webgpu = (await import('webgpu')) as unknown as WebGpuPackage;
  const held: { gpu: GPU | undefined } = { gpu: webgpu.create([...toggles]) };
  const uninstall = installNavigatorGpu(held.gpu!);
  const device = ctx.device;
  const info = device.adapterInfo;
  // luma keeps the adapter only for canvas contexts and for naming the vendor when `info` has none.
  const adapter = { info, features: device.features, limits: device.limits, isFallbackAdapter: false } as unknown as GPUAdapter;
  const luma = new WebGPUDevice({ id: 'luma-baseline' }, device, adapter, info);
  return {
    ctx,
    luma,
    toggles,
    destroy() {
      uninstall();
      ctx.destroy();
      const release = () => {
        held.gpu = undefined;
      };
      device.queue.onSubmittedWorkDone().then(release, release);
    },
  };
}
