import type { CsrMatrix } from '../types.js';
import { checkDimension, checkInteger, checkNnz, checkSeed, generatorOptions } from './args.js';
import { createRng } from './random.js';

/** Options of {@link bandedMatrix}. */
export interface BandedMatrixOptions {
  /** Rows and columns (a positive integer). */
  n: number;
  /** Diagonals below the main one (default 4; more than n − 1 is clipped to n − 1). */
  lower?: number;
  /** Diagonals above the main one (default 4; clipped likewise). */
  upper?: number;
  /** Seed (a u32, default 1). */
  seed?: number;
}

/**
 * An n×n band matrix: row r holds columns max(0, r − lower) … min(n − 1, r + upper), all of them
 * (the band is dense, clipped at the edges). Off-diagonal values are uniform f32 in [−1, 1) (never
 * 0); each diagonal entry is 1 + the sum of the absolute values of its row's off-diagonals, so the
 * matrix is strictly diagonally dominant by rows (nonsingular; Jacobi and Gauss–Seidel converge) —
 * useful when a test solves with it. nnz = Σ_r (min(r, lower) + 1 + min(n − 1 − r, upper)), i.e.
 * n·(lower + upper + 1) − lower·(lower + 1)/2 − upper·(upper + 1)/2 when both are below n.
 *
 * @throws ScanError `INVALID_ARGUMENT` when n is not a positive integer, lower or upper not a
 *   non-negative integer, or the seed bad; `TOO_LARGE` when the nonzeros pass 2^31 − 1.
 *
 * @example
 * ```ts
 * const T = bandedMatrix({ n: 1000, lower: 1, upper: 1, seed: 2 }); // tridiagonal, 2998 nonzeros
 * const B = bandedMatrix({ n: 4096 }); // 9 diagonals
 * ```
 */
export function bandedMatrix(options: BandedMatrixOptions): CsrMatrix {
  const o = generatorOptions(options, ['n', 'lower', 'upper', 'seed']);
  const n = checkDimension(o['n'], 'options.n', 1, 'rows');
  const lower = Math.min(checkInteger(o['lower'], 'options.lower', 0, 4), n - 1);
  const upper = Math.min(checkInteger(o['upper'], 'options.upper', 0, 4), n - 1);
  const seed = checkSeed(o['seed']);
  checkNnz(bandNnz(n, lower, upper), 'options.n', 'the band');

  const rng = createRng(seed);
  const nnz = bandNnz(n, lower, upper);
  const rowPtr = new Uint32Array(n + 1);
  const colIdx = new Uint32Array(nnz);
  const values = new Float32Array(nnz);
  let k = 0;
  for (let r = 0; r < n; r++) {
    const first = Math.max(0, r - lower);
    const last = Math.min(n - 1, r + upper);
    let diagonal = 0;
    let offDiagonal = 0;
    for (let c = first; c <= last; c++) {
      colIdx[k] = c;
      if (c === r) {
        diagonal = k;
      } else {
        const v = rng.value();
        values[k] = v;
        offDiagonal += Math.abs(v);
      }
      k++;
    }
    // Rounded up to the next f32, so dominance survives the rounding of the sum.
    const d = Math.fround(1 + offDiagonal);
    values[diagonal] = d < 1 + offDiagonal ? nextUp(d) : d;
    rowPtr[r + 1] = k;
  }
  return { rows: n, cols: n, rowPtr, colIdx, values };
}

/** Nonzeros of an n×n band with `lower` and `upper` (each at most n − 1) off-diagonals. */
function bandNnz(n: number, lower: number, upper: number): number {
  return n * (lower + upper + 1) - (lower * (lower + 1)) / 2 - (upper * (upper + 1)) / 2;
}

/** The next f32 above a positive finite f32. */
function nextUp(x: number): number {
  const bits = new Float32Array([x]);
  const words = new Uint32Array(bits.buffer);
  words[0] = words[0]! + 1;
  return bits[0]!;
}
