import type { ScanTypedArray } from '../element-types.js';
import { checkData, checkFlags } from '../validate.js';
import { newLike, wordsOf } from './words.js';

/** Result of `split`. */
export interface SplitResult<T extends ScanTypedArray> {
  /** The elements whose flag is 0, in order, followed by those whose flag is 1, in order. */
  output: T;
  /** How many flags are 0: the index where the 1-flagged elements start. */
  falseCount: number;
}

/**
 * CPU reference of `split`: a stable partition of `data` by `flags` (0 first, then 1), the
 * building block of split radix sort. Bits are copied exactly.
 *
 * @example
 * ```ts
 * split(new Uint32Array([5, 6, 7, 8]), new Uint8Array([1, 0, 1, 0]));
 * // { output: Uint32Array [6, 8, 5, 7], falseCount: 2 }
 * ```
 */
export function split<T extends ScanTypedArray>(data: T, flags: Uint32Array | Uint8Array): SplitResult<T> {
  checkData(data);
  checkFlags(flags, data.length);
  const n = data.length;
  const input = wordsOf(data);
  let falseCount = 0;
  for (let i = 0; i < n; i++) if (flags[i] === 0) falseCount++;
  const { array, words } = newLike(data, n);
  let f = 0;
  let t = falseCount;
  for (let i = 0; i < n; i++) {
    if (flags[i] === 0) words[f++] = input[i]!;
    else words[t++] = input[i]!;
  }
  return { output: array, falseCount };
}
