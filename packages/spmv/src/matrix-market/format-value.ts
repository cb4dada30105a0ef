/** Significant digits that always bring an f32 back: 9 (IEEE 754, §5.12.2). */
const F32_DIGITS = 9;

/** `s` without the zeros that end its mantissa (`'1.50000000e-7'` → `'1.5e-7'`, `'2.00000000'` → `'2'`). */
function trimZeros(s: string): string {
  const e = s.indexOf('e');
  const end = e === -1 ? s.length : e;
  if (s.charCodeAt(end - 1) !== 48 || !s.includes('.')) return s;
  let i = end;
  while (s.charCodeAt(i - 1) === 48) i--;
  if (s.charCodeAt(i - 1) === 46) i--;
  return s.slice(0, i) + s.slice(end);
}

/**
 * The text of one f32 value such that reading it back — as f64, then rounded to f32, as the reader
 * does — gives the same bits.
 *
 * `String(value)` always qualifies: it is the shortest decimal that reads back as the same f64, and
 * an f32 is exact in f64. But for most f32s that is 17 digits (`0.10000000149011612`), so when it is
 * long we take 9 significant digits instead (`0.100000001`): 9 digits identify an f32, and they are
 * within 0.1 half-ulp of it, far from where the f64 rounding step could tip the f32 rounding the
 * other way. The shorter text makes files a third smaller and lets the reader parse values without
 * a substring. −0 keeps its sign; the non-finite values are spelled `nan`, `inf`, `-inf`.
 *
 * @example
 * ```ts
 * formatValue(Math.fround(0.1)); // '0.100000001'
 * formatValue(0.5); // '0.5'
 * formatValue(-0); // '-0'
 * formatValue(-Infinity); // '-inf'
 * ```
 */
export function formatValue(value: number): string {
  if (value === 0) return 1 / value < 0 ? '-0' : '0';
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf';
  const shortest = String(value);
  if (shortest.length <= F32_DIGITS + 1) return shortest;
  const nine = trimZeros(value.toPrecision(F32_DIGITS));
  return nine.length < shortest.length ? nine : shortest;
}
