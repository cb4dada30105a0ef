import { createStorageBuffer, type ScanContext, uploadArray } from '@scan/core';
import { dispatchShape, RecipeBuilder, RecipeExecutor } from '@scan/core/kit';
import { createSortPlan } from '@scan/sort';
import { TRANSPOSE_WORKGROUP, transposeGatherKernel, transposeKeysKernel, transposeRowPtrKernel } from '../kernels/transpose-kernels.js';
import { spmvParamValues } from '../kernels/wgsl-common.js';
import type { CsrMatrix, GpuCsrMatrix } from '../types.js';

/** A {@link GpuCsrMatrix} whose buffers the holder owns. */
export interface OwnedGpuCsr extends GpuCsrMatrix {
  /** GPU buffers made to make it: its three, and the temporaries of a transposition (freed since). */
  readonly allocations: number;
  destroy(): void;
}

/** A matrix of `rows` × `cols` over three buffers that it owns (and frees in `destroy`). */
function ownedCsr(
  rows: number,
  cols: number,
  nnz: number,
  buffers: Pick<GpuCsrMatrix, 'rowPtr' | 'colIdx' | 'values'>,
  allocations = 3,
): OwnedGpuCsr {
  return {
    rows,
    cols,
    nnz,
    allocations,
    ...buffers,
    destroy() {
      buffers.rowPtr.destroy();
      buffers.colIdx.destroy();
      buffers.values.destroy();
    },
  };
}

/**
 * Uploads a CSR matrix into three new storage buffers.
 *
 * @example
 * ```ts
 * const m = uploadCsr(ctx, A);
 * m.destroy();
 * ```
 */
export function uploadCsr(ctx: ScanContext, A: CsrMatrix): OwnedGpuCsr {
  return ownedCsr(A.rows, A.cols, A.colIdx.length, {
    rowPtr: uploadArray(ctx, A.rowPtr, 'spmv rowPtr'),
    colIdx: uploadArray(ctx, A.colIdx, 'spmv colIdx'),
    values: uploadArray(ctx, A.values, 'spmv values'),
  });
}

/** Bits that hold every index below `n` (at least 1, as the sort needs a non-empty range). */
const bitsFor = (n: number): number => Math.max(1, Math.ceil(Math.log2(Math.max(2, n))));

/**
 * Aᵀ built on the GPU, recorded and submitted now: the column indices are sorted stably with their
 * positions (`@scan/sort`'s radix sort, on the bits the column count needs), then a gather gives
 * Aᵀ's values and column indices (A's rows, found by binary search on `row_ptr`) and a lower-bound
 * search over the sorted columns its row pointers. Within a row of Aᵀ the entries keep A's row
 * order (the sort is stable), as the CPU `transposeCsr` does.
 *
 * @example
 * ```ts
 * const t = transposeOnGpu(ctx, m);
 * // t.rows === m.cols, t.cols === m.rows
 * ```
 */
export function transposeOnGpu(ctx: ScanContext, m: GpuCsrMatrix): OwnedGpuCsr {
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const rowPtr = createStorageBuffer(ctx, 4 * (m.cols + 1), 'spmv transposed rowPtr');
  const colIdx = createStorageBuffer(ctx, 4 * m.nnz, 'spmv transposed colIdx');
  const values = createStorageBuffer(ctx, 4 * m.nnz, 'spmv transposed values');
  const keys = createStorageBuffer(ctx, 4 * m.nnz, 'spmv transpose keys');
  const positions = createStorageBuffer(ctx, 4 * m.nnz, 'spmv transpose positions');
  const exec = new RecipeExecutor(ctx, 'spmv transpose', 'A');
  const sortPlan = createSortPlan(ctx, { keyType: 'u32', valueType: 'u32', bits: [0, bitsFor(m.cols)], maxCount: Math.max(1, m.nnz) });
  const encoder = ctx.device.createCommandEncoder({ label: 'spmv transpose' });
  const nnzGroups = Math.ceil(m.nnz / TRANSPOSE_WORKGROUP);
  const ptrGroups = Math.ceil((m.cols + 1) / TRANSPOSE_WORKGROUP);
  const ref = (role: string, words: number) => ({ role, offset: 0, size: 4 * words });
  const roles = { rowPtr: m.rowPtr, colIdx: m.colIdx, values: m.values, keys, positions, rowPtrT: rowPtr, colT: colIdx, valuesT: values };
  const nnzParams = spmvParamValues({ n0: m.rows, n1: m.nnz, n2: m.cols, dispatch_x: dispatchShape(nnzGroups, maxDim).x });
  if (m.nnz > 0) {
    const before = new RecipeBuilder();
    const bindings = { col_idx: ref('colIdx', m.nnz), keys: ref('keys', m.nnz), positions: ref('positions', m.nnz) };
    before.dispatch(transposeKeysKernel({}), bindings, nnzGroups, nnzParams);
    const keysRecipe = before.build();
    exec.encode(encoder, () => keysRecipe, roles);
    sortPlan.encode(encoder, { keys, values: positions, count: m.nnz });
  }
  const after = new RecipeBuilder();
  if (m.nnz > 0) {
    const bindings = {
      row_ptr: ref('rowPtr', m.rows + 1),
      values: ref('values', m.nnz),
      positions: ref('positions', m.nnz),
      col_t: ref('colT', m.nnz),
      values_t: ref('valuesT', m.nnz),
    };
    after.dispatch(transposeGatherKernel({}), bindings, nnzGroups, nnzParams);
  }
  const ptrParams = spmvParamValues({ n0: m.rows, n1: m.nnz, n2: m.cols, dispatch_x: dispatchShape(ptrGroups, maxDim).x });
  after.dispatch(transposeRowPtrKernel({}), { keys: ref('keys', m.nnz), row_ptr_t: ref('rowPtrT', m.cols + 1) }, ptrGroups, ptrParams);
  const gatherRecipe = after.build();
  exec.encode(encoder, () => gatherRecipe, roles);
  ctx.device.queue.submit([encoder.finish()]);
  // The submitted work keeps what it uses alive; the temporaries can go now.
  const allocations = 5 + sortPlan.allocations + exec.allocations;
  sortPlan.destroy();
  exec.destroy();
  keys.destroy();
  positions.destroy();
  return ownedCsr(m.cols, m.rows, m.nnz, { rowPtr, colIdx, values }, allocations);
}
