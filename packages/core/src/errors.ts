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

/** A short, bounded rendering of a value for an error message (typed arrays by type and length). */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (ArrayBuffer.isView(value)) {
    const length = 'length' in value ? (value as unknown as { length: number }).length : value.byteLength;
    return `${value.constructor.name}(${length})`;
  }
  if (Array.isArray(value)) return `Array(${value.length})`;
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'object') return (value as object).constructor?.name ?? 'object';
  return String(value);
}
