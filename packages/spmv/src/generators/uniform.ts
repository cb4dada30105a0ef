import type { CsrMatrix } from '../types.js';
import { checkDimension, checkInteger, checkNnz, checkSeed, generatorOptions } from './args.js';
import { createRng, sampleSortedColumns } from './random.js';

/** Options of {@link uniformRandomMatrix}. */
export interface UniformRandomMatrixOptions {
  /** Rows (a positive integer). */
  rows: number;
  /** Columns (default `rows`). */
  cols?: number;
  /** Nonzeros of every row (default 16; `cols` when larger than `cols`). */
  nnzPerRow?: number;
  /** Seed (a u32, default 1). */
  seed?: number;
}

/**
 * A matrix whose rows all hold exactly `min(nnzPerRow, cols)` distinct columns drawn uniformly, in
 * ascending order: the perfectly balanced case (every row the same length) with irregular access
 * to x. Values uniform f32 in [−1, 1), never 0; rows are drawn one after the other from one stream.
 *
 * @throws ScanError `INVALID_ARGUMENT` for sizes that are not positive integers or a bad seed;
 *   `TOO_LARGE` when rows·min(nnzPerRow, cols) passes 2^31 − 1.
 *
 * @example
 * ```ts
 * const A = uniformRandomMatrix({ rows: 4096, seed: 5 }); // 16 nonzeros in every row
 * const B = uniformRandomMatrix({ rows: 10, cols: 3, nnzPerRow: 8 }); // every row full: columns 0, 1, 2
 * ```
 */
export function uniformRandomMatrix(options: UniformRandomMatrixOptions): CsrMatrix {
  const o = generatorOptions(options, ['rows', 'cols', 'nnzPerRow', 'seed']);
  const rows = checkDimension(o['rows'], 'options.rows', 1, 'rows');
  const cols = checkDimension(o['cols'], 'options.cols', 1, 'cols', rows);
  const nnzPerRow = checkInteger(o['nnzPerRow'], 'options.nnzPerRow', 1, 16);
  const seed = checkSeed(o['seed']);
  const k = Math.min(nnzPerRow, cols);
  checkNnz(rows * k, 'options.nnzPerRow', 'rows·min(nnzPerRow, cols)');

  const rng = createRng(seed);
  const nnz = rows * k;
  const rowPtr = new Uint32Array(rows + 1);
  const colIdx = new Uint32Array(nnz);
  const values = new Float32Array(nnz);
  for (let r = 0; r < rows; r++) {
    sampleSortedColumns(rng, cols, k, colIdx, r * k);
    rowPtr[r + 1] = (r + 1) * k;
  }
  for (let i = 0; i < nnz; i++) values[i] = rng.value();
  return { rows, cols, rowPtr, colIdx, values };
}
