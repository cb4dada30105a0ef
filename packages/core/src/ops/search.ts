import { assertUsable, type ScanContext } from '../context.js';
import { checkSearchArgs } from '../cpu/search.js';
import { bitsOf, orderBitsOf } from '../key-order.js';
import { createSearchPlan } from '../plans/search-plan.js';
import { checkArrayLength } from '../validate.js';
import { withSession } from './session.js';

/**
 * For each needle, the first index i with `sorted[i] >= needle` (`sorted.length` if none), on the
 * GPU: where the needle would be inserted before its equals. Keys compare in core's element order
 * (f32: −∞ < … < −0 < +0 < … < +∞ < NaN, every NaN equal: `Float32Array.prototype.sort`'s order,
 * and `@scan/sort`'s); `sorted` must be ascending in it — this is not checked, and unsorted keys
 * give unspecified indices. `needles` must be of `sorted`'s class; they may come in any order. A
 * binary search per needle whose first levels hit a cache of keys in workgroup memory; needles that
 * look ascending (1024 samples) take the plan's `needleOrder: 'sorted'` path, where each tile of
 * needles searches only its own range of keys (see `createSearchPlan`).
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
    const plan = await s.plan(createSearchPlan(ctx, { type, side, needleOrder: looksSorted(needles, type) ? 'sorted' : 'any' }));
    const keys = s.upload(sorted.length === 0 ? new Uint32Array(1) : sorted, `${side}Bound sorted`);
    const wanted = s.upload(needles, `${side}Bound needles`);
    const output = s.buffer(4 * needles.length, `${side}Bound output`);
    plan.encode(s.encoder, { sorted: keys, sortedCount: sorted.length, needles: wanted, needleCount: needles.length, output });
    const read = s.readback(output, 4 * needles.length);
    s.submit();
    return new Uint32Array(await read());
  });
}

/**
 * Whether up to 1024 evenly spaced needles are ascending in the element order: a hint only (the
 * narrowed search is right for needles in any order, only slower when they are scattered), so a
 * sample is enough and costs nothing next to the upload.
 */
function looksSorted(needles: Uint32Array | Int32Array | Float32Array, type: 'u32' | 'i32' | 'f32'): boolean {
  const n = needles.length;
  if (n < 2) return false;
  const order = orderBitsOf(type);
  const bits = bitsOf(needles);
  const samples = Math.min(n, 1024);
  let previous = order(bits[0] as number);
  for (let j = 1; j < samples; j++) {
    const next = order(bits[Math.floor((j * (n - 1)) / (samples - 1))] as number);
    if (next < previous) return false;
    previous = next;
  }
  return true;
}
