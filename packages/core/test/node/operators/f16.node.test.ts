// f16 conversions (issue 48): round to nearest, ties to even, straight from the double; checked
// exhaustively over the 65536 bit patterns and every gap between neighbouring f16 values.
import { describe, expect, test } from 'vitest';
import { F16_NAN_BITS, f16BitsToNumber, f16Round, numberToF16Bits } from '../../../src/operators/f16.js';

describe('f16 bits to number', () => {
  test('edge values', () => {
    expect(f16BitsToNumber(0x0000)).toBe(0);
    expect(Object.is(f16BitsToNumber(0x8000), -0)).toBe(true);
    expect(f16BitsToNumber(0x3c00)).toBe(1);
    expect(f16BitsToNumber(0xc000)).toBe(-2);
    expect(f16BitsToNumber(0x0001)).toBe(2 ** -24); // smallest subnormal
    expect(f16BitsToNumber(0x03ff)).toBe(1023 * 2 ** -24); // largest subnormal
    expect(f16BitsToNumber(0x0400)).toBe(2 ** -14); // smallest normal
    expect(f16BitsToNumber(0x7bff)).toBe(65504); // largest finite
    expect(f16BitsToNumber(0x7c00)).toBe(Number.POSITIVE_INFINITY);
    expect(f16BitsToNumber(0xfc00)).toBe(Number.NEGATIVE_INFINITY);
    for (const nan of [0x7e00, 0x7c01, 0x7fff, 0xfe00, 0xfc01]) expect(f16BitsToNumber(nan)).toBeNaN();
  });
});

describe('number to f16 bits', () => {
  test('edge values', () => {
    const cases: [number, number][] = [
      [0, 0x0000],
      [-0, 0x8000],
      [1, 0x3c00],
      [-2, 0xc000],
      [1 / 3, 0x3555],
      [0.1, 0x2e66],
      [65504, 0x7bff],
      [65519.99, 0x7bff], // below the tie: the largest finite
      [65520, 0x7c00], // the tie between 65504 and 65536 goes to the even one: infinity
      [1e9, 0x7c00],
      [-1e9, 0xfc00],
      [Number.MAX_VALUE, 0x7c00],
      [Number.POSITIVE_INFINITY, 0x7c00],
      [Number.NEGATIVE_INFINITY, 0xfc00],
      [2 ** -24, 0x0001],
      [2 ** -25, 0x0000], // half the smallest subnormal: a tie, to even (zero)
      [-(2 ** -25), 0x8000], // underflow keeps the sign
      [2 ** -25 * (1 + 2 ** -40), 0x0001], // just above the tie
      [3 * 2 ** -25, 0x0002], // 1.5 subnormal units: the tie goes to 2
      [5 * 2 ** -25, 0x0002], // 2.5 units: to 2
      [1023 * 2 ** -24, 0x03ff], // largest subnormal
      [1023.5 * 2 ** -24, 0x0400], // rounds up into the smallest normal
      [2 ** -14, 0x0400],
      [Number.MIN_VALUE, 0x0000],
      [1 + 2 ** -11, 0x3c00], // the tie above 1 goes to 1 (even)
      [1 + 3 * 2 ** -11, 0x3c02], // the tie above 1 + 2^-10 goes to 1 + 2^-9 (even)
      [1 + 2 ** -11 + 2 ** -40, 0x3c01], // above the tie
      [2049, 0x6800], // 2048 (even) and 2050: the tie goes to 2048
      [2051, 0x6802], // 2050 and 2052 (even): 2052
      [2 - 2 ** -12, 0x4000], // rounds up across the exponent
    ];
    for (const [x, bits] of cases) expect(numberToF16Bits(x), `${x}`).toBe(bits);
  });

  test('NaN stays NaN', () => {
    expect(numberToF16Bits(Number.NaN)).toBe(F16_NAN_BITS);
    expect(f16BitsToNumber(numberToF16Bits(Number.NaN))).toBeNaN();
    expect(f16Round(Number.NaN)).toBeNaN();
  });

  test('every bit pattern round-trips (NaNs as NaN)', () => {
    for (let bits = 0; bits < 0x10000; bits++) {
      const x = f16BitsToNumber(bits);
      if (Number.isNaN(x)) {
        expect((bits & 0x7c00) === 0x7c00 && (bits & 0x3ff) !== 0, `${bits.toString(16)}`).toBe(true);
        expect(numberToF16Bits(x)).toBe(F16_NAN_BITS);
      } else if (numberToF16Bits(x) !== bits) {
        expect.fail(`0x${bits.toString(16)} → ${x} → 0x${numberToF16Bits(x).toString(16)}`);
      }
    }
  });

  test('every gap between neighbours: below the middle, the middle (to even), above it', () => {
    for (const sign of [0, 0x8000]) {
      for (let bits = 0; bits < 0x7c00; bits++) {
        const lo = f16BitsToNumber(sign | bits);
        const hi = f16BitsToNumber(sign | (bits + 1)); // 0x7bff + 1 is infinity: the overflow tie
        const mid = bits === 0x7bff ? (sign ? -65520 : 65520) : (lo + hi) / 2; // exact: f16 values have few bits
        const even = bits % 2 === 0 ? sign | bits : sign | (bits + 1);
        const towardLo = mid + (lo - mid) * 2 ** -20;
        const towardHi = mid + (mid - lo) * 2 ** -20;
        const got = [numberToF16Bits(towardLo), numberToF16Bits(mid), numberToF16Bits(towardHi)];
        const want = [sign | bits, even, sign | (bits + 1)];
        if (got.some((g, i) => g !== want[i])) expect.fail(`gap after 0x${(sign | bits).toString(16)}: ${got} ≠ ${want}`);
      }
    }
  });

  test('agrees with Math.f16round where the engine has it', () => {
    const f16round = (Math as { f16round?: (x: number) => number }).f16round;
    if (!f16round) return; // Node 20 has none; the exhaustive tests above stand alone
    for (let i = 0; i < 100_000; i++) {
      const x = (Math.sin(i) * 2 ** ((i % 60) - 30)) / 3;
      expect(Object.is(f16Round(x), f16round(x)), `${x}`).toBe(true);
    }
  });
});
