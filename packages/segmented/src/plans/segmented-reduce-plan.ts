import {
  AUX_WORDS,
  assertUsable,
  checkCopyUsage,
  checkElementType,
  checkEncodeArgs,
  checkOp,
  checkOptions,
  chunkParams,
  createScanPlan,
  dispatchShape,
  type ElementType,
  maxChunkElements,
  type Plan,
  planOf,
  type Recipe,
  RecipeBuilder,
  RecipeExecutor,
  type ScanContext,
  ScanError,
  type ScanOp,
  splitIntoChunks,
  stageTailIn,
  vecRange,
} from '@scan/core';
import { blockHeadCountKernel, HEAD_COUNT_BLOCK } from '../kernels/block-heads.js';
import { RANGE_RECORD_WORDS, segmentedReduceKernel, segmentedReduceTile } from '../kernels/segmented-reduce.js';
import { segmentedReduceFixupKernel } from '../kernels/segmented-reduce-fixup.js';
import { packedFlagWords } from '../types.js';

/** Options of {@link createSegmentedReducePlan}. */
export interface SegmentedReducePlanOptions {
  /** Element type (default `'u32'`). */
  type?: ElementType;
  /** Operator (default `'add'`). */
  op?: ScanOp;
  /** Largest count expected: scratch for it is allocated up front. */
  maxCount?: number;
  /** Largest number of elements one dispatch handles (tests lower it). */
  maxChunkElements?: number;
}

/**
 * Buffers of one segmented reduction: `headBits` holds ⌈count/32⌉ words of bit-packed head flags;
 * `output` receives one value per segment, in order, so it needs 4 × (number of segments) bytes —
 * pass `segments` when you know it, else `output` must hold `count` values.
 */
export interface SegmentedReduceEncodeArgs {
  input: GPUBuffer;
  headBits: GPUBuffer;
  output: GPUBuffer;
  count: number;
  segments?: number;
}

/**
 * Creates a reusable segmented reduction (buffer level): `output[k]` = the reduction of segment k.
 * One pass over the data (reduce-by-key over contiguous ranges, see `segmentedReduceKernel`), after
 * a pre-pass over the head bits alone (1/32 of the data) that counts heads per block of 256
 * elements, from which each segment's output index follows; a one-workgroup fix-up then finishes
 * the segments that cross range boundaries.
 *
 * @example
 * ```ts
 * const plan = createSegmentedReducePlan(ctx, { type: 'f32', op: 'max' });
 * plan.encode(encoder, { input, headBits, output, count, segments });
 * ```
 */
