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
  decoupledFallbackStatusBytes,
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
import { segmentedReduceKernel, segmentedReduceTile } from '../kernels/segmented-reduce.js';
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
 * One pass over the data (reduce-by-key, see `segmentedReduceKernel`), after a pre-pass over the
 * head bits alone (1/32 of the data) that counts heads per block of 256 elements, from which each
 * segment's output index follows.
 *
 * @example
 * ```ts
 * const plan = createSegmentedReducePlan(ctx, { type: 'f32', op: 'max' });
 * plan.encode(encoder, { input, headBits, output, count, segments });
 * ```
 */
export function createSegmentedReducePlan(ctx: ScanContext, options: SegmentedReducePlanOptions = {}): Plan<SegmentedReduceEncodeArgs> {
  assertUsable(ctx);
  // Internal: forceFallback (test hook: every look-back falls back to reducing the predecessor's
  // input), workgroupSize, slotsPerRow and rows (tuning).
  const raw = checkOptions(options, [
    'type',
    'op',
    'maxCount',
    'maxChunkElements',
    'forceFallback',
    'workgroupSize',
    'slotsPerRow',
    'rows',
  ]);
  const type = options.type === undefined ? 'u32' : checkElementType(options.type, 'options.type');
  const op = checkOp(options.op, type);
  const limit = Math.min(ctx.caps.limits.maxComputeInvocationsPerWorkgroup, ctx.caps.limits.maxComputeWorkgroupSizeX);
  // Measured on the H100 (BENCHMARKS.md): 256 invocations × 16 contiguous elements, one row per tile.
  const workgroupSize = Math.min(256, limit);
  const spec = {
    type,
    op,
    subgroups: ctx.caps.features.subgroups,
    workgroupSize: tuning(raw.workgroupSize, 'workgroupSize', workgroupSize, (v) => v >= 4 && v <= limit && (v & (v - 1)) === 0),
    slotsPerRow: tuning(raw.slotsPerRow, 'slotsPerRow', 4, (v) => [1, 2, 4, 8].includes(v)),
    rows: tuning(raw.rows, 'rows', 1, (v) => v >= 1 && v <= 8),
    maxSpin: 64,
    forceFallback: raw.forceFallback === true,
  };
  const tileElements = segmentedReduceTile(spec);
  // Chunks start on tile boundaries, which are head-count block boundaries too.
  const chunkElements = Math.max(tileElements, Math.floor(maxChunkElements(ctx, options.maxChunkElements) / tileElements) * tileElements);
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const exec = new RecipeExecutor(ctx, 'segmented reduce');
  // The exclusive scan of the per-block head counts.
  const countScan = createScanPlan(ctx, { type: 'u32', op: 'add' });

  const blocksOf = (count: number) => Math.ceil(count / HEAD_COUNT_BLOCK);
  const build = (count: number): Recipe => {
    const b = new RecipeBuilder();
    const blocks = blocksOf(count);
    b.needScratch('counts', 4 * blocks);
    b.needScratch('blockHeads', 4 * (blocks + 1));
    const headBits = { role: 'headBits', offset: 0, size: 4 * packedFlagWords(count) };
    const counting = Math.ceil(blocks / 256);
    const countParams = b.paramBlock([count, blocks, dispatchShape(counting, maxDim).x]);
    b.dispatch(blockHeadCountKernel(256), [headBits, { scratch: 'counts' }, { scratch: 'blockHeads' }, countParams], counting);
    return b.build();
  };
  const buildMain = (count: number): Recipe => {
    const b = new RecipeBuilder();
    const aux = b.needScratch('aux', AUX_WORDS * 4);
    const headBits = { role: 'headBits', offset: 0, size: 4 * packedFlagWords(count) };
    const blockHeads = { role: 'blockHeads', offset: 0, size: 4 * (blocksOf(count) + 1) };
    for (const chunk of splitIntoChunks(count, chunkElements, false)) {
      stageTailIn(b, 'input', chunk, aux);
      const tiles = Math.ceil(chunk.count / tileElements);
      const statusBytes = decoupledFallbackStatusBytes(tiles);
      b.needScratch('status', statusBytes);
      b.clear({ scratch: 'status', offset: 0, size: statusBytes });
      const params = b.paramBlock(chunkParams(chunk, tiles, dispatchShape(tiles, maxDim).x, chunk.start));
      b.dispatch(
        segmentedReduceKernel(spec),
        [vecRange('input', chunk), { role: 'output', offset: 0 }, aux, params, { scratch: 'status' }, headBits, blockHeads],
        tiles,
      );
    }
    return b.build();
  };
  // Two executors: the pre-pass owns the head-count scratch the main pass binds as a role.
  const main = new RecipeExecutor(ctx, 'segmented reduce');
  if (options.maxCount !== undefined && options.maxCount > 0) {
    exec.reserve(build(options.maxCount));
    main.reserve(buildMain(options.maxCount));
  }

  return planOf([exec, main, countScan], {
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
      exec.reserveFor(`${count}`, () => build(count));
      exec.encode(encoder, `${count}`, () => build(count), { headBits: args.headBits });
      const blocks = blocksOf(count);
      countScan.encode(encoder, { input: exec.scratchBuffer('counts'), output: exec.scratchBuffer('blockHeads'), count: blocks });
      main.encode(encoder, `${count}`, () => buildMain(count), {
        input: args.input,
        headBits: args.headBits,
        output: args.output,
        blockHeads: exec.scratchBuffer('blockHeads'),
      });
    },
  });
}

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
