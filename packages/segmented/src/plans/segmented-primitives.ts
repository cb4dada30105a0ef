import { type ElementType, type Plan, type ScanContext, ScanError } from '@scan/core';
import {
  assertUsable,
  checkBoolean,
  checkCopyUsage,
  checkElementType,
  checkEncodeArgs,
  checkOneOf,
  checkOptions,
  dispatchShape,
  maxChunkElements,
  planOf,
  type Recipe,
  RecipeBuilder,
  RecipeExecutor,
  representativeCounts,
  StructureVariants,
} from '@scan/core/kit';
import { keepHeadsKernel, PRIMITIVE_WORKGROUP, splitScatterKernel, splitStartsKernel } from '../kernels/segmented-primitives.js';
import { packedFlagWords, SEGMENTED_SCAN_ALGORITHMS, type SegmentedScanAlgorithm } from '../types.js';
import { createSegmentedScanPlan, type SegmentedScanPlan } from './segmented-scan-plan.js';

// Buffer-level segmented primitives of the paper's §2.3, each built on segmented scans as the
// paper builds them: enumerate is one exclusive scan, distribute a masked inclusive scan, and
// split-and-segment two scans around two element-wise kernels. Head flags come bit-packed (see
// `createPackHeadFlagsPlan`); element 0 always starts a segment.

/** Options shared by the segmented primitive plans. */
interface ScanTuning {
  /** Segmented scan algorithm underneath (default `'auto'`). */
  algorithm?: SegmentedScanAlgorithm;
  /** Largest count expected: scratch for it is allocated up front. */
  maxCount?: number;
}

/** Options of {@link createSegmentedDistributePlan}. */
export interface SegmentedDistributePlanOptions extends ScanTuning {
  /** Element type (default `'u32'`); the words are copied exactly whatever it is. */
  type?: ElementType;
  /** Copy each segment's last element instead of its first. */
  backward?: boolean;
  /** Largest number of elements one dispatch handles (default: one storage binding; tests lower it). */
  maxChunkElements?: number;
}

/** Buffers of one segmented distribute: `headBits` holds ⌈count/32⌉ words of bit-packed head flags. */
export interface SegmentedDistributeEncodeArgs {
  input: GPUBuffer;
  headBits: GPUBuffer;
  output: GPUBuffer;
  count: number;
}

/** Options of {@link createSegmentedEnumeratePlan}. */
export interface SegmentedEnumeratePlanOptions extends ScanTuning {
  /** Count the 1-flags after each element within its segment instead of before it. */
  backward?: boolean;
  /** Largest number of elements one dispatch handles (default: one storage binding; tests lower it). */
  maxChunkElements?: number;
}

/** Buffers of one segmented enumerate: u32 0/1 `flags` in, u32 counts out. */
export interface SegmentedEnumerateEncodeArgs {
  flags: GPUBuffer;
  headBits: GPUBuffer;
  output: GPUBuffer;
  count: number;
}

/** Options of {@link createSplitAndSegmentPlan}. */
export interface SplitAndSegmentPlanOptions extends ScanTuning {
  /** Element type (default `'u32'`); the words are moved exactly whatever it is. */
  type?: ElementType;
}

/**
 * Buffers of one split-and-segment: `flags` are u32 (nonzero = true); `headBits` and
 * `outputHeadBits` hold ⌈count/32⌉ words of bit-packed head flags, every output word written.
 */
export interface SplitAndSegmentEncodeArgs {
  input: GPUBuffer;
  flags: GPUBuffer;
  headBits: GPUBuffer;
  output: GPUBuffer;
  outputHeadBits: GPUBuffer;
  count: number;
}

const headBitsBytes = { bytes: (count: number) => 4 * packedFlagWords(count) };

function checkAlgorithm(value: unknown): SegmentedScanAlgorithm {
  return checkOneOf<SegmentedScanAlgorithm>(value, ['auto', ...SEGMENTED_SCAN_ALGORITHMS], 'options.algorithm', 'auto');
}

/**
 * A plan made of an optional executor of its own and its scans (see core's `planOf`); `ready` waits
 * for the executor's kernels (`load`) and the scans' own.
 */
