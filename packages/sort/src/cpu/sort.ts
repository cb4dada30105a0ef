import type { SortArray, SortKeyArray, SortOptions, SortResult, SortValueArray } from '../types.js';
import { normalizeSortOptions } from '../validate.js';
import { gatherKeys, gatherRecords, keyPermutation } from './key-permutation.js';

/**
 * CPU reference of `sort`: new arrays with the keys (and the values moved with them) in key order,
 * stable, the inputs untouched. Keys are ordered by their order bits (`orderBitsOf`: numbers of
 * their type; floats −∞ < … < −0 < +0 < … < +∞ < NaN with every NaN equal), reversed exactly when
 * `descending`, restricted to `bits` `[begin, end)` of those order bits when given. Keys and values
 * come back bit for bit (NaN payloads kept). `options.algorithm` is validated as on the GPU and
 * otherwise ignored: every algorithm gives this one result.
 *
 * An LSD radix sort with up to 11-bit digits, so 2^21 keys take tens of milliseconds.
 *
 * @example
 * ```ts
 * sort(new Float32Array([2, NaN, -0, 0, -1])); // { keys: Float32Array [-1, -0, 0, 2, NaN] }
 * sort(new Int32Array([3, -1, 3]), { values: new Uint32Array([0, 1, 2]), descending: true });
 * // { keys: Int32Array [3, 3, -1], values: Uint32Array [0, 2, 1] }: equal keys keep their order
 * sort(new Uint32Array([0x0102, 0x0201]), { bits: [0, 8] }); // { keys: Uint32Array [0x0201, 0x0102] }
 * sort(new BigInt64Array([3n, -(2n ** 40n), 0n])); // { keys: BigInt64Array [-(2n ** 40n), 0n, 3n] }
 * ```
 */
export function sort<K extends SortKeyArray, V extends SortValueArray = SortArray>(keys: K, options?: SortOptions<V>): SortResult<K, V> {
  const { keyType, values, valueWidth, descending, bits } = normalizeSortOptions(keys, options);
  const permutation = keyPermutation(keys, keyType, descending, bits);
  const result: SortResult<K, V> = { keys: gatherKeys(keys, permutation) };
  if (values !== undefined) result.values = gatherRecords(values as V, permutation, valueWidth);
  return result;
}
