import type { CsrMatrix, SpmvOptions } from '../types.js';
import { checkCsr, normalizeSpmvOptions } from '../validate.js';

/** Unit roundoff of f32 (round to nearest): every f32 operation errs by at most ε·|exact result|. */
const EPS = 2 ** -24;
/** Safety factor: covers 1/(1 − nε) of the rigorous bound while (L + 2)·ε ≤ 1/2, and the reference's own rounding. */
const C = 2;
/** Smallest normal f32: what flushing a subnormal to zero (which WGSL allows) may lose per operation. */
const MIN_NORMAL = 2 ** -126;
const F32_MAX = 3.4028234663852886e38;

/**
 * Per-output absolute error bounds for comparing an f32 result of `spmv` (any algorithm, CPU or
 * GPU) with the f64 reference of `@scan/spmv/cpu`: `|gpu[i] − cpu[i]| ≤ bound[i]` for a correct
 * implementation. Same arguments and validation as `spmv`. For output i (a row of op(A)), with
 * L_i its number of nonzeros and S_i = Σ_j |alpha·a_ij·x_j| + |beta·y_i| (the y term only when
 * beta ≠ 0):
 *
 * `bound_i = 2·ε·(L_i + 2)·S_i + 2·(L_i + 2)·2^-126`, ε = 2^-24,
 *
 * or `Infinity` where `S_i·(1 + 2·(L_i + 2)·ε)` passes the largest f32 (f32 partial sums may then
 * overflow where the f64 reference does not).
 *
 * Why: an f32 sum of L terms in *any* order or tree shape (sequential, a lane reduction, a
 * segmented scan, merge-path carries) has at most L − 1 roundings on the way to each term, so its
 * error is at most γ_{L−1}·Σ|terms|, γ_n = nε/(1 − nε); rounding the products adds ε·Σ|terms|
 * (nothing with fused multiply-adds), and scaling by alpha, multiplying beta·y and the final add
 * add three more roundings, all bounded by ε·S_i: γ_{L+2}·S_i in total. The factor 2 covers
 * 1/(1 − nε) while (L + 2)·ε ≤ 1/2 and the reference's single rounding of its f64 sum to f32
 * (ε·|result| ≤ ε·S_i). The last term allows each operation to flush a subnormal to zero. The
 * bound assumes an output is computed from its own row's terms only (segmented, never a
 * difference of global prefix sums), that inputs are finite normal numbers or zero, and it says
 * nothing useful once (L + 2)·ε approaches 1 (rows of millions of nonzeros): the bound is then of
 * the order of S_i itself.
 *
 * @example
 * ```ts
 * import { spmv } from '@scan/spmv';
 * import * as cpu from '@scan/spmv/cpu';
 * const actual = await spmv(ctx, A, x, options);
 * const expected = cpu.spmv(A, x, options);
 * const bound = cpu.spmvErrorBound(A, x, options);
 * const ok = actual.every((v, i) => Math.abs(v - expected[i]!) <= bound[i]!);
 * ```
 */
export function spmvErrorBound(A: CsrMatrix, x: Float32Array, options?: SpmvOptions): Float64Array {
  const { rows, cols, rowPtr, colIdx, values } = checkCsr(A, 'A');
  const { alpha, beta, transpose, y } = normalizeSpmvOptions(A, x, options);
  const outLength = transpose ? cols : rows;
  const magnitude = new Float64Array(outLength); // Σ_j |a_ij·x_j| per output
  const length = new Float64Array(outLength); // L_i
  if (!transpose) {
    for (let r = 0; r < rows; r++) {
      let sum = 0;
      const lo = rowPtr[r]!;
      const hi = rowPtr[r + 1]!;
      for (let k = lo; k < hi; k++) sum += Math.abs(values[k]! * x[colIdx[k]!]!);
      magnitude[r] = sum;
      length[r] = hi - lo;
    }
  } else {
    for (let r = 0; r < rows; r++) {
      const xr = Math.abs(x[r]!);
      const hi = rowPtr[r + 1]!;
      for (let k = rowPtr[r]!; k < hi; k++) {
        const c = colIdx[k]!;
        magnitude[c]! += Math.abs(values[k]!) * xr;
        length[c]!++;
      }
    }
  }
  const absAlpha = Math.abs(alpha);
  const yIn = beta !== 0 ? y : undefined;
  const bound = new Float64Array(outLength);
  for (let i = 0; i < outLength; i++) {
    // |alpha|·Σ|a·x| is Σ|alpha·a·x|; written this way alpha = ±Infinity with an empty row gives NaN,
    // as the product itself does (∞·0), so such an output must then match exactly.
    const s = absAlpha * magnitude[i]! + (yIn ? Math.abs(beta * yIn[i]!) : 0);
    const n = length[i]! + 2;
    bound[i] = s * (1 + C * n * EPS) > F32_MAX ? Number.POSITIVE_INFINITY : C * EPS * n * s + C * n * MIN_NORMAL;
  }
  return bound;
}
