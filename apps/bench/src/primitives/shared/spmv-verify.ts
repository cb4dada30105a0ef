import type { ScanContext } from '@scan/core';
import type { GpuCsrMatrix } from '@scan/spmv';
import { type CsrMatrix, spmv as cpuSpmv, spmvErrorBound } from '@scan/spmv/cpu';
import { type CheckOutcome, encodeReduceTree, runCheck } from '../../child/device-ops.js';
import { type BufferPool, encodeKernel, readWords, submitAndWait } from '../../child/gpu.js';
import { fillKernel } from '../../child/kernels/fill.js';
import { SPMV_CHECKS } from '../../child/kernels/spmv-checks.js';
import { SPMV_VECTOR_KERNEL } from '../../child/kernels/spmv-generate.js';
import { readArray } from '../../child/workload.js';

// What the CSR and HiSparse product cases share: seeded vectors made on the GPU, the checks of
// y = A·X (row by row) and y = Aᵀ·x (through wᵀ(Aᵀx) = (Aw)ᵀx), and the comparison with the CPU
// reference for small matrices. A HiSparse case checks its product against the CSR it was built from.

/** Offsets between the case seed and the seeds of x and of the transposed check's w (see {@link encodeVector}). */
export const X_SEED_OFFSET = 0x71f3;
const W_SEED_OFFSET = 0x2d95;

/**
 * Fills y with the poison before a run (untimed), so every checked output was written by that run.
 *
 * @example
 * ```ts
 * const params = pool.params(POISON_KERNEL, { n: rows, seed: 0, arg: POISON });
 * encodeKernel(ctx, encoder, POISON_KERNEL, { out: y, params }, { invocations: rows });
 * ```
 */
export const POISON_KERNEL = fillKernel({ mode: 'constant' });

/**
 * Records a random vector of `length` values in [−1, 1) into `out`.
 *
 * @example
 * ```ts
 * encodeVector(ctx, pool, encoder, x, A.cols, c.seed + X_SEED_OFFSET);
 * ```
 */
export function encodeVector(
  ctx: ScanContext,
  pool: BufferPool,
  encoder: GPUCommandEncoder,
  out: GPUBuffer,
  length: number,
  seed: number,
): void {
  encodeKernel(
    ctx,
    encoder,
    SPMV_VECTOR_KERNEL,
    { out, params: pool.params(SPMV_VECTOR_KERNEL, { n: length, seed }) },
    { invocations: length },
  );
}

/**
 * The row check of A·X (k columns, k = 1 for spmv): every output against its serial row sum.
 *
 * @example
 * ```ts
 * const verify = rowChecker(ctx, pool, A, x, y, 1);
 * await verify(); // { mismatches: 0 }
 * ```
 */
export function rowChecker(
  ctx: ScanContext,
  pool: BufferPool,
  A: GpuCsrMatrix,
  x: GPUBuffer,
  y: GPUBuffer,
  k: number,
): () => Promise<CheckOutcome> {
  const params = pool.params(SPMV_CHECKS.rows, { rows: A.rows, k, cols: A.cols, nnz: A.nnz });
  const csr = { row_ptr: A.rowPtr, col_idx: A.colIdx, vals: A.values };
  return () =>
    runCheck(ctx, pool, (encoder, errors) =>
      encodeKernel(ctx, encoder, SPMV_CHECKS.rows, { ...csr, x, y, err: errors, params }, { invocations: A.rows * k }),
    );
}

/**
 * The check of y = Aᵀx through wᵀy = (Aw)ᵀx for a seeded random w (see `kernels/spmv-checks.ts`):
 * the column lengths and w are made once; each check computes Aw row by row, the three sums with
 * the bench's reduction tree and compares them on the GPU. Every y_c is also checked for being
 * written (not the poison) and finite.
 *
 * @example
 * ```ts
 * const verify = await transposedChecker(ctx, pool, A, x, y, c.seed);
 * ```
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
  const countParams = pool.params(SPMV_CHECKS.columnCounts, { nnz: A.nnz, cols: A.cols });
  encodeKernel(ctx, setup, SPMV_CHECKS.columnCounts, { col_idx: A.colIdx, counts, params: countParams }, { invocations: A.nnz });
  const packParams = pool.params(SPMV_CHECKS.packWeights, { cols: A.cols });
  encodeKernel(ctx, setup, SPMV_CHECKS.packWeights, { w, col_len: counts, packed, params: packParams }, { invocations: A.cols });
  await submitAndWait(ctx, setup);
  const rowParams = pool.params(SPMV_CHECKS.transposedRows, { rows: A.rows, cols: A.cols, nnz: A.nnz });
  const colParams = pool.params(SPMV_CHECKS.transposedColumns, { cols: A.cols });
  const csr = { row_ptr: A.rowPtr, col_idx: A.colIdx, vals: A.values };
  return () =>
    runCheck(ctx, pool, (encoder, errors) => {
      encodeKernel(
        ctx,
        encoder,
        SPMV_CHECKS.transposedRows,
        { ...csr, packed, x, dot_terms: dotTerms, mag_terms: magTerms, err: errors, params: rowParams },
        { invocations: A.rows },
      );
      encodeKernel(
        ctx,
        encoder,
        SPMV_CHECKS.transposedColumns,
        { w, y, terms: colTerms, err: errors, params: colParams },
        { invocations: A.cols },
      );
      const lhs = encodeReduceTree(ctx, pool, encoder, colTerms, A.cols, 'f32', 'add');
      const rhs = encodeReduceTree(ctx, pool, encoder, dotTerms, A.rows, 'f32', 'add');
      const weighted = encodeReduceTree(ctx, pool, encoder, magTerms, A.rows, 'f32', 'add');
      encodeKernel(ctx, encoder, SPMV_CHECKS.identity, { lhs, rhs, weighted, err: errors }, { groups: 1 });
    });
}

/**
 * Outputs that differ from `@scan/spmv/cpu`'s f64 reference by more than its `spmvErrorBound`
 * (small matrices only: everything is read back). Column j of a k-column product is compared as
 * the product with column j of X.
 *
 * @example
 * ```ts
 * await compareWithReference(ctx, A, x, y, { transpose: false, k: 1, inputLength: A.cols, outputLength: A.rows }); // 0
 * ```
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
