import type { ScanContext } from './context.js';

/**
 * One compute kernel: a specialization string that identifies it and a generator of its WGSL.
 * The string is the cache key, so it must name everything the generator depends on.
 */
export interface KernelSpec {
  /** Unique per distinct WGSL, e.g. `scan/decoupled-fallback/u32/add/fwd/excl/sg/256x4`. */
  readonly key: string;
  /** Produces the WGSL source; called only on a cache miss. */
  readonly wgsl: () => string;
  /** Entry point (default `main`). */
  readonly entryPoint?: string;
}

const pipelines = new WeakMap<GPUDevice, Map<string, GPUComputePipeline>>();

function printWgslRequested(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.SCAN_PRINT_WGSL === '1';
}

/**
 * The compute pipeline for `spec` on this context's device, compiled once per device and key.
 * Set `SCAN_PRINT_WGSL=1` (Node) to print every generated kernel as it is compiled.
 *
 * @example
 * ```ts
 * const pipeline = getPipeline(ctx, { key: 'fill/u32', wgsl: () => fillWgsl('u32') });
 * ```
 */
export function getPipeline(ctx: ScanContext, spec: KernelSpec): GPUComputePipeline {
  let perDevice = pipelines.get(ctx.device);
  if (!perDevice) {
    perDevice = new Map();
    pipelines.set(ctx.device, perDevice);
  }
  let pipeline = perDevice.get(spec.key);
  if (!pipeline) {
    const code = spec.wgsl();
    if (printWgslRequested()) console.log(`// ---- ${spec.key}\n${code}`);
    const module = ctx.device.createShaderModule({ label: spec.key, code });
    pipeline = ctx.device.createComputePipeline({
      label: spec.key,
      layout: 'auto',
      compute: { module, entryPoint: spec.entryPoint ?? 'main' },
    });
    perDevice.set(spec.key, pipeline);
  }
  return pipeline;
}

/**
 * How many distinct pipelines have been compiled for a device (tests use it to see the cache work).
 *
 * @example
 * ```ts
 * const before = cachedPipelineCount(device);
 * ```
 */
export function cachedPipelineCount(device: GPUDevice): number {
  return pipelines.get(device)?.size ?? 0;
}
