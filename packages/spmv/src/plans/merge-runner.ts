import { createStorageBuffer, type ScanContext } from '@scan/core';
import { dispatchShape, type Recipe, RecipeBuilder, RecipeExecutor } from '@scan/core/kit';
import {
  type MergeShape,
  mergeFixupKernel,
  mergePartitionKernel,
  mergeSpmvKernel,
  mergeTile,
  mergeWorkgroupBytes,
} from '../kernels/merge-kernels.js';
import { spmvParamValues } from '../kernels/wgsl-common.js';
import type { GpuCsrMatrix } from '../types.js';
import { columnBlocks, MAX_COLUMNS_PER_PASS, matrixRefs, matrixRoles, SCALE_VARIANTS, type SpmvRunner, scaleVariants } from './runner.js';

/** Items per invocation of the carry fix-up (one workgroup walks every tile's carry). */
const FIXUP_ITEMS = 16;

/**
 * The merge-path shape: 256 invocations, and the most items per invocation (8, 4, 2 or 1) whose
 * workgroup memory fits the device (SwiftShader and the WebGPU default offer 16 KiB, the H100 48).
 *
 * @example
 * ```ts
 * mergeShapeFor(ctx, 1); // { workgroupSize: 256, itemsPerThread: 8, columns: 1 } on the H100
 * ```
 */
export function mergeShapeFor(ctx: ScanContext, columns: number, itemsPerThread?: number): MergeShape {
  const limit = ctx.caps.limits.maxComputeWorkgroupStorageSize;
  for (const ipt of itemsPerThread ? [itemsPerThread] : [8, 4, 2, 1]) {
    const shape = { workgroupSize: 256, itemsPerThread: ipt, columns };
    if (mergeWorkgroupBytes(shape) <= limit) return shape;
  }
  return { workgroupSize: 64, itemsPerThread: 1, columns };
}

/**
 * The `'merge'` algorithm: the plan's analysis finds where each tile starts on the merge path
 * (once); every product is then the tile kernel plus the carry fix-up, per block of right-hand
 * sides. Holds the tile coordinates (8 bytes per tile), the carries (a row index and up to 8 sums
 * per tile) and a parameter ring; nothing grows after the first encode.
 *
 * @example
 * ```ts
 * const runner = createMergeRunner(ctx, matrix, 1);
 * runner.encode(encoder, x, y, 1, 0);
 * ```
 */
export function createMergeRunner(
  ctx: ScanContext,
  m: GpuCsrMatrix,
  k: number,
  tuning: { itemsPerThread?: number | undefined; fixupItemsPerThread?: number | undefined } = {},
): SpmvRunner {
  const { itemsPerThread } = tuning;
  const fixupItems = tuning.fixupItemsPerThread ?? FIXUP_ITEMS;
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  // One tile size for every column block, so one partition serves all of them.
  const widest = Math.min(k, MAX_COLUMNS_PER_PASS);
  const tile = mergeTile(mergeShapeFor(ctx, widest, itemsPerThread));
  const ipt = tile / 256;
  const tiles = Math.max(1, Math.ceil((m.rows + m.nnz) / tile));
  const coords = createStorageBuffer(ctx, 8 * (tiles + 1), 'spmv merge coords');
  const exec = new RecipeExecutor(ctx, 'spmv merge', 'A');

  // Analysis: the coordinates of every tile start, recorded and submitted now.
  const partition = new RecipeExecutor(ctx, 'spmv merge partition', 'A');
  {
    const b = new RecipeBuilder();
    const workgroups = Math.ceil((tiles + 1) / 64);
    const params = spmvParamValues({ n0: m.rows, n1: m.nnz, n2: tiles, n3: tile, dispatch_x: dispatchShape(workgroups, maxDim).x });
    const bindings = { row_ptr: { role: 'rowPtr', offset: 0, size: 4 * (m.rows + 1) }, coords: { role: 'coords', offset: 0 } };
    b.dispatch(mergePartitionKernel({}), bindings, workgroups, params);
    const recipe = b.build();
    const encoder = ctx.device.createCommandEncoder({ label: 'spmv merge partition' });
    partition.encode(encoder, () => recipe, { rowPtr: m.rowPtr, coords });
    ctx.device.queue.submit([encoder.finish()]);
    // The submitted work keeps its parameters alive; the executor is not needed again.
    partition.destroy();
  }

  // The kernels (without and with y read) and bindings of every block of columns, made once.
  const r = matrixRefs(m, k);
  const dispatchX = dispatchShape(tiles, maxDim).x;
  const carryRows = { scratch: 'carryRows' };
  const blocks = columnBlocks(k).map(([c0, columns]) => {
    const shape = { workgroupSize: 256, itemsPerThread: ipt, columns };
    const carrySums = { scratch: `carrySums${columns}` };
    return {
      c0,
      columns,
      kernels: [mergeSpmvKernel({ ...shape, readY: false }), mergeSpmvKernel({ ...shape, readY: true })] as const,
      fixup: mergeFixupKernel({ workgroupSize: 256, itemsPerThread: fixupItems, columns }),
      bindings: {
        row_ptr: r.rowPtr,
        col_idx: r.colIdx,
        values: r.values,
        x: r.x,
        y: r.y,
        coords: { role: 'coords', offset: 0 },
        carry_rows: carryRows,
        carry_sums: carrySums,
      },
      fixupBindings: { carry_rows: carryRows, carry_sums: carrySums, y: r.y },
    };
  });
  const build = (alpha: number, beta: number): Recipe => {
    const b = new RecipeBuilder();
    b.needScratch('carryRows', 4 * tiles);
    for (const block of blocks) {
      b.needScratch(block.bindings.carry_sums.scratch, 4 * tiles * block.columns);
      const kernel = block.kernels[beta !== 0 ? 1 : 0];
      // One block for both: the fix-up reads the same rows, k, c0 and alpha.
      const params = b.paramsFor(
        kernel,
        spmvParamValues({ n0: m.rows, n1: k, n2: block.c0, n3: tiles, alpha, beta, dispatch_x: dispatchX }),
      );
      b.dispatch(kernel, block.bindings, tiles, params);
      b.dispatch(block.fixup, block.fixupBindings, 1, params);
    }
    return b.build();
  };
  const ready = exec.load(SCALE_VARIANTS.map(([alpha, beta]) => build(alpha, beta)));
  const variants = scaleVariants(build);
  return {
    encode(encoder, x, y, alpha, beta) {
      // The bindings are the matrix's, k's and the tiles'; beta = 0 or not picks the kernels.
      exec.encode(encoder, () => build(alpha, beta), { ...matrixRoles(m, x, y), coords }, variants);
    },
    ready,
    get scratchBytes() {
      return exec.scratchBytes + coords.size;
    },
    get memoryBytes() {
      return exec.memoryBytes + coords.size;
    },
    get allocations() {
      return exec.allocations + partition.allocations + 1;
    },
    destroy() {
      exec.destroy();
      coords.destroy();
    },
  };
}