function composite<Args>(
  what: string,
  encode: Plan<Args>['encode'],
  exec: RecipeExecutor | undefined,
  scans: readonly SegmentedScanPlan[],
  load?: Promise<void>,
): Plan<Args> {
  return planOf([...(exec ? [exec] : []), ...scans], { what, encode, ready: load });
}

/**
 * Segmented distribute at the buffer level: every element gets its segment's first element
 * (backward: its last) — the paper's `distribute([a b c][d e]) = [a a a][d d]`. As in the paper,
 * a temporary copy keeps the heads (backward: the tails) and zeroes the rest, and a segmented
 * inclusive scan spreads them. The scan is a u32 `or`: OR-ing zeros into a word gives that word's
 * bits back exactly, so f32 NaN payloads and -0 pass through, which an f32 `add` would not promise.
 *
 * Memory: a scratch buffer the size of the data (the kept heads), the segmented scan's scratch
 * (see `createSegmentedScanPlan`) and a 4-slot parameter ring per part. Scratch grows by doubling
 * when a count needs more, or is sized once by `maxCount`; once warm, an encode with a new count
 * creates no buffer, bind group or pipeline. `await plan.ready` compiles every kernel first.
 *
 * @example
 * ```ts
 * const plan = createSegmentedDistributePlan(ctx, { type: 'f32', backward: true });
 * await plan.ready;
 * plan.encode(encoder, { input, headBits, output, count });
 * ```
 */
export function createSegmentedDistributePlan(
  ctx: ScanContext,
  options: SegmentedDistributePlanOptions = {},
): Plan<SegmentedDistributeEncodeArgs> {
  assertUsable(ctx);
  const o = checkOptions(options, ['type', 'backward', 'algorithm', 'maxCount', 'maxChunkElements'], 'options');
  if (o['type'] !== undefined) checkElementType(o['type'], 'options.type');
  const backward = checkBoolean(o['backward'], 'options.backward', false);
  const algorithm = checkAlgorithm(o['algorithm']);
  const scan = createSegmentedScanPlan(ctx, {
    type: 'u32',
    op: 'or',
    inclusive: true,
    backward,
    algorithm,
    maxCount: options.maxCount,
    maxChunkElements: options.maxChunkElements,
  });
  // The keep kernel is element-wise, so it chunks like the scan: one binding's worth at a time.
  const chunkElements = maxChunkElements(ctx, options.maxChunkElements);
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const exec = new RecipeExecutor(ctx, 'segmented distribute');
  const keepHeads = keepHeadsKernel(backward);
  const headBits = { role: 'headBits', offset: 0 };
  const build = (count: number): Recipe => {
    const b = new RecipeBuilder();
    b.needScratch('kept', 4 * count);
    // Whole head bits, and per chunk ranges at fixed starts holding a chunk's capacity at most: the
    // kernel stops at params.chunk_count, so the bindings serve every count.
    for (let start = 0; start < count; start += chunkElements) {
      const n = Math.min(chunkElements, count - start);
      const workgroups = Math.ceil(n / PRIMITIVE_WORKGROUP);
      const range = { offset: 4 * start, limit: 4 * chunkElements, multipleOf: 4 };
      b.dispatch(keepHeads, { input: { role: 'input', ...range }, kept: { scratch: 'kept', ...range }, head_bits: headBits }, workgroups, {
        count,
        start,
        chunk_count: n,
        dispatch_x: dispatchShape(workgroups, maxDim).x,
      });
    }
    return b.build();
  };
  if (options.maxCount !== undefined && options.maxCount > 0) exec.reserve(build(options.maxCount));
  // Every chunk layout a host count up to maxCount (one chunk without it) may take: the first encode
  // with a set of buffers makes all their bind groups (see StructureVariants).
  const variants = new StructureVariants(() => representativeCounts(options.maxCount || chunkElements, chunkElements).map((n) => build(n)));
  return composite<SegmentedDistributeEncodeArgs>(
    'segmented distribute plan',
    (encoder, args) => {
      const count = checkEncodeArgs('segmented distribute plan', args, { input: 4, headBits: headBitsBytes, output: 4 });
      if (count === 0) return;
      // The scan stages a partial last vec4 of the output through a copy.
      if (count % 4 !== 0) checkCopyUsage('segmented distribute plan', {}, { output: args.output });
      exec.encode(encoder, () => build(count), { input: args.input, headBits: args.headBits }, variants);
      scan.encode(encoder, { input: exec.scratchBuffer('kept'), headBits: args.headBits, output: args.output, count });
    },
    exec,
    [scan],
    exec.load([build(1)]),
  );
}

