import type { BitRange, SortAlgorithm, SortKeyType } from '../types.js';

/** Options of `createSortPlan`. */
export interface SortPlanOptions {
  /** Key type (default `'u32'`). */
  keyType?: SortKeyType;
  /** Type of the values that move with the keys; leave it out to sort keys only. */
  valueType?: SortKeyType;
  /** Largest key first (default false); see `SortOptions.descending`. */
  descending?: boolean;
  /** `'radix'` (default) or `'split-radix'`; `'quicksort'` decides on the host, so it has no plan. */
  algorithm?: Exclude<SortAlgorithm, 'quicksort'>;
  /** Sort on order bits `[begin, end)` only (default `[0, 32]`). */
  bits?: BitRange;
  /**
   * Largest count expected: scratch for it is allocated up front. Required with an indirect count
   * (`countBuffer`), which can never sort more than this.
   */
  maxCount?: number;
}

/**
 * Buffers of one in-place sort: the first `count` keys of `keys` (and values of `values`) are
 * sorted where they are. The count is `count`, or the u32 at byte `countOffset` of `countBuffer`,
 * read on the GPU (a count past the plan's `maxCount` sorts the first `maxCount` only).
 */
export interface SortEncodeArgs {
  keys: GPUBuffer;
  values?: GPUBuffer;
  /** Number of keys; give this or `countBuffer`. */
  count?: number;
  /** A buffer (STORAGE usage) holding the number of keys as a u32, e.g. written by a culling pass. */
  countBuffer?: GPUBuffer;
  /** Byte offset of the count in `countBuffer` (a multiple of 4, default 0). */
  countOffset?: number;
}

/** Options of `createSegmentedSortPlan`. */
export interface SegmentedSortPlanOptions {
  keyType?: SortKeyType;
  valueType?: SortKeyType;
  descending?: boolean;
  /** Largest count expected: scratch for it is allocated up front. */
  maxCount?: number;
  /**
   * Most segments an encode will have (default: the count). The plan sorts by segment number on
   * the whole bytes that hold ⌈log2 maxSegments⌉ bits, so a bound makes it faster (2^14 segments:
   * two digit passes instead of three at 2^24 keys). More segments than this give a wrong order.
   */
  maxSegments?: number;
}

/**
 * Buffers of one in-place segmented sort: `count` keys (and values), and their segments as
 * bit-packed head flags (bit `i % 32` of word `⌊i / 32⌋` marks the first element of a segment, the
 * layout `@scan/segmented`'s plans read; element 0 always starts one).
 */
export interface SegmentedSortEncodeArgs {
  keys: GPUBuffer;
  values?: GPUBuffer;
  headFlags: GPUBuffer;
  count: number;
}
