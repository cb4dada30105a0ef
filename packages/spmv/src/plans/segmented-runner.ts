import { createStorageBuffer, type ScanContext } from '@scan/core';
import { dispatchShape, type Recipe, RecipeBuilder, RecipeExecutor } from '@scan/core/kit';
import { createOffsetsToHeadFlagsPlan, createSegmentedScanPlan, packedFlagWords } from '@scan/segmented';
import { SEGMENTED_WORKGROUP, segmentedGatherKernel, segmentedProductsKernel } from '../kernels/segmented-kernels.js';
import { spmvParamValues } from '../kernels/wgsl-common.js';
import type { GpuCsrMatrix } from '../types.js';
import { matrixRefs, matrixRoles, SCALE_VARIANTS, type SpmvRunner, scaleVariants } from './runner.js';

/**
 * The `'segmented'` algorithm, Sengupta et al. 2007 (§4.2), as the paper lays it out:
 *
 * 1. **products** — `values[i]·x[col_idx[i]]` for every nonzero;
 * 2. **head flags** — a flag at each row's first nonzero, from `row_ptr` (the plan's analysis,
 *    once: `@scan/segmented`'s offsets-to-head-flags, bit-packed);
 * 3. **backward segmented inclusive scan** (`@scan/segmented`) — each row's first element then
 *    holds the row's sum;
 * 4. **gather** — y[r] from the first element of row r (0 for an empty row).
 *
 * One right-hand side only (the scan is of scalars). Holds the head flags (a bit per nonzero), the
 * products and their scan (a word per nonzero each), the segmented scan's small scratch and the
 * parameter rings; nothing grows after the first encode.
 *
 * @example
 * ```ts
 * const runner = createSegmentedRunner(ctx, matrix);
 * runner.encode(encoder, x, y, 1, 0);
 * ```
 */
export function createSegmentedRunner(ctx: ScanContext, m: GpuCsrMatrix): SpmvRunner {
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const headBits = createStorageBuffer(ctx, 4 * packedFlagWords(m.nnz), 'spmv segmented head flags');
  const scan = createSegmentedScanPlan(ctx, { type: 'f32', op: 'add', inclusive: true, backward: true, maxCount: m.nnz });
  const exec = new RecipeExecutor(ctx, 'spmv segmented', 'A');
  let analysisAllocations = 0;
  if (m.nnz > 0) {
    // Analysis: the head flags of the rows, once.
    const flags = createOffsetsToHeadFlagsPlan(ctx);
    const encoder = ctx.device.createCommandEncoder({ label: 'spmv segmented flags' });
    flags.encode(encoder, { offsets: m.rowPtr, segments: m.rows, output: headBits, count: m.nnz });
    ctx.device.queue.submit([encoder.finish()]);
    analysisAllocations = flags.allocations;
    flags.destroy();
  }
  const productWorkgroups = Math.ceil(m.nnz / SEGMENTED_WORKGROUP);
  const rowWorkgroups = Math.ceil(m.rows / SEGMENTED_WORKGROUP);
  const productDispatchX = dispatchShape(productWorkgroups, maxDim).x;
  const rowDispatchX = dispatchShape(rowWorkgroups, maxDim).x;
  // The kernels and bindings, made once; beta = 0 or not picks the gather kernel.
  const productsKernel = segmentedProductsKernel({ workgroupSize: SEGMENTED_WORKGROUP });
  const gatherOf = (readY: boolean) => segmentedGatherKernel({ workgroupSize: SEGMENTED_WORKGROUP, readY });
  const gatherKernels = [gatherOf(false), gatherOf(true)] as const;
  const r = matrixRefs(m, 1);
  const products = { scratch: 'products' };
  const scanned = { scratch: 'scanned' };
  const productsBindings = { col_idx: r.colIdx, values: r.values, x: r.x, products };
  const gatherBindings = { row_ptr: r.rowPtr, scanned, y: r.y };
  const productsRecipe = (): Recipe => {
    const b = new RecipeBuilder();
    b.needScratch('products', 4 * m.nnz);
    b.needScratch('scanned', 4 * m.nnz);
    b.dispatch(productsKernel, productsBindings, productWorkgroups, spmvParamValues({ n0: m.nnz, dispatch_x: productDispatchX }));
    return b.build();
  };
  const gatherRecipe = (alpha: number, beta: number): Recipe => {
    const b = new RecipeBuilder();
    b.needScratch('scanned', 4 * m.nnz);
    const params = spmvParamValues({ n0: m.rows, alpha, beta, dispatch_x: rowDispatchX });
    b.dispatch(gatherKernels[beta !== 0 ? 1 : 0], gatherBindings, rowWorkgroups, params);
    return b.build();
  };
  const ready = exec.load([productsRecipe(), ...SCALE_VARIANTS.map(([alpha, beta]) => gatherRecipe(alpha, beta))]);
  const gatherVariants = scaleVariants(gatherRecipe);
  return {
    encode(encoder, x, y, alpha, beta) {
      const roles = matrixRoles(m, x, y);
      if (m.nnz > 0) {
        exec.encode(encoder, productsRecipe, roles);
        const products = exec.scratchBuffer('products');
        const scanned = exec.scratchBuffer('scanned');
        scan.encode(encoder, { input: products, headBits, output: scanned, count: m.nnz });
      } else {
        exec.reserveFor(productsRecipe);
      }
      // The bindings are the matrix's; beta = 0 or not picks the gather kernel.
      exec.encode(encoder, () => gatherRecipe(alpha, beta), roles, gatherVariants);
    },
    ready: Promise.all([ready, scan.ready]).then(() => undefined),
    get scratchBytes() {
      return exec.scratchBytes + scan.scratchBytes + headBits.size;
    },
    get memoryBytes() {
      return exec.memoryBytes + scan.memoryBytes + headBits.size;
    },
    get allocations() {
      return exec.allocations + analysisAllocations + scan.allocations + 1;
    },
    destroy() {
      exec.destroy();
      scan.destroy();
      headBits.destroy();
    },
  };
}
