import { ScanError } from '@scan/core';
import { checkOptions, invalidArgument } from '@scan/core/kit';

// Argument checks shared by the generators, in core's message form `argument = value: why`. Sizes are
// checked before anything is allocated, so a typo such as `rows: 1e12` fails at once with TOO_LARGE
// instead of exhausting memory.

/** The most nonzeros a generated matrix may hold: `rowPtr` is u32 and the GPU side indexes with i32. */
export const MAX_NNZ = 2 ** 31 - 1;

/** Column indices are u32, so there are at most 2^32 columns (indices 0 … 2^32 − 1). */
const MAX_COLS = 2 ** 32;

/** The default seed of every generator that takes one. */
export const DEFAULT_SEED = 1;

/**
 * The options object of a generator (`{}` for `undefined`); unknown keys are rejected, since a
 * misspelt option (`nnzPerrow`) would otherwise be silently ignored.
 */
export function generatorOptions(options: unknown, allowed: readonly string[]): Record<string, unknown> {
  return checkOptions(options, allowed);
}

/** A positive (or, with `min = 0`, non-negative) safe integer; `fallback` when undefined and given. */
export function checkInteger(value: unknown, argument: string, min: 0 | 1, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min) return value;
  return invalidArgument(argument, value, min === 1 ? 'expected a positive integer' : 'expected a non-negative integer');
}

/**
 * A row or column count: an integer ≥ `min`. TOO_LARGE past 2^32 columns (indices are u32) or past
 * 2^31 − 1 rows (`rowPtr`, of rows + 1 entries, is allocated whatever the nnz).
 */
export function checkDimension(value: unknown, argument: string, min: 0 | 1, kind: 'rows' | 'cols', fallback?: number): number {
  const n = checkInteger(value, argument, min, fallback);
  if (kind === 'cols' && n > MAX_COLS) {
    throw new ScanError('TOO_LARGE', `${argument} = ${n}: more than 2^32 columns, so column indices would not fit in u32`, { argument });
  }
  if (kind === 'rows' && n > MAX_NNZ) {
    throw new ScanError('TOO_LARGE', `${argument} = ${n}: more than 2^31 − 1 rows`, { argument });
  }
  return n;
}

/** A seed: an integer in [0, 2^32) (the generator's state is built from 32 bits); the default when undefined. */
export function checkSeed(value: unknown, argument = 'options.seed'): number {
  if (value === undefined) return DEFAULT_SEED;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < MAX_COLS) return value;
  return invalidArgument(argument, value, 'expected an integer in [0, 2^32)');
}

/** A finite number in [min, max]; `fallback` when undefined. */
export function checkNumber(value: unknown, argument: string, min: number, max: number, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max) return value;
  return invalidArgument(argument, value, `expected a number in [${min}, ${max}]`);
}

/**
 * Throws TOO_LARGE naming `argument` when `nnz` nonzeros would not fit ({@link MAX_NNZ}); `what`
 * says how nnz follows from the arguments, so the user sees which one to shrink.
 */
export function checkNnz(nnz: number, argument: string, what: string): void {
  if (nnz > MAX_NNZ) {
    throw new ScanError('TOO_LARGE', `${argument}: ${what} = ${nnz} nonzeros, more than 2^31 − 1`, { argument });
  }
}
