import type { CsrMatrix } from '../types.js';
import { checkDimension, checkNnz, checkSeed, generatorOptions } from './args.js';
import { createRng } from './random.js';

/** Options of {@link biasedMatrix}. */
export interface BiasedMatrixOptions {
  /** Seed of the values (a u32, default 1). */
  seed?: number;
}

/**
 * The skewed test matrices of the SpMV paper (mat1K … mat1M): n×n, row 0 holds every column
 * 0 … n − 1 and every other row r only its diagonal (r, r), so nnz = 2n − 1 (mat1K, n = 1000, has
 * 1999). One row as long as all the others together is the worst case of a row-per-thread SpMV and
 * what the segmented and merge-based algorithms are meant to even out.
 *
 * Values are seeded and uniform in [−1, 1) on the grid k·2^−23 − 1, never exactly 0 (so the
 * diagonal is nonzero), drawn in storage order (row 0 first).
 *
 * @param n rows and columns, a positive integer up to 2^30 (nnz = 2n − 1 must stay below 2^31).
 * @throws ScanError `INVALID_ARGUMENT` for a bad n or seed, `TOO_LARGE` past n = 2^30.
 *
 * @example
 * ```ts
 * const mat1K = biasedMatrix(1000, { seed: 7 });
 * mat1K.rowPtr[1]; // 1000 — row 0 is full
 * mat1K.colIdx.length; // 1999
 * ```
 */
export function biasedMatrix(n: number, options?: BiasedMatrixOptions): CsrMatrix {
  const size = checkDimension(n, 'n', 1, 'rows');
  const o = generatorOptions(options, ['seed']);
  const seed = checkSeed(o['seed']);
  const nnz = 2 * size - 1;
  checkNnz(nnz, 'n', '2n − 1');

  const rng = createRng(seed);
  const rowPtr = new Uint32Array(size + 1);
  const colIdx = new Uint32Array(nnz);
  const values = new Float32Array(nnz);
  for (let c = 0; c < size; c++) colIdx[c] = c;
  // Row r ≥ 1 starts after row 0's n entries and the r − 1 diagonals before it.
  for (let r = 1; r <= size; r++) rowPtr[r] = size + r - 1;
  for (let r = 1; r < size; r++) colIdx[size + r - 1] = r;
  for (let k = 0; k < nnz; k++) values[k] = rng.value();
  return { rows: size, cols: size, rowPtr, colIdx, values };
}
