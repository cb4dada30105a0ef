import type { ScanContext } from '../context.js';
import { assertUsable } from '../context.js';
import { dispatchShape } from '../dispatch.js';
import { checkElementType } from '../element-types.js';
import { ScanError } from '../errors.js';
import { type DecoupledFallbackSpec, decoupledFallbackKernel, decoupledFallbackStatusBytes } from '../kernels/scan-decoupled-fallback.js';
import type { Operator } from '../operators/operator-type.js';
import { builtinNameOf, checkOperatorAlgorithm, userOperatorOf } from '../operators/user-operator.js';
import { checkBoolean, checkCount, checkOneOf, checkOptions, checkPositiveInteger, normalizeScanOptions } from '../validate.js';
import {
  AUX_WORDS,
  type Chunk,
  chunkParamValues,
  maxChunkElements,
  splitIntoChunks,
  stageTailIn,
  stageTailOut,
  vecRange,
} from './chunks.js';
import { RecipeExecutor } from './executor.js';
import { countedParams, gpuCountOf, recordCountFixup, recordTailOut, slotCountDerivation, tailOutParams } from './gpu-count.js';
import { createOperatorScanPlan } from './operator-scan-plan.js';
import { checkCopyUsage, checkEncodeArgs } from './plan-args.js';
import { planOf } from './plan-of.js';
import { type BufferRef, type Recipe, RecipeBuilder } from './recipe.js';
import { blellochChunk, reduceThenScanChunk } from './scan-multipass.js';
import { type ScanShape, scanOperationOf } from './scan-shape.js';
import { type ScanTier, scanTiers } from './scan-tiers.js';
import { representativeCounts, StructureVariants } from './structure-variants.js';
import { type Plan, SCAN_ALGORITHMS, type ScanEncodeArgs, type ScanPlanOptions, type ScanTuning } from './types.js';

/** A scan recorded into the caller's encoder. */
export type ScanPlan = Plan<ScanEncodeArgs>;

/** Internal options that other plans use; not part of the public contract. */
export interface InternalScanOptions extends ScanPlanOptions {
  /** `'not'` scans 1 − x of 0/1 input (split's enumerate of the 0-flags). Default `'none'`. */
  mapInput?: 'none' | 'not';
}

/** The keys of `options.tuning` ({@link ScanTuning}): numbers at least 1, except `oneWorkgroupMax` (0 turns its path off). */
const POSITIVE_TUNING = ['workgroupSize', 'slotsPerThread', 'maxSpin', 'oneWorkgroupSize', 'oneWorkgroupSlots'] as const;
const TUNING_KEYS = [...POSITIVE_TUNING, 'oneWorkgroupMax', 'forceFallback', 'tail'];

/** `options.tuning`, checked key by key. */
function scanTuningOf(value: unknown): ScanTuning {
  const o = checkOptions(value, TUNING_KEYS, 'options.tuning');
  const t: ScanTuning = {};
  for (const key of POSITIVE_TUNING) {
    if (o[key] !== undefined) t[key] = checkPositiveInteger(o[key], `options.tuning.${key}`);
  }
  if (o.oneWorkgroupMax !== undefined) t.oneWorkgroupMax = checkCount(o.oneWorkgroupMax, 'options.tuning.oneWorkgroupMax');
  if (o.forceFallback !== undefined) t.forceFallback = checkBoolean(o.forceFallback, 'options.tuning.forceFallback', false);
  if (o.tail !== undefined) t.tail = checkOneOf(o.tail, ['staged', 'direct'] as const, 'options.tuning.tail', 'staged');
  return t;
}

const PLAN_OPTIONS = ['type', 'op', 'inclusive', 'backward', 'algorithm', 'maxCount', 'maxChunkElements', 'tuning'];

/** Counts up to this read and write a partial last vec4 in place (when the buffers hold it). */
const DIRECT_TAIL_MAX = 1 << 20;

/** Whether both buffers hold the last whole vec4 of `count` elements. */
function inPlaceAt(count: number, input: GPUBuffer, output: GPUBuffer): boolean {
  return Math.min(input.size, output.size) >= 16 * Math.ceil(count / 4);
}

