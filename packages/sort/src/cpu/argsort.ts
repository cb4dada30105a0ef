import type { ArgsortOptions, SortArray } from '../types.js';
import { normalizeArgsortOptions } from '../validate.js';
import { orderValues } from './order-values.js';
import { radixPermutation } from './radix-permutation.js';

/** The whole key: argsort has no bit range. */
const ALL_BITS = [0, 32] as const;

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
export function argsort(keys: SortArray, options?: ArgsortOptions): Uint32Array {
  const { keyType, descending } = normalizeArgsortOptions(keys, options);
  return radixPermutation(orderValues(keys, keyType, descending, ALL_BITS), 32);
}
