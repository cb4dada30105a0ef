import type { HiSparseMatrix } from '@scan/hisparse';
import type { GpuCsrMatrix } from '@scan/spmv';
import type { MatrixFields } from '../../child/spmv-matrix.js';
import type { SpmvMatrixInfo } from '../../report.js';

// What the HiSparse modules (hisparse-spmv and -t, hisparse-add) share: the node sizes they run
// at, their case fields, and the report's matrix record.

/**
 * Node sizes the HiSparse cases run side by side: the format's default is chosen from these by
 * measurement (issue 15), so each product runs at each.
 */
export const HISPARSE_NODE_SIZES: readonly number[] = [16, 32, 64];

/** The fields of every HiSparse case: the node size d and the matrix (as the SpMV cases name it). */
export type HiSparseFields = { readonly nodeSize: number } & MatrixFields;

/**
 * The report's matrix fields of a HiSparse case: the CSR it came from and the HiSparse bytes (its census).
 *
 * @example
 * ```ts
 * const info = hisparseMatrixInfo(c, A, matrix, `hisparse d ${matrix.nodeSize}`);
 * ```
 */
export function hisparseMatrixInfo(
  c: MatrixFields,
  A: Pick<GpuCsrMatrix, 'rows' | 'cols' | 'nnz'>,
  m: HiSparseMatrix,
  algorithm: string,
): SpmvMatrixInfo {
  const stats = m.stats();
  return {
    name: c.matrix,
    rows: A.rows,
    cols: A.cols,
    nnz: A.nnz,
    k: 1,
    algorithm,
    maxRowLength: Number.NaN,
    meanRowLength: A.rows > 0 ? A.nnz / A.rows : 0,
    memoryBytes: stats.memoryBytes,
    csrBytes: stats.csrBytes,
    levels: stats.levels,
  };
}