/**
 * Creates a reusable scan that records into your command encoder (the buffer-level API), made to
 * be encoded every frame: once warm, an encode with a new count creates no buffer, bind group or
 * pipeline. Its pipelines compile in the background from creation; `await plan.ready` before the
 * first frame (an earlier encode compiles what it needs on the spot).
 *
 * Algorithms: `'decoupled-fallback'` (single pass, the default for `'auto'`; small counts run in
 * one workgroup, see scan-tiers.ts), `'reduce-then-scan'` (reads the input twice) and `'blelloch'`
 * (the paper's reduce/down-sweep, recursive on block sums). The count is `count`, or with
 * `maxCount` (single pass, one binding) a u32 the GPU wrote (`countBuffer`, `countOffset`).
 *
 * Memory: a 256-byte aux buffer and a look-back status of a 128-byte line per tile (the multi-pass
 * algorithms: a block-sum array per recursion level instead), sized once by `maxCount` or grown by
 * doubling; a four-slot parameter ring; with a GPU count, the parameter blocks its count fixup
 * fills (the scan's, and with exact-size buffers the last partial vec4's, 256 bytes apart).
 *
 * @example
 * ```ts
 * const plan = createScanPlan(ctx, { type: 'u32', op: 'add', maxCount: 1 << 20 });
 * await plan.ready;
 * const encoder = ctx.device.createCommandEncoder();
 * plan.encode(encoder, { input, output, count: 1_000_000 });
 * ctx.device.queue.submit([encoder.finish()]);
 * ```
 */
