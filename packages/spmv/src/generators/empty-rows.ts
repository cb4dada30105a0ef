import type { CsrMatrix } from '../types.js';
import { checkDimension, checkInteger, checkNnz, checkNumber, checkSeed, generatorOptions } from './args.js';
import { createRng, sampleSortedColumns } from './random.js';

/** Options of {@link emptyRowsMatrix}. */
export interface EmptyRowsMatrixOptions {
  /** Rows (a positive integer). */
  rows: number;
  /** Columns (default `rows`). */
  cols?: number;
  /**
   * Fraction of the rows left empty, in [0, 1] (default 0.5): exactly round(emptyFraction·rows) of
   * them, but never all — at least one row keeps its nonzeros, so `emptyFraction: 1` leaves exactly
   * one non-empty row (a seeded one).
   */
  emptyFraction?: number;
  /** Nonzeros of each non-empty row (default 4; `cols` when larger than `cols`). */
  nnzPerRow?: number;
  /** Seed (a u32, default 1). */
  seed?: number;
}

/**
 * A random matrix with a seeded set of empty rows: `round(emptyFraction·rows)` rows (at most
 * rows − 1) chosen uniformly at random are empty, every other row holds exactly
 * `min(nnzPerRow, cols)` distinct uniform columns, sorted, with values uniform f32 in [−1, 1) (never
 * 0). Empty rows are what trips SpMV kernels that assume `rowPtr[r] < rowPtr[r + 1]` (segment heads,
 * merge-path searches, writing y for rows with no product); `emptyFraction: 1` is the extreme of a
 * single non-empty row somewhere in the matrix.
 *
 * @throws ScanError `INVALID_ARGUMENT` for sizes that are not positive integers, a fraction outside
 *   [0, 1] or a bad seed; `TOO_LARGE` when the nonzeros pass 2^31 − 1.
 *
 * @example
 * ```ts
 * const A = emptyRowsMatrix({ rows: 10000, emptyFraction: 0.9, seed: 4 }); // 9000 empty rows
 * const B = emptyRowsMatrix({ rows: 100, emptyFraction: 1 }); // one row of 4 nonzeros, 99 empty
 * ```
 */
export function emptyRowsMatrix(options: EmptyRowsMatrixOptions): CsrMatrix {
  const o = generatorOptions(options, ['rows', 'cols', 'emptyFraction', 'nnzPerRow', 'seed']);
  const rows = checkDimension(o['rows'], 'options.rows', 1, 'rows');
  const cols = checkDimension(o['cols'], 'options.cols', 1, 'cols', rows);
  const emptyFraction = checkNumber(o['emptyFraction'], 'options.emptyFraction', 0, 1, 0.5);
  const nnzPerRow = checkInteger(o['nnzPerRow'], 'options.nnzPerRow', 1, 4);
  const seed = checkSeed(o['seed']);
  const emptyCount = Math.min(Math.round(emptyFraction * rows), rows - 1);
  const k = Math.min(nnzPerRow, cols);
  checkNnz((rows - emptyCount) * k, 'options.nnzPerRow', '(rows − empty rows)·min(nnzPerRow, cols)');

  const rng = createRng(seed);
  // The first emptyCount entries of a partial Fisher–Yates shuffle are a uniform subset of the rows.
  const order = new Uint32Array(rows);
  for (let r = 0; r < rows; r++) order[r] = r;
  const empty = new Uint8Array(rows);
  for (let i = 0; i < emptyCount; i++) {
    const j = i + rng.below(rows - i);
    const t = order[j]!;
    order[j] = order[i]!;
    order[i] = t;
    empty[t] = 1;
  }

  const nnz = (rows - emptyCount) * k;
  const rowPtr = new Uint32Array(rows + 1);
  const colIdx = new Uint32Array(nnz);
  const values = new Float32Array(nnz);
  let offset = 0;
  for (let r = 0; r < rows; r++) {
    if (empty[r] === 0) {
      sampleSortedColumns(rng, cols, k, colIdx, offset);
      offset += k;
    }
    rowPtr[r + 1] = offset;
  }
  for (let i = 0; i < nnz; i++) values[i] = rng.value();
  return { rows, cols, rowPtr, colIdx, values };
}
