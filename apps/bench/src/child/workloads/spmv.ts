import { createSpmvPlan, gpuCsrStats, type SpmvPlan } from '@scan/spmv';
import { type BenchCase, SPMV_ALGORITHM_NAMES, type SpmvAlgorithmName, type SpmvPrimitive } from '../../case-types.js';
import { bytesMoved } from '../../metrics.js';
import type { SpmvMatrixInfo } from '../../report.js';
import { spmvColumns, spmvVectorWords } from '../../spmv-cases.js';
import { BufferPool, encodeKernel, submitAndWait } from '../gpu.js';
import { caseMatrix } from '../spmv-matrix.js';
import { POISON, type WorkloadFactory } from '../workload.js';
import { compareWithReference, encodeVector, POISON_KERNEL, rowChecker, transposedChecker, X_SEED_OFFSET } from './spmv-verify.js';

function algorithmOf(c: BenchCase): SpmvAlgorithmName {
  const a = c.algorithm ?? 'auto';
  if (!(SPMV_ALGORITHM_NAMES as readonly string[]).includes(a)) throw new Error(`${c.primitive}: unknown SpMV algorithm ${a}`);
  return a as SpmvAlgorithmName;
}

function spmvWorkload(primitive: SpmvPrimitive): WorkloadFactory {
  return async (ctx, c) => {
    const transpose = primitive === 'spmv-t';
    const k = spmvColumns(c);
    const algorithm = algorithmOf(c);
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
      const poisonParams = pool.params(outputLength * k, 0, POISON);
      const matrix: SpmvMatrixInfo = {
        name: c.matrix ?? '',
        rows: A.rows,
        cols: A.cols,
        nnz: A.nnz,
        k,
        algorithm: p.algorithm,
        maxRowLength: p.stats.maxRowLength,
        meanRowLength: p.stats.meanRowLength,
      };
      return {
        bytes: bytesMoved(primitive, A.nnz, spmvVectorWords(outputLength, inputLength, k)),
        output: y,
        matrix,
        // y is poisoned before every run (untimed), so each checked output was written by that run.
        prepare: (encoder) => encodeKernel(ctx, encoder, POISON_KERNEL, [y, poisonParams], { invocations: outputLength * k }),
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
  };
}

/**
 * The workload factory of each SpMV case: the case's matrix generated on the GPU (or read from its
 * `.mtx` file and uploaded), x random in [−1, 1) on the GPU, y poisoned before every run, the plan
 * of `@scan/spmv` with the case's algorithm (and the GPU-computed row statistics, so `'auto'`
 * chooses as it would for a host matrix), checked on the GPU — A·X row by row, Aᵀx through
 * wᵀ(Aᵀx) = (Aw)ᵀx — and against `@scan/spmv/cpu` when nnz ≤ 2^16.
 *
 * @example
 * ```ts
 * const w = await SPMV_WORKLOADS['spmv-t'](ctx, c);
 * ```
 */
export const SPMV_WORKLOADS: Readonly<Record<SpmvPrimitive, WorkloadFactory>> = {
  spmv: spmvWorkload('spmv'),
  'spmv-t': spmvWorkload('spmv-t'),
  spmm: spmvWorkload('spmm'),
};
