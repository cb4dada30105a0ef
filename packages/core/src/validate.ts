import type { ScanContext } from './context.js';
import { checkOp, type ElementType, elementTypeOf, type ScanOp } from './element-types.js';
import { invalidArgument, ScanError } from './errors.js';
import type { Operator } from './operators/operator-type.js';
import { SCAN_ALGORITHMS, type ScanAlgorithm } from './plans/types.js';

// Argument validation shared by the CPU references and the GPU array-level functions, so both
// reject the same inputs with the same messages (a test may call either and expect one error).

/**
 * The element type of `data`, or an `INVALID_ARGUMENT` `ScanError` naming `argument` and the value.
 *
 * @example
 * ```ts
 * checkData(new Float32Array(4)); // 'f32'
 * checkData([1, 2, 3]); // throws: data = Array(3): expected a Uint32Array, Int32Array or Float32Array
 * ```
 */
export function checkData(data: unknown, argument = 'data'): ElementType {
  return elementTypeOf(data, argument);
}

/**
 * Checks, before any GPU work or allocation, that an array of `n` 32-bit elements (4·n bytes)
 * fits the device: with `fits = 'binding'` (the default, for functions that must bind the whole
 * array at once, such as split and pack) one storage binding, `maxStorageBufferBindingSize`, and
 * one buffer, `maxBufferSize`; with `fits = 'buffer'` (for functions that chunk the array over
 * several bindings, such as scan) one buffer only. Past the limit, a `TOO_LARGE` `ScanError` names
 * `argument`, its length in elements and bytes, and the limit.
 *
 * @example
 * ```ts
 * checkArrayLength(ctx, data.length, 'data'); // ok below the limit
 * checkArrayLength(ctx, 2 ** 28 + 16, 'data'); // with 1 GiB bindings, throws: data = 268435472 elements
 * // (1073741888 bytes): more than the device binds at once (maxStorageBufferBindingSize = 1073741824 bytes, at most 268435456 32-bit elements)
 * ```
 */
export function checkArrayLength(ctx: ScanContext, n: number, argument: string, fits: 'binding' | 'buffer' = 'binding'): void {
  const { maxStorageBufferBindingSize, maxBufferSize } = ctx.caps.limits;
  if (fits === 'binding' && 4 * n > maxStorageBufferBindingSize) {
    tooLarge(argument, n, 'the device binds at once', 'maxStorageBufferBindingSize', maxStorageBufferBindingSize);
  }
  if (4 * n > maxBufferSize) tooLarge(argument, n, 'one device buffer holds', 'maxBufferSize', maxBufferSize);
}

function tooLarge(argument: string, n: number, what: string, limit: string, limitBytes: number): never {
  throw new ScanError(
    'TOO_LARGE',
    `${argument} = ${n} elements (${4 * n} bytes): more than ${what} ` +
      `(${limit} = ${limitBytes} bytes, at most ${Math.floor(limitBytes / 4)} 32-bit elements)`,
    { argument },
  );
}

/**
 * Checks a 0/1 flag array: a `Uint32Array` or `Uint8Array` of exactly `length` elements, each 0 or 1.
 * Anything else would be read by the kernels as "true" and give silently wrong results, so it is
 * rejected up front; the message names the first offending index and value.
 *
 * @example
 * ```ts
 * checkFlags(new Uint8Array([1, 0, 1]), 3); // ok
 * checkFlags(new Uint32Array([1, 2]), 2); // throws: flags[1] = 2: expected 0 or 1
 * ```
 */
export function checkFlags(flags: unknown, length: number, argument = 'flags'): void {
  if (!(flags instanceof Uint32Array) && !(flags instanceof Uint8Array)) {
    invalidArgument(argument, flags, 'expected a Uint32Array or Uint8Array of 0/1 flags');
  }
  if (flags.length !== length) {
    invalidArgument(argument, flags, `length ${flags.length} does not match the data length ${length}`);
  }
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i]!;
    if (flag > 1) invalidArgument(`${argument}[${i}]`, flag, 'expected 0 or 1');
  }
}

/**
 * Checks an options object: `undefined` means `{}`; anything but a plain object is rejected, and so
 * is a key outside `allowed`, because a misspelt option (`inclusve`) would otherwise be ignored
 * without a word.
 *
 * @example
 * ```ts
 * checkOptions({ inclusive: true }, ['op', 'inclusive']); // { inclusive: true }
 * checkOptions({ inclusve: true }, ['op', 'inclusive']); // throws: options.inclusve = true: unknown option (allowed: op, inclusive)
 * ```
 */
export function checkOptions(options: unknown, allowed: readonly string[], argument = 'options'): Record<string, unknown> {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options) || ArrayBuffer.isView(options)) {
    return invalidArgument(argument, options, 'expected an object of options');
  }
  const record = options as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key)) {
      const list = allowed.length > 0 ? allowed.join(', ') : 'none';
      invalidArgument(`${argument}.${key}`, record[key], `unknown option (allowed: ${list})`);
    }
  }
  return record;
}

