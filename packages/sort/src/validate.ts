import type { ElementType } from '@scan/core';
import { ScanError } from '@scan/core';
import { checkBoolean, checkOneOf, checkOptions, describeValue, invalidArgument } from '@scan/core/kit';
import type { HeadFlags } from '@scan/segmented';
import { checkSegments, type NormalizedSegments } from '@scan/segmented/kit';
import { isHalfKey, keyBitsOf } from './key-order.js';
import {
  type BitRange,
  SORT_ALGORITHMS,
  SORT_VALUE_WIDTHS,
  type SortAlgorithm,
  type SortArray,
  type SortKeyArray,
  type SortKeyType,
  type SortValueArray,
  type SortValueType,
  type SortValueWidth,
} from './types.js';

// Argument validation shared by the GPU functions of `@scan/sort` and their CPU references, so both
// reject the same inputs with the same messages (core's form `argument = value: why`). Keys are
// checked before options, and options in the order they are declared, so the first fault reported
// is the same on both sides.

/** The whole key: what `bits` defaults to, and the only range quicksort (a comparison sort) sorts on. */
const ALL_BITS: BitRange = [0, 32];

const KEY_TYPES_WANTED = 'expected a Uint32Array, Int32Array or Float32Array';

/**
 * The element type of a key (or value) array: `Uint32Array` → `'u32'`, `Int32Array` → `'i32'`,
 * `Float32Array` → `'f32'`. Anything else is an `INVALID_ARGUMENT` {@link ScanError} naming
 * `argument`; other typed arrays (`Float64Array`, `Uint16Array`, …) get a message saying that their
 * element type is the problem, since the sorts work on 32-bit elements only.
 *
 * @example
 * ```ts
 * checkSortKeys(new Float32Array(8)); // 'f32'
 * checkSortKeys(new Float64Array(8)); // throws: keys = Float64Array(8): 64-bit Float64Array elements are not supported …
 * checkSortKeys([3, 1, 2]); // throws: keys = Array(3): expected a Uint32Array, Int32Array or Float32Array
 * ```
 */
