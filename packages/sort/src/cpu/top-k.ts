import type { TopKOptions, TopKResult } from '../top-k-types.js';
import { normalizeTopK } from '../top-k-validate.js';
import type { SortArray } from '../types.js';
import { gather, orderValues } from './order-values.js';
import { radixPermutation } from './radix-permutation.js';

/**
 * CPU reference of `topK`: the k largest keys (smallest with `largest: false`), best first, their
 * indices, and their values when given — the first k of the stable `sort(keys, { descending:
 * largest })`, so equal keys are taken by lowest index (the GPU may take others among equal keys:
 * any is right). NaNs are the largest keys, as in `sort`. A radix sort of all n: a reference, not a
 * fast path.
 *
 * @example
 * ```ts
 * topK(new Float32Array([3, -1, NaN, 7]), 2); // { keys: Float32Array [NaN, 7], indices: Uint32Array [2, 3] }
 * topK(new Int32Array([5, -2, 5, 0]), 2, { largest: false, values: new Uint32Array([10, 11, 12, 13]) });
 * // { keys: Int32Array [-2, 0], indices: Uint32Array [1, 3], values: Uint32Array [11, 13] }
 * ```
 */
export function topK<K extends SortArray, V extends SortArray = SortArray>(keys: K, k: number, options?: TopKOptions<V>): TopKResult<K, V> {
  const o = normalizeTopK(keys, k, options);
  const indices = radixPermutation(orderValues(keys, o.keyType, o.largest, [0, 32]), 32).slice(0, o.k);
  const result: TopKResult<K, V> = { keys: gather(keys, indices), indices };
  if (o.values !== undefined) result.values = gather(o.values as V, indices);
  return result;
}
