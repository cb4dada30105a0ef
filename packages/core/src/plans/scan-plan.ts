import type { ScanContext } from '../context.js';
import { assertUsable } from '../context.js';
import { dispatchShape } from '../dispatch.js';
import { checkElementType } from '../element-types.js';
import { type DecoupledFallbackSpec, decoupledFallbackKernel, decoupledFallbackStatusBytes } from '../kernels/scan-decoupled-fallback.js';
import { checkBoolean, checkOneOf, checkOptions, normalizeScanOptions } from '../validate.js';
import {
  AUX_WORDS,
  type Chunk,
  chunkLayoutKey,
  chunkParams,
  maxChunkElements,
  splitIntoChunks,
  stageTailIn,
  stageTailOut,
  vecRange,
} from './chunks.js';
import { RecipeExecutor } from './executor.js';
import { checkCopyUsage, checkEncodeArgs } from './plan-args.js';
import { planOf } from './plan-of.js';
import { type Recipe, RecipeBuilder } from './recipe.js';
import { blellochChunk, reduceThenScanChunk } from './scan-multipass.js';
import type { ScanShape } from './scan-shape.js';
import { type Plan, SCAN_ALGORITHMS, type ScanEncodeArgs, type ScanPlanOptions } from './types.js';

/** A scan recorded into the caller's encoder. */
export type ScanPlan = Plan<ScanEncodeArgs>;

/** Internal options that other plans and tests use; not part of the public contract. */
export interface InternalScanOptions extends ScanPlanOptions {
  mapInput?: 'none' | 'not';
  /** Test hook for decoupled-fallback: every look-back falls back. */
  forceFallback?: boolean;
  /** Tuning: vec4 slots per invocation for decoupled-fallback. */
  slotsPerThread?: number;
  /** Tuning: invocations per workgroup (default min(256, device limit)). */
  workgroupSize?: number;
  /** Tuning: look-back reads of a not-ready predecessor before falling back. */
  maxSpin?: number;
}

const PLAN_OPTIONS = ['type', 'op', 'inclusive', 'backward', 'algorithm', 'maxCount', 'maxChunkElements'];

/**
 * Creates a reusable scan that records into your command encoder (the buffer-level API). The
 * plan compiles its pipelines once per device and keeps its scratch between calls.
 *
 * Algorithms: `'decoupled-fallback'` (single pass, the default for `'auto'`), `'reduce-then-scan'`
 * (reads the input twice) and `'blelloch'` (the paper's reduce/down-sweep, recursive on block sums).
 *
 * @example
 * ```ts
 * const plan = createScanPlan(ctx, { type: 'u32', op: 'add' });
 * const encoder = ctx.device.createCommandEncoder();
 * plan.encode(encoder, { input, output, count: 1_000_000 });
 * ctx.device.queue.submit([encoder.finish()]);
 * ```
 */
