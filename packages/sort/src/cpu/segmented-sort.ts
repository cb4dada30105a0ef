import type { HeadFlags, SegmentOffsets } from '@scan/segmented';
import type { NormalizedSegments } from '@scan/segmented/kit';
import { keyBitsOf } from '../key-order.js';
import type { SegmentedSortOptions, SortArray, SortKeyArray, SortResult, SortValueArray } from '../types.js';
import { normalizeSegmentedSortArgs } from '../validate.js';
import { gatherKeys, gatherRecords, keyPermutation } from './key-permutation.js';

/**
 * CPU reference of `segmentedSort`: every segment sorted on its own, stably, in `sort`'s key order
 * (reversed with `descending`); keys never leave their segment, and values move with their keys.
 * Segments are head flags (element 0 always starts one) or `{ offsets }` (empty segments allowed).
 * New arrays, the inputs untouched.
 *
 * @example
 * ```ts
 * segmentedSort(new Uint32Array([3, 1, 2, 9, 7]), new Uint8Array([1, 0, 0, 1, 0]));
 * // { keys: Uint32Array [1, 2, 3, 7, 9] }
 * segmentedSort(new Int32Array([3, 1, 2, 9, 7]), { offsets: new Uint32Array([0, 2, 2, 5]) }, { descending: true });
 * // { keys: Int32Array [3, 1, 9, 7, 2] }
 * ```
 */
export function segmentedSort<K extends SortKeyArray, V extends SortValueArray = SortArray>(
  keys: K,
  headFlags: HeadFlags | SegmentOffsets,
  options?: SegmentedSortOptions<V>,
): SortResult<K, V> {
  const { keyType, values, valueWidth, descending, segments } = normalizeSegmentedSortArgs(keys, headFlags, options);
  const n = keys.length;
  // Sort everything by key, then distribute the sorted order stably into the segments (a counting
  // sort on the segment, whose buckets are already laid out): within each segment the keys stay in
  // key order, and equal keys in input order. O(n) beyond the radix sort, whatever the segments.
  // Segmented sort orders whole keys.
  const byKey = keyPermutation(keys, keyType, descending, [0, keyBitsOf(keyType)]);
  const start = segmentStarts(segments, n);
  const cursor = new Uint32Array(n); // next free slot of the segment starting at s, minus s
  const permutation = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const p = byKey[i]!;
    const s = start[p]!;
    permutation[s + cursor[s]!++] = p;
  }
  const result: SortResult<K, V> = { keys: gatherKeys(keys, permutation) };
  if (values !== undefined) result.values = gatherRecords(values as V, permutation, valueWidth);
  return result;
}

/** For every element, the index of the first element of its segment. */
function segmentStarts(segments: NormalizedSegments, n: number): Uint32Array {
  const start = new Uint32Array(n);
  if (segments.kind === 'headFlags') {
    let s = 0;
    for (let i = 0; i < n; i++) {
      if (segments.headFlags[i] === 1) s = i; // element 0 starts one whatever its flag: s is 0 there
      start[i] = s;
    }
  } else {
    const { offsets } = segments;
    for (let k = 0; k + 1 < offsets.length; k++) start.fill(offsets[k]!, offsets[k]!, offsets[k + 1]!);
  }
  return start;
}