/**
 * A boolean option: `fallback` when `undefined`, else it must be `true` or `false` (a truthy string
 * such as `'false'` is rejected rather than read as true).
 *
 * @example
 * ```ts
 * checkBoolean(undefined, 'options.inclusive', false); // false
 * checkBoolean('yes', 'options.inclusive', false); // throws
 * ```
 */
export function checkBoolean(value: unknown, argument: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (value === true || value === false) return value;
  return invalidArgument(argument, value, 'expected true or false');
}

/**
 * A string option from a fixed list: `fallback` when `undefined`.
 *
 * @example
 * ```ts
 * checkOneOf('row', ['row', 'merge'], 'options.algorithm', 'row'); // 'row'
 * checkOneOf('rows', ['row', 'merge'], 'options.algorithm', 'row'); // throws, listing row, merge
 * ```
 */
export function checkOneOf<T extends string>(value: unknown, allowed: readonly T[], argument: string, fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  return invalidArgument(argument, value, `expected one of ${allowed.map((a) => `'${a}'`).join(', ')}`);
}

/**
 * A count or size: a non-negative safe integer (NaN, fractions, negatives and numbers past 2^53 are
 * rejected, since each would be truncated or wrap somewhere on the way to the GPU).
 *
 * @example
 * ```ts
 * checkCount(1024, 'count'); // 1024
 * checkCount(-1, 'count'); // throws: count = -1: expected a non-negative integer
 * ```
 */
export function checkCount(value: unknown, argument: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  return invalidArgument(argument, value, 'expected a non-negative integer');
}

/**
 * A size or count that must be at least 1: a positive safe integer.
 *
 * @example
 * ```ts
 * checkPositiveInteger(256, 'options.tuning.workgroupSize'); // 256
 * checkPositiveInteger(0, 'options.tuning.workgroupSize'); // throws: options.tuning.workgroupSize = 0: expected a positive integer
 * ```
 */
export function checkPositiveInteger(value: unknown, argument: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return value;
  return invalidArgument(argument, value, 'expected a positive integer');
}

/** Options of `scan` (GPU and CPU alike). */
export interface ScanOptions {
  /** Operator (default `'add'`): a built-in name (`and`, `or`, `xor` need integer data) or an `Operator` from `defineOperator`. */
  // biome-ignore lint/suspicious/noExplicitAny: any operator's record type
  op?: ScanOp | Operator<any>;
  /** Include each element in its own result (default false: exclusive, the first result is the identity). */
  inclusive?: boolean;
  /** Scan from the last element towards the first (default false). */
  backward?: boolean;
  /** GPU algorithm (default `'auto'`); the CPU references accept and ignore it. */
  algorithm?: ScanAlgorithm;
}

/** Options of `reduce`. */
export interface ReduceOptions {
  /** Operator (default `'add'`): a built-in name or an `Operator` from `defineOperator`. */
  // biome-ignore lint/suspicious/noExplicitAny: any operator's record type
  op?: ScanOp | Operator<any>;
}

/** Options of `enumerate` and `distribute`. */
export interface DirectionOptions {
  /** Work from the last element towards the first (default false). */
  backward?: boolean;
}

/** Options of `scan` after validation, with every default filled in. */
export interface NormalizedScanOptions {
  op: ScanOp;
  inclusive: boolean;
  backward: boolean;
  algorithm: ScanAlgorithm;
}

/** The keys `scan` accepts (CPU and GPU alike). */
export const SCAN_OPTION_KEYS: readonly string[] = ['op', 'inclusive', 'backward', 'algorithm'];

/**
 * Validates the options of `scan` for data of `type`: `op` (default `'add'`, must fit the type),
 * `inclusive` and `backward` (default false), `algorithm` (default `'auto'`).
 *
 * @example
 * ```ts
 * normalizeScanOptions({ op: 'max', backward: true }, 'i32');
 * // { op: 'max', inclusive: false, backward: true, algorithm: 'auto' }
 * normalizeScanOptions({ op: 'xor' }, 'f32'); // throws: options.op = "xor": not defined on f32 elements …
 * ```
 */
export function normalizeScanOptions(options: unknown, type: ElementType): NormalizedScanOptions {
  const o = checkOptions(options, SCAN_OPTION_KEYS);
  return {
    op: checkOp(o['op'], type, 'options.op'),
    inclusive: checkBoolean(o['inclusive'], 'options.inclusive', false),
    backward: checkBoolean(o['backward'], 'options.backward', false),
    algorithm: checkOneOf<ScanAlgorithm>(o['algorithm'], ['auto', ...SCAN_ALGORITHMS], 'options.algorithm', 'auto'),
  };
}

/**
 * The length of a flag array-like for {@link checkFlags} when there is no data to compare with
 * (`enumerate`); a non-array yields 0 and is then rejected by `checkFlags` for its type.
 *
 * @example
 * ```ts
 * checkFlags(flags, lengthOf(flags));
 * ```
 */
export function lengthOf(value: unknown): number {
  return ArrayBuffer.isView(value) && 'length' in value ? (value as Uint8Array).length : 0;
}
