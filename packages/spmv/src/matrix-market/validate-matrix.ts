import { invalidArgument } from '@scan/core/kit';
import type { CooMatrix, CsrMatrix } from '../types.js';
import { MAX_DIMENSION } from './header.js';

/**
 * Whether `A` is in CSR form (it has `rowPtr`) rather than COO form (it has `rowIdx`).
 *
 * @example
 * ```ts
 * if (isCsr(A)) console.log(A.rowPtr.length - 1, 'rows');
 * ```
 */
export function isCsr(A: CsrMatrix | CooMatrix): A is CsrMatrix {
  return (A as Partial<CsrMatrix>).rowPtr !== undefined;
}

function checkDimension(name: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_DIMENSION) {
    invalidArgument(name, value, `must be an integer in 0..${MAX_DIMENSION}`);
  }
}

function checkArray(name: string, value: unknown, type: typeof Uint32Array | typeof Float32Array, length: number): void {
  if (!(value instanceof type)) invalidArgument(name, value, `must be a ${type.name}`);
  if (value.length !== length) invalidArgument(name, value, `must have ${length} entries`);
}

/**
 * Checks a matrix before it is written, so that a writer never produces a file that its reader
 * rejects, and never leaves a half-written file behind: shapes and types, a CSR `rowPtr` that starts
 * at 0, never decreases and ends at nnz, and every index within the matrix. Returns nnz.
 *
 * @throws ScanError `INVALID_ARGUMENT` naming the field of `A` at fault.
 * @example
 * ```ts
 * const nnz = checkMatrixForWrite(A);
 * ```
 */
export function checkMatrixForWrite(A: CsrMatrix | CooMatrix): number {
  if (typeof A !== 'object' || A === null) invalidArgument('A', A, 'must be a CsrMatrix or a CooMatrix');
  checkDimension('A.rows', A.rows);
  checkDimension('A.cols', A.cols);
  const { rows, cols, colIdx, values } = A;
  if (!(values instanceof Float32Array)) invalidArgument('A.values', values, 'must be a Float32Array');
  const nnz = values.length;
  checkArray('A.colIdx', colIdx, Uint32Array, nnz);
  if (isCsr(A)) {
    const { rowPtr } = A;
    checkArray('A.rowPtr', rowPtr, Uint32Array, rows + 1);
    if (rowPtr[0] !== 0) invalidArgument('A.rowPtr', rowPtr, `must start at 0, found ${rowPtr[0]}`);
    if (rowPtr[rows] !== nnz) invalidArgument('A.rowPtr', rowPtr, `must end at nnz = ${nnz}, found ${rowPtr[rows]}`);
    for (let r = 0; r < rows; r++) {
      if (rowPtr[r + 1]! < rowPtr[r]!) invalidArgument('A.rowPtr', rowPtr, `decreases at row ${r}: ${rowPtr[r]} then ${rowPtr[r + 1]}`);
    }
  } else {
    const { rowIdx } = A as CooMatrix;
    checkArray('A.rowIdx', rowIdx, Uint32Array, nnz);
    for (let k = 0; k < nnz; k++) {
      if (rowIdx[k]! >= rows) invalidArgument('A.rowIdx', rowIdx, `entry ${k} is ${rowIdx[k]}, not below rows = ${rows}`);
    }
  }
  for (let k = 0; k < nnz; k++) {
    if (colIdx[k]! >= cols) invalidArgument('A.colIdx', colIdx, `entry ${k} is ${colIdx[k]}, not below cols = ${cols}`);
  }
  return nnz;
}