export function createScanPlan(ctx: ScanContext, options: ScanPlanOptions = {}): ScanPlan {
  assertUsable(ctx);
  const raw = checkOptions(options, [...PLAN_OPTIONS, 'mapInput'], 'options');
  const tuned = scanTuningOf(raw.tuning);
  const user = userOperatorOf(raw.op, undefined);
  if (user) return userOperatorScanPlan(ctx, user, raw, tuned);
  const type = raw.type === undefined ? 'u32' : checkElementType(raw.type, 'options.type');
  userOperatorOf(raw.op, type);
  const normalized = normalizeScanOptions(
    { op: builtinNameOf(raw.op), inclusive: raw.inclusive, backward: raw.backward, algorithm: raw.algorithm },
    type,
  );
  const shape: ScanShape = {
    type,
    op: normalized.op,
    inclusive: normalized.inclusive,
    backward: normalized.backward,
    algorithm: normalized.algorithm === 'auto' ? 'decoupled-fallback' : normalized.algorithm,
    mapInput: checkOneOf(raw.mapInput, ['none', 'not'] as const, 'options.mapInput', 'none'),
    subgroups: ctx.caps.features.subgroups,
    workgroupSize:
      tuned.workgroupSize ?? defaultWorkgroupSize(ctx, normalized.algorithm === 'auto' || normalized.algorithm === 'decoupled-fallback'),
  };
  const forceFallback = tuned.forceFallback ?? false;
  const chunkElements = maxChunkElements(ctx, options.maxChunkElements);
  const maxSpin = tuned.maxSpin ?? 64;
  // The kernel shape for a chunk's count: one workgroup, small or large chained tiles (scan-tiers.ts).
  const tierOf = scanTiers(ctx, shape.workgroupSize, { ...tuned, forceFallback });
  const tuning = { tierOf, kernelOf: decoupledFallbackKernels(shape, forceFallback, maxSpin) };
  const exec = new RecipeExecutor(ctx, `scan ${shape.algorithm}`);

  // `direct`: the partial last vec4 is read and written in place (the buffers hold whole vec4s),
  // else staged through aux by copies (see SlotSpec.tail). Only decoupled-fallback reads in place.
  const build = (count: number, direct: boolean): Recipe => {
    const b = new RecipeBuilder();
    const aux = b.needScratch('aux', AUX_WORDS * 4);
    for (const chunk of splitIntoChunks(count, chunkElements, shape.backward)) {
      if (!direct) stageTailIn(b, 'input', chunk, aux);
      if (shape.algorithm === 'decoupled-fallback') decoupledFallbackChunk(ctx, b, chunk, { ...tuning, direct });
      else if (shape.algorithm === 'reduce-then-scan') reduceThenScanChunk(ctx, b, shape, chunk);
      else blellochChunk(ctx, b, shape, chunk);
      if (!direct) stageTailOut(b, 'output', chunk, aux);
    }
    return b.build();
  };
  const maxCount = options.maxCount === undefined ? undefined : checkCount(options.maxCount, 'options.maxCount');
  // A count the GPU wrote: the kernels are recorded for maxCount and a fixup turns the count into
  // their parameters, field by field (see recordCountFixup); single-pass and one chunk only. Without
  // `direct`, the fixup stages the partial last vec4 and a last kernel writes it out.
  const buildGpu = (word: number, direct: boolean): Recipe => {
    const b = new RecipeBuilder();
    const aux = b.needScratch('aux', AUX_WORDS * 4);
    const [chunk] = splitIntoChunks(maxCount as number, chunkElements, shape.backward) as [Chunk];
    let tailOut: BufferRef | undefined;
    // The GPU's count may be anything up to maxCount: the chained form, which serves every count.
    const tier = tierOf(chunk.count);
    const chained = tier.oneWorkgroup ? tierOf(Number.POSITIVE_INFINITY) : tier;
    decoupledFallbackChunk(ctx, b, chunk, { ...tuning, direct, tierOf: () => chained }, (kernel, tiles, dispatchX) => {
      const tileElements = 4 * chained.workgroupSize * chained.slotsPerThread;
      const scan = countedParams(kernel, slotCountDerivation(tileElements, tiles), {
        dispatch_x: dispatchX,
        carry_in: chunk.carryIn,
        carry_out: chunk.carryOut,
        extra: 0,
      });
      const [params, tail] = recordCountFixup(b, {
        word,
        capacity: chunk.count,
        blocks: direct ? [scan] : [scan, tailOutParams()],
        ...(direct ? {} : { tail: { input: { role: 'input', offset: 0 }, aux } }),
      });
      tailOut = tail;
      return params as BufferRef;
    });
    if (tailOut) recordTailOut(b, tailOut, aux, { role: 'output', offset: 0 });
    return b.build();
  };
  const canRead = shape.algorithm === 'decoupled-fallback';
  /** Whether `count` elements of both buffers can be read and written in place to the last whole vec4. */
  // In place only where it pays: a count with a partial last vec4 (a multiple of 4 needs no tail,
  // and the staged kernel is the faster one there — on the H100 the in-place stores cost the
  // inclusive scan 0.92 → 0.68× copy at 2^28), up to the small tiers, where the two copies it saves
  // are a measurable part of the time; and only where the buffers hold that last vec4.
  const tail = tuned.tail ?? 'staged';
  const inPlace = (count: number, input: GPUBuffer, output: GPUBuffer): boolean => {
    if (!canRead) return false;
    if (tuned.tail !== undefined) return tail === 'direct';
    return count % 4 !== 0 && count <= DIRECT_TAIL_MAX && inPlaceAt(count, input, output);
  };
  if (maxCount !== undefined && maxCount > 0) exec.reserve(build(maxCount, false));
  const gpuCountable = maxCount !== undefined && maxCount > 0 && maxCount <= chunkElements && canRead;
  // The kernels `ready` compiles: every count's (each tier up to maxCount; a full chunk is the deepest
  // recursion of the multi-pass algorithms) and, with maxCount, the GPU count's, for buffers that
  // hold whole vec4s (the usual allocation); exact-size buffers of a count that is not a multiple of
  // 4 need the staged kernels, compiled at their first encode.
  const largest = Math.min(chunkElements, maxCount || chunkElements);
  const counts = [1, 4097, (1 << 20) + 4, largest].filter((n) => n <= largest);
  const direct = (n: number) => canRead && n % 4 !== 0 && n <= DIRECT_TAIL_MAX;
  const gpuDirect = maxCount !== undefined && maxCount <= DIRECT_TAIL_MAX;
  // Every structure a host count up to maxCount (one binding without it) may take — each tier, tail
  // and level: the first encode with a set of buffers makes all their bind groups, so a frame loop
  // whose count later falls into the one-workgroup tier, or leaves a partial last vec4, creates
  // nothing. Choosing the kernel from maxCount instead would cost the small counts their fast paths
  // (scan-tiers.ts); bind groups made once per set of buffers cost nothing per frame.
  const variants = new StructureVariants(() =>
    representativeCounts(maxCount || chunkElements, chunkElements).flatMap((n) => tailsOf(n).map((direct) => build(n, direct))),
  );
  /** The tail paths a count may take: staged always (exact-size buffers), in place where `inPlace` allows. */
  const tailsOf = (count: number): boolean[] => {
    if (!canRead) return [false];
    if (tuned.tail !== undefined) return [tail === 'direct'];
    return count % 4 !== 0 && count <= DIRECT_TAIL_MAX ? [false, true] : [false];
  };
  const ready = exec.load([
    ...counts.flatMap((n) => [build(n, direct(n)), ...(direct(n) ? [build(n + 3, false)] : [])]),
    ...(gpuCountable ? [buildGpu(0, gpuDirect)] : []),
  ]);

  return planOf([exec], {
    what: 'scan plan',
    encode(encoder, args) {
      const gpu = gpuCountOf('scan plan', args, maxCount);
      if (gpu) {
        if (!gpuCountable) {
          throw new ScanError(
            'UNSUPPORTED',
            `scan plan: args.countBuffer needs algorithm 'decoupled-fallback' (this plan: '${shape.algorithm}') and maxCount (${maxCount}) within one binding (${chunkElements} elements)`,
            { argument: 'args.countBuffer' },
          );
        }
        checkEncodeArgs('scan plan', { ...args, count: maxCount }, { input: 4, output: 4, countBuffer: { bytes: 4 } });
        // Any count up to maxCount may come: in place when the buffers hold maxCount's last vec4
        // (and maxCount is small), else staged by the fixup and a last kernel.
        const direct =
          tuned.tail !== undefined
            ? tail === 'direct'
            : (maxCount as number) <= DIRECT_TAIL_MAX && inPlaceAt(maxCount as number, args.input, args.output);
        const roles = { input: args.input, output: args.output, gpuCount: gpu.buffer };
        exec.encode(encoder, () => buildGpu(gpu.offset / 4, direct), roles);
        return;
      }
      const count = checkEncodeArgs('scan plan', args, { input: 4, output: 4 });
      if (count === 0) return;
      const direct = inPlace(count, args.input, args.output);
      if (!direct && count % 4 !== 0) checkCopyUsage('scan plan', { input: args.input }, { output: args.output });
      exec.encode(encoder, () => build(count, direct), { input: args.input, output: args.output }, variants);
    },
    ready,
  });
}

