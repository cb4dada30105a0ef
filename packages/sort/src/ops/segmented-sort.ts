import type { ScanContext } from '@scan/core';
import { assertUsable, withSession } from '@scan/core/kit';
import type { HeadFlags, SegmentOffsets } from '@scan/segmented';
import { keyWordsOf } from '../key-order.js';
import { checkSortCount, checkSortValueBytes } from '../limits.js';
import { createSegmentedSortPlan } from '../plans/segmented-sort-plan.js';
import type { SegmentedSortOptions, SortArray, SortKeyArray, SortResult, SortValueArray } from '../types.js';
import { normalizeSegmentedSortArgs } from '../validate.js';
import { readSorted, uploadSort } from './sorted-arrays.js';

/** One head flag per key packed into bits (bit `i % 32` of word `⌊i / 32⌋`), as the plans read them. */
function packHeads(flags: HeadFlags): Uint32Array {
  const words = new Uint32Array(Math.max(1, Math.ceil(flags.length / 32)));
  for (let i = 0; i < flags.length; i++) if (flags[i]) words[i >>> 5]! |= 1 << (i & 31);
  return words;
}

/**
 * Sorts the keys inside every segment, stably, and the values with them (the segments stay where
 * they are); resolves to new arrays. Segments are head flags (1 marks the first key of a segment;
 * key 0 always starts one) or `{ offsets }` as `@scan/segmented` takes them. Keys are ordered as in
 * `sort` (floats by the total order, NaNs last), `descending` reverses it.
 *
 * @example
 * ```ts
 * const { keys } = await segmentedSort(ctx, new Uint32Array([3, 1, 2, 9, 7]), new Uint8Array([1, 0, 0, 1, 0]));
 * // keys: [1, 2, 3, 7, 9]
 * ```
 */
export async function segmentedSort<K extends SortKeyArray, V extends SortValueArray = SortArray>(
  ctx: ScanContext,
  keys: K,
  headFlags: HeadFlags | SegmentOffsets,
  options: SegmentedSortOptions<V> = {},
): Promise<SortResult<K, V>> {
  assertUsable(ctx);
  const o = normalizeSegmentedSortArgs(keys, headFlags, options);
  const n = keys.length;
  checkSortCount(ctx, n, 'keys', keyWordsOf(o.keyType));
  if (o.values) checkSortValueBytes(ctx, n, o.valueWidth, 'options.values');
  const values = o.values as V | undefined;
  if (n <= 1) return { keys: keys.slice() as K, ...(values ? { values: values.slice() as V } : {}) };
  return withSession(ctx, 'segmentedSort', async (s) => {
    const up = uploadSort(s, keys, values);
    const heads = s.upload(packHeads(o.headFlags), 'headFlags');
    const plan = await s.plan(
      createSegmentedSortPlan(ctx, {
        keyType: o.keyType,
        ...(o.valueType ? { valueType: o.valueType, valueWidth: o.valueWidth } : {}),
        descending: o.descending,
        // Fewer bits to sort the segment numbers on (empty segments, which hold no key, count too).
        maxSegments: Math.max(1, o.segments.segmentCount),
        maxCount: n,
      }),
    );
    plan.encode(s.encoder, { keys: up.keyBuffer, ...(up.valueBuffer ? { values: up.valueBuffer } : {}), headFlags: heads, count: n });
    return readSorted(s, up);
  });
}
