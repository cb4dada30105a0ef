import type { ScanContext } from '../context.js';
import { type OperatorReduceSpec, operatorReduceKernel } from '../kernels/operator-reduce.js';
import { operatorItemsPerThread } from '../kernels/operator-tile-source.js';
import { checkOperatorCompiles } from '../operators/operator-compile-check.js';
import { operatorSubgroups } from '../operators/operator-subgroups.js';
import type { Operator } from '../operators/operator-type.js';
import { RecipeExecutor } from './executor.js';
import { countedParams, recordCountFixup } from './gpu-count.js';
import { NO_RANGE_CARRY, operatorGpuCount, operatorRangeRecords, operatorRanges, recordBytes } from './operator-ranges.js';
import { operatorRecords } from './operator-records.js';
import { checkEncodeArgs } from './plan-args.js';
import { planOf } from './plan-of.js';
import { type BufferRef, type Recipe, RecipeBuilder } from './recipe.js';
import { representativeCounts, StructureVariants } from './structure-variants.js';
import type { CountSource, Plan } from './types.js';

/** Buffers of one reduction (as `createReducePlan`'s): the result record is written at the start of `output`. */
interface OperatorReduceArgs extends CountSource {
  input: GPUBuffer;
  output: GPUBuffer;
}

/** What an operator reduce plan is made for: the checked options of `createReducePlan` with an `Operator`. */
export interface OperatorReduceShape<T> {
  readonly op: Operator<T>;
  /** Largest count expected: scratch for it is allocated up front. */
  readonly maxCount: number | undefined;
  /** Largest number of records one dispatch binds (tests lower it to exercise the carries). */
  readonly maxChunkRecords: number | undefined;
  /** Test hook: fewer partials (workgroups per chunk) than the default, so each reduces a longer run of tiles. */
  readonly maxPartials?: number;
  /**
   * The input is a plain array of this type, not records: the reduction is of the records
   * `{ value: input[i], index: i }` (see `OperatorReduceSpec.indexed`; the operator must commute).
   */
  readonly indexed?: 'u32' | 'i32' | 'f32';
  /** What errors call the plan (default `'reduce plan'`). */
  readonly what?: string;
}

/**
 * The buffer-level reduction of a user-defined operator (what `createReducePlan` makes when `op`
 * is an `Operator` that is not one of core's built-ins on u32, i32 or f32): per chunk of records
 * that one binding holds, the partials (up to 1024 workgroups, 4096 with an indexed source, each
 * a run of tiles) and one workgroup combining them after the previous chunk's carry. The result record is written to the
 * start of `output` (which needs `STORAGE` usage), `op.identity` for a count of 0.
 *
 * @example
 * ```ts
 * const plan = createOperatorReducePlan(ctx, { op: argmax, maxCount: undefined, maxChunkRecords: undefined });
 * plan.encode(encoder, { input, output, count });
 * ```
 */
