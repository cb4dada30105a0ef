import { type ElementType, ScanError, type ScanOp } from '@scan/core';
import { checkBoolean, checkFlags, checkOneOf, checkOp, checkOptions, invalidArgument, lengthOf } from '@scan/core/kit';
import { type HeadFlags, SEGMENTED_SCAN_ALGORITHMS, type SegmentedScanAlgorithm, type SegmentOffsets } from './types.js';

// Argument validation shared by the CPU references and the GPU array-level functions of
// `@scan/segmented`, so both reject the same inputs with the same messages. Messages follow core's
// form `argument = value: why`, naming the first offending index where there is one.

/**
 * Throws an `INVALID_ARGUMENT` {@link ScanError} `argument = value: why` (core's wording).
 *
 * @example
 * ```ts
 * if (offsets.length === 0) invalidSegmentArgument('offsets', offsets, 'expected at least one entry');
 * ```
 */
export function invalidSegmentArgument(argument: string, value: unknown, why: string): never {
  return invalidArgument(argument, value, why);
}

/**
 * Checks head flags: a `Uint8Array` or `Uint32Array` of exactly `length` elements, each 0 or 1
 * (core's `checkFlags` with the argument named `headFlags`). A 0 at index 0 is accepted: element 0
 * always starts a segment, whatever its flag says.
 *
 * @example
 * ```ts
 * checkHeadFlags(new Uint8Array([1, 0, 1]), 3); // ok
 * checkHeadFlags(new Uint8Array([0, 0, 1]), 3); // ok: the first flag is read as a head
 * checkHeadFlags(new Uint32Array([1, 2]), 2); // throws: headFlags[1] = 2: expected 0 or 1
 * checkHeadFlags(new Uint8Array(2), 3); // throws: headFlags = Uint8Array(2): length 2 does not match the data length 3
 * ```
 */
export function checkHeadFlags(flags: unknown, length: number, argument = 'headFlags'): asserts flags is HeadFlags {
  checkFlags(flags, length, argument);
}

/**
 * Checks segment offsets (CSR `rowPtr` style): a `Uint32Array` of at least one entry, starting at
 * 0, non-decreasing (equal neighbours are empty segments), and ending at `length`, the data length.
 * The message names the first bad index.
 *
 * @example
 * ```ts
 * checkOffsets(new Uint32Array([0, 2, 2, 5]), 5); // ok: segments [0,2), [2,2) (empty), [2,5)
 * checkOffsets(new Uint32Array([0, 3, 2, 5]), 5); // throws: offsets[2] = 2: less than offsets[1] = 3 …
 * checkOffsets(new Uint32Array([0, 2]), 5); // throws: offsets[1] = 2: the last offset must be the data length 5
 * ```
 */
export function checkOffsets(offsets: unknown, length: number, argument = 'offsets'): asserts offsets is Uint32Array {
  if (!(offsets instanceof Uint32Array)) {
    invalidSegmentArgument(argument, offsets, 'expected a Uint32Array of segment offsets');
  }
  if (offsets.length === 0) {
    invalidSegmentArgument(
      argument,
      offsets,
      'expected at least one entry (offsets of k segments have k + 1 entries, the last being the data length)',
    );
  }
  if (offsets[0] !== 0) invalidSegmentArgument(`${argument}[0]`, offsets[0], 'the first offset must be 0');
  for (let i = 1; i < offsets.length; i++) {
    if (offsets[i]! < offsets[i - 1]!) {
      invalidSegmentArgument(
        `${argument}[${i}]`,
        offsets[i],
        `less than ${argument}[${i - 1}] = ${offsets[i - 1]} (offsets must be non-decreasing)`,
      );
    }
  }
  const last = offsets.length - 1;
  if (offsets[last] !== length) {
    invalidSegmentArgument(`${argument}[${last}]`, offsets[last], `the last offset must be the data length ${length}`);
  }
}

/** Segments after {@link checkSegments}: which representation was given, and how many segments it has. */
export type NormalizedSegments =
  | { readonly kind: 'headFlags'; readonly headFlags: HeadFlags; readonly segmentCount: number }
  | { readonly kind: 'offsets'; readonly offsets: Uint32Array; readonly segmentCount: number };

