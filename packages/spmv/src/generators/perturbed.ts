import { cooToCsr } from '../convert.js';
import type { CsrMatrix } from '../types.js';
import { checkCsr } from '../validate.js';
import { checkNumber, checkSeed, generatorOptions } from './args.js';
import { createRng } from './random.js';

/** Options of {@link perturbedMatrix}. */
export interface PerturbedMatrixOptions {
  /** Standard deviation of the normal offset, in rows and in columns (default 10, HiSparse's). */
  sigma?: number;
  /** Seed (a u32, default 1). */
  seed?: number;
}

/**
 * The second operand of HiSparse's addition benchmark (Derler et al., ICS 2017): A with every
 * entry moved within its neighbourhood. Entry (r, c, v) of A becomes (r + Δr, c + Δc, v) with Δr and
 * Δc independent normal offsets of mean 0 and standard deviation `sigma`, rounded to the nearest
 * integer and the position clamped to the matrix; entries that land on the same position are summed
 * (in f64, rounded once, as `cooToCsr`). So B has A's local structure and about A's nonzeros (a
 * little fewer where entries collide) and A + B overlaps A partly: the realistic middle between
 * A + 2A (the same pattern) and two unrelated matrices. Sorted, unique columns; `A` is untouched.
 *
 * Offsets are Box–Muller normals from the generator's u32 stream, two per entry in CSR order, so the
 * same A and seed give the same B (in one JavaScript engine: `Math.log` and `Math.cos` may differ
 * in the last bit between engines, which moves an offset only when it rounds at exactly ½).
 *
 * @throws ScanError `INVALID_ARGUMENT` for an invalid A, a `sigma` outside [0, 2^20] or a bad seed.
 *
 * @example
 * ```ts
 * const A = stencil27(32);
 * const B = perturbedMatrix(A, { seed: 7 }); // sigma 10
 * ```
 */
export function perturbedMatrix(A: CsrMatrix, options?: PerturbedMatrixOptions): CsrMatrix {
  const { rows, cols, rowPtr, colIdx, values } = checkCsr(A, 'A');
  const o = generatorOptions(options, ['sigma', 'seed']);
  const sigma = checkNumber(o['sigma'], 'options.sigma', 0, 2 ** 20, 10);
  const rng = createRng(checkSeed(o['seed']));
  const nnz = colIdx.length;
  const rowIdx = new Uint32Array(nnz);
  const movedCols = new Uint32Array(nnz);
  const clamp = (v: number, n: number) => Math.min(n - 1, Math.max(0, v));
  for (let r = 0; r < rows; r++) {
    for (let k = rowPtr[r]!; k < rowPtr[r + 1]!; k++) {
      // Box–Muller: one pair of uniforms gives the two independent offsets.
      const radius = sigma * Math.sqrt(-2 * Math.log(rng.unitOpen()));
      const angle = 2 * Math.PI * rng.unitOpen();
      rowIdx[k] = clamp(r + Math.round(radius * Math.cos(angle)), rows);
      movedCols[k] = clamp(colIdx[k]! + Math.round(radius * Math.sin(angle)), cols);
    }
  }
  return cooToCsr({ rows, cols, rowIdx, colIdx: movedCols, values: values.slice() });
}
