import type { ScanContext } from '@scan/core';
import { HiSparseMatrix, type HiSparseSpmvPlan } from '@scan/hisparse';
import { hisparseAdd, hisparseToCsr, scale } from '@scan/hisparse/cpu';
import type { GpuCsrMatrix } from '@scan/spmv';
import type { CsrMatrix } from '@scan/spmv/cpu';
import type { BenchCase, HiSparsePrimitive } from '../../case-types.js';
import { bytesMoved } from '../../metrics.js';
import type { SpmvMatrixInfo } from '../../report.js';
import { spmvVectorWords } from '../../spmv-cases.js';
import type { CheckOutcome } from '../device-ops.js';
import { BufferPool, encodeKernel, submitAndWait } from '../gpu.js';
import { caseMatrix } from '../spmv-matrix.js';
import { type AsyncWorkload, POISON, type WorkloadFactory } from '../workload.js';
import { compareWithReference, encodeVector, POISON_KERNEL, rowChecker, transposedChecker, X_SEED_OFFSET } from './spmv-verify.js';

/** The report's matrix fields of a HiSparse case: the CSR it came from and the HiSparse bytes (its census). */
function matrixInfo(c: BenchCase, A: Pick<GpuCsrMatrix, 'rows' | 'cols' | 'nnz'>, m: HiSparseMatrix, algorithm: string): SpmvMatrixInfo {
  const stats = m.stats();
  return {
    name: c.matrix ?? '',
    rows: A.rows,
    cols: A.cols,
    nnz: A.nnz,
    k: 1,
    algorithm,
    maxRowLength: Number.NaN,
    meanRowLength: A.rows > 0 ? A.nnz / A.rows : 0,
    memoryBytes: stats.memoryBytes,
    csrBytes: stats.csrBytes,
    levels: stats.levels,
  };
}

function nodeSizeOf(c: BenchCase): number {
  if (c.nodeSize === undefined) throw new Error(`${c.primitive}: the case has no node size`);
  return c.nodeSize;
}

