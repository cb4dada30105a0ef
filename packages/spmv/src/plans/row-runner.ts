import type { ScanContext } from '@scan/core';
import { dispatchShape, type Recipe, RecipeBuilder, RecipeExecutor } from '@scan/core/kit';
import { lanesForRowLength, ROW_WORKGROUP, rowKernel } from '../kernels/row-kernel.js';
import { spmvParamValues } from '../kernels/wgsl-common.js';
import type { CsrStats, GpuCsrMatrix } from '../types.js';
import { columnBlocks, matrixRefs, matrixRoles, SCALE_VARIANTS, type SpmvRunner, scaleVariants } from './runner.js';

/**
 * The `'row'` algorithm (CSR-vector): one dispatch per block of right-hand sides, `lanes` lanes per
 * row chosen from the mean row length and k (or `lanes` given, for tuning). Needs no analysis beyond the
 * statistics. Holds only a parameter ring (a block per block of 8 right-hand sides).
 *
 * @example
 * ```ts
 * const runner = createRowRunner(ctx, matrix, 1, stats);
 * runner.encode(encoder, x, y, 1, 0);
 * ```
 */
export function createRowRunner(ctx: ScanContext, m: GpuCsrMatrix, k: number, stats: CsrStats, lanesOverride?: number): SpmvRunner {
  // With several right-hand sides on rows of 16 and more, twice the lanes per row keep more of the
  // gathers of x rows in flight (H100, k = 8: uniform 4M×16 1.98 → 1.91 ms); on shorter rows the
  // extra lanes idle (banded, 9 per row: 0.232 → 0.380 ms; Poisson, 5: 0.208 → 0.220 ms).
  const base = lanesForRowLength(stats.meanRowLength);
  const lanes = lanesOverride ?? (k > 1 && base >= 8 ? Math.min(32, 2 * base) : base);
  const subgroups = ctx.caps.features.subgroups && lanes <= (ctx.caps.subgroupMinSize ?? 0);
  const exec = new RecipeExecutor(ctx, 'spmv row', 'A');
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const workgroups = Math.ceil(m.rows / (ROW_WORKGROUP / lanes));
  const dispatchX = dispatchShape(workgroups, maxDim).x;
  // The bindings and kernels (per block of columns, without and with y read), made once.
  const r = matrixRefs(m, k);
  const bindings = { row_ptr: r.rowPtr, col_idx: r.colIdx, values: r.values, x: r.x, y: r.y };
  const blocks = columnBlocks(k).map(([c0, columns]) => {
    const kernelOf = (readY: boolean) => rowKernel({ lanes, columns, subgroups, readY, vectorX: k % 4 === 0 });
    return { c0, kernels: [kernelOf(false), kernelOf(true)] as const };
  });
  const build = (alpha: number, beta: number): Recipe => {
    const b = new RecipeBuilder();
    for (const { c0, kernels } of blocks) {
      const params = spmvParamValues({ n0: m.rows, n1: k, n2: c0, alpha, beta, dispatch_x: dispatchX });
      b.dispatch(kernels[beta !== 0 ? 1 : 0], bindings, workgroups, params);
    }
    return b.build();
  };
  const ready = exec.load(SCALE_VARIANTS.map(([alpha, beta]) => build(alpha, beta)));
  const variants = scaleVariants(build);
  return {
    encode(encoder, x, y, alpha, beta) {
      // The bindings are the matrix's and k's; beta = 0 or not picks the kernel (both structures'
      // bind groups are made with the first encode of a pair of x and y).
      exec.encode(encoder, () => build(alpha, beta), matrixRoles(m, x, y), variants);
    },
    ready,
    get scratchBytes() {
      return exec.scratchBytes;
    },
    get memoryBytes() {
      return exec.memoryBytes;
    },
    get allocations() {
      return exec.allocations;
    },
    destroy: () => exec.destroy(),
  };
}
