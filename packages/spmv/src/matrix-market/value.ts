/** 10^0 … 10^22: every one is exact in f64, so one multiplication or division by it rounds once. */
const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);

/** Significant digits that an f64 integer holds exactly (10^15 < 2^53). */
const EXACT_DIGITS = 15;

/** The spellings of the non-finite values (lower case): `writeMatrixMarket` writes nan, inf, -inf. */
const SPECIAL: ReadonlyMap<string, number> = new Map([
  ['nan', Number.NaN],
  ['+nan', Number.NaN],
  ['-nan', Number.NaN],
  ['inf', Number.POSITIVE_INFINITY],
  ['+inf', Number.POSITIVE_INFINITY],
  ['infinity', Number.POSITIVE_INFINITY],
  ['+infinity', Number.POSITIVE_INFINITY],
  ['-inf', Number.NEGATIVE_INFINITY],
  ['-infinity', Number.NEGATIVE_INFINITY],
]);

/**
 * Parses a real value token that the fast path left: the non-finite spellings (any case), or a
 * decimal through `Number`, after checking the characters so that `Number`'s extras (hex `0x1f`,
 * `0b1`, `Infinity` inside other text) are not taken for Matrix Market numbers.
 *
 * @example
 * ```ts
 * parseRealSlow('-INF'); // -Infinity
 * parseRealSlow('0.30000001192092896'); // 0.30000001192092896
 * parseRealSlow('0x10'); // undefined
 * ```
 */
export function parseRealSlow(token: string): number | undefined {
  const special = SPECIAL.get(token.toLowerCase());
  if (special !== undefined) return special;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(token)) return undefined;
  return Number(token);
}

/**
 * The value of the real token `s[a, b)` as an f64 (the caller stores it as f32), or `undefined` when
 * it is not a number. The common short decimals (≤ 15 significant digits, |exponent| ≤ 22) are
 * computed here from the characters, exactly as `Number` would (Clinger's fast path: the digits
 * and the power of ten are exact f64s, so the one operation rounds correctly); everything else goes
 * through {@link parseRealSlow}. This avoids a substring per value on the hot path of big files.
 *
 * @example
 * ```ts
 * parseReal('1 -2.5e-3 7', 2, 9); // -0.0025
 * ```
 */
export function parseReal(s: string, a: number, b: number): number | undefined {
  let i = a;
  let c = s.charCodeAt(i);
  let negative = false;
  if (c === 45 || c === 43) {
    negative = c === 45;
    c = s.charCodeAt(++i);
  }
  let mantissa = 0;
  let digits = 0; // all digits, to tell "." and "e5" (no digits) from "0"
  let significant = 0; // digits from the first non-zero one: what must fit in an exact f64
  let scale = 0;
  while (i < b && c >= 48 && c <= 57) {
    mantissa = mantissa * 10 + (c - 48);
    digits++;
    if (mantissa !== 0) significant++;
    c = s.charCodeAt(++i);
  }
  if (i < b && c === 46) {
    c = s.charCodeAt(++i);
    while (i < b && c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
      if (mantissa !== 0) significant++;
      scale--;
      c = s.charCodeAt(++i);
    }
  }
  if (digits === 0) return parseRealSlow(s.slice(a, b));
  if (i < b && (c === 101 || c === 69)) {
    c = s.charCodeAt(++i);
    let negativeExponent = false;
    if (i < b && (c === 45 || c === 43)) {
      negativeExponent = c === 45;
      c = s.charCodeAt(++i);
    }
    let exponent = 0;
    const start = i;
    while (i < b && c >= 48 && c <= 57) {
      exponent = exponent * 10 + (c - 48);
      c = s.charCodeAt(++i);
    }
    if (i === start) return undefined;
    scale += negativeExponent ? -exponent : exponent;
  }
  if (i !== b) return undefined;
  if (mantissa === 0) return negative ? -0 : 0;
  if (significant > EXACT_DIGITS || scale > 22 || scale < -22) return Number(s.slice(a, b));
  const magnitude = scale >= 0 ? mantissa * POW10[scale]! : mantissa / POW10[-scale]!;
  return negative ? -magnitude : magnitude;
}

/**
 * The value of the integer token `s[a, b)` (an optional sign and decimal digits), or `undefined`
 * when it is anything else: an `integer` file holds integers, so `1.5` there is an error.
 *
 * @example
 * ```ts
 * parseInteger('-42', 0, 3); // -42
 * parseInteger('1.0', 0, 3); // undefined
 * ```
 */
export function parseInteger(s: string, a: number, b: number): number | undefined {
  let i = a;
  let c = s.charCodeAt(i);
  let negative = false;
  if (c === 45 || c === 43) {
    negative = c === 45;
    c = s.charCodeAt(++i);
  }
  const start = i;
  let value = 0;
  while (i < b && c >= 48 && c <= 57) {
    value = value * 10 + (c - 48);
    c = s.charCodeAt(++i);
  }
  if (i === start || i !== b) return undefined;
  // Past 15 digits the running sum may have rounded more than once; let Number round once.
  if (i - start > EXACT_DIGITS) value = Number(s.slice(start, b));
  return negative ? -value : value;
}