export function checkSortKeys(keys: unknown, argument = 'keys'): ElementType {
  if (keys instanceof Uint32Array) return 'u32';
  if (keys instanceof Int32Array) return 'i32';
  if (keys instanceof Float32Array) return 'f32';
  if (ArrayBuffer.isView(keys) && !(keys instanceof DataView)) {
    const bytes = (keys as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
    return invalidArgument(
      argument,
      keys,
      `${bytes * 8}-bit ${keys.constructor.name} elements are not supported: ${KEY_TYPES_WANTED} (convert the data to 32 bits first)`,
    );
  }
  return invalidArgument(argument, keys, KEY_TYPES_WANTED);
}

/**
 * The key type of `sort`'s, `argsort`'s and `createSortPlan`'s keys: those of
 * {@link checkSortKeys}, and `BigUint64Array` → `'u64'`, `BigInt64Array` → `'i64'`.
 *
 * @example
 * ```ts
 * checkSortKeyArray(new BigInt64Array(8)); // 'i64'
 * checkSortKeyArray(new Float64Array(8)); // throws: keys = Float64Array(8): 64-bit Float64Array elements are not supported …
 * ```
 */
export function checkSortKeyArray(keys: unknown, argument = 'keys'): SortKeyType {
  if (keys instanceof BigUint64Array) return 'u64';
  if (keys instanceof BigInt64Array) return 'i64';
  if (keys instanceof Uint16Array) return 'u16';
  if (isFloat16Array(keys)) return 'f16';
  if (
    ArrayBuffer.isView(keys) &&
    !(keys instanceof DataView) &&
    !(keys instanceof Uint32Array || keys instanceof Int32Array || keys instanceof Float32Array)
  ) {
    const bytes = (keys as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
    return invalidArgument(
      argument,
      keys,
      `${bytes * 8}-bit ${keys.constructor.name} elements are not supported: ${WIDE_KEY_TYPES_WANTED}`,
    );
  }
  if (!ArrayBuffer.isView(keys) || keys instanceof DataView) return invalidArgument(argument, keys, WIDE_KEY_TYPES_WANTED);
  return checkSortKeys(keys, argument);
}

const WIDE_KEY_TYPES_WANTED =
  'expected a Uint32Array, Int32Array, Float32Array, BigUint64Array, BigInt64Array, Uint16Array or Float16Array';

/** Whether `x` is a `Float16Array` (where the engine has one). */
function isFloat16Array(x: unknown): boolean {
  const F16 = (globalThis as { Float16Array?: new () => unknown }).Float16Array;
  return F16 !== undefined && x instanceof F16;
}

/**
 * The key type of an array with `options.keyType`: absent, the array's own type; else it must fit
 * the array — `'u16'` or `'f16'` on a `Uint16Array` (f16 bits), the array's own type otherwise —
 * or an `INVALID_ARGUMENT` {@link ScanError} naming `argument`.
 *
 * @example
 * ```ts
 * checkKeyTypeOption('u16', 'f16', 'options.keyType'); // 'f16'
 * checkKeyTypeOption('u32', 'f16', 'options.keyType'); // throws: options.keyType = "f16": does not fit Uint32Array keys …
 * ```
 */
export function checkKeyTypeOption(arrayType: SortKeyType, keyType: unknown, argument: string): SortKeyType {
  if (keyType === undefined || keyType === arrayType) return arrayType;
  if (arrayType === 'u16' && keyType === 'f16') return 'f16';
  const fits = arrayType === 'u16' ? "'u16' or 'f16'" : `'${arrayType}'`;
  return invalidArgument(argument, keyType, `does not fit ${arrayType} keys (their array takes ${fits})`);
}

/**
 * A 16-bit key type where the segmented sort is asked for: an `UNSUPPORTED` {@link ScanError}
 * naming `argument` (it sorts 32- and 64-bit keys).
 *
 * @example
 * ```ts
 * checkSegmentedKeyType('u16', 'keys'); // throws
 * ```
 */
export function checkSegmentedKeyType(keyType: SortKeyType, argument: string): void {
  if (!isHalfKey(keyType)) return;
  throw new ScanError('UNSUPPORTED', `${argument}: ${keyType} keys are not segment-sorted (widen them to 32 bits)`, { argument });
}

/**
 * A 64-bit key type with an algorithm other than `'radix'`: an `UNSUPPORTED` {@link ScanError}
 * naming `argument` (the split radix sort and the quicksort work on 32-bit keys).
 *
 * @example
 * ```ts
 * checkAlgorithmTakes('split-radix', 'u64', 'options.algorithm'); // throws
 * ```
 */
export function checkAlgorithmTakes(algorithm: SortAlgorithm, keyType: SortKeyType, argument: string): void {
  if (algorithm === 'radix' || keyBitsOf(keyType) === 32) return;
  throw new ScanError(
    'UNSUPPORTED',
    `${argument} = "${algorithm}": ${keyType} keys are sorted by 'radix' only ('${algorithm}' takes 32-bit keys)`,
    { argument },
  );
}

/** Options of `sort` after validation, every default filled in. */
export interface NormalizedSortOptions {
  readonly keyType: SortKeyType;
  /** The values that move with the keys, or undefined for keys only. */
  readonly values: SortValueArray | undefined;
  readonly valueType: SortValueType | undefined;
  /** Bytes of one value (4 without values, and for n = 0). */
  readonly valueWidth: SortValueWidth;
  readonly descending: boolean;
  readonly algorithm: SortAlgorithm;
  /** Order bits `[begin, end)` to sort on; `[0, 32]` when not given. */
  readonly bits: BitRange;
}

/**
 * Validates the keys and options of `sort`: keys of a supported type; `values` of a supported type
 * and the keys' length; `descending` a boolean (default false); `algorithm` one of
 * {@link SORT_ALGORITHMS} (default `'radix'`; the CPU reference accepts and ignores it), `'radix'`
 * for 64-bit keys; `bits` a range `[begin, end]` of integers with `0 ≤ begin < end ≤` the key's bits
 * (default the whole key). A narrower
 * `bits` with `'quicksort'` is `UNSUPPORTED` (it compares whole keys). Unknown keys are rejected.
 *
 * @example
 * ```ts
 * normalizeSortOptions(new Float32Array(4), { descending: true });
 * // { keyType: 'f32', values: undefined, valueType: undefined, descending: true, algorithm: 'radix', bits: [0, 32] }
 * normalizeSortOptions(new Uint32Array(4), { bits: [8, 8] }); // throws: options.bits = [8, 8]: empty range …
 * ```
 */
export function normalizeSortOptions(keys: unknown, options: unknown): NormalizedSortOptions {
  const arrayType = checkSortKeyArray(keys);
  const o = checkOptions(options, ['values', 'descending', 'algorithm', 'bits', 'keyType']);
  const keyType = checkKeyTypeOption(arrayType, o['keyType'], 'options.keyType');
  const { values, valueType, valueWidth } = checkValues(o['values'], (keys as SortKeyArray).length);
  const descending = checkBoolean(o['descending'], 'options.descending', false);
  const algorithm = checkOneOf<SortAlgorithm>(o['algorithm'], SORT_ALGORITHMS, 'options.algorithm', 'radix');
  checkAlgorithmTakes(algorithm, keyType, 'options.algorithm');
  checkAlgorithmTakesValues(algorithm, valueWidth, 'options.algorithm');
  const bits = checkBitRange(o['bits'], 'options.bits', keyBitsOf(keyType));
  if (algorithm === 'quicksort' && (bits[0] !== 0 || bits[1] !== 32)) {
    throw new ScanError(
      'UNSUPPORTED',
      `options.bits = ${renderValue(o['bits'])}: 'quicksort' compares whole keys; sort on a bit range with 'radix' or 'split-radix'`,
      { argument: 'options.bits' },
    );
  }
  return { keyType, values, valueType, valueWidth, descending, algorithm, bits };
}

/** Options of `argsort` after validation. */
export interface NormalizedArgsortOptions {
  readonly keyType: SortKeyType;
  readonly descending: boolean;
}

/**
 * Validates the keys and options of `argsort`: keys of a supported type, `descending` a boolean
 * (default false), nothing else.
 *
 * @example
 * ```ts
 * normalizeArgsortOptions(new Int32Array(4), undefined); // { keyType: 'i32', descending: false }
 * normalizeArgsortOptions(new Int32Array(4), { values: new Uint32Array(4) }); // throws: options.values = …: unknown option
 * ```
 */
export function normalizeArgsortOptions(keys: unknown, options: unknown): NormalizedArgsortOptions {
  const arrayType = checkSortKeyArray(keys);
  const o = checkOptions(options, ['descending', 'keyType']);
  const descending = checkBoolean(o['descending'], 'options.descending', false);
  return { keyType: checkKeyTypeOption(arrayType, o['keyType'], 'options.keyType'), descending };
}

/** Arguments of `segmentedSort` after validation. */
export interface NormalizedSegmentedSortArgs {
  readonly keyType: SortKeyType;
  readonly values: SortValueArray | undefined;
  readonly valueType: SortValueType | undefined;
  /** Bytes of one value (4 without values). */
  readonly valueWidth: SortValueWidth;
  readonly descending: boolean;
  /** The segments as given (head flags or offsets), with their count (empty segments included). */
  readonly segments: NormalizedSegments;
  /**
   * One head flag per key, whichever form the segments came in: the caller's array when they were
   * head flags (element 0 is a head whatever its flag says), else flags built from the offsets
   * (empty segments vanish: they hold no key to flag). What the GPU side packs into bits.
   */
  readonly headFlags: HeadFlags;
}

/**
 * Validates the arguments of `segmentedSort`: keys of a supported type; segments as head flags
 * (`Uint8Array` or `Uint32Array` of the keys' length, each 0 or 1, element 0 always a head) or
 * `{ offsets: Uint32Array }` (non-decreasing from 0 to the keys' length, as `@scan/segmented`
 * takes them); options `{ values?, descending? }` checked as in {@link normalizeSortOptions}.
 *
 * @example
 * ```ts
 * const args = normalizeSegmentedSortArgs(new Uint32Array(5), { offsets: new Uint32Array([0, 2, 2, 5]) }, undefined);
 * args.segments.segmentCount; // 3 (one of them empty)
 * args.headFlags; // Uint8Array [1, 0, 1, 0, 0]
 * normalizeSegmentedSortArgs(new Uint32Array(2), new Uint8Array([1, 2]), {}); // throws: headFlags[1] = 2: expected 0 or 1
 * ```
 */
export function normalizeSegmentedSortArgs(keys: unknown, segments: unknown, options: unknown): NormalizedSegmentedSortArgs {
  const keyType = checkSortKeyArray(keys);
  checkSegmentedKeyType(keyType, 'keys');
  const n = (keys as SortKeyArray).length;
  // Named `headFlags` as in the API contract (`segmentedSort(ctx, keys, headFlags, …)`); offsets
  // are then reported as `headFlags.offsets[i]`.
  const normalized = checkSegments(segments, n, 'headFlags');
  const o = checkOptions(options, ['values', 'descending']);
  const { values, valueType, valueWidth } = checkValues(o['values'], n);
  const descending = checkBoolean(o['descending'], 'options.descending', false);
  const headFlags = normalized.kind === 'headFlags' ? normalized.headFlags : headFlagsOfOffsets(normalized.offsets, n);
  return { keyType, values, valueType, valueWidth, descending, segments: normalized, headFlags };
}

/**
 * `options.values`: absent, or any typed array (not a `DataView`) whose byte length is `length` × w
 * for a value width w of 4, 8, 12 or 16 bytes (the width is its byte length / `length`; 4 when
 * `length` is 0). `valueType` is the element type of a 32-bit array (`'u32'` for other classes: the
 * GPU moves raw words, so it only says that values are there).
 *
 * @example
 * ```ts
 * checkValues(new Uint32Array(4), 4); // { values: Uint32Array(4), valueType: 'u32', valueWidth: 4 }
 * checkValues(new Float64Array(4), 4); // { values: Float64Array(4), valueType: 'u32', valueWidth: 8 }
 * checkValues(new Uint8Array(10), 4); // throws: options.values = Uint8Array(10): byte length 10 is not …
 * ```
 */
export function checkValues(
  values: unknown,
  length: number,
): { values: SortValueArray | undefined; valueType: SortValueType | undefined; valueWidth: SortValueWidth } {
  if (values === undefined) return { values: undefined, valueType: undefined, valueWidth: 4 };
  if (!ArrayBuffer.isView(values) || values instanceof DataView) {
    return invalidArgument('options.values', values, `expected a typed array of n × w bytes (n = ${length} keys, w = 4, 8, 12 or 16)`);
  }
  const v = values as SortValueArray;
  const valueType: SortValueType = v instanceof Int32Array ? 'i32' : v instanceof Float32Array ? 'f32' : 'u32';
  if (length === 0) {
    if (v.byteLength !== 0) invalidArgument('options.values', v, `byte length ${v.byteLength} does not match the keys length 0`);
    return { values: v, valueType, valueWidth: 4 };
  }
  const width = v.byteLength / length;
  if (!(SORT_VALUE_WIDTHS as readonly number[]).includes(width)) {
    const expected = SORT_VALUE_WIDTHS.map((w) => w * length).join(', ');
    invalidArgument(
      'options.values',
      v,
      `byte length ${v.byteLength} does not match the keys length ${length} × a value width of 4, 8, 12 or 16 bytes (expected ${expected} bytes)`,
    );
  }
  return { values: v, valueType, valueWidth: width as SortValueWidth };
}

/**
 * Values of `topK`: absent, or a 32-bit typed array (u32, i32, f32) of the keys' length.
 *
 * @example
 * ```ts
 * checkElementValues(new Uint32Array(4), 4); // { values: Uint32Array(4), valueType: 'u32' }
 * ```
 */
export function checkElementValues(
  values: unknown,
  length: number,
): { values: SortArray | undefined; valueType: SortValueType | undefined } {
  if (values === undefined) return { values: undefined, valueType: undefined };
  const valueType = checkSortKeys(values, 'options.values');
  const v = values as SortArray;
  if (v.length !== length) {
    invalidArgument('options.values', v, `length ${v.length} does not match the keys length ${length}`);
  }
  return { values: v, valueType };
}

/**
 * Values wider than 4 bytes with an algorithm other than `'radix'`: an `UNSUPPORTED`
 * {@link ScanError} naming `argument` (the split radix sort and the quicksort move 4-byte values).
 *
 * @example
 * ```ts
 * checkAlgorithmTakesValues('quicksort', 16, 'options.algorithm'); // throws
 * ```
 */
export function checkAlgorithmTakesValues(algorithm: SortAlgorithm, valueWidth: number, argument: string): void {
  if (algorithm === 'radix' || valueWidth === 4) return;
  throw new ScanError(
    'UNSUPPORTED',
    `${argument} = "${algorithm}": ${valueWidth}-byte values are moved by 'radix' only ('${algorithm}' moves 4-byte values)`,
    { argument },
  );
}

/**
 * A plan's value width option: absent is 4; else 4, 8, 12 or 16 (bytes of one value), or an
 * `INVALID_ARGUMENT` {@link ScanError} naming `argument`.
 *
 * @example
 * ```ts
 * checkValueWidth(16, 'options.valueWidth'); // 16
 * checkValueWidth(6, 'options.valueWidth'); // throws: options.valueWidth = 6: expected 4, 8, 12 or 16 (bytes of one value)
 * ```
 */
export function checkValueWidth(width: unknown, argument: string): SortValueWidth {
  if (width === undefined) return 4;
  if (!(SORT_VALUE_WIDTHS as readonly unknown[]).includes(width)) {
    invalidArgument(argument, width, 'expected 4, 8, 12 or 16 (bytes of one value)');
  }
  return width as SortValueWidth;
}

/**
 * Checks a bit range: `undefined` is the whole key `[0, keyBits]`; otherwise an array of exactly two
 * integers `[begin, end]` with `0 ≤ begin < end ≤ keyBits` (32, or 64 for 64-bit keys) (an empty range would sort on nothing, so it
 * is rejected rather than read as "leave the keys as they are"). Returns a fresh tuple. The message
 * names `argument` and shows the range as given.
 *
 * @example
 * ```ts
 * checkBitRange(undefined, 'options.bits'); // [0, 32]
 * checkBitRange([8, 24], 'options.bits'); // [8, 24]
 * checkBitRange([9, 3], 'options.bits'); // throws: options.bits = [9, 3]: expected [begin, end] … begin is greater than end
 * ```
 */
export function checkBitRange(bits: unknown, argument = 'options.bits', keyBits = 32): BitRange {
  if (bits === undefined) return keyBits === 32 ? ALL_BITS : [0, keyBits];
  const fail = (why: string): never => {
    throw new ScanError('INVALID_ARGUMENT', `${argument} = ${renderValue(bits)}: ${why}`, { argument });
  };
  const wanted = `expected [begin, end] with integers 0 ≤ begin < end ≤ ${keyBits}`;
  if (!Array.isArray(bits)) return fail(wanted);
  if (bits.length !== 2) return fail(`${wanted}, got ${bits.length} element${bits.length === 1 ? '' : 's'}`);
  const [begin, end] = bits as unknown[];
  if (!Number.isInteger(begin) || !Number.isInteger(end)) return fail(`${wanted}: begin and end must be integers`);
  const b = begin as number;
  const e = end as number;
  if (b < 0 || e > keyBits) return fail(`${wanted}: out of range`);
  if (b === e) return fail(`${wanted}: empty range (begin equals end, so there is nothing to sort on)`);
  if (b > e) return fail(`${wanted}: begin is greater than end`);
  // A fresh tuple: the caller's array may change later (plans keep what they were made with).
  return [b, e];
}

/** Flags with a 1 at the first element of every non-empty segment of `offsets` (element 0 included). */
function headFlagsOfOffsets(offsets: Uint32Array, n: number): Uint8Array {
  const flags = new Uint8Array(n);
  for (let k = 0; k + 1 < offsets.length; k++) if (offsets[k]! < n) flags[offsets[k]!] = 1;
  return flags;
}

/** A value for a message: short arrays element by element (`[9, 3]`), anything else as core renders it. */
function renderValue(value: unknown): string {
  if (Array.isArray(value) && value.length <= 8) {
    // describeValue bounds each element (a string element may be megabytes long).
    return `[${value.map((x) => describeValue(x)).join(', ')}]`;
  }
  return describeValue(value);
}
