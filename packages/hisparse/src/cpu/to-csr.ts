import { type CsrMatrix, cooToCsr } from '@scan/spmv/cpu';
import { checkHiSparse } from '../format/args.js';
import type { HiSparseHost } from '../format/matrix.js';
import { forEachStoredEntry } from './traverse.js';

/**
 * The logical matrix (state applied: transposed when flagged, every value times the scale,
 * computed in f64 and rounded to f32 once) as a canonical CSR — rows in order, columns sorted
 * within each row — through `@scan/spmv`'s `cooToCsr`, so it compares bit for bit with
 * `cooToCsr` of the source. Every stored entry comes out, explicit zeros of sparse leaves
 * included; a +0 word of a dense leaf is no entry.
 *
 * @example
 * ```ts
 * hisparseToCsr(hisparseFromCsr(A)); // A with sorted columns and duplicates summed
 * hisparseToCsr(transpose(scale(hisparseFromCsr(A), 2))); // 2·Aᵀ
 * ```
 */
export function hisparseToCsr(H: HiSparseHost): CsrMatrix {
  const h = checkHiSparse(H, 'H');
  const rowIdx: number[] = [];
  const colIdx: number[] = [];
  const values: number[] = [];
  forEachStoredEntry(h, (r, c, v) => {
    rowIdx.push(h.transposed ? c : r);
    colIdx.push(h.transposed ? r : c);
    values.push(h.scale * v);
  });
  return cooToCsr({
    rows: h.rows,
    cols: h.cols,
    rowIdx: Uint32Array.from(rowIdx),
    colIdx: Uint32Array.from(colIdx),
    values: Float32Array.from(values),
  });
}
