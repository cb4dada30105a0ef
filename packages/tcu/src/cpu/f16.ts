import { ScanError } from '@scan/core';

/** The largest finite f16 value. */
export const F16_MAX = 65504;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * The IEEE binary16 bits of `x`, rounded to nearest, ties to even — exactly what the GPU upload does
 * (`Math.fround` first, so a `number` is treated as the f32 it would be in a `Float32Array`). Finite
 * values of magnitude ≥ 65520 become ±Infinity, NaN stays NaN (quiet, payload dropped), subnormals
 * are kept.
 *
 * @example
 * ```ts
 * toF16Bits(1); // 0x3c00
 * toF16Bits(1 + 2 ** -11); // 0x3c00 (tie, rounds to even)
 * toF16Bits(65520); // 0x7c00 (Infinity)
 * ```
 */
export function toF16Bits(x: number): number {
  f32[0] = x;
  const bits = u32[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  const mant = bits & 0x7fffff;
  if (exp === 0xff) return sign | (mant ? 0x7e00 : 0x7c00);
  // Unbiased exponent e; f16 normal range is e in [-14, 15].
  const e = exp - 127;
  if (e > 15) return sign | 0x7c00;
  if (e >= -14) {
    // Normal: keep 10 mantissa bits, round the 13 dropped bits to nearest even.
    let h = ((e + 15) << 10) | (mant >>> 13);
    const rest = mant & 0x1fff;
    if (rest > 0x1000 || (rest === 0x1000 && (h & 1) === 1)) h++; // may carry into the exponent, up to Infinity: right
    return sign | h;
  }
  if (e < -25) return sign; // below half the smallest subnormal (2^-25): rounds to zero
  // Subnormal: value = full · 2^(e-23) = (full · 2^(e+1)) · 2^-24, so the f16 significand is full >> (-e-1).
  const full = mant | 0x800000;
  const dropped = -e - 1;
  const m = full >>> dropped;
  const rest = full & ((1 << dropped) - 1);
  const half = 1 << (dropped - 1);
  let h = m;
  if (rest > half || (rest === half && (h & 1) === 1)) h++;
  return sign | h;
}

/**
 * The value of f16 bits `h` (exact: every f16 is an f32 and a double).
 *
 * @example
 * ```ts
 * fromF16Bits(0x3c00); // 1
 * fromF16Bits(0x0001); // 5.960464477539063e-8 (2^-24)
 * ```
 */
export function fromF16Bits(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 31) return mant ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** Options of {@link toF16Array}. */
export interface F16Options {
  /** Clamp finite values past the f16 range to ±65504 instead of throwing (default false). */
  saturate?: boolean;
}

/**
 * Rounds `data` to f16 bits as the GPU functions upload it: a `Float32Array` is rounded to nearest
 * even ({@link toF16Bits}); a `Uint16Array` is taken as f16 bits already (returned as is). A finite
 * value that would round to ±Infinity throws an `INVALID_ARGUMENT` `ScanError` naming the first such
 * index and value, unless `saturate` (then it becomes ±65504). ±Infinity and NaN are f16 values and
 * pass through.
 *
 * @example
 * ```ts
 * toF16Array(new Float32Array([1, 0.1])); // Uint16Array [0x3c00, 0x2e66]
 * toF16Array(new Float32Array([1e6])); // throws: data[0] = 1000000: outside the f16 range …
 * toF16Array(new Float32Array([1e6]), { saturate: true }); // Uint16Array [0x7bff]
 * ```
 */
export function toF16Array(data: Float32Array | Uint16Array, options: F16Options = {}, argument = 'data'): Uint16Array {
  if (data instanceof Uint16Array) return data;
  const out = new Uint16Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const x = data[i]!;
    let h = toF16Bits(x);
    if ((h & 0x7fff) === 0x7c00 && Number.isFinite(x)) {
      if (!options.saturate) {
        throw new ScanError(
          'INVALID_ARGUMENT',
          `${argument}[${i}] = ${x}: outside the f16 range (|x| must round below 65520; largest f16 is 65504); pass { saturate: true } to clamp`,
          { argument: `${argument}[${i}]` },
        );
      }
      h = (h & 0x8000) | 0x7bff;
    }
    out[i] = h;
  }
  return out;
}

/**
 * The f16 bits of `data` as f32 values (what the GPU computes with).
 *
 * @example
 * ```ts
 * f16ToFloat32(new Uint16Array([0x3c00, 0x2e66])); // Float32Array [1, 0.0999755859375]
 * ```
 */
export function f16ToFloat32(bits: Uint16Array): Float32Array {
  const out = new Float32Array(bits.length);
  for (let i = 0; i < bits.length; i++) out[i] = fromF16Bits(bits[i]!);
  return out;
}
