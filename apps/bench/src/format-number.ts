/**
 * A number with about three significant digits and no exponent, or `-` when there is none.
 *
 * @example
 * ```ts
 * formatNumber(1234.5); // '1235'
 * formatNumber(0.012345); // '0.0123'
 * ```
 */
export function formatNumber(x: number | undefined): string {
  if (x === undefined || !Number.isFinite(x)) return '-';
  const a = Math.abs(x);
  if (a >= 100) return x.toFixed(0);
  if (a >= 10) return x.toFixed(1);
  if (a >= 1) return x.toFixed(2);
  if (a === 0) return '0';
  return x.toPrecision(3);
}
