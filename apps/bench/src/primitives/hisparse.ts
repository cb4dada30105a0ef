import type { ScanContext } from '@scan/core';
import { createHiSparseSpmvPlan, HiSparseMatrix, type HiSparseSpmvPlan } from '@scan/hisparse';
import { hisparseFromCsr } from '@scan/hisparse/cpu';
import { benchModule } from '../bench-module.js';
import type { Case, SizedShape } from '../case-types.js';
import { BufferPool, encodeKernel, submitAndWait } from '../child/gpu.js';
import { caseMatrix, downloadCsr } from '../child/spmv-matrix.js';
import { POISON, type Workload } from '../child/workload.js';
import { bytesMoved } from '../metrics.js';
import { DEFAULT_MATRICES, type MatrixSource, parseMatrixList } from '../spmv-suite.js';
import { HISPARSE_NODE_SIZES, type HiSparseFields, hisparseMatrixInfo } from './shared/hisparse-data.js';
import { compareWithReference, encodeVector, POISON_KERNEL, rowChecker, transposedChecker, X_SEED_OFFSET } from './shared/spmv-verify.js';
import { spmvVectorWords } from './spmv.js';

/**
 * The product cases of `@scan/hisparse` (`--only hisparse-spmv,hisparse-spmv-t`), over the SpMV
 * matrix suite: `y = A·x` and `y = Aᵀ·x` through the HiSparse traversal, at several node sizes.
 */
export const HISPARSE_PRIMITIVES = ['hisparse-spmv', 'hisparse-spmv-t'] as const;
export type HiSparseProductPrimitive = (typeof HISPARSE_PRIMITIVES)[number];

/**
 * How a HiSparse product combines the leaves' sums (the names of `createHiSparseSpmvPlan`'s `combine`).
 *
 * @example
 * ```ts
 * const combine: HiSparseCombineName = HISPARSE_COMBINE_NAMES[1]; // 'segmented'
 * ```
 */
export const HISPARSE_COMBINE_NAMES = ['atomic', 'segmented'] as const;
export type HiSparseCombineName = (typeof HISPARSE_COMBINE_NAMES)[number];

/**
 * A HiSparse product case: the node size, the matrix, and how the leaves' sums reach y —
 * `'segmented'` (records sorted by key and reduced by a segmented scan); absent means `'atomic'`
 * (compare-and-swap into y), so the atomic series keep their names. `regionLeaves`: the pool is
 * built on the host with region leaves (`--region-leaves`) and uploaded, instead of built on the GPU.
 */
export type HiSparseCase = Case<HiSparseProductPrimitive, HiSparseFields & { combine?: HiSparseCombineName; regionLeaves?: true }>;

/**
 * Node sizes at which the products also run the `'segmented'` combine (records sorted by key and
 * reduced by a segmented scan) beside the default `'atomic'` one (compare-and-swap into y), so the
 * two ways of combining without float atomics can be compared.
 *
 * @example
 * ```ts
 * HISPARSE_SEGMENTED_NODE_SIZES.includes(32); // true
 * ```
 */
export const HISPARSE_SEGMENTED_NODE_SIZES: readonly number[] = [32, 64];

/**
 * The HiSparse product configurations, in report order: `hisparse-spmv` (A·x) then
 * `hisparse-spmv-t` (Aᵀ·x). Each matrix runs at every node size of {@link HISPARSE_NODE_SIZES} and
 * carries the matrix's `n` (its nonzeros), as the SpMV cases do, so they read side by side. A
 * product runs with the default (atomic) combine at every node size and, right after it, with
 * `combine: 'segmented'` at {@link HISPARSE_SEGMENTED_NODE_SIZES}. With `regionLeaves` each node size
 * also runs (atomic combine) on a pool with region leaves, built on the host.
 *
 * @example
 * ```ts
 * hisparseShapes([{ name: 'poisson2d-64', n: 20224 }]).length; // 2 · (3 + 2)
 * hisparseShapes([{ name: 'poisson2d-64', n: 20224 }])[0]; // { primitive: 'hisparse-spmv', type: 'f32', nodeSize: 16, matrix: 'poisson2d-64', n: 20224 }
 * ```
 */
export function hisparseShapes(
  matrices: readonly MatrixSource[],
  nodeSizes: readonly number[] = HISPARSE_NODE_SIZES,
  regionLeaves = false,
): SizedShape<HiSparseCase>[] {
  return HISPARSE_PRIMITIVES.flatMap((primitive) =>
    matrices.flatMap((m) =>
      nodeSizes.flatMap((nodeSize) => {
        const variants: { combine?: 'segmented'; regionLeaves?: true }[] = [{}];
        if (HISPARSE_SEGMENTED_NODE_SIZES.includes(nodeSize)) variants.push({ combine: 'segmented' });
        if (regionLeaves) variants.push({ regionLeaves: true });
        return variants.map(
          (variant): SizedShape<HiSparseCase> => ({
            primitive,
            type: 'f32',
            nodeSize,
            ...variant,
            matrix: m.name,
            ...(m.path !== undefined ? { matrixPath: m.path } : {}),
            n: m.n,
          }),
        );
      }),
    ),
  );
}

