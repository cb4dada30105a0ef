// Half-precision conversions for f16 host data (a Uint16Array of bits, or a Float16Array where the
// engine has one). Node 20 has neither Float16Array nor Math.f16round, so the rounding is ours:
// round to nearest, ties to even, straight from the double. (Rounding through f32 first would round
// twice, and a double just above an f16 tie would land on the tie and then go to even, wrongly.)

/** 2^-24: the smallest positive f16 (a subnormal), the unit of the subnormal range. */
const F16_MIN_SUBNORMAL = 2 ** -24;
/** 2^-14: the smallest positive normal f16. */
const F16_MIN_NORMAL = 2 ** -14;
/**
 * 65520: halfway between the largest finite f16 (65504) and 65536, where the next exponent would
 * start. Ties go to the even significand, which is infinity's, so from here on everything is infinite.
 */
const F16_OVERFLOW = 65520;
/** The bits `numberToF16Bits` gives every NaN: the canonical quiet NaN. */
export const F16_NAN_BITS = 0x7e00;

/**
 * The f16 bits nearest to `x` (round to nearest, ties to even), as a GPU stores an f16 result:
 * overflow gives ±infinity, tiny values go to subnormals or ±0, NaN gives a quiet NaN (0x7e00).
 *
 * @example
 * ```ts
 * numberToF16Bits(1); // 0x3c00
 * numberToF16Bits(65520); // 0x7c00 (infinity: the tie goes to the even significand)
 * numberToF16Bits(2 ** -25); // 0 (half the smallest subnormal: a tie, to even)
 * ```
 */
export function numberToF16Bits(x: number): number {
  if (Number.isNaN(x)) return F16_NAN_BITS;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a >= F16_OVERFLOW) return sign | 0x7c00;
  if (a < F16_MIN_NORMAL) {
    // Subnormal range: a multiple of 2^-24 (scaling by a power of two is exact). A result of 1024
    // is the smallest normal's bits, which is right: the rounding carried into the exponent.
    return sign | roundHalfEven(a / F16_MIN_SUBNORMAL);
  }
  let exponent = Math.floor(Math.log2(a));
  // Math.log2 may be off by one next to a power of two; fix it exactly.
  if (2 ** exponent > a) exponent--;
  else if (2 ** (exponent + 1) <= a) exponent++;
  let significand = roundHalfEven((a / 2 ** exponent - 1) * 1024);
  if (significand === 1024) {
    significand = 0;
    exponent++;
  }
  // F16_OVERFLOW above keeps the exponent at most 15 here.
  return sign | ((exponent + 15) << 10) | significand;
}

/**
 * The number whose f16 bits are `bits` (the low 16 bits of it): exact, since every f16 is a double.
 *
 * @example
 * ```ts
 * f16BitsToNumber(0x3c00); // 1
 * f16BitsToNumber(0x0001); // 2 ** -24
 * f16BitsToNumber(0x7e00); // NaN
 * ```
 */
export function f16BitsToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >>> 10) & 0x1f;
  const significand = bits & 0x3ff;
  if (exponent === 0) return sign * significand * F16_MIN_SUBNORMAL;
  if (exponent === 0x1f) return significand === 0 ? sign * Number.POSITIVE_INFINITY : Number.NaN;
  return sign * (1024 + significand) * 2 ** (exponent - 25);
}

/**
 * `x` rounded to the nearest f16 (ties to even), as a number: what `Math.f16round` does where the
 * engine has it.
 *
 * @example
 * ```ts
 * f16Round(0.1); // 0.0999755859375
 * f16Round(1e6); // Infinity
 * ```
 */
export function f16Round(x: number): number {
  return f16BitsToNumber(numberToF16Bits(x));
}

/** `q` rounded to an integer, halves to the even neighbour. */
function roundHalfEven(q: number): number {
  const floor = Math.floor(q);
  const fraction = q - floor; // exact: taking away a double's integer part never rounds
  if (fraction > 0.5) return floor + 1;
  if (fraction < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}
