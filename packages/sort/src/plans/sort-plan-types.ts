import type { BitRange, SortAlgorithm, SortKeyType, SortValueType, SortValueWidth } from '../types.js';

/** Options of `createSortPlan`. */
export interface SortPlanOptions {
  /**
   * Key type (default `'u32'`); `'u64'` and `'i64'` (two words per key), `'u16'` and `'f16'` (two
   * keys per word, f16 ordered by its bits like f32) with `'radix'` only.
   */
  keyType?: SortKeyType;
  /** Type of the values that move with the keys; leave it out (and `valueWidth`) to sort keys only. */
  valueType?: SortValueType;
  /**
   * Bytes of one value: 4 (default), 8, 12 or 16 (`'radix'` only). Value `i` is the record at byte
   * `i · valueWidth` of `values`, moved bit for bit; giving a width alone also makes the plan move
   * values (their type does not matter to the GPU).
   */
  valueWidth?: SortValueWidth;
  /** Largest key first (default false); see `SortOptions.descending`. */
  descending?: boolean;
  /** `'radix'` (default) or `'split-radix'`; `'quicksort'` decides on the host, so it has no plan. */
  algorithm?: Exclude<SortAlgorithm, 'quicksort'>;
  /** Sort on order bits `[begin, end)` only (default the whole key: `[0, 32]`, `[0, 64]` for 64-bit keys). */
  bits?: BitRange;
  /**
   * Largest count expected: scratch for it is allocated up front. Required with an indirect count
   * (`countBuffer`), which can never sort more than this.
   */
  maxCount?: number;
  /**
   * **Unstable**: the radix sort's tuning, for benchmark sweeps and tests (see {@link SortTuning}).
   * Not covered by semver: its keys may change or go away in any minor release. The split radix
   * sort has none and ignores it; checked either way.
   */
  tuning?: SortTuning;
}

/**
 * The tuning keys of the radix sort (`createSortPlan`'s `options.tuning`), which the repository's
 * benchmark sweeps (`apps/bench --tuning`) and tests set. **Unstable**: not part of the API
 * contract, not covered by semver; any key may change meaning, default or existence in any minor
 * release. Every key is optional; a value outside its range is an `INVALID_ARGUMENT` `ScanError`
 * naming `options.tuning.<key>`.
 *
 * @example
 * ```ts
 * const plan = createSortPlan(ctx, { keyType: 'u32', maxCount: 1 << 20, tuning: { elementsPerThread: 16, padLast: false } });
 * ```
 */
export interface SortTuning {
  /** Invocations per workgroup of the one-sweep pass: a power of two (default 256 with subgroups of at least 32 lanes). */
  workgroupSize?: number;
  /** Keys per invocation of the one-sweep pass, 1 to 64 (default 13 with subgroups, 8 without; fewer where workgroup memory is short). */
  elementsPerThread?: number;
  /** Look-back reads of a predecessor that is not ready before falling back (default 64). */
  maxSpin?: number;
  /** Test hook: every look-back falls back (default false). */
  forceFallback?: boolean;
  /** Test hook: false takes the portable path (workgroup memory instead of subgroup ballots) on a device with subgroups. */
  subgroups?: boolean;
  /** Unroll the per-key steps of the one-sweep pass (default: everywhere but SwiftShader). */
  unrolled?: boolean;
  /**
   * Pad partial tiles with the key that sorts last instead of testing each key's index in every
   * phase (default true: 5% faster at 2^24–2^28 on the H200, and faster at every size). False keeps
   * the index tests, as descending f32 always does.
   */
  padLast?: boolean;
  /** Experiment (issue 32): the scatter's workgroup loads batched (default false). */
  batchScatter?: boolean;
  /**
   * The ranking's leader lane by a population count instead of `firstTrailingBit` (default true:
   * with `skipClears`, 7.6% faster at 2^28 on the H100).
   */
  leaderPopcount?: boolean;
  /**
   * Leave the tile's counters to WGSL's zero-initialized workgroup memory instead of clearing them
   * (default true). Pass false on a Dawn device created with the unsafe `disable_workgroup_init`
   * toggle, whose workgroup memory starts with whatever was there.
   */
  skipClears?: boolean;
  /**
   * Counts up to this go to the one-workgroup bitonic sort (one dispatch) instead of the radix
   * passes. Default: the largest network the device's workgroup memory holds (4096 keys where it
   * has 32 KiB; 1024 on SwiftShader); 0 turns the small path off; values past the largest network
   * are capped there.
   */
  smallSortMax?: number;
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
  /** Key type (default `'u32'`); `'u64'` and `'i64'` too (8 bytes a key in `keys`). */
  keyType?: SortKeyType;
  valueType?: SortValueType;
  /** Bytes of one value: 4 (default), 8, 12 or 16; a width alone also makes the plan move values (see `SortPlanOptions.valueWidth`). */
  valueWidth?: SortValueWidth;
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
