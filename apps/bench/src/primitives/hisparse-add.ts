import type { ScanContext } from '@scan/core';
import {
  createHiSparseAddPlan,
  createHiSparseSpmvPlan,
  DEFAULT_NODE_SIZE,
  type HiSparseAddPlan,
  HiSparseMatrix,
  type HiSparseSpmvPlan,
  hisparseAddBounds,
} from '@scan/hisparse';
import { hisparseAdd, hisparseToCsr, scale } from '@scan/hisparse/cpu';
import type { GpuCsrMatrix } from '@scan/spmv';
import { addCsr, type CsrMatrix, cooToCsr, csrToCoo, transposeCsr } from '@scan/spmv/cpu';
import { benchModule } from '../bench-module.js';
import type { Case, SizedShape } from '../case-types.js';
import type { CheckOutcome } from '../child/device-ops.js';
import { BufferPool, encodeKernel, submitAndWait } from '../child/gpu.js';
import { caseMatrix, downloadCsr, uploadCsr } from '../child/spmv-matrix.js';
import { type EncodedWorkload, POISON, type Workload } from '../child/workload.js';
import { bytesMoved } from '../metrics.js';
import { hostSuiteMatrix, isHostFamily, perturbedOperand } from '../spmv-host-matrix.js';
import { DEFAULT_MATRICES, type MatrixSource, parseMatrixList, parseMatrixName } from '../spmv-suite.js';
import { HISPARSE_NODE_SIZES, type HiSparseFields, hisparseMatrixInfo } from './shared/hisparse-data.js';
import { encodeVector, POISON_KERNEL, rowChecker, X_SEED_OFFSET } from './shared/spmv-verify.js';

/**
 * The operands of a hisparse-add case:
 * - `a+2a`: C = A + 2A, B = `A.scale(2)` (the same pattern; C = 3A);
 * - `a+b`: HiSparse's workload (Derler et al., ICS 2017): B = A's entries moved by a rounded normal
 *   offset of σ = 10 in row and column, clamped, duplicates summed (`perturbedMatrix` of
 *   `@scan/spmv`, seeded from the case), built into HiSparse untimed;
 * - `at+bt`: Aᵀ + Bᵀ of the same A and B through `transpose()` views: HiSparse keeps the
 *   transposition as matrix state (O(1)), so it is the same timed add with the transposed flag set —
 *   there is no separate "with/without transposition" on our side (cuSPARSE's rows have both).
 */
export const HISPARSE_ADD_OPERANDS = ['a+2a', 'a+b', 'at+bt'] as const;
export type HiSparseAddOperands = (typeof HISPARSE_ADD_OPERANDS)[number];

/**
 * The sparse addition of `@scan/hisparse` (`--only hisparse-add`): `C = A.add(B)` over the same
 * suite and node sizes as the products, for each of {@link HISPARSE_ADD_OPERANDS} (the `add` field),
 * the anchor of cuSPARSE `csrgeam`. Timed with GPU timestamps: each run is the add plan
 * (`createHiSparseAddPlan`) recorded into the timed encoder — the whole add, no count read back.
 */
export type HiSparseAddCase = Case<'hisparse-add', HiSparseFields & { readonly add: HiSparseAddOperands }>;

/**
 * The hisparse-add configurations: each matrix at every node size of {@link HISPARSE_NODE_SIZES}
 * and with each of {@link HISPARSE_ADD_OPERANDS}, carrying the matrix's `n` (its nonzeros).
 *
 * @example
 * ```ts
 * hisparseAddShapes([{ name: 'poisson2d-64', n: 20224 }]).length; // 9
 * ```
 */
