import { createStorageBuffer, encodeReadback, type ScanContext } from '@scan/core';
import { assertUsable, dispatchShape, RecipeBuilder, RecipeExecutor, runGuarded } from '@scan/core/kit';
import { columnCountsKernel, rowLengthStatsKernel, STATS_WORKGROUP } from '../kernels/stats-kernels.js';
import { spmvParamValues } from '../kernels/wgsl-common.js';
import type { CsrStats, GpuCsrMatrix } from '../types.js';

/**
 * The row-length statistics of a matrix already on the GPU (of Aᵀ with `transpose`), computed on
 * the GPU: only a few words per 256 rows are read back. Pass the result as `stats` to
 * `createSpmvPlan` so `'auto'` can choose for a matrix it did not upload itself.
 *
 * @example
 * ```ts
 * const stats = await gpuCsrStats(ctx, matrix);
 * const plan = createSpmvPlan(ctx, matrix, { stats });
 * ```
 */
export async function gpuCsrStats(ctx: ScanContext, m: GpuCsrMatrix, options: { transpose?: boolean } = {}): Promise<CsrStats> {
  assertUsable(ctx);
  const transpose = options.transpose === true;
  const rows = transpose ? m.cols : m.rows;
  const cols = transpose ? m.rows : m.cols;
  const base = { rows, cols, nnz: m.nnz };
  if (rows === 0) return { ...base, meanRowLength: 0, maxRowLength: 0, rowLengthStdDev: 0, emptyRows: 0 };
  return runGuarded(ctx, 'gpuCsrStats', async () => {
    const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
    const groups = Math.ceil(rows / STATS_WORKGROUP);
    const partials = createStorageBuffer(ctx, 16 * groups, 'spmv stats partials');
    const counts = transpose ? createStorageBuffer(ctx, 4 * rows, 'spmv column counts') : undefined;
    const exec = new RecipeExecutor(ctx, 'spmv stats', 'A');
    const b = new RecipeBuilder();
    if (counts) {
      b.clear({ role: 'counts', offset: 0 });
      const nnzGroups = Math.ceil(m.nnz / STATS_WORKGROUP);
      const p = spmvParamValues({ n0: rows, n1: m.nnz, dispatch_x: dispatchShape(nnzGroups, maxDim).x });
      b.dispatch(
        columnCountsKernel({}),
        { col_idx: { role: 'colIdx', offset: 0, size: 4 * m.nnz }, counts: { role: 'counts', offset: 0 } },
        nnzGroups,
        p,
      );
    }
    const q = spmvParamValues({ n0: rows, n1: m.nnz, dispatch_x: dispatchShape(groups, maxDim).x });
    const lengths = counts ? { role: 'counts', offset: 0 } : { role: 'rowPtr', offset: 0, size: 4 * (rows + 1) };
    b.dispatch(rowLengthStatsKernel({ fromCounts: transpose }), { lengths, partials: { role: 'partials', offset: 0 } }, groups, q);
    const recipe = b.build();
    const encoder = ctx.device.createCommandEncoder({ label: 'spmv stats' });
    exec.encode(encoder, () => recipe, {
      rowPtr: m.rowPtr,
      colIdx: m.colIdx,
      partials,
      ...(counts ? { counts } : {}),
    });
    const read = encodeReadback(ctx, encoder, partials, 0, 16 * groups);
    ctx.device.queue.submit([encoder.finish()]);
    try {
      const words = new Uint32Array(await read());
      const f32 = new Float32Array(words.buffer);
      let maxRowLength = 0;
      let emptyRows = 0;
      let squares = 0;
      for (let g = 0; g < groups; g++) {
        maxRowLength = Math.max(maxRowLength, words[4 * g] as number);
        emptyRows += words[4 * g + 1] as number;
        squares += f32[4 * g + 2] as number;
      }
      const meanRowLength = m.nnz / rows;
      const variance = Math.max(0, squares / rows - meanRowLength * meanRowLength);
      return { ...base, meanRowLength, maxRowLength, rowLengthStdDev: Math.sqrt(variance), emptyRows };
    } finally {
      exec.destroy();
      partials.destroy();
      counts?.destroy();
    }
  });
}
