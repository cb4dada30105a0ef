import { ScanError } from '@scan/core';
import type { CsrMatrix } from '../types.js';
import { checkDimension, checkInteger, checkNumber, checkSeed, generatorOptions, MAX_NNZ } from './args.js';
import { createRng, sampleSortedColumns } from './random.js';

/** Options of {@link randomCsr}. */
export interface RandomCsrOptions {
  /** Rows (a non-negative integer: 0 gives an empty matrix). */
  rows: number;
  /** Columns (a non-negative integer; with 0 every row is empty). */
  cols: number;
  /** Mean of the (geometric) row-length distribution before clipping, a number ≥ 0. */
  meanRowLength: number;
  /** Seed (a u32, default 1). */
  seed?: number;
  /** Longest row allowed (a non-negative integer, default and at most `cols`); longer draws are clipped. */
  maxRowLength?: number;
}

/**
 * A general-purpose random CSR matrix for tests: row lengths are independent geometric draws of mean
 * `meanRowLength` (P(L = k) = p·(1 − p)^k, p = 1 / (1 + mean)), clipped to `maxRowLength` and
 * `cols`, so most rows are short, a few are several times the mean and some are empty (about
 * 1 / (1 + mean) of them); columns are distinct, uniform and sorted, values uniform f32 in [−1, 1)
 * (never 0). Unlike the other generators it accepts 0 rows or columns, for edge-case tests. Clipping
 * lowers the mean below `meanRowLength` when `maxRowLength` or `cols` is close to it.
 *
 * @throws ScanError `INVALID_ARGUMENT` for a size that is not a non-negative integer, a negative or
 *   non-finite mean, or a bad seed; `TOO_LARGE` when the drawn nonzeros pass 2^31 − 1.
 *
 * @example
 * ```ts
 * const A = randomCsr({ rows: 1000, cols: 800, meanRowLength: 6, seed: 9 });
 * const capped = randomCsr({ rows: 100, cols: 100, meanRowLength: 20, maxRowLength: 32 });
 * const none = randomCsr({ rows: 0, cols: 0, meanRowLength: 1 }); // 0×0, rowPtr = [0]
 * ```
 */
export function randomCsr(options: RandomCsrOptions): CsrMatrix {
  const o = generatorOptions(options, ['rows', 'cols', 'meanRowLength', 'seed', 'maxRowLength']);
  const rows = checkDimension(o['rows'], 'options.rows', 0, 'rows');
  const cols = checkDimension(o['cols'], 'options.cols', 0, 'cols');
  const mean = checkNumber(o['meanRowLength'], 'options.meanRowLength', 0, Number.MAX_VALUE);
  const seed = checkSeed(o['seed']);
  const maxRowLength = Math.min(checkInteger(o['maxRowLength'], 'options.maxRowLength', 0, cols), cols);

  const rng = createRng(seed);
  const rowPtr = new Uint32Array(rows + 1);
  // ln(1 − p) with p = 1/(1 + mean); the draw inverts the geometric CDF: ⌊ln U / ln(1 − p)⌋.
  const logQ = mean > 0 ? Math.log(mean / (1 + mean)) : 0;
  let nnz = 0;
  for (let r = 0; r < rows; r++) {
    let length = 0;
    if (mean > 0 && maxRowLength > 0) {
      // A mean so large that ln(1 − p) rounds to 0 means "as long as allowed".
      length = logQ < 0 ? Math.min(maxRowLength, Math.floor(Math.log(rng.unitOpen()) / logQ)) : maxRowLength;
    }
    nnz += length;
    if (nnz > MAX_NNZ) {
      throw new ScanError('TOO_LARGE', `options.meanRowLength = ${mean}: the rows drawn hold more than 2^31 − 1 nonzeros`, {
        argument: 'options.meanRowLength',
      });
    }
    rowPtr[r + 1] = nnz;
  }

  const colIdx = new Uint32Array(nnz);
  const values = new Float32Array(nnz);
  for (let r = 0; r < rows; r++) {
    const start = rowPtr[r]!;
    sampleSortedColumns(rng, cols, rowPtr[r + 1]! - start, colIdx, start);
  }
  for (let i = 0; i < nnz; i++) values[i] = rng.value();
  return { rows, cols, rowPtr, colIdx, values };
}