/**
 * Segmented enumerate at the buffer level: `output[i]` = the number of 1-flags before element i
 * within its segment (backward: after it) — the segmented exclusive add-scan of the flags (paper
 * §2.3.1). Flags must be u32 0 or 1 (not checked on the GPU; the array-level function checks them).
 *
 * Memory: the segmented scan's (see `createSegmentedScanPlan`): its small scratch, grown by
 * doubling or sized once by `maxCount`, and a 4-slot parameter ring; once warm, an encode with a new
 * count creates nothing. `await plan.ready` compiles its kernels first.
 *
 * @example
 * ```ts
 * const plan = createSegmentedEnumeratePlan(ctx, { backward: true });
 * await plan.ready;
 * plan.encode(encoder, { flags, headBits, output, count });
 * ```
 */
export function createSegmentedEnumeratePlan(
  ctx: ScanContext,
  options: SegmentedEnumeratePlanOptions = {},
): Plan<SegmentedEnumerateEncodeArgs> {
  assertUsable(ctx);
  const o = checkOptions(options, ['backward', 'algorithm', 'maxCount', 'maxChunkElements'], 'options');
  const scan = createSegmentedScanPlan(ctx, {
    type: 'u32',
    op: 'add',
    inclusive: false,
    backward: checkBoolean(o['backward'], 'options.backward', false),
    algorithm: checkAlgorithm(o['algorithm']),
    maxCount: options.maxCount,
    maxChunkElements: options.maxChunkElements,
  });
  return composite<SegmentedEnumerateEncodeArgs>(
    'segmented enumerate plan',
    (encoder, args) => {
      const count = checkEncodeArgs('segmented enumerate plan', args, { flags: 4, headBits: headBitsBytes, output: 4 });
      if (count === 0) return;
      // Checked here so the message names this plan's arguments, not the scan's.
      if (count % 4 !== 0) checkCopyUsage('segmented enumerate plan', { flags: args.flags }, { output: args.output });
      scan.encode(encoder, { input: args.flags, headBits: args.headBits, output: args.output, count });
    },
    undefined,
    [scan],
  );
}

/**
 * Split-and-segment at the buffer level (paper §2.3.3, its 2-scan version): a stable split inside
 * every segment — falses first, then trues — and each segment becomes two, one per non-empty part.
 *
 * 1. A kernel writes v(i) = (i at a segment start, else 0) + (1 if false), and the output head
 *    bits' starting point (the input's heads).
 * 2. Scan 1, segmented inclusive add: f(i) = s + (falses of the segment up to i), s the segment's
 *    start — the enumerate of the falses, offset by where the segment begins.
 * 3. Scan 2, the paper's extra scan that copies the segment's false count to all its elements:
 *    f never decreases inside a segment, so a backward segmented inclusive `max` gives every
 *    element f at its segment's end, b = s + falses: where the trues begin. No masking needed.
 * 4. A scatter: a false goes to f(i) − 1, a true to b(i) + i − f(i); each segment's first true ORs
 *    a head bit at b (a no-op when the segment has no falses, b then being its start).
 *
 * The scatter reaches anywhere in a segment, so the whole array must fit one storage binding.
 *
 * Memory: two scratch buffers the size of the data (v and f), the two segmented scans' scratch (see
 * `createSegmentedScanPlan`) and a 4-slot parameter ring per part. Scratch grows by doubling when a
 * count needs more, or is sized once by `maxCount`; once warm, an encode with a new count creates no
 * buffer, bind group or pipeline. `await plan.ready` compiles every kernel first.
 *
 * @example
 * ```ts
 * const plan = createSplitAndSegmentPlan(ctx, { type: 'f32' });
 * await plan.ready;
 * plan.encode(encoder, { input, flags, headBits, output, outputHeadBits, count });
 * ```
 */
