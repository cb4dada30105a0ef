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
import { spmvParams } from '../kernels/wgsl-common.js';
import type { GpuCsrMatrix } from '../types.js';
import { columnBlocks, MAX_COLUMNS_PER_PASS, matrixRefs, matrixRoles, readYKey, SCALE_VARIANTS, type SpmvRunner } from './runner.js';

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
  const exec = new RecipeExecutor(ctx, 'spmv merge');

  // Analysis: the coordinates of every tile start, recorded and submitted now.
  const partition = new RecipeExecutor(ctx, 'spmv merge partition');
  {
    const b = new RecipeBuilder();
    const workgroups = Math.ceil((tiles + 1) / 64);
    const params = b.paramBlock(spmvParams([m.rows, m.nnz, tiles, tile], dispatchShape(workgroups, maxDim).x));
    b.dispatch(
      mergePartitionKernel(),
      [params, { role: 'rowPtr', offset: 0, size: 4 * (m.rows + 1) }, { role: 'coords', offset: 0 }],
      workgroups,
    );
    const recipe = b.build();
    const encoder = ctx.device.createCommandEncoder({ label: 'spmv merge partition' });
    partition.encode(encoder, 'partition', () => recipe, { rowPtr: m.rowPtr, coords });
    ctx.device.queue.submit([encoder.finish()]);
    // The submitted work keeps its parameters alive; the executor is not needed again.
    partition.destroy();
  }

  const build = (alpha: number, beta: number): Recipe => {
    const b = new RecipeBuilder();
    const r = matrixRefs(m, k);
    const carryRows = b.needScratch('carryRows', 4 * tiles);
    for (const [c0, columns] of columnBlocks(k)) {
      const shape = { workgroupSize: 256, itemsPerThread: ipt, columns };
      const carrySums = b.needScratch(`carrySums${columns}`, 4 * tiles * columns);
      const params = b.paramBlock(spmvParams([m.rows, k, c0, tiles], dispatchShape(tiles, maxDim).x, { alpha, beta }));
      b.dispatch(
        mergeSpmvKernel(shape, beta !== 0),
        [params, r.rowPtr, r.colIdx, r.values, r.x, r.y, { role: 'coords', offset: 0 }, carryRows, carrySums],
        tiles,
      );
      const fixup = { workgroupSize: 256, itemsPerThread: fixupItems, columns };
      b.dispatch(mergeFixupKernel(fixup), [params, carryRows, carrySums, r.y], 1);
    }
    return b.build();
  };
  const ready = exec.load(SCALE_VARIANTS.map(([alpha, beta]) => build(alpha, beta)));
  return {
    encode(encoder, x, y, alpha, beta) {
      // The bindings are the matrix's, k's and the tiles'; beta = 0 or not picks the kernels.
      exec.encode(encoder, readYKey(beta), () => build(alpha, beta), { ...matrixRoles(m, x, y), coords });
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
