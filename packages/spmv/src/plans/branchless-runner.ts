import { createStorageBuffer, type ScanContext } from '@scan/core';
import { dispatchShape, type Recipe, RecipeBuilder, RecipeExecutor } from '@scan/core/kit';
import { createSegmentedScanPlan } from '@scan/segmented';
import {
  branchlessFixupKernel,
  branchlessFlagsKernel,
  branchlessIndexKernel,
  branchlessRowStartsKernel,
  branchlessStepsKernel,
} from '../kernels/branchless-kernels.js';
import { type BranchlessShape, branchlessProductKernel, branchlessWorkgroupBytes } from '../kernels/branchless-product-kernel.js';
import { spmvParamValues } from '../kernels/wgsl-common.js';
import type { GpuCsrMatrix } from '../types.js';
import { columnBlocks, matrixRefs, matrixRoles, SCALE_VARIANTS, type SpmvRunner, scaleVariants } from './runner.js';

/**
 * The `'branchless'` algorithm (seed 003). The plan's analysis computes, once, every nonzero's run
 * index (a byte), the rows each segment vector writes and its first reduction step, and the head
 * flags of the recursive scan;
 * each product is then the branch-free reduction per segment vector (which also writes every row
 * that starts and ends in its vector), the segmented scan joining rows across vectors, and the
 * fix-up of the rows that span vectors. k right-hand sides: one product dispatch per block of at
 * most 8, one scan over all k columns.
 *
 * The matrix must have nonzeros (the plan sends an empty one to the row kernel). Holds the analysis
 * (a byte per nonzero, a bit per vector sum, two words per segment vector), the run sums and carries
 * (12 bytes per vector and right-hand side), the segmented scan's small scratch and the parameter
 * rings; nothing grows after the first encode.
 *
 * @example
 * ```ts
 * const runner = createBranchlessRunner(ctx, matrix, 1, 256);
 * runner.encode(encoder, x, y, 1, 0);
 * ```
 */
