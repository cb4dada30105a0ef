import { checkBoolean, checkOneOf, checkOptions, invalidArgument } from '@scan/core/kit';

/** Segmentation after validation: `segments` segments of `segmentSize` (the last one shorter when padded). */
export interface Segmentation {
  readonly count: number;
  readonly segmentSize: number;
  readonly segments: number;
}

/**
 * Checks `segmentSize` against a length: `undefined` means one segment, the whole array; otherwise a
 * positive integer that divides `count`, unless `pad` (then the last segment is shorter, as if
 * padded with zeros).
 *
 * @example
 * ```ts
 * checkSegmentation(10, 5, false); // { count: 10, segmentSize: 5, segments: 2 }
 * checkSegmentation(10, 4, true); // { count: 10, segmentSize: 4, segments: 3 }
 * checkSegmentation(10, 4, false); // throws: options.segmentSize = 4: does not divide the length 10 …
 * ```
 */
export function checkSegmentation(count: number, segmentSize: unknown, pad: boolean, argument = 'options.segmentSize'): Segmentation {
  if (segmentSize === undefined) return { count, segmentSize: Math.max(count, 1), segments: 1 };
  if (typeof segmentSize !== 'number' || !Number.isSafeInteger(segmentSize) || segmentSize < 1 || segmentSize > 2 ** 32 - 1) {
    invalidArgument(argument, segmentSize, 'expected a positive integer (segment size)');
  }
  if (count % segmentSize !== 0 && !pad) {
    invalidArgument(
      argument,
      segmentSize,
      `does not divide the length ${count}; pass { pad: true } to treat the last segment as padded with zeros`,
    );
  }
  return { count, segmentSize, segments: Math.ceil(count / segmentSize) };
}

/** The option keys of each operation (CPU and GPU alike; the CPU references ignore `path`). */
export const REDUCE_KEYS = ['segmentSize', 'pad', 'saturate', 'path'] as const;
export const SCAN_KEYS = ['segmentSize', 'pad', 'saturate', 'path', 'inclusive'] as const;
export const COUNT_KEYS = ['segmentSize', 'pad', 'path'] as const;

/** Options after validation. */
export interface NormalizedTcuOptions {
  segmentSize: unknown;
  pad: boolean;
  saturate: boolean;
  inclusive: boolean;
  path: 'auto' | 'subgroup-matrix' | 'emulated';
}

/**
 * Validates the options object of `tcuReduce`/`tcuScan`/`tcuCount` (unknown keys, booleans, `path`).
 *
 * @example
 * ```ts
 * normalizeTcuOptions({ inclusive: true }, SCAN_KEYS); // { segmentSize: undefined, pad: false, …, inclusive: true }
 * ```
 */
export function normalizeTcuOptions(options: unknown, keys: readonly string[]): NormalizedTcuOptions {
  const o = checkOptions(options, keys);
  const path = checkPath(o['path']);
  return {
    segmentSize: o['segmentSize'],
    pad: checkBoolean(o['pad'], 'options.pad', false),
    saturate: checkBoolean(o['saturate'], 'options.saturate', false),
    inclusive: checkBoolean(o['inclusive'], 'options.inclusive', false),
    path,
  };
}

/**
 * Checks the data of `tcuReduce`/`tcuScan`: a `Float32Array` (rounded to f16) or a `Uint16Array` (f16 bits).
 *
 * @example
 * ```ts
 * checkHalfData(new Float32Array(3)); // ok
 * checkHalfData([1, 2]); // throws
 * ```
 */
export function checkHalfData(data: unknown, argument = 'data'): asserts data is Float32Array | Uint16Array {
  if (!(data instanceof Float32Array) && !(data instanceof Uint16Array)) {
    invalidArgument(argument, data, 'expected a Float32Array (rounded to f16) or a Uint16Array of f16 bits');
  }
}

/**
 * Checks the flags of `tcuCount`: a `Uint8Array` of 0/1 values; the message names the first bad index.
 *
 * @example
 * ```ts
 * checkCountFlags(new Uint8Array([0, 1])); // ok
 * checkCountFlags(new Uint8Array([0, 2])); // throws: flags[1] = 2: expected 0 or 1
 * ```
 */
export function checkCountFlags(flags: unknown, argument = 'flags'): asserts flags is Uint8Array {
  if (!(flags instanceof Uint8Array)) invalidArgument(argument, flags, 'expected a Uint8Array of 0/1 flags');
  for (let i = 0; i < flags.length; i++) {
    if (flags[i]! > 1) invalidArgument(`${argument}[${i}]`, flags[i], 'expected 0 or 1');
  }
}

/**
 * The `path` option of the functions and plans (`'auto'` when undefined).
 *
 * @example
 * ```ts
 * checkPath('emulated'); // 'emulated'
 * ```
 */
export function checkPath(value: unknown): NormalizedTcuOptions['path'] {
  return checkOneOf<NormalizedTcuOptions['path']>(value, ['auto', 'subgroup-matrix', 'emulated'], 'options.path', 'auto');
}