/**
 * Checks segments given either as head flags or as `{ offsets }` against a data length, and
 * returns them tagged with the number of segments. Head flags of n > 0 elements describe
 * 1 + (number of 1-flags at indices ≥ 1) segments (index 0 always starts one); offsets describe
 * `offsets.length - 1`, empty ones included.
 *
 * @example
 * ```ts
 * checkSegments(new Uint8Array([1, 0, 1]), 3); // { kind: 'headFlags', headFlags, segmentCount: 2 }
 * checkSegments({ offsets: new Uint32Array([0, 0, 3]) }, 3); // { kind: 'offsets', offsets, segmentCount: 2 }
 * ```
 */
export function checkSegments(segments: unknown, length: number, argument = 'segments'): NormalizedSegments {
  if (ArrayBuffer.isView(segments)) {
    checkHeadFlags(segments, length, argument);
    let segmentCount = length > 0 ? 1 : 0;
    for (let i = 1; i < length; i++) segmentCount += segments[i]!;
    return { kind: 'headFlags', headFlags: segments, segmentCount };
  }
  if (segments === null || typeof segments !== 'object' || !('offsets' in segments)) {
    return invalidSegmentArgument(argument, segments, 'expected head flags (Uint8Array or Uint32Array) or { offsets: Uint32Array }');
  }
  const offsets = (segments as SegmentOffsets).offsets;
  checkOffsets(offsets, length, `${argument}.offsets`);
  return { kind: 'offsets', offsets, segmentCount: offsets.length - 1 };
}

/** Options of `segmentedScan` after validation, every default filled in. */
export interface NormalizedSegmentedScanOptions {
  readonly op: ScanOp;
  readonly inclusive: boolean;
  readonly backward: boolean;
  readonly algorithm: SegmentedScanAlgorithm;
}

/**
 * Validates the options of `segmentedScan` for data of `type`: `op` (default `'add'`, must fit the
 * type), `inclusive` and `backward` (default false), `algorithm` (default `'auto'`; the CPU
 * reference accepts and ignores it). Unknown keys are rejected.
 *
 * @example
 * ```ts
 * normalizeSegmentedScanOptions({ op: 'max', backward: true }, 'i32');
 * // { op: 'max', inclusive: false, backward: true, algorithm: 'auto' }
 * normalizeSegmentedScanOptions({ op: 'xor' }, 'f32'); // throws: options.op = "xor": not defined on f32 elements …
 * ```
 */
export function normalizeSegmentedScanOptions(options: unknown, type: ElementType): NormalizedSegmentedScanOptions {
  const o = checkOptions(options, ['op', 'inclusive', 'backward', 'algorithm']);
  return {
    op: checkOp(o['op'], type, 'options.op'),
    inclusive: checkBoolean(o['inclusive'], 'options.inclusive', false),
    backward: checkBoolean(o['backward'], 'options.backward', false),
    algorithm: checkOneOf<SegmentedScanAlgorithm>(o['algorithm'], ['auto', ...SEGMENTED_SCAN_ALGORITHMS], 'options.algorithm', 'auto'),
  };
}

/**
 * Validates a `{ backward? }` options object (segmented distribute and enumerate).
 *
 * @example
 * ```ts
 * checkBackward({ backward: true }); // true
 * checkBackward(undefined); // false
 * ```
 */
export function checkBackward(options: unknown): boolean {
  return checkBoolean(checkOptions(options, ['backward'])['backward'], 'options.backward', false);
}

/**
 * Validates a `{ op? }` options object against the element type (segmented reduce).
 *
 * @example
 * ```ts
 * checkReduceOp({ op: 'min' }, 'f32'); // 'min'
 * ```
 */
export function checkReduceOp(options: unknown, type: ElementType): ScanOp {
  return checkOp(checkOptions(options, ['op'])['op'], type, 'options.op');
}

/**
 * The length of a flag array for {@link checkHeadFlags} when there is nothing else to compare it
 * with (core's `lengthOf`): 0 for a non-array, which is then rejected for its type.
 *
 * @example
 * ```ts
 * checkHeadFlags(headFlags, flagLength(headFlags));
 * ```
 */
export function flagLength(value: unknown): number {
  return lengthOf(value);
}
