import type { CsrMatrix, CsrStats } from '../types.js';

/**
 * The row-length statistics of Aᵀ from A, without building Aᵀ: the rows of Aᵀ are the columns of
 * A, so their lengths are the column counts (one pass over the column indices).
 *
 * @example
 * ```ts
 * transposedStats(A).maxRowLength; // the most nonzeros in one column of A
 * ```
 */
export function transposedStats(A: CsrMatrix): CsrStats {
  const counts = new Uint32Array(A.cols);
  for (let i = 0; i < A.colIdx.length; i++) counts[A.colIdx[i] as number]!++;
  let maxRowLength = 0;
  let emptyRows = 0;
  let squares = 0;
  for (let c = 0; c < A.cols; c++) {
    const n = counts[c] as number;
    if (n > maxRowLength) maxRowLength = n;
    if (n === 0) emptyRows++;
    squares += n * n;
  }
  const nnz = A.colIdx.length;
  const meanRowLength = A.cols ? nnz / A.cols : 0;
  const variance = A.cols ? Math.max(0, squares / A.cols - meanRowLength * meanRowLength) : 0;
  return { rows: A.cols, cols: A.rows, nnz, meanRowLength, maxRowLength, rowLengthStdDev: Math.sqrt(variance), emptyRows };
}
