import { ScanError } from '@scan/core';
import { cooToCsr, csrToCoo } from '../convert.js';
import type { CsrMatrix } from '../types.js';
import { checkCsr } from '../validate.js';

/**
 * CPU reference of sparse addition: C = A + B in CSR with sorted, unique columns, an entry present
 * in both summed in f64 and rounded to f32 once (so exactly the f32 `a + b` of the two stored
 * values), explicit zeros kept. When every row of both is already sorted and duplicate-free it is
 * one linear merge per row; otherwise the entries of both go through `cooToCsr`, which sorts and sums
 * (any duplicates within A or B are summed too). Inputs are validated and untouched.
 *
 * @throws ScanError `INVALID_ARGUMENT` for an invalid matrix or shapes that differ.
 *
 * @example
 * ```ts
 * const A = { rows: 1, cols: 3, rowPtr: new Uint32Array([0, 2]), colIdx: new Uint32Array([0, 2]), values: new Float32Array([1, 2]) };
 * const B = { rows: 1, cols: 3, rowPtr: new Uint32Array([0, 2]), colIdx: new Uint32Array([1, 2]), values: new Float32Array([5, 3]) };
 * addCsr(A, B); // { rows: 1, cols: 3, rowPtr: [0, 3], colIdx: [0, 1, 2], values: [1, 5, 5] }
 * ```
 */
export function addCsr(A: CsrMatrix, B: CsrMatrix): CsrMatrix {
  const a = checkCsr(A, 'A');
  const b = checkCsr(B, 'B');
  if (a.rows !== b.rows || a.cols !== b.cols) {
    throw new ScanError('INVALID_ARGUMENT', `B: ${b.rows}×${b.cols}, expected A's shape ${a.rows}×${a.cols}`, { argument: 'B' });
  }
  if (!sortedUnique(a) || !sortedUnique(b)) {
    const ca = csrToCoo(a);
    const cb = csrToCoo(b);
    const join = <T extends Uint32Array | Float32Array>(x: T, y: T): T => {
      const out = new (x.constructor as new (n: number) => T)(x.length + y.length);
      out.set(x);
      out.set(y, x.length);
      return out;
    };
    return cooToCsr({
      rows: a.rows,
      cols: a.cols,
      rowIdx: join(ca.rowIdx, cb.rowIdx),
      colIdx: join(ca.colIdx, cb.colIdx),
      values: join(ca.values, cb.values),
    });
  }
  // Pass 1 counts the union of each row's columns, pass 2 merges.
  const rowPtr = new Uint32Array(a.rows + 1);
  let nnz = 0;
  for (let r = 0; r < a.rows; r++) {
    let i = a.rowPtr[r]!;
    let j = b.rowPtr[r]!;
    const ie = a.rowPtr[r + 1]!;
    const je = b.rowPtr[r + 1]!;
    while (i < ie && j < je) {
      const ci = a.colIdx[i]!;
      const cj = b.colIdx[j]!;
      if (ci <= cj) i++;
      if (cj <= ci) j++;
      nnz++;
    }
    nnz += ie - i + (je - j);
    rowPtr[r + 1] = nnz;
  }
  const colIdx = new Uint32Array(nnz);
  const values = new Float32Array(nnz);
  let k = 0;
  for (let r = 0; r < a.rows; r++) {
    let i = a.rowPtr[r]!;
    let j = b.rowPtr[r]!;
    const ie = a.rowPtr[r + 1]!;
    const je = b.rowPtr[r + 1]!;
    while (i < ie || j < je) {
      const ci = i < ie ? a.colIdx[i]! : Number.POSITIVE_INFINITY;
      const cj = j < je ? b.colIdx[j]! : Number.POSITIVE_INFINITY;
      if (ci === cj) {
        colIdx[k] = ci;
        values[k] = a.values[i++]! + b.values[j++]!;
      } else if (ci < cj) {
        colIdx[k] = ci;
        values[k] = a.values[i++]!;
      } else {
        colIdx[k] = cj;
        values[k] = b.values[j++]!;
      }
      k++;
    }
  }
  return { rows: a.rows, cols: a.cols, rowPtr, colIdx, values };
}

/** Whether every row's columns strictly increase. */
function sortedUnique(A: CsrMatrix): boolean {
  for (let r = 0; r < A.rows; r++) {
    for (let k = A.rowPtr[r]! + 1; k < A.rowPtr[r + 1]!; k++) if (A.colIdx[k]! <= A.colIdx[k - 1]!) return false;
  }
  return true;
}