async function hisparseWorkload(ctx: ScanContext, c: HiSparseCase): Promise<Workload> {
  const transpose = c.primitive === 'hisparse-spmv-t';
  const pool = new BufferPool(ctx);
  let matrix: HiSparseMatrix | undefined;
  let plan: HiSparseSpmvPlan | undefined;
  try {
    // The CSR the matrix is built from stays: the checks of the SpMV cases run on it.
    const A = await caseMatrix(ctx, pool, c);
    // Region leaves: the GPU build does not make them, so the CPU reference builds the pool (from
    // the case's CSR read back) and it is uploaded; the products are the same plans either way.
    matrix = c.regionLeaves
      ? await HiSparseMatrix.fromHost(ctx, hisparseFromCsr(await downloadCsr(ctx, A), { nodeSize: c.nodeSize, regionLeaves: true }))
      : await HiSparseMatrix.fromGpuCsr(ctx, A, { nodeSize: c.nodeSize });
    const combine = c.combine ?? 'atomic';
    plan = createHiSparseSpmvPlan(ctx, matrix, { transpose, combine });
    const p = plan;
    const { inLength, outLength } = p;
    const x = pool.storage(4 * Math.max(1, inLength), 'hisparse x');
    const y = pool.storage(4 * Math.max(1, outLength), 'hisparse y');
    const setup = ctx.device.createCommandEncoder();
    encodeVector(ctx, pool, setup, x, inLength, c.seed + X_SEED_OFFSET);
    await submitAndWait(ctx, setup);
    const verify = transpose ? await transposedChecker(ctx, pool, A, x, y, c.seed) : rowChecker(ctx, pool, A, x, y, 1);
    const variant = `${combine === 'atomic' ? '' : ` ${combine} combine`}${c.regionLeaves ? ' region leaves' : ''}`;
    const info = hisparseMatrixInfo(c, A, matrix, `hisparse d ${matrix.nodeSize}${variant}`);
    const poisonParams = pool.params(POISON_KERNEL, { n: outLength, seed: 0, arg: POISON });
    const m = matrix;
    return {
      bytes: bytesMoved(c.primitive, A.nnz, spmvVectorWords(outLength, inLength, 1)),
      output: y,
      matrix: info,
      // y is poisoned before every run (untimed); the plan clears it and the leaves add into it
      // (atomic), or the scatter of the run sums of the sorted records writes it (segmented).
      prepare: (encoder) => encodeKernel(ctx, encoder, POISON_KERNEL, { out: y, params: poisonParams }, { invocations: outLength }),
      encode: (encoder) => p.encode(encoder, { x, y }),
      verify,
      compareWithCpu: () => compareWithReference(ctx, A, x, y, { transpose, k: 1, inputLength: inLength, outputLength: outLength }),
      destroy() {
        p.destroy();
        m.destroy();
        pool.destroy();
      },
    };
  } catch (error) {
    plan?.destroy();
    matrix?.destroy();
    pool.destroy();
    throw error;
  }
}

/**
 * `@scan/hisparse`'s products in the registry: the selection's matrices (else the SpMV suite), as
 * the SpMV cases take them. A case: the SpMV case's matrix (generated on the GPU, or read from its
 * `.mtx` file), built into HiSparse on the GPU at the case's node size, x random on the GPU, y
 * poisoned before every run, the traversal plan of `@scan/hisparse` with the case's combine
 * (compare-and-swap into y, or records reduced by sort and segmented scan); checked on the GPU
 * against the CSR it was built from with the SpMV cases' checks, and against `@scan/spmv/cpu`
 * when nnz ≤ 2^16. The matrix's memory (its census) goes into the report beside the CSR bytes.
 *
 * @example
 * ```ts
 * HISPARSE.shapes({ ...selection, matrices: parseMatrixList('biased-1K') }).length; // 10
 * ```
 */
export const HISPARSE = benchModule<HiSparseCase>({
  package: '@scan/hisparse',
  primitives: HISPARSE_PRIMITIVES,
  shapes: (selection) =>
    hisparseShapes(selection.matrices ?? parseMatrixList(DEFAULT_MATRICES.join(',')), selection.nodeSizes, selection.regionLeaves === true),
  workload: hisparseWorkload,
});
