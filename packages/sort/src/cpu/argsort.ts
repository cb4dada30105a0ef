import { keyBitsOf } from '../key-order.js';
import type { ArgsortOptions, SortKeyArray } from '../types.js';
import { normalizeArgsortOptions } from '../validate.js';
import { keyPermutation } from './key-permutation.js';

/**
 * CPU reference of `argsort`: the stable permutation that sorts `keys` — `result[i]` is the input
 * index of the i-th smallest key (largest with `descending`), equal keys in input order. The key
 * order is `sort`'s; `sort(keys).keys[i]` is `keys[result[i]]`.
 *
 * @example
 * ```ts
 * argsort(new Float32Array([0.5, NaN, -2, 0.5])); // Uint32Array [2, 0, 3, 1]
 * argsort(new Float32Array([0.5, NaN, -2, 0.5]), { descending: true }); // Uint32Array [1, 0, 3, 2]
 * ```
 */
export function argsort(keys: SortKeyArray, options?: ArgsortOptions): Uint32Array {
  const { keyType, descending } = normalizeArgsortOptions(keys, options);
  // The whole key: argsort has no bit range.
  return keyPermutation(keys, keyType, descending, [0, keyBitsOf(keyType)]);
}