/**
 * The scan plan of a user-defined operator (operator-scan-plan.ts): its element type is the
 * operator's, so `type` is not taken; single pass only, and no `mapInput`.
 */
function userOperatorScanPlan(ctx: ScanContext, op: Operator<unknown>, raw: Record<string, unknown>, tuned: ScanTuning): ScanPlan {
  if (raw.type !== undefined) {
    throw new ScanError(
      'INVALID_ARGUMENT',
      `options.type = ${JSON.stringify(raw.type)}: the operator ${op.name} sets the element type; leave type out`,
      {
        argument: 'options.type',
      },
    );
  }
  if (raw.mapInput !== undefined && raw.mapInput !== 'none') {
    throw new ScanError('UNSUPPORTED', 'options.mapInput: not with a user-defined operator', { argument: 'options.mapInput' });
  }
  const { inclusive, backward, algorithm } = normalizeScanOptions(
    { inclusive: raw.inclusive, backward: raw.backward, algorithm: raw.algorithm },
    'u32',
  );
  checkOperatorAlgorithm(algorithm, op);
  const maxCount = raw.maxCount === undefined ? undefined : checkCount(raw.maxCount, 'options.maxCount');
  const maxChunkRecords =
    raw.maxChunkElements === undefined ? undefined : checkPositiveInteger(raw.maxChunkElements, 'options.maxChunkElements');
  return createOperatorScanPlan(ctx, { op, inclusive, backward, maxCount, maxChunkRecords, forceFallback: tuned.forceFallback ?? false });
}

