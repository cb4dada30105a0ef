import type { CsrMatrix, SpmmOptions, SpmvOptions } from '../types.js';
import { checkCsr, normalizeSpmmOptions, normalizeSpmvOptions } from '../validate.js';

// Accumulation is in f64 (JS numbers): a product of two f32 values is exact in f64, and the sums
// carry about 29 more bits than the GPU's f32 sums, so the reference is (up to one final rounding
// to f32) the exact product for any matrix a test uses, independent of summation order. GPU
// results are then compared within `spmvErrorBound`.

/**
 * CPU reference of `spmv`: a new `Float32Array` holding `alpha·op(A)·x + beta·y` (op(A) = A, or
 * Aᵀ with `transpose`), summed in f64 and rounded to f32 once per output. `y` is read only when
 * `beta ≠ 0` (so a `y` full of NaN does not matter with `beta = 0`). Arguments are validated
 * exactly as on the GPU; `options.algorithm` is checked and otherwise ignored. Inputs are untouched.
 *
 * @example
 * ```ts
 * const A = { rows: 2, cols: 3, rowPtr: new Uint32Array([0, 2, 3]), colIdx: new Uint32Array([0, 2, 1]), values: new Float32Array([1, 2, 3]) };
 * spmv(A, new Float32Array([1, 1, 1])); // Float32Array [3, 3]
 * spmv(A, new Float32Array([1, 1]), { transpose: true }); // Float32Array [1, 3, 2]
 * spmv(A, new Float32Array([1, 1, 1]), { alpha: 2, beta: -1, y: new Float32Array([1, 1]) }); // Float32Array [5, 5]
 * ```
 */
export function spmv(A: CsrMatrix, x: Float32Array, options?: SpmvOptions): Float32Array<ArrayBuffer> {
  const { rows, cols, rowPtr, colIdx, values } = checkCsr(A, 'A');
  const { alpha, beta, transpose, y } = normalizeSpmvOptions(A, x, options);
  const outLength = transpose ? cols : rows;
  const out = new Float32Array(outLength);
  const yIn = beta !== 0 ? y : undefined;
  if (!transpose) {
    for (let r = 0; r < rows; r++) {
      let sum = 0;
      const hi = rowPtr[r + 1]!;
      for (let k = rowPtr[r]!; k < hi; k++) sum += values[k]! * x[colIdx[k]!]!;
      out[r] = yIn ? alpha * sum + beta * yIn[r]! : alpha * sum;
    }
    return out;
  }
  // Aᵀ·x: scatter row r of A, scaled by x[r], into the outputs (row order, like a transposed CSR).
  const sums = new Float64Array(cols);
  for (let r = 0; r < rows; r++) {
    const xr = x[r]!;
    const hi = rowPtr[r + 1]!;
    for (let k = rowPtr[r]!; k < hi; k++) sums[colIdx[k]!]! += values[k]! * xr;
  }
  for (let c = 0; c < cols; c++) out[c] = yIn ? alpha * sums[c]! + beta * yIn[c]! : alpha * sums[c]!;
  return out;
}

/**
 * CPU reference of `spmm`: `op(A)·X` for a dense, row-major X of `k` columns (entry (i, j) at
 * `i·k + j`), as a new row-major `Float32Array` of `rows·k` values (`cols·k` with `transpose`),
 * summed in f64 and rounded once. Column j of the result is `spmv(A, column j of X)`. Arguments
 * are validated as on the GPU (`k` required, an integer from 1 to 65536).
 *
 * @example
 * ```ts
 * const A = { rows: 2, cols: 2, rowPtr: new Uint32Array([0, 1, 2]), colIdx: new Uint32Array([1, 0]), values: new Float32Array([2, 3]) };
 * spmm(A, new Float32Array([1, 10, 2, 20]), { k: 2 }); // Float32Array [4, 40, 3, 30]
 * ```
 */
export function spmm(A: CsrMatrix, X: Float32Array, options: SpmmOptions): Float32Array<ArrayBuffer> {
  const { rows, cols, rowPtr, colIdx, values } = checkCsr(A, 'A');
  const { k, transpose } = normalizeSpmmOptions(A, X, options);
  if (!transpose) {
    const out = new Float32Array(rows * k);
    const acc = new Float64Array(k);
    for (let r = 0; r < rows; r++) {
      acc.fill(0);
      const hi = rowPtr[r + 1]!;
      for (let p = rowPtr[r]!; p < hi; p++) {
        const a = values[p]!;
        const base = colIdx[p]! * k;
        for (let j = 0; j < k; j++) acc[j]! += a * X[base + j]!;
      }
      out.set(acc, r * k); // rounds each f64 sum to f32 once
    }
    return out;
  }
  const sums = new Float64Array(cols * k);
  for (let r = 0; r < rows; r++) {
    const hi = rowPtr[r + 1]!;
    const xBase = r * k;
    for (let p = rowPtr[r]!; p < hi; p++) {
      const a = values[p]!;
      const base = colIdx[p]! * k;
      for (let j = 0; j < k; j++) sums[base + j]! += a * X[xBase + j]!;
    }
  }
  return Float32Array.from(sums);
}
