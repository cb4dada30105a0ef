import type { ScanContext } from '@scan/core';
import { createSpmvPlan, gpuCsrStats, type SpmvPlan } from '@scan/spmv';
import { benchModule } from '../bench-module.js';
import type { Case, SizedShape } from '../case-types.js';
import { BufferPool, encodeKernel, submitAndWait } from '../child/gpu.js';
import { caseMatrix, type MatrixFields } from '../child/spmv-matrix.js';
import { POISON, type Workload } from '../child/workload.js';
import { bytesMoved } from '../metrics.js';
import type { SpmvMatrixInfo } from '../report.js';
import { DEFAULT_MATRICES, type MatrixSource, parseMatrixList } from '../spmv-suite.js';
import { compareWithReference, encodeVector, POISON_KERNEL, rowChecker, transposedChecker, X_SEED_OFFSET } from './shared/spmv-verify.js';

/**
 * The cases of `@scan/spmv` (`--only spmv,spmv-t,spmm`), over a matrix suite instead of sizes:
 * `y = A·x`, `y = Aᵀ·x`, and `Y = A·X` with X of several columns.
 */
export const SPMV_PRIMITIVES = ['spmv', 'spmv-t', 'spmm'] as const;
export type SpmvPrimitive = (typeof SPMV_PRIMITIVES)[number];

/** SpMV algorithms the bench runs side by side (the names of `createSpmvPlan`'s `algorithm`). */
export const SPMV_ALGORITHM_NAMES = ['auto', 'row', 'segmented', 'branchless', 'merge'] as const;
export type SpmvAlgorithmName = (typeof SPMV_ALGORITHM_NAMES)[number];

/** An SpMV case: the algorithm, the matrix, and (spmm) the columns of X. Its `n` is the matrix's nonzeros. */
export type SpmvCase = Case<SpmvPrimitive, { algorithm: SpmvAlgorithmName; k?: number } & MatrixFields>;

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
export function spmvShapes(matrices: readonly MatrixSource[]): SizedShape<SpmvCase>[] {
  const shape = (primitive: SpmvPrimitive, algorithm: SpmvAlgorithmName, m: MatrixSource): SizedShape<SpmvCase> => ({
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
export function spmvColumns(c: Pick<SpmvCase, 'primitive' | 'k'>): number {
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
export function singleProductCase(c: SpmvCase): SpmvCase {
  const { k: _k, ...rest } = c;
  return { ...rest, primitive: 'spmv', algorithm: 'auto' };
}

async function spmvWorkload(ctx: ScanContext, c: SpmvCase): Promise<Workload> {
  const transpose = c.primitive === 'spmv-t';
  const k = spmvColumns(c);
  const algorithm = c.algorithm;
  const pool = new BufferPool(ctx);
  let plan: SpmvPlan | undefined;
  try {
    const A = await caseMatrix(ctx, pool, c);
    // The plan cannot read a GPU matrix's row lengths itself; without them 'auto' would always
    // take 'merge'. The statistics are of op(A), as the plan's option asks.
    const stats = await gpuCsrStats(ctx, A, { transpose });
    plan = createSpmvPlan(ctx, A, { algorithm, transpose, k, stats });
    const p = plan;
    const inputLength = p.inputLength;
    const outputLength = p.outputLength;
    const x = pool.storage(4 * inputLength * k, 'spmv x');
    const y = pool.storage(4 * outputLength * k, 'spmv y');
    const setup = ctx.device.createCommandEncoder();
    encodeVector(ctx, pool, setup, x, inputLength * k, c.seed + X_SEED_OFFSET);
    await submitAndWait(ctx, setup);
    const verify = transpose ? await transposedChecker(ctx, pool, A, x, y, c.seed) : rowChecker(ctx, pool, A, x, y, k);
    const poisonParams = pool.params(POISON_KERNEL, { n: outputLength * k, seed: 0, arg: POISON });
    const matrix: SpmvMatrixInfo = {
      name: c.matrix,
      rows: A.rows,
      cols: A.cols,
      nnz: A.nnz,
      k,
      algorithm: p.algorithm,
      maxRowLength: p.stats.maxRowLength,
      meanRowLength: p.stats.meanRowLength,
    };
    return {
      bytes: bytesMoved(c.primitive, A.nnz, spmvVectorWords(outputLength, inputLength, k)),
      output: y,
      matrix,
      // y is poisoned before every run (untimed), so each checked output was written by that run.
      prepare: (encoder) => encodeKernel(ctx, encoder, POISON_KERNEL, { out: y, params: poisonParams }, { invocations: outputLength * k }),
      encode: (encoder) => p.encode(encoder, { x, y }),
      verify,
      compareWithCpu: () => compareWithReference(ctx, A, x, y, { transpose, k, inputLength, outputLength }),
      destroy() {
        p.destroy();
        pool.destroy();
      },
    };
  } catch (error) {
    plan?.destroy();
    pool.destroy();
    throw error;
  }
}

/**
 * `@scan/spmv` in the registry: the cases over the selection's matrices, else the suite
 * {@link DEFAULT_MATRICES} (a software adapter's run passes its small suite as the selection's).
 * A case: its matrix generated on the GPU (or read from its `.mtx` file and uploaded), x random in
 * [−1, 1) on the GPU, y poisoned before every run, the plan of `@scan/spmv` with the case's
 * algorithm (and the GPU-computed row statistics, so `'auto'` chooses as it would for a host
 * matrix), checked on the GPU — A·X row by row, Aᵀx through wᵀ(Aᵀx) = (Aw)ᵀx — and against
 * `@scan/spmv/cpu` when nnz ≤ 2^16. An spmm case is timed beside `spmv` `'auto'` on the same
 * matrix ({@link singleProductCase}).
 *
 * @example
 * ```ts
 * SPMV.shapes({ ...selection, matrices: parseMatrixList('poisson2d-64') }).length; // 13
 * ```
 */
export const SPMV = benchModule<SpmvCase>({
  package: '@scan/spmv',
  primitives: SPMV_PRIMITIVES,
  shapes: (selection) => spmvShapes(selection.matrices ?? parseMatrixList(DEFAULT_MATRICES.join(','))),
  companion: (c) => (c.primitive === 'spmm' ? { field: 'spmv', case: singleProductCase(c) } : undefined),
  workload: spmvWorkload,
});
