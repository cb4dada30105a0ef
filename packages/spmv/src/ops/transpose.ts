import type { ScanContext } from '@scan/core';
import { assertUsable, withSession } from '@scan/core/kit';
import { transposeOnGpu, uploadCsr } from '../plans/gpu-matrix.js';
import type { CsrMatrix } from '../types.js';
import { checkCsr } from '../validate.js';

/**
 * Aᵀ in CSR, computed on the GPU: the column indices are sorted stably with their positions by
 * `@scan/sort`'s radix sort, then gathered. Within each row of Aᵀ the entries keep A's row order,
 * exactly as the CPU reference (`@scan/spmv/cpu`'s `transposeCsr`) orders them.
 *
 * @example
 * ```ts
 * const A = { rows: 2, cols: 3, rowPtr: new Uint32Array([0, 2, 3]), colIdx: new Uint32Array([0, 2, 1]), values: new Float32Array([1, 2, 3]) };
 * const T = await transposeCsr(ctx, A);
 * // T.rows = 3, T.rowPtr = [0, 1, 2, 3], T.colIdx = [0, 1, 0], T.values = [1, 3, 2]
 * ```
 */
export async function transposeCsr(ctx: ScanContext, A: CsrMatrix): Promise<CsrMatrix> {
  assertUsable(ctx);
  const host = checkCsr(A, 'A');
  const nnz = host.colIdx.length;
  return withSession(ctx, 'transposeCsr', async (s) => {
    const up = s.own(uploadCsr(ctx, host));
    const t = s.own(transposeOnGpu(ctx, up));
    const readPtr = s.readback(t.rowPtr, 4 * (host.cols + 1));
    const readCol = s.readback(t.colIdx, 4 * nnz);
    const readVal = s.readback(t.values, 4 * nnz);
    s.submit();
    const [rowPtr, colIdx, values] = await Promise.all([readPtr(), readCol(), readVal()]);
    return {
      rows: host.cols,
      cols: host.rows,
      rowPtr: new Uint32Array(rowPtr),
      colIdx: new Uint32Array(colIdx),
      values: new Float32Array(values),
    };
  });
}
