import { checkBoolean, checkOptions } from '@scan/core/kit';
import { checkHiSparse, checkVector } from '../format/args.js';
import type { HiSparseHost } from '../format/matrix.js';
import { forEachStoredEntry } from './traverse.js';

/**
 * Options of `hisparseSpmv`.
 *
 * @example
 * ```ts
 * hisparseSpmv(H, x, { transpose: true } satisfies HiSparseSpmvOptions);
 * ```
 */
export interface HiSparseSpmvOptions {
  /** Multiply by the transpose of the (logical) matrix (default false). */
  transpose?: boolean;
}

/**
 * CPU reference of HiSparse SpMV (§5, Algorithm 1): y = s·op(A)·x with s the matrix's scale and
 * op(A) = A or Aᵀ, where the stored matrix is read transposed when the matrix's transposed flag
 * and `options.transpose` differ (a coordinate swap per entry, as the paper's leaf kernel does).
 * Sums in f64 over the hierarchical order, rounded to f32 once (times s) per output, like
 * `@scan/spmv`'s CPU `spmv` with `alpha = s`; with values and x on a coarse dyadic grid both are
 * exact and agree bit for bit. `x` must be a `Float32Array` of `cols` elements (`rows` with
 * `transpose`).
 *
 * @example
 * ```ts
 * const H = hisparseFromCsr(A); // A = [[1, 0, 2], [0, 3, 0]]
 * hisparseSpmv(H, new Float32Array([1, 1, 1])); // Float32Array [3, 3]
 * hisparseSpmv(H, new Float32Array([1, 1]), { transpose: true }); // Float32Array [1, 3, 2]
 * ```
 */
export function hisparseSpmv(H: HiSparseHost, x: Float32Array, options?: HiSparseSpmvOptions): Float32Array<ArrayBuffer> {
  const h = checkHiSparse(H, 'H');
  const o = checkOptions(options, ['transpose']);
  const transposeOption = checkBoolean(o['transpose'], 'options.transpose', false);
  const [inLength, inName, outLength] = transposeOption ? [h.rows, 'H.rows, transposed', h.cols] : [h.cols, 'H.cols', h.rows];
  checkVector(x, inLength, 'x', inName);
  const swap = h.transposed !== transposeOption;
  const sums = new Float64Array(outLength);
  forEachStoredEntry(h, (r, c, v) => {
    if (swap) sums[c]! += v * x[r]!;
    else sums[r]! += v * x[c]!;
  });
  const y = new Float32Array(outLength);
  for (let i = 0; i < outLength; i++) y[i] = h.scale * sums[i]!;
  return y;
}