export function createBranchlessRunner(ctx: ScanContext, m: GpuCsrMatrix, k: number, length: number, vectorsOverride?: number): SpmvRunner {
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const segments = Math.ceil(m.nnz / length);
  const shapeOf = (columns: number, beta: number): BranchlessShape => {
    const base = { length, vectors: 1, columns, vectorX: k % 4 === 0, readY: beta !== 0 };
    return { ...base, vectors: vectorsOverride ?? branchlessVectors(ctx, base) };
  };
  const sums = k * segments;
  const indexWords = createStorageBuffer(ctx, 4 * Math.ceil(m.nnz / 4), 'spmv branchless indices');
  const flagWords = createStorageBuffer(ctx, 4 * Math.ceil(sums / 32), 'spmv branchless flags');
  const vectorInfo = createStorageBuffer(ctx, 4 * (2 * segments + 1), 'spmv branchless vector info');
  const scan = createSegmentedScanPlan(ctx, { type: 'f32', op: 'add', inclusive: true, maxCount: sums });
  const exec = new RecipeExecutor(ctx, 'spmv branchless', 'A');
  const rowPtrRef = { role: 'rowPtr', offset: 0, size: 4 * (m.rows + 1) };

  // Analysis, recorded and submitted once.
  const analysis = new RecipeExecutor(ctx, 'spmv branchless analysis', 'A');
  {
    const b = new RecipeBuilder();
    const spec = { length };
    const indices = { role: 'indices', offset: 0 };
    const vectorInfoRef = { role: 'vectorInfo', offset: 0 };
    const indexGroups = Math.ceil(Math.ceil(m.nnz / 4) / 256);
    b.dispatch(
      branchlessIndexKernel(spec),
      { row_ptr: rowPtrRef, index_words: indices },
      indexGroups,
      spmvParamValues({ n0: m.rows, n1: m.nnz, dispatch_x: dispatchShape(indexGroups, maxDim).x }),
    );
    const flagGroups = Math.ceil(Math.ceil(sums / 32) / 64);
    b.dispatch(
      branchlessFlagsKernel(spec),
      { row_ptr: rowPtrRef, flag_words: { role: 'flags', offset: 0 } },
      flagGroups,
      spmvParamValues({ n0: m.rows, n1: m.nnz, n2: segments, n3: k, dispatch_x: dispatchShape(flagGroups, maxDim).x }),
    );
    const startGroups = Math.ceil((segments + 1) / 64);
    b.dispatch(
      branchlessRowStartsKernel(spec),
      { row_ptr: rowPtrRef, vector_info: vectorInfoRef },
      startGroups,
      spmvParamValues({ n0: m.rows, n1: m.nnz, n2: segments, dispatch_x: dispatchShape(startGroups, maxDim).x }),
    );
    b.dispatch(
      branchlessStepsKernel(spec),
      { index_words: indices, vector_info: vectorInfoRef },
      segments,
      spmvParamValues({ n0: m.rows, n1: m.nnz, n2: segments, dispatch_x: dispatchShape(segments, maxDim).x }),
    );
    const recipe = b.build();
    const encoder = ctx.device.createCommandEncoder({ label: 'spmv branchless analysis' });
    analysis.encode(encoder, () => recipe, { rowPtr: m.rowPtr, indices: indexWords, flags: flagWords, vectorInfo });
    ctx.device.queue.submit([encoder.finish()]);
    // The submitted work keeps its parameters alive; the executor is not needed again.
    analysis.destroy();
  }

  // The kernels (without and with y read) and bindings of the product and the fix-up, made once.
  const r = matrixRefs(m, k);
  const runSums = { scratch: 'runSums' };
  const carries = { scratch: 'carries' };
  const vectorInfoRef = { role: 'vectorInfo', offset: 0 };
  const productBindings = {
    col_idx: r.colIdx,
    values: r.values,
    x: r.x,
    index_words: { role: 'indices', offset: 0 },
    row_ptr: r.rowPtr,
    vector_info: vectorInfoRef,
    y: r.y,
    run_sums: runSums,
  };
  const productBlocks = columnBlocks(k).map(([c0, columns]) => {
    const variant = (beta: number) => {
      const shape = shapeOf(columns, beta);
      const groups = Math.ceil(segments / shape.vectors);
      return { kernel: branchlessProductKernel(shape), groups, dispatchX: dispatchShape(groups, maxDim).x };
    };
    return { c0, variants: [variant(0), variant(1)] as const };
  });
  const fixupGroups = Math.ceil(sums / 256);
  const fixupDispatchX = dispatchShape(fixupGroups, maxDim).x;
  const fixupKernels = [branchlessFixupKernel({ length, readY: false }), branchlessFixupKernel({ length, readY: true })] as const;
  const fixupBindings = { row_ptr: r.rowPtr, vector_info: vectorInfoRef, carries, run_sums: runSums, y: r.y };

  const productRecipe = (alpha: number, beta: number): Recipe => {
    const b = new RecipeBuilder();
    b.needScratch('runSums', 4 * 2 * sums);
    b.needScratch('carries', 4 * sums);
    for (const block of productBlocks) {
      const v = block.variants[beta !== 0 ? 1 : 0];
      const params = spmvParamValues({ n0: m.rows, n1: m.nnz, n2: segments, n3: k, alpha, beta, dispatch_x: v.dispatchX, n4: block.c0 });
      b.dispatch(v.kernel, productBindings, v.groups, params);
    }
    return b.build();
  };
  const fixupRecipe = (alpha: number, beta: number): Recipe => {
    const b = new RecipeBuilder();
    b.needScratch('runSums', 4 * 2 * sums);
    b.needScratch('carries', 4 * sums);
    const params = spmvParamValues({ n0: m.rows, n1: m.nnz, n2: segments, n3: k, alpha, beta, dispatch_x: fixupDispatchX });
    b.dispatch(fixupKernels[beta !== 0 ? 1 : 0], fixupBindings, fixupGroups, params);
    return b.build();
  };
  const ready = exec.load(SCALE_VARIANTS.flatMap(([alpha, beta]) => [productRecipe(alpha, beta), fixupRecipe(alpha, beta)]));
  const variants = { product: scaleVariants(productRecipe), fixup: scaleVariants(fixupRecipe) };
  return {
    encode(encoder, x, y, alpha, beta) {
      const roles = { ...matrixRoles(m, x, y), indices: indexWords, vectorInfo };
      // The bindings are the matrix's, k's and the analysis'; beta = 0 or not picks the kernels.
      exec.encode(encoder, () => productRecipe(alpha, beta), roles, variants.product);
      // One segment vector: no row can span vectors, nothing to join.
      if (segments === 1) return;
      // The recursive step: a segmented scan of the vectors' last-run sums (the first k·S words of
      // runSums), a new segment wherever a vector's last run starts a row.
      scan.encode(encoder, {
        input: exec.scratchBuffer('runSums'),
        headBits: flagWords,
        output: exec.scratchBuffer('carries'),
        count: sums,
      });
      exec.encode(encoder, () => fixupRecipe(alpha, beta), roles, variants.fixup);
    },
    ready: Promise.all([ready, scan.ready]).then(() => undefined),
    get scratchBytes() {
      return exec.scratchBytes + scan.scratchBytes + indexWords.size + flagWords.size + vectorInfo.size;
    },
    get memoryBytes() {
      return exec.memoryBytes + scan.memoryBytes + indexWords.size + flagWords.size + vectorInfo.size;
    },
    get allocations() {
      return exec.allocations + analysis.allocations + scan.allocations + 3;
    },
    destroy() {
      exec.destroy();
      scan.destroy();
      indexWords.destroy();
      flagWords.destroy();
      vectorInfo.destroy();
    },
  };
}

/**
 * Segment vectors per workgroup of the product kernel. With one right-hand side each invocation
 * has little to load and the pass is bound by latency, so four vectors (four independent loads in
 * flight per invocation) run it fastest: on the H100, biased-16M 0.367 → 0.259 ms from one vector
 * to four. Each more column adds registers and workgroup memory, and k = 8 ran fastest with one
 * (1.45 ms against 1.67 with two). Fewer when the workgroup memory would not fit the device.
 *
 * @example
 * ```ts
 * branchlessVectors(ctx, { length: 256, vectors: 1, columns: 1, vectorX: false, readY: false }); // 4
 * ```
 */
export function branchlessVectors(ctx: ScanContext, shape: BranchlessShape): number {
  const limit = ctx.caps.limits.maxComputeWorkgroupStorageSize;
  const most = shape.columns === 1 ? 4 : shape.columns === 2 ? 2 : 1;
  return [4, 2, 1].find((vectors) => vectors <= most && branchlessWorkgroupBytes({ ...shape, vectors }) <= limit) ?? 1;
}
