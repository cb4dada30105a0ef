import { assertUsable, type ScanContext } from '../context.js';
import { checkElementType } from '../element-types.js';
import { type ArgExtremum, argExtremumOperator } from '../operators/arg-extremum-operator.js';
import { checkCount, checkOptions } from '../validate.js';
import { createOperatorReducePlan } from './operator-reduce-plan.js';
import type { CountSource, Plan } from './types.js';

/** Options of {@link createArgMinPlan} and {@link createArgMaxPlan}. */
export interface ArgExtremumPlanOptions {
  /** Element type (default `'u32'`). */
  type?: 'u32' | 'i32' | 'f32';
  /** Largest count expected: scratch for it is allocated up front, and a count the GPU wrote (`countBuffer`) may be used. */
  maxCount?: number;
  /** Largest number of elements one dispatch reads (tests lower it to exercise the carry between chunks). */
  maxChunkElements?: number;
}

/**
 * Buffers of one arg-min/max: `count` elements of `input`; the result is written to the first 8
 * bytes of `output` (`STORAGE` usage) as two u32 words: the extremum's 32-bit pattern (read it
 * through the element type's view) and its index. A count of 0 writes index `0xffffffff`.
 */
export interface ArgExtremumEncodeArgs extends CountSource {
  input: GPUBuffer;
  output: GPUBuffer;
}

/** An arg-min or arg-max recorded into the caller's encoder. */
export type ArgExtremumPlan = Plan<ArgExtremumEncodeArgs>;

function createArgExtremumPlan(ctx: ScanContext, which: ArgExtremum, options: ArgExtremumPlanOptions): ArgExtremumPlan {
  assertUsable(ctx);
  // `maxPartials` (tests: fewer workgroups, each folding a longer run of tiles) is not part of the contract.
  const given = checkOptions(options, ['type', 'maxCount', 'maxChunkElements', 'maxPartials'], 'options');
  const type = given['type'] === undefined ? 'u32' : checkElementType(given['type'], 'options.type');
  const maxCount = given['maxCount'] === undefined ? undefined : checkCount(given['maxCount'], 'options.maxCount');
  const maxChunkRecords =
    given['maxChunkElements'] === undefined ? undefined : checkCount(given['maxChunkElements'], 'options.maxChunkElements') || undefined;
  // The reduction of the records (x_i, i) under the (value, index) operator, formed as the
  // elements are loaded (a vec4 at a time): the operator reduction's indexed source.
  return createOperatorReducePlan(ctx, {
    op: argExtremumOperator(type, which),
    maxCount,
    maxChunkRecords,
    indexed: type,
    ...(given['maxPartials'] === undefined ? {} : { maxPartials: checkCount(given['maxPartials'], 'options.maxPartials') }),
    what: `arg${which} plan`,
  });
}

/**
 * Creates a reusable arg-min (buffer level): the least of `count` elements of `input` in core's
 * element order (f32: −∞ < … < −0 < +0 < … < +∞ < NaN, so NaNs count only when every element is
 * NaN) and the lowest index where it occurs, written to `output` as (value bits, index). A
 * reduction of (value, index) records through the user-operator reduction, the records formed
 * while the elements stream in as vec4s: two dispatches (up to 4096 partials, then one combine),
 * per binding-sized chunk. The count is `count`, or with `maxCount` (within one binding) a u32 the
 * GPU wrote (`countBuffer`). Memory: 32 KiB of partials and a few bytes of carry.
 *
 * @example
 * ```ts
 * const plan = createArgMinPlan(ctx, { type: 'f32' });
 * plan.encode(encoder, { input, output, count }); // output: [value bits, index]
 * ```
 */
export function createArgMinPlan(ctx: ScanContext, options: ArgExtremumPlanOptions = {}): ArgExtremumPlan {
  return createArgExtremumPlan(ctx, 'min', options);
}

/**
 * Creates a reusable arg-max (buffer level): the greatest of `count` elements of `input` in core's
 * element order (f32: NaN greatest, so the first NaN wins if there is one) and the lowest index
 * where it occurs, written to `output` as (value bits, index). Otherwise as {@link createArgMinPlan}.
 *
 * @example
 * ```ts
 * const plan = createArgMaxPlan(ctx, { type: 'f32', maxCount: 1 << 20 });
 * plan.encode(encoder, { input, output, countBuffer }); // a count the GPU wrote
 * ```
 */
export function createArgMaxPlan(ctx: ScanContext, options: ArgExtremumPlanOptions = {}): ArgExtremumPlan {
  return createArgExtremumPlan(ctx, 'max', options);
}
