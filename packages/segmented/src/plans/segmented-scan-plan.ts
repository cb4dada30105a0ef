import type { Operator } from '@scan/core';
import { type CountSource, type ElementType, type Plan, type ScanContext, ScanError, type ScanOp } from '@scan/core';
import {
  AUX_WORDS,
  assertUsable,
  type BufferRef,
  builtinNameOf,
  type Chunk,
  checkBoolean,
  checkCopyUsage,
  checkCount,
  checkElementType,
  checkEncodeArgs,
  checkOneOf,
  checkOp,
  checkOptions,
  chunkParamValues,
  countedParams,
  decoupledFallbackStatusBytes,
  dispatchShape,
  gpuCountOf,
  maxChunkElements,
  planOf,
  type Recipe,
  RecipeBuilder,
  RecipeExecutor,
  recordCountFixup,
  recordTailOut,
  representativeCounts,
  StructureVariants,
  slotCountDerivation,
  splitIntoChunks,
  stageTailIn,
  stageTailOut,
  tailOutParams,
  userOperatorOf,
  vecRange,
} from '@scan/core/kit';
import { segmentedSinglePassKernel } from '../kernels/segmented-single-pass.js';
import { packedFlagWords, SEGMENTED_SCAN_ALGORITHMS, type SegmentedScanAlgorithm } from '../types.js';
import { userOperatorPlan } from './operator-segmented-plan.js';
import { treeMaxCount, treeSegmentedScanRecipe } from './tree.js';

/** Options of {@link createSegmentedScanPlan}. */
export interface SegmentedScanPlanOptions {
  /** Element type of input and output (default `'u32'`). */
  type?: ElementType;
  /** Operator (default `'add'`). */
  /** A built-in name, or an `Operator` from `defineOperator` (then leave `type` out: the operator sets it). */
  // biome-ignore lint/suspicious/noExplicitAny: any operator's record type
  op?: ScanOp | Operator<any>;
  inclusive?: boolean;
  /** Scan each segment from its end (the paper's backward segmented scan). */
  backward?: boolean;
  /** Default `'auto'` (= `'single-pass'`). `'tree'` needs the array in one storage binding. */
  algorithm?: SegmentedScanAlgorithm;
  /** Largest count expected: scratch for it is allocated up front. */
  maxCount?: number;
  /** Largest number of elements one dispatch handles (single-pass; tests lower it). */
  maxChunkElements?: number;
}

/**
 * Buffers of one segmented scan: `headBits` holds ⌈count/32⌉ words of bit-packed head flags. The
 * count is `count`, or (single pass, with `maxCount`) a u32 the GPU wrote: `countBuffer`, `countOffset`.
 */
export interface SegmentedScanEncodeArgs extends CountSource {
  input: GPUBuffer;
  headBits: GPUBuffer;
  output: GPUBuffer;
}

/** A segmented scan recorded into the caller's encoder. */
export type SegmentedScanPlan = Plan<SegmentedScanEncodeArgs>;

/** Internal options: test hooks and tuning. */
interface InternalOptions extends SegmentedScanPlanOptions {
  forceFallback?: boolean;
  workgroupSize?: number;
  slotsPerThread?: number;
}

/**
 * Creates a reusable segmented scan (buffer level). Head flags come bit-packed (see
 * `createPackHeadFlagsPlan`); element 0 always starts a segment.
 *
 * Memory: `'single-pass'` holds a 256-byte aux buffer, a look-back status area (one 128-byte line
 * per tile of 4096 elements: under 1 % of the data's bytes) and a 4-slot parameter ring; `'tree'`
 * holds aux, the saved trees of every recursion level (one word per vec4 of the data, a quarter of
 * its bytes, plus a few words per block of 2048) and the ring. Scratch grows by doubling when a count
 * needs more (outgrown buffers are kept until `destroy`), or is sized once by `maxCount`; once warm,
 * an encode with a new count creates no buffer, bind group or pipeline. `await plan.ready` compiles
 * every kernel before the first frame. With `maxCount` (within one binding), the single pass takes a
 * count the GPU wrote (`countBuffer`, `countOffset`) and scans min(that count, `maxCount`) elements;
 * it then also holds the two parameter blocks its count fixup fills (the scan's and the last partial
 * vec4's, 256 bytes apart).
 *
 * @example
 * ```ts
 * const plan = createSegmentedScanPlan(ctx, { type: 'f32', op: 'add', inclusive: true });
 * await plan.ready;
 * plan.encode(encoder, { input, headBits, output, count });
 * ```
 */
