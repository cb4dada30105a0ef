import type { ScanContext } from '@scan/core';
import { createHiSparseSpmvPlan, DEFAULT_NODE_SIZE, HiSparseMatrix, type HiSparseSpmvPlan } from '@scan/hisparse';
import { hisparseAdd, hisparseToCsr, scale } from '@scan/hisparse/cpu';
import type { CsrMatrix } from '@scan/spmv/cpu';
import { benchModule } from '../bench-module.js';
import type { Case, SizedShape } from '../case-types.js';
import type { CheckOutcome } from '../child/device-ops.js';
import { BufferPool, encodeKernel, submitAndWait } from '../child/gpu.js';
import { caseMatrix } from '../child/spmv-matrix.js';
import { type AsyncWorkload, POISON, type Workload } from '../child/workload.js';
import { bytesMoved } from '../metrics.js';
import { DEFAULT_MATRICES, type MatrixSource, parseMatrixList } from '../spmv-suite.js';
import { HISPARSE_NODE_SIZES, type HiSparseFields, hisparseMatrixInfo } from './shared/hisparse-data.js';
import { encodeVector, POISON_KERNEL, rowChecker, X_SEED_OFFSET } from './shared/spmv-verify.js';

/**
 * The sparse addition of `@scan/hisparse` (`--only hisparse-add`): `C = A.add(A.scale(2))` over the
 * same suite and node sizes as the products, the anchor of cuSPARSE `csrgeam`. Not one encodable
 * command (it reads counts back and allocates C between submissions), so it is timed by wall clock
 * (see `AsyncWorkload`).
 */
export type HiSparseAddCase = Case<'hisparse-add', HiSparseFields>;

/**
 * The hisparse-add configurations: each matrix at every node size of {@link HISPARSE_NODE_SIZES},
 * carrying the matrix's `n` (its nonzeros).
 *
 * @example
 * ```ts
 * hisparseAddShapes([{ name: 'poisson2d-64', n: 20224 }]).length; // 3
 * ```
 */
export function hisparseAddShapes(matrices: readonly MatrixSource[]): SizedShape<HiSparseAddCase>[] {
  return matrices.flatMap((m) =>
    HISPARSE_NODE_SIZES.map(
      (nodeSize): SizedShape<HiSparseAddCase> => ({
        primitive: 'hisparse-add',
        type: 'f32',
        nodeSize,
        matrix: m.name,
        ...(m.path !== undefined ? { matrixPath: m.path } : {}),
        n: m.n,
      }),
    ),
  );
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
async function hisparseAddWorkload(ctx: ScanContext, c: HiSparseAddCase): Promise<Workload> {
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
    A = await HiSparseMatrix.fromGpuCsr(ctx, csr, { nodeSize: c.nodeSize });
    B = A.scale(ADD_SCALE);
    const a = A;
    const b = B;
    const x = pool.storage(4 * Math.max(1, csr.cols), 'hisparse-add x');
    const y = pool.storage(4 * Math.max(1, csr.rows), 'hisparse-add y');
    const setup = ctx.device.createCommandEncoder();
    encodeVector(ctx, pool, setup, x, csr.cols, c.seed + X_SEED_OFFSET);
    await submitAndWait(ctx, setup);
    const rows = rowChecker(ctx, pool, csr, x, y, 1);
    const poisonParams = pool.params(POISON_KERNEL, { n: csr.rows, seed: 0, arg: POISON });
    const poisonY = (encoder: GPUCommandEncoder) =>
      encodeKernel(ctx, encoder, POISON_KERNEL, { out: y, params: poisonParams }, { invocations: csr.rows });
    const info = hisparseMatrixInfo(c, csr, a, `hisparse d ${a.nodeSize} add`);
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
}

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
    plan = createHiSparseSpmvPlan(ctx, third);
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
 * `hisparse-add` in the registry: same matrices and node sizes as the HiSparse products; timed by
 * wall clock (see `hisparseAddWorkload`). Each case process compiles the add's many kernels and
 * every run reads counts back between submissions, so a software adapter's default run samples one
 * case: the suite's first matrix at the package's default node size (the six of the small suite
 * take five minutes on SwiftShader, the biased ones one to one and a half each).
 *
 * @example
 * ```ts
 * HISPARSE_ADD.shapes({ ...selection, matrices: parseMatrixList('biased-1K') }).length; // 3
 * ```
 */
export const HISPARSE_ADD = benchModule<HiSparseAddCase>({
  package: '@scan/hisparse',
  primitives: ['hisparse-add'],
  shapes: (selection) => hisparseAddShapes(selection.matrices ?? parseMatrixList(DEFAULT_MATRICES.join(','))),
  sample: (shapes) => shapes.filter((s) => s.matrix === shapes[0]?.matrix && s.nodeSize === DEFAULT_NODE_SIZE),
  workload: hisparseAddWorkload,
});
