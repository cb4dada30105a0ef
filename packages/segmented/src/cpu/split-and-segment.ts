import type { ScanTypedArray } from '@scan/core';
import { newLike, wordsOf } from '@scan/core/cpu';
import { checkData, checkFlags } from '@scan/core/kit';
import type { HeadFlags } from '../types.js';
import { checkHeadFlags } from '../validate.js';

/** Result of `splitAndSegment`. */
export interface SplitAndSegmentResult<T extends ScanTypedArray, F extends HeadFlags = HeadFlags> {
  /** Every segment split stably: its 0-flagged elements, in order, then its 1-flagged ones. */
  output: T;
  /** Head flags of the result (same array type as the input's): a 1 at the start of each non-empty part. */
  headFlags: F;
}

/**
 * CPU reference of `splitAndSegment` (the paper's §2.3.3): a stable split inside every segment —
 * the segment's elements whose flag is 0 first, then those whose flag is 1 — and each segment
 * becomes two, the falses and the trues. A part with no elements is no segment (head flags cannot
 * express an empty one), so a segment of all falses or all trues stays one segment.
 * Bits are copied exactly. Element 0 always starts a segment.
 *
 * @example
 * ```ts
 * // The paper: split-and-segment([at bf ct][df et ff]) = [bf][at ct][df ff][et], with a..f = 1..6:
 * splitAndSegment(new Uint32Array([1, 2, 3, 4, 5, 6]), new Uint8Array([1, 0, 1, 0, 1, 0]), new Uint8Array([1, 0, 0, 1, 0, 0]));
 * // { output: Uint32Array [2, 1, 3, 4, 6, 5], headFlags: Uint8Array [1, 1, 0, 1, 0, 1] }
 * ```
 */
export function splitAndSegment<T extends ScanTypedArray, F extends HeadFlags>(
  data: T,
  flags: Uint8Array | Uint32Array,
  headFlags: F,
): SplitAndSegmentResult<T, F> {
  checkData(data);
  checkFlags(flags, data.length, 'flags');
  checkHeadFlags(headFlags, data.length);
  const n = data.length;
  const input = wordsOf(data);
  const { array, words } = newLike(data, n);
  const heads = new (headFlags.constructor as new (length: number) => F)(n);
  let start = 0;
  while (start < n) {
    let end = start + 1;
    while (end < n && headFlags[end] !== 1) end++;
    let falses = 0;
    for (let i = start; i < end; i++) if (flags[i] === 0) falses++;
    let f = start;
    let t = start + falses;
    for (let i = start; i < end; i++) {
      if (flags[i] === 0) words[f++] = input[i]!;
      else words[t++] = input[i]!;
    }
    heads[start] = 1;
    if (falses > 0 && start + falses < end) heads[start + falses] = 1;
    start = end;
  }
  return { output: array, headFlags: heads };
}