export function createSegmentedReducePlan(ctx: ScanContext, options: SegmentedReducePlanOptions = {}): Plan<SegmentedReduceEncodeArgs> {
  assertUsable(ctx);
  // Internal tuning: workgroupSize, slotsPerRow and ranges (how many ranges to aim for; fewer make
  // longer walks per group).
  const raw = checkOptions(options, ['type', 'op', 'maxCount', 'maxChunkElements', 'workgroupSize', 'slotsPerRow', 'ranges']);
  const type = options.type === undefined ? 'u32' : checkElementType(options.type, 'options.type');
  const op = checkOp(options.op, type);
  const limit = Math.min(ctx.caps.limits.maxComputeInvocationsPerWorkgroup, ctx.caps.limits.maxComputeWorkgroupSizeX);
  // Measured on the H100 (BENCHMARKS.md): 256 invocations × 16 contiguous elements per step.
  const spec = {
    type,
    op,
    subgroups: ctx.caps.features.subgroups,
    workgroupSize: tuning(raw.workgroupSize, 'workgroupSize', Math.min(256, limit), (v) => v >= 4 && v <= limit && (v & (v - 1)) === 0),
    slotsPerRow: tuning(raw.slotsPerRow, 'slotsPerRow', 4, (v) => [1, 2, 4, 8].includes(v)),
  };
  const targetRanges = tuning(raw.ranges, 'ranges', TARGET_RANGES, (v) => v >= 1);
  const tileElements = segmentedReduceTile(spec);
  const bindable = maxChunkElements(ctx, options.maxChunkElements);
  const maxSteps = Math.floor(bindable / tileElements);
  if (maxSteps === 0) {
    throw new ScanError(
      'UNSUPPORTED',
      `segmented reduce plan: a tile of ${tileElements} elements is more than one binding holds (${bindable})`,
      {
        argument: 'options.maxChunkElements',
      },
    );
  }
  /** Tiles per range for `count`: about `targetRanges` ranges, none larger than a binding. */
  const stepsFor = (count: number) => Math.min(Math.ceil(Math.ceil(count / tileElements) / targetRanges), maxSteps);
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  // Three steps: the head counts per block (pre-pass), their exclusive scan (core), then the main
  // pass and the fix-up. The pre-pass executor owns the count scratch the main pass binds.
  const counting = new RecipeExecutor(ctx, 'segmented reduce');
  const countScan = createScanPlan(ctx, { type: 'u32', op: 'add' });
  const exec = new RecipeExecutor(ctx, 'segmented reduce');
  const fixup = segmentedReduceFixupKernel({ type, op, workgroupSize: Math.min(1024, limit) });
  const blocksOf = (count: number) => Math.ceil(count / HEAD_COUNT_BLOCK);

  const buildCounting = (count: number): Recipe => {
    const b = new RecipeBuilder();
    const blocks = blocksOf(count);
    b.needScratch('counts', 4 * blocks);
    b.needScratch('blockHeads', 4 * (blocks + 1));
    const headBits = { role: 'headBits', offset: 0, size: 4 * packedFlagWords(count) };
    const workgroups = Math.ceil(blocks / 256);
    const params = b.paramBlock([count, blocks, dispatchShape(workgroups, maxDim).x]);
    b.dispatch(blockHeadCountKernel(256), [headBits, { scratch: 'counts' }, { scratch: 'blockHeads' }, params], workgroups);
    return b.build();
  };
  const build = (count: number): Recipe => {
    const b = new RecipeBuilder();
    const aux = b.needScratch('aux', AUX_WORDS * 4);
    const headBits = { role: 'headBits', offset: 0, size: 4 * packedFlagWords(count) };
    const blockHeads = { role: 'blockHeads', offset: 0, size: 4 * (blocksOf(count) + 1) };
    const steps = stepsFor(count);
    const rangeElements = steps * tileElements;
    const totalRanges = Math.ceil(count / rangeElements);
    // Chunks (binding windows) hold whole ranges, so ranges and their records are numbered
    // array-wide.
    const records = b.needScratch('records', 4 * RANGE_RECORD_WORDS * totalRanges);
    let firstRange = 0;
    for (const chunk of splitIntoChunks(count, Math.floor(bindable / rangeElements) * rangeElements, false)) {
      stageTailIn(b, 'input', chunk, aux);
      const ranges = Math.ceil(chunk.count / rangeElements);
      const params = b.paramBlock(chunkParams(chunk, ranges, dispatchShape(ranges, maxDim).x, chunk.start));
      const rangeParams = b.paramBlock([steps, firstRange, count, 0]);
      b.dispatch(
        segmentedReduceKernel(spec),
        [vecRange('input', chunk), { role: 'output', offset: 0 }, aux, params, records, headBits, blockHeads, rangeParams],
        ranges,
      );
      firstRange += ranges;
    }
    // Fix-up: the segments that cross range boundaries.
    b.dispatch(fixup, [records, { role: 'output', offset: 0 }, b.paramBlock([totalRanges, 0, 0, 0])], 1);
    return b.build();
  };
  if (options.maxCount !== undefined && options.maxCount > 0) {
    counting.reserve(buildCounting(options.maxCount));
    exec.reserve(build(options.maxCount));
  }

  return planOf([counting, exec, countScan], {
    encode(encoder, args) {
      const given = (args as { segments?: unknown } | null)?.segments;
      if (given !== undefined && (typeof given !== 'number' || !Number.isSafeInteger(given) || given < 0)) {
        throw new ScanError(
          'INVALID_ARGUMENT',
          `segmented reduce plan: args.segments = ${String(given)}: expected a non-negative integer`,
          {
            argument: 'args.segments',
          },
        );
      }
      const count = checkEncodeArgs('segmented reduce plan', args, {
        input: 4,
        headBits: { bytes: (n) => 4 * packedFlagWords(n) },
        output: { bytes: (n) => 4 * (given ?? n) },
      });
      if (given !== undefined && (given > count || (count > 0 && given === 0))) {
        throw new ScanError(
          'INVALID_ARGUMENT',
          `segmented reduce plan: args.segments = ${given}: a count of ${count} has 1 … ${count} segments`,
          {
            argument: 'args.segments',
          },
        );
      }
      if (count === 0) return;
      if (count % 4 !== 0) checkCopyUsage('segmented reduce plan', { input: args.input }, {});
      counting.reserveFor(`${count}`, () => buildCounting(count));
      counting.encode(encoder, `${count}`, () => buildCounting(count), { headBits: args.headBits });
      countScan.encode(encoder, {
        input: counting.scratchBuffer('counts'),
        output: counting.scratchBuffer('blockHeads'),
        count: blocksOf(count),
      });
      exec.encode(encoder, `${count}`, () => build(count), {
        input: args.input,
        headBits: args.headBits,
        output: args.output,
        blockHeads: counting.scratchBuffer('blockHeads'),
      });
    },
  });
}

/**
 * Ranges the main pass aims for: enough workgroups for several waves on a large GPU, few enough
 * that each group walks a long sub-range (measured on the H100, BENCHMARKS.md).
 */
const TARGET_RANGES = 3000;

/** A tuning option: its default when absent, else an integer that `fits`, else a ScanError. */
function tuning(value: unknown, name: string, fallback: number, fits: (v: number) => boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || !fits(value)) {
    throw new ScanError('INVALID_ARGUMENT', `segmented reduce plan: options.${name} = ${String(value)}: not a supported tuning value`, {
      argument: `options.${name}`,
    });
  }
  return value;
}