/** Workgroup size: decoupled-fallback takes 1024 where the device allows it; otherwise at most 256. */
function defaultWorkgroupSize(ctx: ScanContext, singlePass: boolean): number {
  const limit = Math.min(ctx.caps.limits.maxComputeInvocationsPerWorkgroup, ctx.caps.limits.maxComputeWorkgroupSizeX);
  return singlePass && limit >= 1024 ? 1024 : Math.min(256, limit);
}

/** The plan's scratch buffers a decoupled-fallback dispatch binds beside its chunk's ranges. */
const AUX: BufferRef = { scratch: 'aux' };
const STATUS: BufferRef = { scratch: 'status' };

/** A decoupled-fallback kernel of a scan plan. */
type DecoupledFallback = ReturnType<typeof decoupledFallbackKernel>;

/**
 * The decoupled-fallback kernel of each tier and tail handling of a plan, made at its first use
 * (a tier is one of the few objects `scanTiers` returns), so an encode makes none.
 */
function decoupledFallbackKernels(
  shape: ScanShape,
  forceFallback: boolean,
  maxSpin: number,
): (tier: ScanTier, direct: boolean) => DecoupledFallback {
  const made = new Map<ScanTier, readonly [DecoupledFallback, DecoupledFallback]>();
  const make = (tier: ScanTier, direct: boolean): DecoupledFallback => {
    const spec: DecoupledFallbackSpec = {
      ...scanOperationOf(shape),
      subgroups: shape.subgroups,
      workgroupSize: tier.workgroupSize,
      slotsPerThread: tier.slotsPerThread,
      maxSpin,
      forceFallback,
      oneWorkgroup: tier.oneWorkgroup,
      tail: direct ? 'direct' : 'staged',
    };
    return decoupledFallbackKernel(spec);
  };
  return (tier, direct) => {
    let kernels = made.get(tier);
    if (!kernels) {
      kernels = [make(tier, false), make(tier, true)];
      made.set(tier, kernels);
    }
    return kernels[direct ? 1 : 0];
  };
}

/**
 * Records a decoupled-fallback scan of `chunk`. `paramsOf` (a count the GPU wrote) makes the
 * kernel's parameters (a block a count fixup fills for that kernel) instead of a parameter block
 * from the chunk.
 */
function decoupledFallbackChunk(
  ctx: ScanContext,
  b: RecipeBuilder,
  chunk: Chunk,
  tuning: {
    tierOf: (count: number) => ScanTier;
    kernelOf: (tier: ScanTier, direct: boolean) => DecoupledFallback;
    /** Read and write the partial last vec4 in place (see SlotSpec.tail). */
    direct: boolean;
  },
  paramsOf?: (kernel: DecoupledFallback, tiles: number, dispatchX: number) => BufferRef,
): void {
  const tier = tuning.tierOf(chunk.count);
  const kernel = tuning.kernelOf(tier, tuning.direct);
  const tiles = Math.ceil(chunk.slots / (tier.workgroupSize * tier.slotsPerThread));
  if (tier.oneWorkgroup) {
    // One workgroup walks the tiles: one dispatch, nothing to clear.
    const params = paramsOf ? paramsOf(kernel, tiles, 1) : chunkParamValues(chunk, tiles, 1);
    b.dispatch(kernel, { src: vecRange('input', chunk), dst: vecRange('output', chunk), aux: AUX }, 1, params);
    return;
  }
  const statusBytes = decoupledFallbackStatusBytes(tiles);
  b.needScratch('status', statusBytes);
  b.clear({ scratch: 'status', offset: 0, size: statusBytes });
  const dispatchX = dispatchShape(tiles, ctx.caps.limits.maxComputeWorkgroupsPerDimension).x;
  const params = paramsOf ? paramsOf(kernel, tiles, dispatchX) : chunkParamValues(chunk, tiles, dispatchX);
  b.dispatch(kernel, { src: vecRange('input', chunk), dst: vecRange('output', chunk), aux: AUX, status: STATUS }, tiles, params);
}

export { SCAN_ALGORITHMS };
