import { assertUsable, type ScanContext } from '../context.js';
import { checkSearchArgs } from '../cpu/search.js';
import { createSearchPlan } from '../plans/search-plan.js';
import { checkArrayLength } from '../validate.js';
import { withSession } from './session.js';

/**
 * For each needle, the first index i with `sorted[i] >= needle` (`sorted.length` if none), on the
 * GPU: where the needle would be inserted before its equals. Keys compare in core's element order
 * (f32: −∞ < … < −0 < +0 < … < +∞ < NaN, every NaN equal: `Float32Array.prototype.sort`'s order,
 * and `@scan/sort`'s); `sorted` must be ascending in it — this is not checked, and unsorted keys
 * give unspecified indices. `needles` must be of `sorted`'s class; they may come in any order. A
 * binary search per needle whose first levels hit a cache of keys in workgroup memory (see
 * `createSearchPlan`).
 *
 * @example
 * ```ts
 * const edges = new Float32Array([0, 10, 20, 30]);
 * const at = await lowerBound(ctx, edges, new Float32Array([10, 15, -1, 99])); // Uint32Array [1, 2, 0, 4]
 * ```
 */
export function lowerBound(
  ctx: ScanContext,
  sorted: Uint32Array | Int32Array | Float32Array,
  needles: Uint32Array | Int32Array | Float32Array,
): Promise<Uint32Array> {
  return search(ctx, sorted, needles, 'lower');
}

/**
 * For each needle, the first index i with `sorted[i] > needle` (`sorted.length` if none), on the
 * GPU: where the needle would be inserted after its equals, so with bin edges `sorted`,
 * `upperBound − 1` is the bin of each needle. Otherwise as {@link lowerBound}.
 *
 * @example
 * ```ts
 * const at = await upperBound(ctx, new Uint32Array([1, 2, 2, 5]), new Uint32Array([2, 0, 9])); // Uint32Array [3, 0, 4]
 * ```
 */
export function upperBound(
  ctx: ScanContext,
  sorted: Uint32Array | Int32Array | Float32Array,
  needles: Uint32Array | Int32Array | Float32Array,
): Promise<Uint32Array> {
  return search(ctx, sorted, needles, 'upper');
}

async function search(
  ctx: ScanContext,
  sorted: Uint32Array | Int32Array | Float32Array,
  needles: Uint32Array | Int32Array | Float32Array,
  side: 'lower' | 'upper',
): Promise<Uint32Array> {
  assertUsable(ctx);
  const type = checkSearchArgs(sorted, needles);
  checkArrayLength(ctx, sorted.length, 'sorted');
  checkArrayLength(ctx, needles.length, 'needles', 'buffer');
  if (needles.length === 0) return new Uint32Array(0);
  return withSession(ctx, `${side}Bound`, async (s) => {
    const plan = await s.plan(createSearchPlan(ctx, { type, side }));
    const keys = s.upload(sorted.length === 0 ? new Uint32Array(1) : sorted, `${side}Bound sorted`);
    const wanted = s.upload(needles, `${side}Bound needles`);
    const output = s.buffer(4 * needles.length, `${side}Bound output`);
    plan.encode(s.encoder, { sorted: keys, sortedCount: sorted.length, needles: wanted, needleCount: needles.length, output });
    const read = s.readback(output, 4 * needles.length);
    s.submit();
    return new Uint32Array(await read());
  });
}