function hisparseWorkload(primitive: 'hisparse-spmv' | 'hisparse-spmv-t'): WorkloadFactory {
  return async (ctx, c) => {
    const transpose = primitive === 'hisparse-spmv-t';
    const pool = new BufferPool(ctx);
    let matrix: HiSparseMatrix | undefined;
    let plan: HiSparseSpmvPlan | undefined;
    try {
      // The CSR the matrix is built from stays: the checks of the SpMV cases run on it.
      const A = await caseMatrix(ctx, pool, c);
      matrix = await HiSparseMatrix.fromGpuCsr(ctx, A, { nodeSize: nodeSizeOf(c) });
      const combine = c.combine ?? 'atomic';
      plan = matrix.createSpmvPlan({ transpose, combine });
      const p = plan;
      const { inLength, outLength } = p;
      const x = pool.storage(4 * Math.max(1, inLength), 'hisparse x');
      const y = pool.storage(4 * Math.max(1, outLength), 'hisparse y');
      const setup = ctx.device.createCommandEncoder();
      encodeVector(ctx, pool, setup, x, inLength, c.seed + X_SEED_OFFSET);
      await submitAndWait(ctx, setup);
      const verify = transpose ? await transposedChecker(ctx, pool, A, x, y, c.seed) : rowChecker(ctx, pool, A, x, y, 1);
      const info = matrixInfo(c, A, matrix, `hisparse d ${matrix.nodeSize}${combine === 'atomic' ? '' : ` ${combine} combine`}`);
      const poisonParams = pool.params(outLength, 0, POISON);
      const m = matrix;
      return {
        bytes: bytesMoved(primitive, A.nnz, spmvVectorWords(outLength, inLength, 1)),
        output: y,
        matrix: info,
        // y is poisoned before every run (untimed); the plan clears it and the leaves add into it
        // (atomic), or the scatter of the run sums of the sorted records writes it (segmented).
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

/** The `first` of a hisparse-add check when C's nonzero count differs from A's (run.ts words it as a wrong count). */
export const NNZ_MISMATCH = 0xfffffffe;

/** The factor B = ADD_SCALE·A of hisparse-add (C = 3A), as cuSPARSE csrgeam's anchor in `cuda/spmv.py --add`. */
export const ADD_SCALE = 2;

/**
 * Entries where `got` differs from `expected`: the structure (shape, rowPtr, colIdx) exactly, each
 * value within 2^-21 of its magnitude (a + 2a rounds once in f32 on either side; the slack covers
 * a scale applied at a different point).
 *
 * @example
 * ```ts
 * csrDifferences(expected, await C.toCsr()); // 0
 * ```
 */
export function csrDifferences(expected: CsrMatrix, got: CsrMatrix): number {
  if (expected.rows !== got.rows || expected.cols !== got.cols) return Math.max(1, expected.values.length, got.values.length);
  let wrong = Math.abs(expected.values.length - got.values.length);
  for (let i = 0; i <= expected.rows; i++) if (expected.rowPtr[i] !== got.rowPtr[i]) wrong++;
  const n = Math.min(expected.values.length, got.values.length);
  for (let i = 0; i < n; i++) {
    const e = expected.values[i]!;
    if (expected.colIdx[i] !== got.colIdx[i] || !(Math.abs(got.values[i]! - e) <= 2 ** -21 * Math.abs(e))) wrong++;
  }
  return wrong;
}

/**
 * hisparse-add: A built into HiSparse from the SpMV case's matrix at the case's node size, B =
 * `A.scale(2)` (an O(1) view, made once, untimed), and one run = `C = await A.add(B)`, an
 * {@link AsyncWorkload} timed by wall clock. The C of the previous run is destroyed untimed before
 * each run (`discard`), the last one by `destroy`, so at most one C is alive. Checks of the last C:
 * its nonzero count equals A's (else `first` = {@link NNZ_MISMATCH}); y = (C/3)·x through a HiSparse
 * product plan of the view `C.scale(1/3)` must pass the row check of the SpMV cases against the CSR
 * A was built from (independent of HiSparse); at nnz ≤ 2^16 `C.toCsr()` must equal the CPU
 * `hisparseAdd(A, 2A)` of `@scan/hisparse/cpu` on A's pool read back.
 */
const hisparseAddWorkload: WorkloadFactory = async (ctx, c) => {
  const pool = new BufferPool(ctx);
  let A: HiSparseMatrix | undefined;
  let B: HiSparseMatrix | undefined;
  let C: HiSparseMatrix | undefined;
  const free = () => {
    C?.destroy();
    C = undefined;
  };
  try {
    const csr = await caseMatrix(ctx, pool, c);
    A = await HiSparseMatrix.fromGpuCsr(ctx, csr, { nodeSize: nodeSizeOf(c) });
    B = A.scale(ADD_SCALE);
    const a = A;
    const b = B;
    const x = pool.storage(4 * Math.max(1, csr.cols), 'hisparse-add x');
    const y = pool.storage(4 * Math.max(1, csr.rows), 'hisparse-add y');
    const setup = ctx.device.createCommandEncoder();
    encodeVector(ctx, pool, setup, x, csr.cols, c.seed + X_SEED_OFFSET);
    await submitAndWait(ctx, setup);
    const rows = rowChecker(ctx, pool, csr, x, y, 1);
    const poisonParams = pool.params(csr.rows, 0, POISON);
    const poisonY = (encoder: GPUCommandEncoder) => encodeKernel(ctx, encoder, POISON_KERNEL, [y, poisonParams], { invocations: csr.rows });
    const info = matrixInfo(c, csr, a, `hisparse d ${a.nodeSize} add`);
    const last = (): HiSparseMatrix => {
      if (!C) throw new Error('hisparse-add: no run has made C yet');
      return C;
    };
    const workload: AsyncWorkload = {
      bytes: bytesMoved('hisparse-add', csr.nnz),
      output: y,
      matrix: info,
      discard: free,
      async run() {
        C = await a.add(b);
      },
      verify: async () => verifyAdd(ctx, last(), a.stats().nnz, poisonY, { x, y }, rows),
      async compareWithCpu() {
        const host = await a.toHost();
        return csrDifferences(hisparseToCsr(hisparseAdd(host, scale(host, ADD_SCALE))), await last().toCsr());
      },
      destroy() {
        free();
        b.destroy();
        a.destroy();
        pool.destroy();
      },
    };
    return workload;
  } catch (error) {
    free();
    B?.destroy();
    A?.destroy();
    pool.destroy();
    throw error;
  }
};

/**
 * The GPU checks of one C = A + 2A: its nonzero count against A's, then y = (C/3)·x (poisoned
 * first) through the product plan of the view `C.scale(1/3)` against the CSR row check.
 */
async function verifyAdd(
  ctx: ScanContext,
  C: HiSparseMatrix,
  nnzA: number,
  poison: (encoder: GPUCommandEncoder) => void,
  vectors: { x: GPUBuffer; y: GPUBuffer },
  rows: () => Promise<CheckOutcome>,
): Promise<CheckOutcome> {
  const nnzC = C.stats().nnz;
  if (nnzC !== nnzA) return { mismatches: Math.max(1, Math.abs(nnzC - nnzA)), first: NNZ_MISMATCH };
  const third = C.scale(1 / (1 + ADD_SCALE));
  let plan: HiSparseSpmvPlan | undefined;
  try {
    plan = third.createSpmvPlan();
    const encoder = ctx.device.createCommandEncoder();
    poison(encoder);
    plan.encode(encoder, vectors);
    await submitAndWait(ctx, encoder);
    return await rows();
  } finally {
    plan?.destroy();
    third.destroy();
  }
}

/**
 * The workload factory of each HiSparse case: the SpMV case's matrix (generated on the GPU, or read
 * from its `.mtx` file), built into HiSparse on the GPU at the case's node size, x random on the
 * GPU, y poisoned before every run, the traversal plan of `@scan/hisparse` with the case's combine
 * (compare-and-swap into y, or records reduced by sort and segmented scan); checked on the GPU
 * against the CSR it was built from with the SpMV cases' checks, and against `@scan/spmv/cpu`
 * when nnz ≤ 2^16. The matrix's memory (its census) goes into the report beside the CSR bytes.
 * `hisparse-add` times C = A + 2A (see `hisparseAddWorkload`), an asynchronous workload.
 *
 * @example
 * ```ts
 * const w = await HISPARSE_WORKLOADS['hisparse-spmv-t'](ctx, c);
 * ```
 */
export const HISPARSE_WORKLOADS: Readonly<Record<HiSparsePrimitive, WorkloadFactory>> = {
  'hisparse-spmv': hisparseWorkload('hisparse-spmv'),
  'hisparse-spmv-t': hisparseWorkload('hisparse-spmv-t'),
  'hisparse-add': hisparseAddWorkload,
};
