import type { ScanContext } from './context.js';
import { ScanError } from './errors.js';
import type { Kernel } from './kernels/define-kernel.js';
import { wgslPortabilityProblems } from './kernels/wgsl-portability.js';

export type { KernelSpec } from './kernels/kernel-spec.js';

/** What one device's cache holds: compiled pipelines, and compilations still in flight. */
interface DeviceCache {
  readonly ready: Map<string, GPUComputePipeline>;
  readonly pending: Map<string, Promise<void>>;
  /** The WGSL compiled under each key, kept only while keys are verified. */
  readonly sources: Map<string, string>;
  /** Bind group layouts by their entries (see `bindGroupLayoutOf`). */
  readonly layouts: Map<string, GPUBindGroupLayout>;
}

let verifyKeys = false;

/**
 * Makes every pipeline cache hit generate the kernel's WGSL again and throw when it differs from
 * what was compiled under that key: a key that misses something its generator depends on would
 * otherwise hand one specialization another's pipeline. Every new kernel's WGSL is also checked
 * for what Firefox or Safari reject or mishandle (`wgslPortabilityProblems`): Chrome accepts it,
 * so the tests, which run in Chrome and Node (Dawn), would not notice. Tests turn it on (it doubles
 * the WGSL generation, never the compilation).
 *
 * @example
 * ```ts
 * setVerifyKernelKeys(true); // in a test setup file
 * ```
 */
export function setVerifyKernelKeys(on: boolean): void {
  verifyKeys = on;
}

/** With {@link setVerifyKernelKeys}: checks that `spec` generates what was compiled under its key. */
function verifyHit(cache: DeviceCache, spec: Kernel): void {
  if (!verifyKeys) return;
  const before = cache.sources.get(spec.key);
  if (before === undefined) return; // compiled before verification was turned on
  const now = spec.wgsl();
  if (now !== before) {
    throw new Error(
      `internal error: kernel key "${spec.key}" names two different WGSL sources; the key must name everything its generator reads`,
    );
  }
}

const caches = new WeakMap<GPUDevice, DeviceCache>();

function cacheOf(device: GPUDevice): DeviceCache {
  let cache = caches.get(device);
  if (!cache) {
    cache = { ready: new Map(), pending: new Map(), sources: new Map(), layouts: new Map() };
    caches.set(device, cache);
  }
  return cache;
}

function printWgslRequested(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.SCAN_PRINT_WGSL === '1';
}

function descriptorOf(ctx: ScanContext, spec: Kernel): GPUComputePipelineDescriptor {
  const code = spec.wgsl();
  if (verifyKeys) {
    cacheOf(ctx.device).sources.set(spec.key, code);
    const problems = wgslPortabilityProblems(code);
    if (problems.length > 0) throw new Error(`internal error: kernel "${spec.key}" is not portable: ${problems.join('; ')}`);
  }
  if (printWgslRequested()) console.log(`// ---- ${spec.key}\n${code}`);
  const module = ctx.device.createShaderModule({ label: spec.key, code });
  return { label: spec.key, layout: layoutOf(ctx.device, spec), compute: { module, entryPoint: spec.entryPoint ?? 'main' } };
}

/** `GPUShaderStage.COMPUTE` (the global exists in Node only once `webgpu` has loaded). */
const COMPUTE_STAGE = 4;

/**
 * The pipeline layout of a kernel: its declared bindings, every one of them (an `'auto'` layout
 * drops a binding the entry point never reaches, and a recipe binds every declared name).
 */
function layoutOf(device: GPUDevice, spec: Kernel): GPUPipelineLayout {
  return device.createPipelineLayout({ label: spec.key, bindGroupLayouts: [bindGroupLayoutOf(device, spec)] });
}

/**
 * The bind group layout of a kernel's declared bindings, made once per device for each distinct
 * list of bindings and shared by every kernel with that list (bind group layouts of equal entries
 * are interchangeable in WebGPU). Bind groups are made from it rather than from a compiled
 * pipeline, so a plan can make the bind groups of a structure whose kernels are still compiling
 * (or not needed yet) without compiling them synchronously first.
 *
 * @example
 * ```ts
 * const layout = bindGroupLayoutOf(device, kernel); // kernel: from a defineKernel family
 * ```
 */
