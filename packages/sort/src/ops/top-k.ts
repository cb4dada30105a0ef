import type { ScanContext } from '@scan/core';
import { assertUsable, typedArrayOver, withSession } from '@scan/core/kit';
import { checkSortCount } from '../limits.js';
import { createTopKPlan } from '../plans/top-k-plan.js';
import type { TopKOptions, TopKResult } from '../top-k-types.js';
import { normalizeTopK } from '../top-k-validate.js';
import type { SortArray } from '../types.js';

/** An empty array of `like`'s class. */
function emptyOf<T extends SortArray>(like: T): T {
  return new (like.constructor as new (length: number) => T)(0);
}

/**
 * The `k` largest keys (smallest with `largest: false`), best first, with their indices in `keys`
 * and, when `values` are given, their values; resolves to new arrays (the inputs are untouched).
 * `k` is an integer with 0 ≤ k ≤ `keys.length`. Keys are ordered as in `sort`, so for f32 NaNs are
 * the largest keys: `topK(keys, k)` is what `sort(keys, { descending: true })` puts first, and
 * `topK(keys, k, { largest: false })` what `sort(keys)` does. Among equal keys any may be taken (the
 * set of keys is always right; the CPU reference takes the lowest indices).
 *
 * A radix select on the GPU (see `createTopKPlan`): two reads of the keys for typical data, then a
 * sort of the k chosen only.
 *
 * @example
 * ```ts
 * const { keys, indices } = await topK(ctx, new Float32Array([0.3, 0.9, 0.1, 0.7]), 2);
 * // keys: Float32Array [0.9, 0.7], indices: Uint32Array [1, 3]
 * ```
 */
export async function topK<K extends SortArray, V extends SortArray = SortArray>(
  ctx: ScanContext,
  keys: K,
  k: number,
  options: TopKOptions<V> = {},
): Promise<TopKResult<K, V>> {
  assertUsable(ctx);
  const o = normalizeTopK(keys, k, options);
  const n = keys.length;
  checkSortCount(ctx, n, 'keys');
  const values = o.values as V | undefined;
  if (o.k === 0) {
    return { keys: emptyOf(keys), indices: new Uint32Array(0), ...(values ? { values: emptyOf(values) } : {}) };
  }
  return withSession(ctx, 'topK', async (s) => {
    const keyBuffer = s.upload(keys, 'keys');
    const valueBuffer = values ? s.upload(values, 'values') : undefined;
    const outKeys = s.buffer(4 * o.k, 'top-k keys');
    const outIndices = s.buffer(4 * o.k, 'top-k indices');
    const outValues = values ? s.buffer(4 * o.k, 'top-k values') : undefined;
    const plan = await s.plan(
      createTopKPlan(ctx, { type: o.keyType, k: o.k, largest: o.largest, ...(o.valueType ? { values: o.valueType } : {}) }),
    );
    plan.encode(s.encoder, {
      keys: keyBuffer,
      count: n,
      outKeys,
      outIndices,
      ...(valueBuffer && outValues ? { values: valueBuffer, outValues } : {}),
    });
    const readKeys = s.readback(outKeys, 4 * o.k);
    const readIndices = s.readback(outIndices, 4 * o.k);
    const readValues = outValues ? s.readback(outValues, 4 * o.k) : undefined;
    s.submit();
    const result: TopKResult<K, V> = { keys: typedArrayOver(keys, await readKeys()), indices: new Uint32Array(await readIndices()) };
    if (readValues && values) result.values = typedArrayOver(values, await readValues());
    return result;
  });
}
