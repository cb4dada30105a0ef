import type { CsrMatrix } from '../types.js';
import { checkCsr } from '../validate.js';

/**
 * CPU reference of `transposeCsr`: Aᵀ in CSR (`cols` rows, `rows` columns). A counting sort by
 * column index: rows of A are visited in order, so within each row of Aᵀ the entries keep
 * increasing original-row order (stable), and duplicates stay separate entries, as they were —
 * the same layout the GPU transpose (a stable radix sort of the column indices) produces. Linear
 * time, O(cols) extra memory. The input is validated and untouched.
 *
 * @example
 * ```ts
 * const A = { rows: 2, cols: 3, rowPtr: new Uint32Array([0, 2, 3]), colIdx: new Uint32Array([0, 2, 1]), values: new Float32Array([1, 2, 3]) };
 * transposeCsr(A);
 * // { rows: 3, cols: 2, rowPtr: [0, 1, 2, 3], colIdx: [0, 1, 0], values: [1, 3, 2] }
 * ```
 */
export function transposeCsr(A: CsrMatrix): CsrMatrix {
  const { rows, cols, rowPtr, colIdx, values } = checkCsr(A, 'A');
  const nnz = colIdx.length;
  const tPtr = new Uint32Array(cols + 1);
  for (let k = 0; k < nnz; k++) tPtr[colIdx[k]! + 1]!++;
  for (let c = 0; c < cols; c++) tPtr[c + 1]! += tPtr[c]!;
  const cursor = tPtr.slice(0, cols);
  const tCol = new Uint32Array(nnz);
  const tVal = new Float32Array(nnz);
  for (let r = 0; r < rows; r++) {
    const hi = rowPtr[r + 1]!;
    for (let k = rowPtr[r]!; k < hi; k++) {
      const at = cursor[colIdx[k]!]!++;
      tCol[at] = r;
      tVal[at] = values[k]!;
    }
  }
  return { rows: cols, cols: rows, rowPtr: tPtr, colIdx: tCol, values: tVal };
}