export function createSegmentedScanPlan(ctx: ScanContext, options: SegmentedScanPlanOptions = {}): SegmentedScanPlan {
  assertUsable(ctx);
  const raw = checkOptions(options, [
    'type',
    'op',
    'inclusive',
    'backward',
    'algorithm',
    'maxCount',
    'maxChunkElements',
    'forceFallback',
    'workgroupSize',
    'slotsPerThread',
  ]) as InternalOptions;
  const user = userOperatorOf(raw.op, undefined);
  if (user) return userOperatorPlan(ctx, user, 'scan', raw as Record<string, unknown>) as unknown as SegmentedScanPlan;
  const type = raw.type === undefined ? 'u32' : checkElementType(raw.type, 'options.type');
  userOperatorOf(raw.op, type);
  const op = checkOp(builtinNameOf(raw.op), type);
  const inclusive = checkBoolean(raw.inclusive, 'options.inclusive', false);
  const backward = checkBoolean(raw.backward, 'options.backward', false);
  const algorithm = checkOneOf(raw.algorithm, ['auto', ...SEGMENTED_SCAN_ALGORITHMS], 'options.algorithm', 'auto');
  const limit = Math.min(ctx.caps.limits.maxComputeInvocationsPerWorkgroup, ctx.caps.limits.maxComputeWorkgroupSizeX);
  // Measured on the H100 (BENCHMARKS.md): the segmented kernel holds more registers than the plain
  // one, and 256 invocations × 4 vec4s (several workgroups per SM) beat 1024 × 4 by 1.4×.
  const workgroupSize = raw.workgroupSize ?? Math.min(256, limit);
  const shape = { type, op, inclusive, backward, subgroups: ctx.caps.features.subgroups, workgroupSize };
  const chunkElements = maxChunkElements(ctx, raw.maxChunkElements);
  const exec = new RecipeExecutor(ctx, `segmented scan ${algorithm}`);
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;

  const spec = { ...shape, slotsPerThread: raw.slotsPerThread ?? 4, maxSpin: 64, forceFallback: raw.forceFallback === true };
  const kernel = segmentedSinglePassKernel(spec);
  // The caller's whole head bits: the kernel bounds its reads by the chunk's count (params), so one
  // bind group serves every count.
  const headBits: BufferRef = { role: 'headBits', offset: 0 };
  const singlePass = (count: number): Recipe => {
    const b = new RecipeBuilder();
    const aux = b.needScratch('aux', AUX_WORDS * 4);
    for (const chunk of splitIntoChunks(count, chunkElements, backward)) {
      stageTailIn(b, 'input', chunk, aux);
      const tiles = Math.ceil(chunk.slots / (spec.workgroupSize * spec.slotsPerThread));
      const statusBytes = decoupledFallbackStatusBytes(tiles);
      b.needScratch('status', statusBytes);
      b.clear({ scratch: 'status', offset: 0, size: statusBytes });
      // params.extra = the chunk's first element, where its head bits start.
      b.dispatch(
        kernel,
        { src: vecRange('input', chunk), dst: vecRange('output', chunk), aux, status: { scratch: 'status' }, head_bits: headBits },
        tiles,
        chunkParamValues(chunk, tiles, dispatchShape(tiles, maxDim).x, chunk.start),
      );
      stageTailOut(b, 'output', chunk, aux);
    }
    return b.build();
  };
  const tree = algorithm === 'tree';
  const build = (count: number): Recipe => (tree ? treeSegmentedScanRecipe(ctx, shape, count) : singlePass(count));
  const maxCount = raw.maxCount === undefined ? undefined : checkCount(raw.maxCount, 'options.maxCount');
  // A count the GPU wrote: the single pass recorded for maxCount (one chunk), a fixup turning the
  // count into its parameters (and the last kernel's), field by field, and staging the partial last
  // vec4, and a last kernel writing it out.
  const gpuCountable = !tree && maxCount !== undefined && maxCount > 0 && maxCount <= chunkElements;
  const gpuPass = (word: number): Recipe => {
    const b = new RecipeBuilder();
    const aux = b.needScratch('aux', AUX_WORDS * 4);
    const [chunk] = splitIntoChunks(maxCount as number, chunkElements, backward) as [Chunk];
    const tiles = Math.ceil(chunk.slots / (spec.workgroupSize * spec.slotsPerThread));
    const statusBytes = decoupledFallbackStatusBytes(tiles);
    b.needScratch('status', statusBytes);
    b.clear({ scratch: 'status', offset: 0, size: statusBytes });
    // params.extra = the chunk's first element, where its head bits start (0: one chunk).
    const scan = countedParams(kernel, slotCountDerivation(4 * spec.workgroupSize * spec.slotsPerThread, tiles), {
      dispatch_x: dispatchShape(tiles, maxDim).x,
      carry_in: chunk.carryIn,
      carry_out: chunk.carryOut,
      extra: 0,
    });
    const [params, tailOut] = recordCountFixup(b, {
      word,
      capacity: chunk.count,
      blocks: [scan, tailOutParams()],
      tail: { input: { role: 'input', offset: 0 }, aux },
    }) as [BufferRef, BufferRef];
    b.dispatch(
      kernel,
      { src: vecRange('input', chunk), dst: vecRange('output', chunk), aux, status: { scratch: 'status' }, head_bits: headBits },
      tiles,
      params,
    );
    recordTailOut(b, tailOut, aux, { role: 'output', offset: 0 });
    return b.build();
  };
  if (maxCount !== undefined && maxCount > 0) exec.reserve(build(maxCount));
  // Every kernel the plan may run: one element (the tree's lone block), and the largest count it
  // expects (the deepest tree; the single pass has one kernel).
  const largest = tree ? treeMaxCount(ctx) : chunkElements;
  const ready = exec.load([build(1), build(Math.min(largest, maxCount || largest)), ...(gpuCountable ? [gpuPass(0)] : [])]);
  // Every structure a host count up to maxCount may take (the tree's levels, the single pass's
  // chunks): the first encode with a set of buffers makes all their bind groups, so a count that
  // first needs fewer levels creates nothing (see StructureVariants).
  // The tree does not chunk: its structures change at powers of its block size only, so its counts
  // are listed as one chunk (in chunks of `chunkElements` they would be millions, with a small one).
  const variantLimit = tree ? Math.min(largest, maxCount || largest) : maxCount || chunkElements;
  const variants = new StructureVariants(() =>
    representativeCounts(variantLimit, tree ? variantLimit : chunkElements).map((n) => build(n)),
  );

  return planOf([exec], {
    what: 'segmented scan plan',
    encode(encoder, args) {
      const gpu = gpuCountOf('segmented scan plan', args, maxCount);
      if (gpu) {
        if (!gpuCountable) {
          throw new ScanError(
            'UNSUPPORTED',
            `segmented scan plan: args.countBuffer needs algorithm 'single-pass' and maxCount (${maxCount}) within one binding (${chunkElements} elements)`,
            { argument: 'args.countBuffer' },
          );
        }
        checkEncodeArgs(
          'segmented scan plan',
          { ...args, count: maxCount },
          { input: 4, output: 4, headBits: { bytes: (n) => 4 * packedFlagWords(n) }, countBuffer: { bytes: 4 } },
        );
        const roles = { input: args.input, headBits: args.headBits, output: args.output, gpuCount: gpu.buffer };
        exec.encode(encoder, () => gpuPass(gpu.offset / 4), roles);
        return;
      }
      const count = checkEncodeArgs('segmented scan plan', args, {
        input: 4,
        output: 4,
        headBits: { bytes: (n) => 4 * packedFlagWords(n) },
      });
      if (count === 0) return;
      if (count % 4 !== 0) checkCopyUsage('segmented scan plan', { input: args.input }, { output: args.output });
      exec.encode(encoder, () => build(count), { input: args.input, headBits: args.headBits, output: args.output }, variants);
    },
    ready,
  });
}