export function bindGroupLayoutOf(device: GPUDevice, spec: Kernel): GPUBindGroupLayout {
  const cache = cacheOf(device);
  const entries = spec.layout.map(
    (b): GPUBindGroupLayoutEntry => ({
      binding: b.binding,
      visibility: COMPUTE_STAGE,
      buffer: { type: b.access === 'uniform' ? 'uniform' : b.access === 'read' ? 'read-only-storage' : 'storage' },
    }),
  );
  const key = entries.map((e) => `${e.binding}:${e.buffer?.type}`).join(',');
  let layout = cache.layouts.get(key);
  if (!layout) {
    layout = device.createBindGroupLayout({ label: `scan bindings ${key}`, entries });
    cache.layouts.set(key, layout);
  }
  return layout;
}

/**
 * The compute pipeline for `spec` on this context's device, compiled once per device and key.
 * When it is not compiled yet this compiles it synchronously (`createComputePipeline`), which can
 * stall for milliseconds to seconds; {@link loadPipelines} compiles ahead of time without stalling,
 * and a synchronous request for a kernel whose asynchronous compilation is still running compiles
 * it again rather than wait (WebGPU offers no way to block on the promise).
 * Set `SCAN_PRINT_WGSL=1` (Node) to print every generated kernel as it is compiled.
 *
 * @example
 * ```ts
 * const pipeline = getPipeline(ctx, kernel); // kernel: from a defineKernel family, as fillKernel({ type: 'u32' })
 * ```
 */
export function getPipeline(ctx: ScanContext, spec: Kernel): GPUComputePipeline {
  const cache = cacheOf(ctx.device);
  let pipeline = cache.ready.get(spec.key);
  if (!pipeline) {
    pipeline = ctx.device.createComputePipeline(descriptorOf(ctx, spec));
    cache.ready.set(spec.key, pipeline);
  } else verifyHit(cache, spec);
  return pipeline;
}

/**
 * Compiles every kernel of `specs` that this device has not compiled yet, with
 * `createComputePipelineAsync`, each in a task of its own (its WGSL and shader module are made
 * there, so the caller is never held up), and resolves when all of them are in the cache, so later
 * {@link getPipeline} calls for them are lookups. Kernels already compiling are awaited, not
 * compiled twice. A kernel that fails to compile rejects with a `ScanError` (`GPU_ERROR`) naming its key.
 *
 * @example
 * ```ts
 * await loadPipelines(ctx, [scanKernel, addKernel]); // before the first frame
 * ```
 */
export function loadPipelines(ctx: ScanContext, specs: Iterable<Kernel>): Promise<void> {
  const cache = cacheOf(ctx.device);
  const waits: Promise<void>[] = [];
  for (const spec of specs) {
    if (cache.ready.has(spec.key)) {
      verifyHit(cache, spec);
      continue;
    }
    let pending = cache.pending.get(spec.key);
    if (!pending) {
      const key = spec.key;
      // Each kernel in a task of its own: generating its WGSL and creating its shader module are
      // synchronous (Dawn parses and checks the WGSL there), so a plan's creation returns at once
      // and the application's event loop runs between one kernel and the next.
      pending = nextTask()
        .then(() => {
          if (cache.ready.has(key)) return undefined; // an encode compiled it meanwhile
          return ctx.device.createComputePipelineAsync(descriptorOf(ctx, spec)).then((pipeline) => {
            // A synchronous compile may have won the race; keep the pipeline encodes already use.
            if (!cache.ready.has(key)) cache.ready.set(key, pipeline);
          });
        })
        .then(
          () => {
            cache.pending.delete(key);
          },
          (e: unknown) => {
            cache.pending.delete(key);
            throw compileError(key, e);
          },
        );
      cache.pending.set(key, pending);
    }
    waits.push(pending);
  }
  return Promise.all(waits).then(() => undefined);
}

/** Resolves in a later task of the event loop (not a microtask), so other work runs first. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function compileError(key: string, cause: unknown): ScanError {
  const message = cause instanceof Error ? cause.message : String(cause);
  return new ScanError('GPU_ERROR', `kernel ${key} failed to compile: ${message}`, { cause });
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
  return caches.get(device)?.ready.size ?? 0;
}
