import type { CsrMatrix, CsrStats } from './types.js';
import { checkCsr } from './validate.js';

/**
 * The row-length statistics of a CSR matrix (see `CsrStats`), computed from `rowPtr` alone in one
 * pass: nnz, mean, longest row, standard deviation (of the population of rows), empty rows. The
 * matrix is validated first (`INVALID_ARGUMENT` on a bad one); a caller that has just run
 * `checkCsr` can skip the second check with `csrStatsUnchecked` (internal).
 *
 * @example
 * ```ts
 * const A = { rows: 3, cols: 3, rowPtr: new Uint32Array([0, 2, 2, 3]), colIdx: new Uint32Array([0, 2, 1]), values: new Float32Array([1, 2, 3]) };
 * csrStats(A);
 * // { rows: 3, cols: 3, nnz: 3, meanRowLength: 1, maxRowLength: 2, rowLengthStdDev: 0.816…, emptyRows: 1 }
 * ```
 */
export function csrStats(A: CsrMatrix): CsrStats {
  return csrStatsUnchecked(checkCsr(A, 'A'));
}

/**
 * {@link csrStats} without validating `A` (for a matrix that has just passed `checkCsr`: the check
 * is a pass over all nonzeros, the statistics only read `rowPtr`).
 *
 * @example
 * ```ts
 * const host = checkCsr(A, 'A');
 * const stats = csrStatsUnchecked(host);
 * ```
 */
export function csrStatsUnchecked(A: CsrMatrix): CsrStats {
  const { rows, cols, rowPtr } = A;
  const nnz = rowPtr[rows] ?? 0;
  // The mean is known before the pass (nnz / rows), so the deviation is summed around it directly:
  // no sum of squares of lengths up to 2^32, whose difference would cancel catastrophically.
  const meanRowLength = rows > 0 ? nnz / rows : 0;
  let maxRowLength = 0;
  let emptyRows = 0;
  let squares = 0;
  let previous = rowPtr[0] ?? 0;
  for (let r = 1; r <= rows; r++) {
    const next = rowPtr[r]!;
    const length = next - previous;
    previous = next;
    if (length > maxRowLength) maxRowLength = length;
    if (length === 0) emptyRows++;
    const d = length - meanRowLength;
    squares += d * d;
  }
  const rowLengthStdDev = rows > 0 ? Math.sqrt(squares / rows) : 0;
  return { rows, cols, nnz, meanRowLength, maxRowLength, rowLengthStdDev, emptyRows };
}
