import type { ElementType } from '@scan/core';

/** Typed arrays of 32-bit elements: values of every sort, keys of every algorithm; the element type follows the array. */
export type SortArray = Uint32Array | Int32Array | Float32Array;

/**
 * Typed arrays `sort`, `argsort` and `createSortPlan` take as keys: the 32-bit ones
 * ({@link SortArray}) and 64-bit integers (`BigUint64Array` is `'u64'`, `BigInt64Array` `'i64'`,
 * radix sort only).
 */
export type SortKeyArray = SortArray | BigUint64Array | BigInt64Array | Uint16Array;

/**
 * Typed arrays `sort` and `segmentedSort` take as values: any typed array whose byte length is the
 * keys' count × a value width of 4, 8, 12 or 16 bytes (see `SortOptions.values`). Values move as
 * records of that many bytes, bit for bit, and come back as the class given.
 */
export type SortValueArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

/** Bytes of one value: the widths values may have (see {@link SortValueArray}). */
export type SortValueWidth = 4 | 8 | 12 | 16;

/** Every value width, ascending. */
export const SORT_VALUE_WIDTHS: readonly SortValueWidth[] = [4, 8, 12, 16];

/** Element types of values (`'u32'`, `'i32'`, `'f32'`): 4 bytes each. */
export type SortValueType = ElementType;

/**
 * Element types of keys: the value types, and the 64-bit integers `'u64'` and `'i64'` (two words
 * per key, little-endian as `BigUint64Array` stores them; the radix sort only).
 */
export type SortKeyType = ElementType | 'u64' | 'i64' | HalfKeyType;

/**
 * 16-bit key types: `'u16'` (a `Uint16Array`) and `'f16'` (half floats by their bits: a
 * `Float16Array`, or a `Uint16Array` with `keyType: 'f16'`), ordered like f32 (−NaN… −∞ < … < −0 <
 * +0 < … < +∞ < NaN, every NaN equal). Two keys per 32-bit word in a buffer; radix sort only.
 */
export type HalfKeyType = 'u16' | 'f16';

/** Key types of two 32-bit words. */
export type WideKeyType = 'u64' | 'i64';

/**
 * Sort algorithms:
 * - `'radix'` (default): a one-sweep LSD radix sort (Adinets & Merrill 2022) with 8-bit digits —
 *   one histogram pass over the keys, then one pass per digit whose digit offsets are chained
 *   between tiles by a decoupled look-back with fallback.
 * - `'split-radix'`: the radix sort of Sengupta et al. 2007 (section 4.1), one stable `split` per
 *   key bit.
 * - `'quicksort'`: the segmented quicksort of Sengupta et al. 2007: the first element of every
 *   segment is its pivot, comparisons alternate `>` and `>=`, `splitAndSegment` partitions, and a
 *   global reduction decides when the array is sorted. Array level only (it reads that decision
 *   back), and slow on reversed input, as in the paper (one element per segment per round).
 */
export type SortAlgorithm = 'radix' | 'split-radix' | 'quicksort';

/** Every sort algorithm, in a stable order (tests and benchmarks iterate over it). */
export const SORT_ALGORITHMS: readonly SortAlgorithm[] = ['radix', 'split-radix', 'quicksort'];

/**
 * A range of key bits `[begin, end)` to sort on, like CUB's `begin_bit`/`end_bit`: bits outside it
 * are ignored (keys equal on the range keep their input order). Bits are those of the key's order
 * (see {@link SortOptions.descending}): for u32 keys the plain bits, so `[0, 16)` sorts by the low
 * half. `0 ≤ begin < end ≤ 32`, or `≤ 64` for 64-bit keys.
 */
export type BitRange = readonly [begin: number, end: number];

/** Options of `sort`. */
export interface SortOptions<V extends SortValueArray = SortArray> {
  /**
   * Values that move with their keys: any typed array whose byte length is n × w (n keys, w ∈ {4,
   * 8, 12, 16}), each value the w bytes at i · w — a `Float32Array` of n, a `Float64Array` of n
   * (w = 8), a `Float32Array` of 4n (w = 16), a `Uint8Array` of 12n bytes. Returned as the same class.
   */
  values?: V;
  /**
   * Largest key first (default false). Descending is the exact reverse of the ascending key order,
   * and stable among equal keys (they keep their input order). Keys are ordered as numbers of their
   * type; floats by the total order −∞ < … < −0 < +0 < … < +∞ < NaN, with every NaN equal (so NaNs
   * come last ascending, first descending, in input order). Keys come back bit for bit (NaN payloads
   * kept).
   */
  descending?: boolean;
  /** Algorithm (default `'radix'`). */
  algorithm?: SortAlgorithm;
  /** Sort on key bits `[begin, end)` only (`'radix'` and `'split-radix'`); default the whole key (`[0, 32]`, `[0, 64]` for 64-bit keys, `[0, 16]` for 16-bit keys). */
  bits?: BitRange;
  /**
   * The keys' type where the array does not say it: `'f16'` reads a `Uint16Array` as half-float
   * bits (default `'u16'`). Any other value must be the array's own type.
   */
  keyType?: SortKeyType;
}

/** What `sort` and `segmentedSort` resolve to: new arrays, the inputs untouched. */
export interface SortResult<K extends SortKeyArray = SortArray, V extends SortValueArray = SortArray> {
  keys: K;
  /** The values in their keys' new order (present when values were given). */
  values?: V;
}

/** Options of `argsort`. */
export interface ArgsortOptions {
  /** Largest key first (default false); see {@link SortOptions.descending}. */
  descending?: boolean;
  /** `'f16'` reads a `Uint16Array` as half-float bits; see {@link SortOptions.keyType}. */
  keyType?: SortKeyType;
}

/** Options of `segmentedSort`. */
export interface SegmentedSortOptions<V extends SortValueArray = SortArray> {
  /** Values that move with their keys: n × w bytes, w ∈ {4, 8, 12, 16} (see `SortOptions.values`). */
  values?: V;
  descending?: boolean;
}
