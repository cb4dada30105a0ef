import type { CooMatrix, CsrMatrix } from './types.js';
import { checkCoo, checkCsr } from './validate.js';

export { csrStats, csrStatsUnchecked } from './stats.js';

/**
 * Converts a COO matrix to CSR: entries sorted by row, then by column within each row, and
 * duplicates (equal row and column) summed — in f64, in their input order, rounded to f32 once —
 * into one entry. Explicit zeros are kept (a duplicate pair that cancels leaves a stored 0). The
 * input is validated (`INVALID_ARGUMENT` naming the field) and left untouched; the result owns new
 * arrays of exactly the merged nnz.
 *
 * Sorting is a stable counting sort by row (O(nnz + rows)), then, for each row whose columns are
 * not already in order, a sort of that row alone by (column, input position): no table of `cols`
 * entries, so a matrix with 2^32 − 1 columns and few nonzeros costs nothing extra, and the usual
 * Matrix Market input (already sorted) is one linear pass per row.
 *
 * @example
 * ```ts
 * const coo = {
 *   rows: 2, cols: 3,
 *   rowIdx: new Uint32Array([1, 0, 1, 0]), colIdx: new Uint32Array([0, 2, 0, 1]), values: new Float32Array([1, 2, 3, 4]),
 * };
 * cooToCsr(coo);
 * // { rows: 2, cols: 3, rowPtr: [0, 2, 3], colIdx: [1, 2, 0], values: [4, 2, 4] }  (the two (1, 0) entries summed)
 * ```
 */
export function cooToCsr(coo: CooMatrix): CsrMatrix {
  const { rows, cols, rowIdx, colIdx, values } = checkCoo(coo, 'coo');
  const nnz = values.length;

  // Counting sort by row: `start[r]` is where row r begins; scattering in input order keeps
  // equal rows in input order (stable), which fixes the order in which duplicates are summed.
  const start = new Uint32Array(rows + 1);
  for (let k = 0; k < nnz; k++) start[rowIdx[k]! + 1]!++;
  for (let r = 0; r < rows; r++) start[r + 1]! += start[r]!;
  const cursor = start.slice(0, rows);
  const order = new Uint32Array(nnz); // input positions, grouped by row
  for (let k = 0; k < nnz; k++) order[cursor[rowIdx[k]!]!++] = k;

  // Columns within each row: most inputs are sorted already, so check before sorting.
  const byColumn = (a: number, b: number) => colIdx[a]! - colIdx[b]! || a - b; // ties by input position: stable
  for (let r = 0; r < rows; r++) {
    const lo = start[r]!;
    const hi = start[r + 1]!;
    let sorted = true;
    for (let p = lo + 1; p < hi; p++) {
      if (colIdx[order[p]!]! < colIdx[order[p - 1]!]!) {
        sorted = false;
        break;
      }
    }
    if (!sorted) order.subarray(lo, hi).sort(byColumn);
  }

  // Merge duplicates, row by row.
  const rowPtr = new Uint32Array(rows + 1);
  const outCol = new Uint32Array(nnz);
  const outVal = new Float32Array(nnz);
  let w = 0;
  for (let r = 0; r < rows; r++) {
    const hi = start[r + 1]!;
    let p = start[r]!;
    while (p < hi) {
      const c = colIdx[order[p]!]!;
      let sum = values[order[p]!]!; // a JS number: f64, so duplicates add up without f32 rounding
      for (p++; p < hi && colIdx[order[p]!] === c; p++) sum += values[order[p]!]!;
      outCol[w] = c;
      outVal[w] = sum; // the one rounding to f32
      w++;
    }
    rowPtr[r + 1] = w;
  }
  // Exact-length arrays (a copy only when duplicates were merged), so `colIdx.length` is nnz.
  return {
    rows,
    cols,
    rowPtr,
    colIdx: w === nnz ? outCol : outCol.slice(0, w),
    values: w === nnz ? outVal : outVal.slice(0, w),
  };
}

/**
 * Converts a CSR matrix to COO, entry for entry in CSR order (row by row, columns as stored,
 * duplicates kept). The input is validated and untouched; the result has new arrays.
 *
 * @example
 * ```ts
 * const A = { rows: 2, cols: 3, rowPtr: new Uint32Array([0, 2, 3]), colIdx: new Uint32Array([0, 2, 1]), values: new Float32Array([1, 2, 3]) };
 * csrToCoo(A);
 * // { rows: 2, cols: 3, rowIdx: [0, 0, 1], colIdx: [0, 2, 1], values: [1, 2, 3] }
 * ```
 */
export function csrToCoo(A: CsrMatrix): CooMatrix {
  const { rows, cols, rowPtr, colIdx, values } = checkCsr(A, 'A');
  const rowIdx = new Uint32Array(colIdx.length);
  for (let r = 0; r < rows; r++) rowIdx.fill(r, rowPtr[r]!, rowPtr[r + 1]!);
  return { rows, cols, rowIdx, colIdx: colIdx.slice(), values: values.slice() };
}
