/** Why an operation failed; stable strings that callers may switch on. */
export type ScanErrorCode = 'INVALID_ARGUMENT' | 'UNSUPPORTED' | 'TOO_LARGE' | 'DEVICE_LOST' | 'GPU_ERROR';

/**
 * The one error type every `@scan/*` package throws or rejects with. The message names the
 * argument and the offending value, so a user can tell what to fix without reading our sources.
 *
 * @example
 * ```ts
 * try {
 *   await scan(ctx, new Float32Array(8), { op: 'xor' });
 * } catch (e) {
 *   if (e instanceof ScanError && e.code === 'INVALID_ARGUMENT') console.log(e.message);
 * }
 * ```
 */
export class ScanError extends Error {
  /** The kind of failure. */
  readonly code: ScanErrorCode;
  /** The argument at fault, when there is one. */
  readonly argument: string | undefined;

  constructor(code: ScanErrorCode, message: string, options?: { argument?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ScanError';
    this.code = code;
    this.argument = options?.argument;
  }
}

/**
 * Throws an `INVALID_ARGUMENT` {@link ScanError} naming `argument` and `value`.
 *
 * @example
 * ```ts
 * if (!(n >= 0)) invalidArgument('count', n, 'must be a non-negative integer');
 * ```
 */
export function invalidArgument(argument: string, value: unknown, why: string): never {
  throw new ScanError('INVALID_ARGUMENT', `${argument} = ${describeValue(value)}: ${why}`, { argument });
}

/** Longest text of one value in a message: enough to recognise it, never the whole of a large one. */
const MAX_TEXT = 60;

/** `text` cut to {@link MAX_TEXT} characters, with an ellipsis where it was cut. */
function cut(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

/**
 * A short, bounded rendering of a value for an error message: typed arrays and `ArrayBuffer`s by
 * type and length (`Float32Array(1000000)`), plain arrays by length, strings cut at 60 characters,
 * objects by class name, functions by name. Nothing a caller passes, however large, adds more than
 * a line to a message (a typed array in `String()` is every element, megabytes of text).
 *
 * @example
 * ```ts
 * describeValue(new Float32Array(1e6)); // 'Float32Array(1000000)'
 * describeValue('x'.repeat(1000)); // the first 60 characters in quotes, with '…' before the closing quote
 * describeValue({ size: 4 }); // 'Object'
 * ```
 */
export function describeValue(value: unknown): string {
  try {
    return describe(value);
  } catch {
    // A revoked proxy or a throwing getter must not turn an argument check into another error.
    return typeof value;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'string':
      return JSON.stringify(cut(value));
    case 'number':
    case 'boolean':
      return String(value);
    case 'bigint':
      return cut(`${value}n`);
    case 'symbol':
      return cut(value.toString());
    case 'function':
      return cut(`function ${value.name || '(anonymous)'}`);
  }
  if (ArrayBuffer.isView(value)) {
    const length = 'length' in value ? (value as unknown as { length: number }).length : value.byteLength;
    return `${className(value)}(${length})`;
  }
  if (value instanceof ArrayBuffer) return `ArrayBuffer(${value.byteLength} bytes)`;
  if (Array.isArray(value)) return `Array(${value.length})`;
  return className(value as object);
}

/** The class name of an object (`GPUBuffer`, `Object`), or `object` when it has none. */
function className(value: object): string {
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? cut(name) : 'object';
}
