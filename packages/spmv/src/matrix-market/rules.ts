import { quoteToken } from './errors.js';
import type { MatrixMarketSymmetry } from './types.js';

/**
 * The rules an entry line must follow beyond its syntax, in one place: `MatrixMarketParser` applies
 * them, and every reader (`readMatrixMarket`, `readMatrixMarketFile` of `@scan/spmv/node`) goes
 * through that parser, so a file is accepted or rejected the same way whichever reads it.
 *
 * @module
 */

/**
 * Whether a value parsed from the text (as f64) survives storage as f32 without turning into
 * something else: `NaN` and ±∞ written as such are kept; a finite value must round to a finite f32.
 * `1e39` rounds to `Infinity` in f32, which no caller asked for, so it does not fit. Values that
 * round to a nearby f32 (`0.1`, `16777217`), to a subnormal or to ±0 (`1e-50`) fit: that is the
 * ordinary rounding of any f32 store.
 *
 * @example
 * ```ts
 * fitsF32(3.4028234663852886e38); // true: the largest f32
 * fitsF32(1e39); // false: Math.fround gives Infinity
 * fitsF32(Number.POSITIVE_INFINITY); // true: written as `inf`
 * ```
 */
export function fitsF32(value: number): boolean {
  return !Number.isFinite(value) || Number.isFinite(Math.fround(value));
}

/**
 * The message for a finite value past the f32 range (see {@link fitsF32}).
 *
 * @example
 * ```ts
 * f32OverflowMessage('1e40', 2, 1);
 * // 'value "1e40" of entry (2, 1) is past the f32 range (±3.4028235e38): it would become Infinity'
 * ```
 */
export function f32OverflowMessage(token: string, row: number, col: number): string {
  const sign = token.startsWith('-') ? '-' : '';
  return `value ${quoteToken(token)} of entry (${row}, ${col}) is past the f32 range (±3.4028235e38): it would become ${sign}Infinity`;
}

/**
 * The message for an entry above the diagonal in a `symmetric` or `skew-symmetric` file. The format
 * stores only the lower triangle of those (row ≥ column); the reader adds the mirrored entry itself,
 * so an upper entry would either duplicate a lower one (its value counted twice) or stand for
 * one the file does not hold in the form the format defines. It is rejected rather than guessed at.
 *
 * @example
 * ```ts
 * aboveDiagonalMessage('symmetric', 1, 2);
 * // 'entry (1, 2) is above the diagonal: a symmetric file holds only the lower triangle (row ≥ column); write it as (2, 1)'
 * ```
 */
export function aboveDiagonalMessage(symmetry: MatrixMarketSymmetry, row: number, col: number): string {
  const instead = symmetry === 'skew-symmetric' ? `(${col}, ${row}) with the value negated` : `(${col}, ${row})`;
  return `entry (${row}, ${col}) is above the diagonal: a ${symmetry} file holds only the lower triangle (row ≥ column); write it as ${instead}`;
}

/**
 * The message for a diagonal entry in a `skew-symmetric` file, whose diagonal is zero by definition
 * (the format stores only the strictly lower triangle).
 *
 * @example
 * ```ts
 * skewDiagonalMessage(2, 2); // 'diagonal entry (2, 2) in a skew-symmetric matrix (its diagonal is zero)'
 * ```
 */
export function skewDiagonalMessage(row: number, col: number): string {
  return `diagonal entry (${row}, ${col}) in a skew-symmetric matrix (its diagonal is zero)`;
}
