import { HiSparseMatrix, type HiSparseSpmvPlan } from '@scan/hisparse';
import type { BenchCase, HiSparsePrimitive } from '../../case-types.js';
import { bytesMoved } from '../../metrics.js';
import type { SpmvMatrixInfo } from '../../report.js';
import { spmvVectorWords } from '../../spmv-cases.js';
import { BufferPool, encodeKernel, submitAndWait } from '../gpu.js';
import { caseMatrix } from '../spmv-matrix.js';
import { POISON, type WorkloadFactory } from '../workload.js';
import { compareWithReference, encodeVector, POISON_KERNEL, rowChecker, transposedChecker, X_SEED_OFFSET } from './spmv-verify.js';

function nodeSizeOf(c: BenchCase): number {
  if (c.nodeSize === undefined) throw new Error(`${c.primitive}: the case has no node size`);
  return c.nodeSize;
}

function hisparseWorkload(primitive: HiSparsePrimitive): WorkloadFactory {
  return async (ctx, c) => {
    const transpose = primitive === 'hisparse-spmv-t';
    const pool = new BufferPool(ctx);
    let matrix: HiSparseMatrix | undefined;
    let plan: HiSparseSpmvPlan | undefined;
    try {
      // The CSR the matrix is built from stays: the checks of the SpMV cases run on it.
      const A = await caseMatrix(ctx, pool, c);
      matrix = await HiSparseMatrix.fromGpuCsr(ctx, A, { nodeSize: nodeSizeOf(c) });
      plan = matrix.createSpmvPlan({ transpose });
      const p = plan;
      const { inLength, outLength } = p;
      const x = pool.storage(4 * Math.max(1, inLength), 'hisparse x');
      const y = pool.storage(4 * Math.max(1, outLength), 'hisparse y');
      const setup = ctx.device.createCommandEncoder();
      encodeVector(ctx, pool, setup, x, inLength, c.seed + X_SEED_OFFSET);
      await submitAndWait(ctx, setup);
      const verify = transpose ? await transposedChecker(ctx, pool, A, x, y, c.seed) : rowChecker(ctx, pool, A, x, y, 1);
      const stats = matrix.stats();
      const info: SpmvMatrixInfo = {
        name: c.matrix ?? '',
        rows: A.rows,
        cols: A.cols,
        nnz: A.nnz,
        k: 1,
        algorithm: `hisparse d ${matrix.nodeSize}`,
        maxRowLength: Number.NaN,
        meanRowLength: A.rows > 0 ? A.nnz / A.rows : 0,
        memoryBytes: stats.memoryBytes,
        csrBytes: stats.csrBytes,
        levels: stats.levels,
      };
      const poisonParams = pool.params(outLength, 0, POISON);
      const m = matrix;
      return {
        bytes: bytesMoved(primitive, A.nnz, spmvVectorWords(outLength, inLength, 1)),
        output: y,
        matrix: info,
        // y is poisoned before every run (untimed); the plan clears it and the leaves add into it.
        prepare: (encoder) => encodeKernel(ctx, encoder, POISON_KERNEL, [y, poisonParams], { invocations: outLength }),
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
  };
}

/**
 * The workload factory of each HiSparse case: the SpMV case's matrix (generated on the GPU, or read
 * from its `.mtx` file), built into HiSparse on the GPU at the case's node size, x random on the
 * GPU, y poisoned before every run, the traversal plan of `@scan/hisparse`; checked on the GPU
 * against the CSR it was built from with the SpMV cases' checks, and against `@scan/spmv/cpu`
 * when nnz ≤ 2^16. The matrix's memory (its census) goes into the report beside the CSR bytes.
 *
 * @example
 * ```ts
 * const w = await HISPARSE_WORKLOADS['hisparse-spmv-t'](ctx, c);
 * ```
 */
export const HISPARSE_WORKLOADS: Readonly<Record<HiSparsePrimitive, WorkloadFactory>> = {
  'hisparse-spmv': hisparseWorkload('hisparse-spmv'),
  'hisparse-spmv-t': hisparseWorkload('hisparse-spmv-t'),
};
