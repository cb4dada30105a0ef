import type { Operator } from '@scan/core';
import { type ElementType, type Plan, type ScanContext, ScanError, type ScanOp } from '@scan/core';
import {
  AUX_WORDS,
  assertUsable,
  type BufferRef,
  builtinNameOf,
  checkCopyUsage,
  checkElementType,
  checkEncodeArgs,
  checkOp,
  checkOptions,
  chunkParamValues,
  decoupledFallbackStatusBytes,
  describeValue,
  dispatchShape,
  maxChunkElements,
  planOf,
  type Recipe,
  RecipeBuilder,
  RecipeExecutor,
  representativeCounts,
  StructureVariants,
  splitIntoChunks,
  stageTailIn,
  userOperatorOf,
} from '@scan/core/kit';
import { RANGE_PARAMS, segmentedReduceKernel, segmentedReduceTile } from '../kernels/segmented-reduce.js';
import { packedFlagWords } from '../types.js';
import { userOperatorPlan } from './operator-segmented-plan.js';

/** Options of {@link createSegmentedReducePlan}. */
export interface SegmentedReducePlanOptions {
  /** Element type (default `'u32'`). */
  type?: ElementType;
  /** Operator (default `'add'`). */
  /** A built-in name, or an `Operator` from `defineOperator` (then leave `type` out: the operator sets it). */
  // biome-ignore lint/suspicious/noExplicitAny: any operator's record type
  op?: ScanOp | Operator<any>;
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
 * One pass over the data and its head bits (reduce-by-key over contiguous ranges, see
 * `segmentedReduceKernel`): each range counts its heads and finds the heads before it by a look-back
 * over the ranges' counts, which places every segment's output; the segments that cross range
 * boundaries take their prefix by a second look-back at the end.
 *
 * Memory: a 256-byte aux buffer, a look-back status area (one 128-byte line per range; ranges are
 * about 3000, at least 4096 elements each: under 400 KiB, and under 1 % of the data's bytes) and a
 * 4-slot parameter ring. The status grows by doubling when a count needs more (outgrown buffers are
 * kept until `destroy`), or is sized once by `maxCount`; once warm, an encode with a new count creates
 * no buffer, bind group or pipeline. `await plan.ready` compiles the kernel before the first frame.
 *
 * @example
 * ```ts
 * const plan = createSegmentedReducePlan(ctx, { type: 'f32', op: 'max' });
 * await plan.ready;
 * plan.encode(encoder, { input, headBits, output, count, segments });
 * ```
 */
export function createSegmentedReducePlan(ctx: ScanContext, options: SegmentedReducePlanOptions = {}): Plan<SegmentedReduceEncodeArgs> {
  assertUsable(ctx);
  // Internal tuning: workgroupSize, slotsPerRow, ranges (how many ranges to aim for; fewer make
  // longer walks per group) and forceFallback (every look-back falls back: tests).
  const raw = checkOptions(options, [
    'type',
    'op',
    'maxCount',
    'maxChunkElements',
    'workgroupSize',
    'slotsPerRow',
    'ranges',
    'forceFallback',
  ]);
  const user = userOperatorOf(options.op, undefined);
  if (user) return userOperatorPlan(ctx, user, 'reduce', raw) as unknown as Plan<SegmentedReduceEncodeArgs>;
  const type = options.type === undefined ? 'u32' : checkElementType(options.type, 'options.type');
  userOperatorOf(options.op, type);
  const op = checkOp(builtinNameOf(options.op), type);
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
  const forceFallback = raw.forceFallback === true;
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
  const exec = new RecipeExecutor(ctx, 'segmented reduce');
  // Forced fallbacks (tests) need not wait for predecessors that never read as ready.
  const kernel = segmentedReduceKernel({ ...spec, maxSpin: forceFallback ? 1 : 64, forceFallback });
  // The caller's whole buffers: the kernel bounds its reads by ranges.total and writes one value
  // per segment, so the bindings serve every count.
  const headBits: BufferRef = { role: 'headBits', offset: 0 };
  const output: BufferRef = { role: 'output', offset: 0 };

  /** Elements per chunk for `count`: whole ranges (the look-backs number ranges over the whole array), one binding at most. */
  const chunkFor = (count: number) => {
    const rangeElements = stepsFor(count) * tileElements;
    return Math.floor(bindable / rangeElements) * rangeElements;
  };
  const build = (count: number): Recipe => {
    const b = new RecipeBuilder();
    const aux = b.needScratch('aux', AUX_WORDS * 4);
    const steps = stepsFor(count);
    const rangeElements = steps * tileElements;
    const totalRanges = Math.ceil(count / rangeElements);
    // One status line per range of the whole array (the look-backs cross chunks); the ticket in
    // word 0 restarts for every chunk.
    const statusBytes = decoupledFallbackStatusBytes(totalRanges);
    const status = b.needScratch('status', statusBytes);
    b.clear({ ...status, offset: 0, size: statusBytes });
    let firstRange = 0;
    for (const chunk of splitIntoChunks(count, chunkFor(count), false)) {
      if (firstRange > 0) b.clear({ ...status, offset: 0, size: 4 });
      stageTailIn(b, 'input', chunk, aux);
      const ranges = Math.ceil(chunk.count / rangeElements);
      // The kernel's own parameters fill a block; the ranges uniform is a second one.
      const rangeParams = b.uniformBlock(RANGE_PARAMS, { steps, first_range: firstRange, total: count });
      // Whole vec4s from the chunk's start, as many as a binding holds (not the chunk's capacity,
      // which follows the count).
      const input: BufferRef = { role: 'input', offset: 4 * chunk.start, limit: 4 * bindable, multipleOf: 16 };
      b.dispatch(
        kernel,
        { src: input, seg_out: output, aux, status, head_bits: headBits, ranges: rangeParams },
        ranges,
        chunkParamValues(chunk, ranges, dispatchShape(ranges, maxDim).x, chunk.start),
      );
      firstRange += ranges;
    }
    return b.build();
  };
  if (options.maxCount !== undefined && options.maxCount > 0) {
    exec.reserve(build(options.maxCount));
  }

  // Every structure a host count up to maxCount (one binding without it) may take: the first encode
  // with a set of buffers makes all their bind groups (see StructureVariants).
  const most = options.maxCount || bindable;
  const variants = new StructureVariants(() => representativeCounts(most, chunkFor(most)).map((n) => build(n)));
  return planOf([exec], {
    what: 'segmented reduce plan',
    encode(encoder, args) {
      const given = (args as { segments?: unknown } | null)?.segments;
      if (given !== undefined && (typeof given !== 'number' || !Number.isSafeInteger(given) || given < 0)) {
        throw new ScanError(
          'INVALID_ARGUMENT',
          `segmented reduce plan: args.segments = ${describeValue(given)}: expected a non-negative integer`,
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
      exec.encode(encoder, () => build(count), { input: args.input, headBits: args.headBits, output: args.output }, variants);
    },
    ready: exec.load([build(1)]),
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
    throw new ScanError(
      'INVALID_ARGUMENT',
      `segmented reduce plan: options.${name} = ${describeValue(value)}: not a supported tuning value`,
      {
        argument: `options.${name}`,
      },
    );
  }
  return value;
}