export function createOperatorReducePlan<T>(ctx: ScanContext, shape: OperatorReduceShape<T>): Plan<OperatorReduceArgs> {
  const op = shape.op;
  const bytes = op.bytes;
  const what = shape.what ?? 'reduce plan';
  const indexed = shape.indexed;
  // What the input holds: the records, or (indexed) plain elements of one word.
  const input = indexed ? { bytes: 4, words: 1 } : op;
  const WG = Math.min(256, ctx.caps.limits.maxComputeInvocationsPerWorkgroup);
  const subgroups = operatorSubgroups(ctx, op);
  // Runs of about 32 words: a reduction keeps no results in registers, so it loads more per tile.
  // Indexed: 16 elements (four vec4 loads), folded into the invocation's record as they come.
  const K = indexed ? 16 : operatorItemsPerThread(op.words, 32);
  const partialsSpec: OperatorReduceSpec = {
    opKey: op.key,
    subgroups,
    workgroupSize: WG,
    itemsPerThread: K,
    phase: 'partials',
    ...(indexed ? { indexed } : {}),
  };
  // Indexed (arg-min/max, a read-bound pass of small records): up to 16 partials per combine
  // invocation, so the partials phase has many short workgroups (4096 of at least one tile) and the
  // last wave of a large GPU is a small part of the pass.
  const combineK = indexed ? 16 : 4;
  const combineSpec: OperatorReduceSpec = { opKey: op.key, subgroups, workgroupSize: WG, itemsPerThread: combineK, phase: 'combine' };
  const partialsKernel = operatorReduceKernel(partialsSpec);
  const combineKernel = operatorReduceKernel(combineSpec);
  const maxPartials = Math.min(WG * combineK, shape.maxPartials ?? WG * combineK);
  const tileRecords = WG * K;
  const chunkRecords = operatorRangeRecords(ctx, input.bytes, shape.maxChunkRecords);
  const sizeOf = (count: number) => recordBytes(count, bytes);
  const inputSizeOf = (count: number) => recordBytes(count, input.bytes);
  const exec = new RecipeExecutor(ctx, `reduce ${op.name}`);

  const build = (count: number): Recipe => {
    const b = new RecipeBuilder();
    const partials = b.needScratch('partials', maxPartials * Math.max(4, bytes));
    const carry = b.needScratch('carry', 2 * Math.max(4, bytes));
    const result = { role: 'output', offset: 0, limit: sizeOf(1), multipleOf: 4 };
    // No records is one empty range: the combine writes the identity.
    const ranges =
      count === 0
        ? [{ start: 0, count: 0, carryIn: NO_RANGE_CARRY, carryOut: NO_RANGE_CARRY }]
        : operatorRanges(count, chunkRecords, false);
    for (const range of ranges) {
      const tiles = Math.ceil(range.count / tileRecords);
      // At most maxPartials workgroups, each a run of `per` whole tiles; the last run may be shorter.
      const per = Math.max(1, Math.ceil(tiles / maxPartials));
      const workgroups = Math.ceil(tiles / per);
      const params = {
        count: range.count,
        tiles,
        per,
        partials: workgroups,
        carry_in: range.carryIn,
        carry_out: range.carryOut,
        base: indexed ? range.start : 0,
      };
      if (workgroups > 0) {
        const records = operatorRecords(b, input, range, chunkRecords);
        b.dispatch(partialsKernel, { ...records.load('src', 'input'), partials }, workgroups, params);
      }
      b.dispatch(combineKernel, { partials, carry, result }, 1, params);
    }
    return b.build();
  };
  // A count the GPU wrote (one range: maxCount within one binding): the dispatches recorded for
  // maxCount, each workgroup's run of tiles fixed by it; a count fixup fills in the count, the tiles
  // and the partials that hold records (the workgroups past them reduce nothing, and the combine
  // reads only the partials counted). One parameter block serves both kernels.
  const buildGpu = (word: number): Recipe => {
    const b = new RecipeBuilder();
    const partials = b.needScratch('partials', maxPartials * Math.max(4, bytes));
    const carry = b.needScratch('carry', 2 * Math.max(4, bytes));
    const result = { role: 'output', offset: 0, limit: sizeOf(1), multipleOf: 4 };
    const count = maxCount as number;
    const tiles = Math.ceil(count / tileRecords);
    const per = Math.max(1, Math.ceil(tiles / maxPartials));
    const workgroups = Math.ceil(tiles / per);
    const counted = countedParams(
      partialsKernel,
      { count: 'count', tiles: { ceilDiv: tileRecords, max: tiles }, partials: { ceilDiv: tileRecords * per, max: workgroups } },
      { per, carry_in: NO_RANGE_CARRY, carry_out: NO_RANGE_CARRY, base: 0 },
    );
    const [params] = recordCountFixup(b, { word, capacity: count, blocks: [counted] });
    const records = operatorRecords(b, input, { start: 0, count }, chunkRecords);
    b.dispatch(partialsKernel, { ...records.load('src', 'input'), partials }, workgroups, params as BufferRef);
    b.dispatch(combineKernel, { partials, carry, result }, 1, params as BufferRef);
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
  // No records is its own structure (the combine alone writes the identity).
  const variants = new StructureVariants(() => [build(0), ...representativeCounts(largest, chunkRecords).map((n) => build(n))]);

  return planOf([exec], {
    what,
    encode(encoder, args: OperatorReduceArgs) {
      const gpu = operatorGpuCount(what, args, maxCount, chunkRecords, op.name);
      if (gpu) {
        checkEncodeArgs(
          what,
          { ...args, count: maxCount },
          { input: { bytes: inputSizeOf }, output: { bytes: sizeOf(1) }, countBuffer: { bytes: 4 } },
        );
        exec.encode(encoder, () => buildGpu(gpu.offset / 4), { input: args.input, output: args.output, gpuCount: gpu.buffer });
        return;
      }
      const count = checkEncodeArgs(what, args, { input: { bytes: inputSizeOf }, output: { bytes: sizeOf(1) } });
      exec.encode(encoder, () => build(count), { input: args.input, output: args.output }, variants);
    },
    ready,
  });
}
