import { createStorageBuffer, type ScanContext } from '@scan/core';
import { dispatchShape, type Recipe, RecipeBuilder, RecipeExecutor } from '@scan/core/kit';
import { createSegmentedScanPlan } from '@scan/segmented';
import {
  branchlessFinishKernel,
  branchlessFlagsKernel,
  branchlessIndexKernel,
  branchlessReduceKernel,
} from '../kernels/branchless-kernels.js';
import { spmvParams } from '../kernels/wgsl-common.js';
import type { GpuCsrMatrix } from '../types.js';
import { matrixRefs, matrixRoles, type SpmvRunner, scaleKey } from './runner.js';

/**
 * The `'branchless'` algorithm (seed 003): the plan's analysis computes, once, every nonzero's run
 * index (a byte) and one head flag per segment vector; each product is then the branch-free
 * reduction per segment vector, the segmented scan joining rows across vectors, and the per-row
 * finish. One right-hand side only.
 *
 * @example
 * ```ts
 * const runner = createBranchlessRunner(ctx, matrix, 256);
 * runner.encode(encoder, x, y, 1, 0);
 * ```
 */
export function createBranchlessRunner(ctx: ScanContext, m: GpuCsrMatrix, length: number): SpmvRunner {
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const segments = Math.ceil(m.nnz / length);
  const indexWords = createStorageBuffer(ctx, 4 * Math.ceil(m.nnz / 4), 'spmv branchless indices');
  const flagWords = createStorageBuffer(ctx, 4 * Math.ceil(segments / 32), 'spmv branchless flags');
  const scan = createSegmentedScanPlan(ctx, { type: 'f32', op: 'add', inclusive: true, maxCount: segments });
  const exec = new RecipeExecutor(ctx, 'spmv branchless');
  const analysis = new RecipeExecutor(ctx, 'spmv branchless analysis');
  const rowPtrRef = { role: 'rowPtr', offset: 0, size: 4 * (m.rows + 1) };
  if (m.nnz > 0) {
    const b = new RecipeBuilder();
    const indexGroups = Math.ceil(Math.ceil(m.nnz / 4) / 256);
    const flagGroups = Math.ceil(Math.ceil(segments / 32) / 64);
    const p1 = b.paramBlock(spmvParams([m.rows, m.nnz], dispatchShape(indexGroups, maxDim).x));
    b.dispatch(branchlessIndexKernel(length), [p1, rowPtrRef, { role: 'indices', offset: 0 }], indexGroups);
    const p2 = b.paramBlock(spmvParams([m.rows, m.nnz, segments], dispatchShape(flagGroups, maxDim).x));
    b.dispatch(branchlessFlagsKernel(length), [p2, rowPtrRef, { role: 'flags', offset: 0 }], flagGroups);
    const recipe = b.build();
    const encoder = ctx.device.createCommandEncoder({ label: 'spmv branchless analysis' });
    analysis.encode(encoder, 'analysis', () => recipe, { rowPtr: m.rowPtr, indices: indexWords, flags: flagWords });
    ctx.device.queue.submit([encoder.finish()]);
  }
  const rowWorkgroups = Math.ceil(m.rows / 256);
  const reduceRecipe = (): Recipe => {
    const b = new RecipeBuilder();
    const r = matrixRefs(m, 1);
    const partial = b.needScratch('partial', 4 * m.nnz);
    const lastSums = b.needScratch('lastSums', 4 * segments);
    b.needScratch('carries', 4 * segments);
    const params = b.paramBlock(spmvParams([m.rows, m.nnz], dispatchShape(segments, maxDim).x));
    b.dispatch(
      branchlessReduceKernel(length),
      [params, r.colIdx, r.values, r.x, { role: 'indices', offset: 0 }, partial, lastSums],
      segments,
    );
    return b.build();
  };
  const finishRecipe = (alpha: number, beta: number): Recipe => {
    const b = new RecipeBuilder();
    const r = matrixRefs(m, 1);
    const partial = b.needScratch('partial', 4 * m.nnz);
    const carries = b.needScratch('carries', 4 * segments);
    const params = b.paramBlock(spmvParams([m.rows], dispatchShape(rowWorkgroups, maxDim).x, { alpha, beta }));
    b.dispatch(branchlessFinishKernel(length, beta !== 0), [params, r.rowPtr, partial, carries, r.y], rowWorkgroups);
    return b.build();
  };
  return {
    encode(encoder, x, y, alpha, beta) {
      const roles = { ...matrixRoles(m, x, y), indices: indexWords };
      if (m.nnz > 0) {
        exec.encode(encoder, 'reduce', reduceRecipe, roles);
        // The recursive step: a segmented scan of the vectors' last-run sums, a new segment
        // wherever a vector's last run starts a row.
        scan.encode(encoder, {
          input: exec.scratchBuffer('lastSums'),
          headBits: flagWords,
          output: exec.scratchBuffer('carries'),
          count: segments,
        });
      } else {
        exec.reserveFor('reduce', reduceRecipe);
      }
      exec.encode(encoder, `finish ${scaleKey(alpha, beta)}`, () => finishRecipe(alpha, beta), roles);
    },
    get scratchBytes() {
      return exec.scratchBytes + scan.scratchBytes + indexWords.size + flagWords.size;
    },
    get allocations() {
      return exec.allocations + scan.allocations + 2;
    },
    destroy() {
      exec.destroy();
      analysis.destroy();
      scan.destroy();
      indexWords.destroy();
      flagWords.destroy();
    },
  };
}