export function hisparseAddShapes(
  matrices: readonly MatrixSource[],
  nodeSizes: readonly number[] = HISPARSE_NODE_SIZES,
): SizedShape<HiSparseAddCase>[] {
  return matrices.flatMap((m) =>
    nodeSizes.flatMap((nodeSize) =>
      HISPARSE_ADD_OPERANDS.map(
        (add): SizedShape<HiSparseAddCase> => ({
          primitive: 'hisparse-add',
          type: 'f32',
          nodeSize,
          add,
          matrix: m.name,
          ...(m.path !== undefined ? { matrixPath: m.path } : {}),
          n: m.n,
        }),
      ),
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
 * a scale applied at a different point) or of `magnitude[k]` when given (the sum of the absolute
 * values of the terms of entry k: sums of several terms may round differently and cancel).
 *
 * @example
 * ```ts
 * csrDifferences(expected, await C.toCsr()); // 0
 * ```
 */
export function csrDifferences(expected: CsrMatrix, got: CsrMatrix, magnitude?: Float32Array): number {
  if (expected.rows !== got.rows || expected.cols !== got.cols) return Math.max(1, expected.values.length, got.values.length);
  let wrong = Math.abs(expected.values.length - got.values.length);
  for (let i = 0; i <= expected.rows; i++) if (expected.rowPtr[i] !== got.rowPtr[i]) wrong++;
  const n = Math.min(expected.values.length, got.values.length);
  for (let i = 0; i < n; i++) {
    const e = expected.values[i]!;
    const scale = magnitude?.[i] ?? Math.abs(e);
    if (expected.colIdx[i] !== got.colIdx[i] || !(Math.abs(got.values[i]! - e) <= 2 ** -21 * scale)) wrong++;
  }
  return wrong;
}

/**
 * The operands of a case, built untimed: A from the case's matrix; for `a+2a` B = `A.scale(2)` (an
 * O(1) view); for `a+b` and `at+bt` B = the perturbed A (on the host: A is read back when it was
 * generated on the GPU), uploaded and built, and the expected C = A + B (or its transpose) made by
 * `addCsr` of `@scan/spmv/cpu` — independent of HiSparse — and uploaded for the row check.
 */
interface Operands {
  csr: GpuCsrMatrix;
  left: HiSparseMatrix;
  right: HiSparseMatrix;
  /** Everything to destroy, views included. */
  owned: HiSparseMatrix[];
  /** The expected C on the host (`a+b`, `at+bt`) and on the GPU; absent for `a+2a` (C = 3A). */
  expected?: { host: CsrMatrix; gpu: GpuCsrMatrix; nnzB: number; magnitude: Float32Array };
}

/** A copy of M with |values|. */
function absolute(M: CsrMatrix): CsrMatrix {
  return { ...M, values: M.values.map(Math.abs) };
}

async function operands(ctx: ScanContext, pool: BufferPool, c: HiSparseAddCase, owned: HiSparseMatrix[]): Promise<Operands> {
  const spec = c.matrixPath === undefined ? parseMatrixName(c.matrix) : undefined;
  const hostA = c.add !== 'a+2a' && spec !== undefined && isHostFamily(spec) ? hostSuiteMatrix(spec, c.seed) : undefined;
  const csr = hostA ? await uploadCsr(ctx, pool, hostA) : await caseMatrix(ctx, pool, c);
  const A = await HiSparseMatrix.fromGpuCsr(ctx, csr, { nodeSize: c.nodeSize });
  owned.push(A);
  if (c.add === 'a+2a') {
    const B = A.scale(ADD_SCALE);
    owned.push(B);
    return { csr, left: A, right: B, owned };
  }
  // A GPU-made powerlaw matrix keeps duplicate positions and unsorted rows: merged first, as the
  // HiSparse build merges them (in its own order: the value check allows for it, see `magnitude`).
  const raw = hostA ?? (await downloadCsr(ctx, csr));
  const a = hostA ?? cooToCsr(csrToCoo(raw));
  const b = perturbedOperand(a, c.seed);
  const B = await HiSparseMatrix.fromGpuCsr(ctx, await uploadCsr(ctx, pool, b), { nodeSize: c.nodeSize });
  owned.push(B);
  const sum = addCsr(a, b);
  const host = c.add === 'at+bt' ? transposeCsr(sum) : sum;
  // Σ|terms| of each entry of C (A's duplicates, A's and B's values): rounding errors scale with it.
  // (A host-made A has no duplicates: its magnitudes are its |values|, no sort needed.)
  const absSum = addCsr(hostA ? absolute(hostA) : cooToCsr(csrToCoo(absolute(raw))), absolute(b));
  const magnitude = (c.add === 'at+bt' ? transposeCsr(absSum) : absSum).values;
  const expected = { host, gpu: await uploadCsr(ctx, pool, host), nnzB: b.colIdx.length, magnitude };
  if (c.add === 'a+b') return { csr, left: A, right: B, owned, expected };
  const At = A.transpose();
  owned.push(At);
  const Bt = B.transpose();
  owned.push(Bt);
  return { csr, left: At, right: Bt, owned, expected };
}

/**
 * hisparse-add: A built into HiSparse from the SpMV case's matrix at the case's node size, B as the
 * case's `add` says (see {@link HISPARSE_ADD_OPERANDS}; made once, untimed), and the add plan of
 * `@scan/hisparse` sized by `hisparseAddBounds(left, right)` (made and compiled untimed); one run =
 * `plan.encode(encoder, { A: left, B: right })` into the timed encoder: C = left + right into the
 * plan's pool, every count on the GPU, timed with GPU timestamps like the other plan-based cases.
 * The checks copy the last C out of the plan (`plan.toMatrix()`, which also refuses an overflowed
 * pool). For `a+2a`: C's nonzero count equals A's (else `first` = {@link NNZ_MISMATCH}); y = (C/3)·x
 * through a HiSparse product plan of the view `C.scale(1/3)` must pass the row check of the SpMV
 * cases against the CSR A was built from; at nnz ≤ 2^16 `C.toCsr()` must equal the CPU
 * `hisparseAdd(A, 2A)` of `@scan/hisparse/cpu` on A's pool read back. For `a+b` and `at+bt`: C's
 * nonzero count equals the expected C's (`addCsr` of the host A and B, transposed for `at+bt`),
 * y = C·x passes the row check against the expected C, and at nnz ≤ 2^16 `C.toCsr()` equals it.
 */
async function hisparseAddWorkload(ctx: ScanContext, c: HiSparseAddCase): Promise<Workload> {
  const pool = new BufferPool(ctx);
  const owned: HiSparseMatrix[] = [];
  let plan: HiSparseAddPlan | undefined;
  const release = () => {
    plan?.destroy();
    plan = undefined;
    for (const m of owned.reverse()) m.destroy();
    owned.length = 0;
  };
  try {
    const { csr, left, right, expected } = await operands(ctx, pool, c, owned);
    const p = createHiSparseAddPlan(ctx, hisparseAddBounds(left, right));
    plan = p;
    await p.ready;
    const reference = expected?.gpu ?? csr;
    const x = pool.storage(4 * Math.max(1, reference.cols), 'hisparse-add x');
    const y = pool.storage(4 * Math.max(1, reference.rows), 'hisparse-add y');
    const setup = ctx.device.createCommandEncoder();
    encodeVector(ctx, pool, setup, x, reference.cols, c.seed + X_SEED_OFFSET);
    await submitAndWait(ctx, setup);
    const rows = rowChecker(ctx, pool, reference, x, y, 1);
    const poisonParams = pool.params(POISON_KERNEL, { n: reference.rows, seed: 0, arg: POISON });
    const poisonY = (encoder: GPUCommandEncoder) =>
      encodeKernel(ctx, encoder, POISON_KERNEL, { out: y, params: poisonParams }, { invocations: reference.rows });
    const info = hisparseMatrixInfo(c, csr, left, `hisparse d ${left.nodeSize} add ${c.add}`);
    /** The last C, copied out of the plan's pool (a ScanError if the plan overflowed). */
    const withC = async <T>(use: (C: HiSparseMatrix) => Promise<T>): Promise<T> => {
      const C = await p.toMatrix();
      try {
        return await use(C);
      } finally {
        C.destroy();
      }
    };
    const workload: EncodedWorkload = {
      // a+2a: the csrgeam model 3·8·nnz(A); otherwise read A and B, write C (8 bytes a nonzero each).
      bytes: expected ? 8 * (csr.nnz + expected.nnzB + expected.host.colIdx.length) : bytesMoved('hisparse-add', csr.nnz),
      output: y,
      matrix: info,
      encode: (encoder) => p.encode(encoder, { A: left, B: right }),
      verify: () =>
        withC((C) =>
          expected
            ? verifyAdd(ctx, C, expected.host.colIdx.length, 1, poisonY, { x, y }, rows)
            : verifyAdd(ctx, C, left.stats().nnz, 1 + ADD_SCALE, poisonY, { x, y }, rows),
        ),
      async compareWithCpu() {
        if (expected) return withC(async (C) => csrDifferences(expected.host, await C.toCsr(), expected.magnitude));
        const host = await left.toHost();
        return withC(async (C) => csrDifferences(hisparseToCsr(hisparseAdd(host, scale(host, ADD_SCALE))), await C.toCsr()));
      },
      destroy() {
        release();
        pool.destroy();
      },
    };
    return workload;
  } catch (error) {
    release();
    pool.destroy();
    throw error;
  }
}

/**
 * The GPU checks of one C: its nonzero count against the expected one (A's for C = 3A), then
 * y = (C/factor)·x (poisoned first) through the product plan of the view `C.scale(1/factor)` against
 * the CSR row check (of A for C = 3A, of the expected C otherwise, factor 1).
 */
async function verifyAdd(
  ctx: ScanContext,
  C: HiSparseMatrix,
  nnzA: number,
  factor: number,
  poison: (encoder: GPUCommandEncoder) => void,
  vectors: { x: GPUBuffer; y: GPUBuffer },
  rows: () => Promise<CheckOutcome>,
): Promise<CheckOutcome> {
  const nnzC = C.stats().nnz;
  if (nnzC !== nnzA) return { mismatches: Math.max(1, Math.abs(nnzC - nnzA)), first: NNZ_MISMATCH };
  const third = C.scale(1 / factor);
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
 * `hisparse-add` in the registry: same matrices and node sizes as the HiSparse products; the add
 * plan timed with GPU timestamps (see `hisparseAddWorkload`). Each case process compiles the add's
 * many kernels, so a software adapter's default run samples one case: the suite's first matrix at the package's default node size with HiSparse's workload
 * `a+b` (the six of the small suite
 * take five minutes on SwiftShader, the biased ones one to one and a half each).
 *
 * @example
 * ```ts
 * HISPARSE_ADD.shapes({ ...selection, matrices: parseMatrixList('biased-1K') }).length; // 9
 * ```
 */
export const HISPARSE_ADD = benchModule<HiSparseAddCase>({
  package: '@scan/hisparse',
  primitives: ['hisparse-add'],
  shapes: (selection) => hisparseAddShapes(selection.matrices ?? parseMatrixList(DEFAULT_MATRICES.join(',')), selection.nodeSizes),
  sample: (shapes) => shapes.filter((s) => s.matrix === shapes[0]?.matrix && s.nodeSize === DEFAULT_NODE_SIZE && s.add === 'a+b'),
  workload: hisparseAddWorkload,
});
