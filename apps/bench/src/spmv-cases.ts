import type { CaseModule, SizedShape } from './case-module.js';
import { type BenchCase, SPMV_ALGORITHM_NAMES, SPMV_PRIMITIVES, type SpmvAlgorithmName, type SpmvPrimitive } from './case-types.js';
import { DEFAULT_MATRICES, type MatrixSource, parseMatrixList } from './spmv-suite.js';

export type { SizedShape } from './case-module.js';

/** Columns of X in the `spmm` cases (the plan's one-pass limit). */
export const SPMM_COLUMNS = 8;

/** The algorithms the `spmm` cases run. */
const SPMM_ALGORITHMS: readonly SpmvAlgorithmName[] = ['auto', 'branchless', 'merge'];

/**
 * The SpMV configurations, in report order: `spmv` (A·x) and `spmv-t` (Aᵀ·x) with every algorithm
 * for each matrix, then `spmm` (A·X, X of {@link SPMM_COLUMNS} columns) with `'auto'`, `'branchless'`
 * and `'merge'` (the segmented plan takes one right-hand side; the row kernel is what `'auto'` runs
 * on the regular matrices and hopeless on the skewed ones). Each carries the matrix's `n`.
 *
 * @example
 * ```ts
 * spmvShapes([{ name: 'poisson2d-64', n: 20224 }]).length; // 5 + 5 + 3
 * spmvShapes([{ name: 'poisson2d-64', n: 20224 }])[0]; // { primitive: 'spmv', algorithm: 'auto', type: 'f32', matrix: 'poisson2d-64', n: 20224 }
 * ```
 */
export function spmvShapes(matrices: readonly MatrixSource[]): SizedShape[] {
  const shape = (primitive: SpmvPrimitive, algorithm: SpmvAlgorithmName, m: MatrixSource): SizedShape => ({
    primitive,
    algorithm,
    type: 'f32',
    ...(primitive === 'spmm' ? { k: SPMM_COLUMNS } : {}),
    matrix: m.name,
    ...(m.path !== undefined ? { matrixPath: m.path } : {}),
    n: m.n,
  });
  return [
    ...(['spmv', 'spmv-t'] as const).flatMap((p) => matrices.flatMap((m) => SPMV_ALGORITHM_NAMES.map((a) => shape(p, a, m)))),
    ...matrices.flatMap((m) => SPMM_ALGORITHMS.map((a) => shape('spmm', a, m))),
  ];
}

/**
 * Right-hand sides of an SpMV case: `k` for spmm, else 1.
 *
 * @example
 * ```ts
 * spmvColumns({ primitive: 'spmm', k: 8 }); // 8
 * ```
 */
export function spmvColumns(c: Pick<BenchCase, 'primitive' | 'k'>): number {
  return c.primitive === 'spmm' ? (c.k ?? SPMM_COLUMNS) : 1;
}

/**
 * The vector words an SpMV case must move, the `extra` of `bytesMoved`: x (length `inputLength`)
 * read once and y (`outputLength`) written once, `k` values each.
 *
 * @example
 * ```ts
 * bytesMoved('spmv', nnz, spmvVectorWords(rows, cols, 1)); // 8·nnz + 4·(rows + cols)
 * ```
 */
export function spmvVectorWords(outputLength: number, inputLength: number, k: number): number {
  return k * (outputLength + inputLength);
}

/**
 * GFLOP/s of a product with `nnz` nonzeros and `k` right-hand sides in `ms` (a multiply and an add
 * per nonzero and column).
 *
 * @example
 * ```ts
 * spmvGflops(1e6, 1, 1); // 2
 * ```
 */
export function spmvGflops(nnz: number, k: number, ms: number): number | undefined {
  return ms > 0 ? (2 * nnz * k) / ms / 1e6 : undefined;
}

/**
 * The single-vector product an `spmm` case is compared with (`ratioSpmvTime`): `spmv` with
 * `'auto'` on the same matrix, in the same child process.
 *
 * @example
 * ```ts
 * singleProductCase(c).primitive; // 'spmv'
 * ```
 */
export function singleProductCase(c: BenchCase): BenchCase {
  const { k: _k, ...rest } = c;
  return { ...rest, primitive: 'spmv', algorithm: 'auto' };
}

/**
 * `@scan/spmv` in the case registry: the cases over the selection's matrices, else the suite
 * {@link DEFAULT_MATRICES} (a software adapter's run passes its small suite as the selection's).
 *
 * @example
 * ```ts
 * SPMV_CASES.shapes({ ...selection, matrices: parseMatrixList('poisson2d-64') }).length; // 13
 * ```
 */
export const SPMV_CASES: CaseModule = {
  package: '@scan/spmv',
  primitives: SPMV_PRIMITIVES,
  shapes: (selection) => spmvShapes(selection.matrices ?? parseMatrixList(DEFAULT_MATRICES.join(','))),
};
