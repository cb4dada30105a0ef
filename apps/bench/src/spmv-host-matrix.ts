import { geometricGraphMatrix, perturbedMatrix, rmatGraphMatrix, stencil27 } from '@scan/spmv';
import type { CsrMatrix } from '@scan/spmv/cpu';
import { GEOMETRIC_PER_ROW, HOST_FAMILIES, type MatrixSpec, POWERLAW } from './spmv-suite.js';

// The suite matrices made on the host by `@scan/spmv` (HiSparse's locally structured families) and
// the perturbed second operand of hisparse-add, with the seeds the child uses: shared by the child
// (which uploads them) and dist/matrix-export.js (which writes them for cuda/spmv.py), so both sides
// of a comparison run the same arrays. No Node module here.

/** Offset between the case seed and the matrix's seed, so matrices differ from other cases' data. */
export const MATRIX_SEED_OFFSET = 0x5b7a;

/** Offset between the matrix's seed and the seed of the perturbation that makes hisparse-add's B. */
export const PERTURBATION_SEED_OFFSET = 0x51;

/** Standard deviation of the perturbation that makes B from A (HiSparse's: 10). */
export const PERTURBATION_SIGMA = 10;

/**
 * The seed of a case's matrix: the case seed plus {@link MATRIX_SEED_OFFSET}, as a u32.
 *
 * @example
 * ```ts
 * matrixSeed(1); // 23419
 * ```
 */
export function matrixSeed(caseSeed: number): number {
  return (caseSeed + MATRIX_SEED_OFFSET) >>> 0;
}

/**
 * Whether a suite family is made on the host (see `HOST_FAMILIES`).
 *
 * @example
 * ```ts
 * isHostFamily(parseMatrixName('rmat-2^20')); // true
 * ```
 */
export function isHostFamily(spec: MatrixSpec): boolean {
  return HOST_FAMILIES.includes(spec.family);
}

/**
 * A host-made suite matrix (`stencil27`, `geometric`, `rmat`) from `@scan/spmv`'s generators, with
 * the case's matrix seed. Throws for another family.
 *
 * @example
 * ```ts
 * const A = hostSuiteMatrix(parseMatrixName('stencil27-16'), 1); // 4096 rows, 97336 nonzeros
 * ```
 */
export function hostSuiteMatrix(spec: MatrixSpec, caseSeed: number): CsrMatrix {
  const seed = matrixSeed(caseSeed);
  switch (spec.family) {
    case 'stencil27':
      return stencil27(spec.size);
    case 'geometric':
      return geometricGraphMatrix({ rows: spec.size, nnzPerRow: Math.min(GEOMETRIC_PER_ROW, spec.size), seed });
    case 'rmat':
      return rmatGraphMatrix({ rows: spec.size, edgeFactor: POWERLAW.edgesPerRow, seed, a: POWERLAW.a, b: POWERLAW.b, c: POWERLAW.c });
    default:
      throw new Error(`${spec.name}: family ${spec.family} is generated on the GPU, not on the host`);
  }
}

/**
 * hisparse-add's B: A's entries moved by `perturbedMatrix` (σ = {@link PERTURBATION_SIGMA}, seeded
 * from the case's matrix seed).
 *
 * @example
 * ```ts
 * const B = perturbedOperand(A, 1);
 * ```
 */
export function perturbedOperand(A: CsrMatrix, caseSeed: number): CsrMatrix {
  return perturbedMatrix(A, { sigma: PERTURBATION_SIGMA, seed: (matrixSeed(caseSeed) + PERTURBATION_SEED_OFFSET) >>> 0 });
}