export function createScanPlan(ctx: ScanContext, options: ScanPlanOptions = {}): ScanPlan {
  assertUsable(ctx);
  const internal = options as InternalScanOptions;
  const raw = checkOptions(
    options,
    [...PLAN_OPTIONS, 'mapInput', 'forceFallback', 'slotsPerThread', 'workgroupSize', 'maxSpin'],
    'options',
  );
  const type = raw.type === undefined ? 'u32' : checkElementType(raw.type, 'options.type');
  const normalized = normalizeScanOptions({ op: raw.op, inclusive: raw.inclusive, backward: raw.backward, algorithm: raw.algorithm }, type);
  const shape: ScanShape = {
    type,
    op: normalized.op,
    inclusive: normalized.inclusive,
    backward: normalized.backward,
    algorithm: normalized.algorithm === 'auto' ? 'decoupled-fallback' : normalized.algorithm,
    mapInput: checkOneOf(internal.mapInput, ['none', 'not'] as const, 'options.mapInput', 'none'),
    subgroups: ctx.caps.features.subgroups,
    workgroupSize:
      internal.workgroupSize ?? defaultWorkgroupSize(ctx, normalized.algorithm === 'auto' || normalized.algorithm === 'decoupled-fallback'),
  };
  const forceFallback = checkBoolean(internal.forceFallback, 'options.forceFallback', false);
  const chunkElements = maxChunkElements(ctx, options.maxChunkElements);
  // Measured on the H100 (BENCHMARKS.md): 1024 invocations × 4 vec4s per tile was fastest; devices
  // with fewer invocations (SwiftShader allows 256) get 256 × 4.
  const slotsPerThread = internal.slotsPerThread ?? 4;
  const maxSpin = internal.maxSpin ?? 64;
  const exec = new RecipeExecutor(ctx, `scan ${shape.algorithm}`);

  const build = (count: number): Recipe => {
    const b = new RecipeBuilder();
    const aux = b.needScratch('aux', AUX_WORDS * 4);
    for (const chunk of splitIntoChunks(count, chunkElements, shape.backward)) {
      stageTailIn(b, 'input', chunk, aux);
      if (shape.algorithm === 'decoupled-fallback')
        decoupledFallbackChunk(ctx, b, shape, chunk, { slotsPerThread, forceFallback, maxSpin });
      else if (shape.algorithm === 'reduce-then-scan') reduceThenScanChunk(ctx, b, shape, chunk);
      else blellochChunk(ctx, b, shape, chunk);
      stageTailOut(b, 'output', chunk, aux);
    }
    return b.build();
  };
  const maxCount = options.maxCount;
  if (maxCount !== undefined && maxCount > 0) exec.reserve(build(maxCount));
  // Every kernel the plan may run: one element, and a full chunk (the deepest recursion of the
  // multi-pass algorithms).
  const ready = exec.load([build(1), build(Math.min(chunkElements, maxCount || chunkElements))]);

  return planOf([exec], {
    encode(encoder, args) {
      const count = checkEncodeArgs('scan plan', args, { input: 4, output: 4 });
      if (count === 0) return;
      if (count % 4 !== 0) checkCopyUsage('scan plan', { input: args.input }, { output: args.output });
      // The multi-pass algorithms add levels as the count grows: the executor's keys count dispatches.
      exec.encode(encoder, chunkLayoutKey(count, chunkElements), () => build(count), { input: args.input, output: args.output });
    },
    ready,
  });
}

/** Workgroup size: decoupled-fallback takes 1024 where the device allows it; otherwise at most 256. */
function defaultWorkgroupSize(ctx: ScanContext, singlePass: boolean): number {
  const limit = Math.min(ctx.caps.limits.maxComputeInvocationsPerWorkgroup, ctx.caps.limits.maxComputeWorkgroupSizeX);
  return singlePass && limit >= 1024 ? 1024 : Math.min(256, limit);
}

function decoupledFallbackChunk(
  ctx: ScanContext,
  b: RecipeBuilder,
  shape: ScanShape,
  chunk: Chunk,
  tuning: { slotsPerThread: number; forceFallback: boolean; maxSpin: number },
): void {
  const spec: DecoupledFallbackSpec = {
    type: shape.type,
    op: shape.op,
    inclusive: shape.inclusive,
    backward: shape.backward,
    mapInput: shape.mapInput,
    subgroups: shape.subgroups,
    workgroupSize: shape.workgroupSize,
    slotsPerThread: tuning.slotsPerThread,
    maxSpin: tuning.maxSpin,
    forceFallback: tuning.forceFallback,
  };
  const tiles = Math.ceil(chunk.slots / (spec.workgroupSize * spec.slotsPerThread));
  const statusBytes = decoupledFallbackStatusBytes(tiles);
  b.needScratch('status', statusBytes);
  b.clear({ scratch: 'status', offset: 0, size: statusBytes });
  const params = b.paramBlock(chunkParams(chunk, tiles, dispatchShape(tiles, ctx.caps.limits.maxComputeWorkgroupsPerDimension).x));
  b.dispatch(
    decoupledFallbackKernel(spec),
    [vecRange('input', chunk), vecRange('output', chunk), { scratch: 'aux' }, params, { scratch: 'status' }],
    tiles,
  );
}

export { SCAN_ALGORITHMS };