export function createSplitAndSegmentPlan(ctx: ScanContext, options: SplitAndSegmentPlanOptions = {}): Plan<SplitAndSegmentEncodeArgs> {
  assertUsable(ctx);
  const o = checkOptions(options, ['type', 'algorithm', 'maxCount'], 'options');
  if (o['type'] !== undefined) checkElementType(o['type'], 'options.type');
  const algorithm = checkAlgorithm(o['algorithm']);
  const maxCount = options.maxCount;
  const falsesScan = createSegmentedScanPlan(ctx, { type: 'u32', op: 'add', inclusive: true, algorithm, maxCount });
  const spreadScan = createSegmentedScanPlan(ctx, { type: 'u32', op: 'max', inclusive: true, backward: true, algorithm, maxCount });
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const exec = new RecipeExecutor(ctx, 'split-and-segment');
  const splitStarts = splitStartsKernel();
  const splitScatter = splitScatterKernel();
  // Whole buffers (the kernels stop at params.count), so each step has one structure whatever the count.
  const whole = (role: string) => ({ role, offset: 0, multipleOf: 4 });
  const input = whole('input');
  const flags = whole('flags');
  const headBits = whole('headBits');
  const output = whole('output');
  const outBits = whole('outputHeadBits');
  // Two recipes over the same scratch: 'v' (the starts, later b) and 'f'; the scans run between them.
  const recipe = (count: number, step: 'starts' | 'scatter'): Recipe => {
    const b = new RecipeBuilder();
    const v = b.needScratch('v', 4 * count);
    const f = b.needScratch('f', 4 * count);
    const workgroups = Math.ceil(count / PRIMITIVE_WORKGROUP);
    const params = { count, dispatch_x: dispatchShape(workgroups, maxDim).x };
    if (step === 'starts') {
      b.dispatch(splitStarts, { flags, head_bits: headBits, start_falses: v, out_bits: outBits }, workgroups, params);
    } else {
      b.dispatch(splitScatter, { input, flags, falses_to: f, trues_at: v, output, out_bits: outBits }, workgroups, params);
    }
    return b.build();
  };
  if (maxCount !== undefined && maxCount > 0) exec.reserve(recipe(maxCount, 'starts'));
  return composite<SplitAndSegmentEncodeArgs>(
    'split-and-segment plan',
    (encoder, args) => {
      const count = checkEncodeArgs('split-and-segment plan', args, {
        input: 4,
        flags: 4,
        headBits: headBitsBytes,
        output: 4,
        outputHeadBits: headBitsBytes,
      });
      if (4 * count > ctx.caps.limits.maxStorageBufferBindingSize) {
        throw new ScanError(
          'TOO_LARGE',
          `split-and-segment: count = ${count} is past one storage binding (${ctx.caps.limits.maxStorageBufferBindingSize} bytes); the scatter cannot be chunked`,
          { argument: 'args.count' },
        );
      }
      if (count === 0) return;
      const starts = recipe(count, 'starts');
      const scatter = recipe(count, 'scatter');
      // Allocate the scratch before the scans bind it (both steps need the same).
      exec.reserveFor(() => starts);
      const v = exec.scratchBuffer('v');
      const f = exec.scratchBuffer('f');
      const { headBits, outputHeadBits } = args;
      exec.encode(encoder, () => starts, { flags: args.flags, headBits, outputHeadBits });
      falsesScan.encode(encoder, { input: v, headBits, output: f, count });
      spreadScan.encode(encoder, { input: f, headBits, output: v, count });
      exec.encode(encoder, () => scatter, { input: args.input, flags: args.flags, output: args.output, outputHeadBits });
    },
    exec,
    [falsesScan, spreadScan],
    exec.load([recipe(1, 'starts'), recipe(1, 'scatter')]),
  );
}
