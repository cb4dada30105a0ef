import type { ScanContext } from '../context.js';
import { type OperatorScanSpec, operatorScanKernel } from '../kernels/operator-scan.js';
import { operatorItemsPerThread } from '../kernels/operator-tile-source.js';
import { checkOperatorCompiles } from '../operators/operator-compile-check.js';
import { operatorSubgroups } from '../operators/operator-subgroups.js';
import type { Operator } from '../operators/operator-type.js';
import { RecipeExecutor } from './executor.js';
import { countedParams, recordCountFixup, tailOutParams } from './gpu-count.js';
import { NO_RANGE_CARRY, operatorGpuCount, operatorRangeRecords, operatorRanges, operatorStatus, recordBytes } from './operator-ranges.js';
import { operatorRecords } from './operator-records.js';
import { checkEncodeArgs } from './plan-args.js';
import { planOf } from './plan-of.js';
import { type BufferRef, type Recipe, RecipeBuilder } from './recipe.js';
import { representativeCounts, StructureVariants } from './structure-variants.js';
import type { Plan, ScanEncodeArgs } from './types.js';

/** What an operator scan plan is made for: the checked options of `createScanPlan` with an `Operator`. */
export interface OperatorScanShape<T> {
  readonly op: Operator<T>;
  readonly inclusive: boolean;
  readonly backward: boolean;
  /** Largest count expected: scratch for it is allocated up front. */
  readonly maxCount: number | undefined;
  /** Largest number of records one dispatch binds (tests lower it to exercise the carries). */
  readonly maxChunkRecords: number | undefined;
  /** Test hook: every look-back falls back. */
  readonly forceFallback: boolean;
}

/**
 * The buffer-level scan of a user-defined operator (what `createScanPlan` makes when `op` is an
 * `Operator` that is not one of core's built-ins on u32, i32 or f32): one single-pass kernel per
 * chunk of records that one binding holds, each chunk starting from the carry the previous one
 * wrote (backward: the chunks from the last). Buffers hold the records as the host arrays do:
 * `op.bytes` each, the binding rounded up to whole 32-bit words (an f16 scan of an odd count needs
 * two more bytes in each buffer).
 *
 * @example
 * ```ts
 * const plan = createOperatorScanPlan(ctx, { op: affine, inclusive: true, backward: false,
 *   maxCount: undefined, maxChunkRecords: undefined, forceFallback: false });
 * plan.encode(encoder, { input, output, count });
 * ```
 */
export function createOperatorScanPlan<T>(ctx: ScanContext, shape: OperatorScanShape<T>): Plan<ScanEncodeArgs> {
  const op = shape.op;
  const bytes = op.bytes;
  const WG = Math.min(256, ctx.caps.limits.maxComputeInvocationsPerWorkgroup);
  const spec: OperatorScanSpec = {
    opKey: op.key,
    inclusive: shape.inclusive,
    backward: shape.backward,
    subgroups: operatorSubgroups(ctx, op),
    workgroupSize: WG,
    itemsPerThread: operatorItemsPerThread(op.words, 16),
    maxSpin: 64,
    forceFallback: shape.forceFallback,
  };
  const kernel = operatorScanKernel(spec);
  const tileRecords = WG * spec.itemsPerThread;
  const chunkRecords = operatorRangeRecords(ctx, bytes, shape.maxChunkRecords);
  const sizeOf = (count: number) => recordBytes(count, bytes);
  const exec = new RecipeExecutor(ctx, `scan ${op.name}`);

  const build = (count: number): Recipe => {
    const b = new RecipeBuilder();
    const carry = b.needScratch('carry', 2 * Math.max(4, bytes) + 16);
    for (const range of operatorRanges(count, chunkRecords, shape.backward)) {
      const tiles = Math.ceil(range.count / tileRecords);
      const status = operatorStatus(b, tiles);
      const records = operatorRecords(b, op, range, chunkRecords);
      b.dispatch(kernel, { ...records.load('src', 'input'), ...records.store('dst', 'output'), carry, status }, tiles, {
        count: range.count,
        tiles,
        carry_in: range.carryIn,
        carry_out: range.carryOut,
      });
      records.finish('output');
    }
    return b.build();
  };
  // A count the GPU wrote (one range: maxCount within one binding): the kernel recorded for
  // maxCount, its count and tiles filled in by a count fixup, and the words past the last whole
  // vec4 copied out by a tail-out kernel that reads the same count.
  const buildGpu = (word: number): Recipe => {
    const b = new RecipeBuilder();
    const carry = b.needScratch('carry', 2 * Math.max(4, bytes) + 16);
    const count = maxCount as number;
    const tiles = Math.ceil(count / tileRecords);
    const status = operatorStatus(b, tiles);
    const counted = countedParams(
      kernel,
      { count: 'count', tiles: { ceilDiv: tileRecords, max: tiles } },
      { carry_in: NO_RANGE_CARRY, carry_out: NO_RANGE_CARRY },
    );
    const [params, tailOut] = recordCountFixup(b, { word, capacity: count, blocks: [counted, tailOutParams()] });
    const records = operatorRecords(b, op, { start: 0, count }, chunkRecords);
    const bindings = { ...records.load('src', 'input'), ...records.store('dst', 'output'), carry, status };
    b.dispatch(kernel, bindings, tiles, params as BufferRef);
    records.finishCounted('output', tailOut as BufferRef);
    return b.build();
  };
  const maxCount = shape.maxCount;
  const gpuCountable = maxCount !== undefined && maxCount > 0 && maxCount <= chunkRecords;
  if (maxCount !== undefined && maxCount > 0) exec.reserve(build(maxCount));
  const largest = maxCount || chunkRecords;
  // A body that does not compile rejects \`ready\` with the compiler's message in the body's own
  // lines (INVALID_ARGUMENT), before any pipeline of the plan is made from it.
  const ready = checkOperatorCompiles(ctx, op, 'options.op').then(() =>
    exec.load([build(1), build(largest), ...(gpuCountable ? [buildGpu(0)] : [])]),
  );
  // Every structure a count up to maxCount (one binding without it) may take: the first encode with
  // a set of buffers makes their bind groups, so a frame loop creates nothing later.
  const variants = new StructureVariants(() => representativeCounts(largest, chunkRecords).map((n) => build(n)));

  return planOf([exec], {
    what: 'scan plan',
    encode(encoder, args: ScanEncodeArgs) {
      const gpu = operatorGpuCount('scan plan', args, maxCount, chunkRecords, op.name);
      if (gpu) {
        checkEncodeArgs(
          'scan plan',
          { ...args, count: maxCount },
          { input: { bytes: sizeOf }, output: { bytes: sizeOf }, countBuffer: { bytes: 4 } },
        );
        exec.encode(encoder, () => buildGpu(gpu.offset / 4), { input: args.input, output: args.output, gpuCount: gpu.buffer });
        return;
      }
      const count = checkEncodeArgs('scan plan', args, { input: { bytes: sizeOf }, output: { bytes: sizeOf } });
      if (count === 0) return;
      exec.encode(encoder, () => build(count), { input: args.input, output: args.output }, variants);
    },
    ready,
  });
}
