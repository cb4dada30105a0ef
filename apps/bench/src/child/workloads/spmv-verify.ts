import type { ScanContext } from '@scan/core';
import type { GpuCsrMatrix } from '@scan/spmv';
import { type CsrMatrix, spmv as cpuSpmv, spmvErrorBound } from '@scan/spmv/cpu';
import { type CheckOutcome, encodeReduceTree, runCheck } from '../device-ops.js';
import { type BufferPool, encodeKernel, readWords, submitAndWait } from '../gpu.js';
import { fillWgsl } from '../kernels/fill.js';
import { SPMV_CHECKS } from '../kernels/spmv-checks.js';
import { SPMV_VECTOR_KERNEL } from '../kernels/spmv-generate.js';
import { readArray } from '../workload.js';

// What the CSR and HiSparse product cases share: seeded vectors made on the GPU, the checks of
// y = A·X (row by row) and y = Aᵀ·x (through wᵀ(Aᵀx) = (Aw)ᵀx), and the comparison with the CPU
// reference for small matrices. A HiSparse case checks its product against the CSR it was built from.

/** Offsets between the case seed and the seeds of x and of the transposed check's w. */
export const X_SEED_OFFSET = 0x71f3;
const W_SEED_OFFSET = 0x2d95;

/** Fills y with the poison before a run (untimed), so every checked output was written by that run. */
export const POISON_KERNEL = { key: 'bench/fill/constant', wgsl: () => fillWgsl('constant') };

/** Records a random vector of `length` values in [−1, 1) into `out`. */
export function encodeVector(
  ctx: ScanContext,
  pool: BufferPool,
  encoder: GPUCommandEncoder,
  out: GPUBuffer,
  length: number,
  seed: number,
): void {
  encodeKernel(ctx, encoder, SPMV_VECTOR_KERNEL, [out, pool.params(length, seed >>> 0)], { invocations: length });
}

/** The row check of A·X (k columns, k = 1 for spmv): every output against its serial row sum. */
export function rowChecker(
  ctx: ScanContext,
  pool: BufferPool,
  A: GpuCsrMatrix,
  x: GPUBuffer,
  y: GPUBuffer,
  k: number,
): () => Promise<CheckOutcome> {
  const params = pool.params(A.rows, k, A.cols, A.nnz);
  return () =>
    runCheck(ctx, pool, (encoder, errors) =>
      encodeKernel(ctx, encoder, SPMV_CHECKS.rows, [A.rowPtr, A.colIdx, A.values, x, y, errors, params], { invocations: A.rows * k }),
    );
}

/**
 * The check of y = Aᵀx through wᵀy = (Aw)ᵀx for a seeded random w (see `kernels/spmv-checks.ts`):
 * the column lengths and w are made once; each check computes Aw row by row, the three sums with
 * the bench's reduction tree and compares them on the GPU. Every y_c is also checked for being
 * written (not the poison) and finite.
 */
export async function transposedChecker(
  ctx: ScanContext,
  pool: BufferPool,
  A: GpuCsrMatrix,
  x: GPUBuffer,
  y: GPUBuffer,
  seed: number,
): Promise<() => Promise<CheckOutcome>> {
  const w = pool.storage(4 * A.cols, 'spmv check w');
  const counts = pool.storage(4 * A.cols, 'spmv check column lengths');
  const packed = pool.storage(8 * A.cols, 'spmv check w with weights');
  const dotTerms = pool.storage(4 * A.rows, 'spmv check (Aw)·x terms');
  const magTerms = pool.storage(4 * A.rows, 'spmv check magnitude terms');
  const colTerms = pool.storage(4 * A.cols, 'spmv check w·y terms');
  const setup = ctx.device.createCommandEncoder();
  encodeVector(ctx, pool, setup, w, A.cols, seed + W_SEED_OFFSET);
  setup.clearBuffer(counts);
  encodeKernel(ctx, setup, SPMV_CHECKS.columnCounts, [A.colIdx, counts, pool.params(A.nnz, 0, A.cols)], { invocations: A.nnz });
  encodeKernel(ctx, setup, SPMV_CHECKS.packWeights, [w, counts, packed, pool.params(A.cols)], { invocations: A.cols });
  await submitAndWait(ctx, setup);
  const rowParams = pool.params(A.rows, 0, A.cols, A.nnz);
  const colParams = pool.params(A.cols);
  return () =>
    runCheck(ctx, pool, (encoder, errors) => {
      encodeKernel(
        ctx,
        encoder,
        SPMV_CHECKS.transposedRows,
        [A.rowPtr, A.colIdx, A.values, packed, x, dotTerms, magTerms, errors, rowParams],
        { invocations: A.rows },
      );
      encodeKernel(ctx, encoder, SPMV_CHECKS.transposedColumns, [w, y, colTerms, errors, colParams], { invocations: A.cols });
      const lhs = encodeReduceTree(ctx, pool, encoder, colTerms, A.cols, 'f32', 'add');
      const rhs = encodeReduceTree(ctx, pool, encoder, dotTerms, A.rows, 'f32', 'add');
      const weighted = encodeReduceTree(ctx, pool, encoder, magTerms, A.rows, 'f32', 'add');
      encodeKernel(ctx, encoder, SPMV_CHECKS.identity, [lhs, rhs, weighted, errors], { groups: 1 });
    });
}

/**
 * Outputs that differ from `@scan/spmv/cpu`'s f64 reference by more than its `spmvErrorBound`
 * (small matrices only: everything is read back). Column j of a k-column product is compared as
 * the product with column j of X.
 */
export async function compareWithReference(
  ctx: ScanContext,
  A: GpuCsrMatrix,
  x: GPUBuffer,
  y: GPUBuffer,
  shape: { transpose: boolean; k: number; inputLength: number; outputLength: number },
): Promise<number> {
  const host: CsrMatrix = {
    rows: A.rows,
    cols: A.cols,
    rowPtr: await readWords(ctx, A.rowPtr, A.rows + 1),
    colIdx: await readWords(ctx, A.colIdx, A.nnz),
    values: (await readArray(ctx, A.values, A.nnz, 'f32')) as Float32Array,
  };
  const { transpose, k, inputLength, outputLength } = shape;
  const X = (await readArray(ctx, x, inputLength * k, 'f32')) as Float32Array;
  const Y = (await readArray(ctx, y, outputLength * k, 'f32')) as Float32Array;
  let wrong = 0;
  for (let j = 0; j < k; j++) {
    const xj = k === 1 ? X : Float32Array.from({ length: inputLength }, (_, i) => X[i * k + j]!);
    const expected = cpuSpmv(host, xj, { transpose });
    const bound = spmvErrorBound(host, xj, { transpose });
    for (let i = 0; i < outputLength; i++) {
      if (!(Math.abs(Y[i * k + j]! - expected[i]!) <= bound[i]!)) wrong++;
    }
  }
  return wrong;
}
