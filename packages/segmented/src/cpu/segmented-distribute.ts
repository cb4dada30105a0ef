import type { ScanTypedArray } from '@scan/core';
import { newLike, wordsOf } from '@scan/core/cpu';
import { checkData } from '@scan/core/kit';
import type { HeadFlags } from '../types.js';
import { checkBackward, checkHeadFlags } from '../validate.js';

/** Options of `segmentedDistribute` and `segmentedEnumerate`. */
export interface SegmentedDirectionOptions {
  /** Work from each segment's last element towards its first (default false). */
  backward?: boolean;
}

/**
 * CPU reference of `segmentedDistribute`: every element gets its segment's first element
 * (backward: its segment's last element), the paper's `distribute([a b c][d e]) = [a a a][d d]`.
 * Bits are copied exactly (NaN payloads, -0). Element 0 always starts a segment.
 *
 * @example
 * ```ts
 * const heads = new Uint8Array([1, 0, 0, 1, 0]);
 * segmentedDistribute(new Uint32Array([1, 2, 3, 4, 5]), heads); // Uint32Array [1, 1, 1, 4, 4]
 * segmentedDistribute(new Uint32Array([1, 2, 3, 4, 5]), heads, { backward: true }); // [3, 3, 3, 5, 5]
 * ```
 */
export function segmentedDistribute<T extends ScanTypedArray>(data: T, headFlags: HeadFlags, options?: SegmentedDirectionOptions): T {
  checkData(data);
  checkHeadFlags(headFlags, data.length);
  const backward = checkBackward(options);
  const n = data.length;
  const input = wordsOf(data);
  const { array, words } = newLike(data, n);
  if (!backward) {
    let head = 0;
    for (let i = 0; i < n; i++) {
      if (i === 0 || headFlags[i] === 1) head = input[i]!;
      words[i] = head;
    }
  } else {
    let tail = 0;
    for (let i = n - 1; i >= 0; i--) {
      if (i === n - 1 || headFlags[i + 1] === 1) tail = input[i]!;
      words[i] = tail;
    }
  }
  return array;
}
