/**
 * `@scan/hisparse`: the HiSparse hierarchical sparse matrix format of Derler, Zayer, Seidel and
 * Steinberger (ICS 2017) for WebGPU — a flat `Uint32Array` pool of 16-byte-aligned dense and
 * COO1/COO2/COO4 nodes, the node type in the low bits of each child pointer, the transposed flag
 * and the scale kept outside the pool (see FORMAT.md). `HiSparseMatrix` holds a matrix on the GPU:
 * built there from CSR or COO, multiplied (A·x and Aᵀ·x by a level-by-level traversal with
 * per-type queues the GPU sizes itself), added, transposed and scaled in O(1). The CPU reference
 * (build, SpMV, add, edits, statistics) is `@scan/hisparse/cpu`; the pool's layout helpers, which
 * the kernels are generated against, are in `@scan/hisparse/kit`, for package authors.
 *
 * @example
 * ```ts
 * import { HiSparseMatrix } from '@scan/hisparse';
 * const A = await HiSparseMatrix.fromCsr(ctx, csr, { nodeSize: 32 });
 * const y = await A.spmv(x, { transpose: true });
 * A.destroy();
 * ```
 * @packageDocumentation
 */

export type { HiSparseBuildOptions } from './cpu/build.js';
export type { HiSparseStats, NodeTypeCounts } from './cpu/memory.js';
export { DEFAULT_NODE_SIZE, MAX_NODE_SIZE, MIN_NODE_SIZE } from './format/layout.js';
export type { HiSparseHost } from './format/matrix.js';
export {
  createHiSparseAddPlan,
  HISPARSE_ADD_STATUS,
  type HiSparseAddEncodeArgs,
  type HiSparseAddPlan,
  type HiSparseAddPlanOptions,
  type HiSparseAddResult,
  hisparseAddBounds,
} from './gpu/add-plan.js';
export type { LeafCombine } from './gpu/kernels/leaf-kernel.js';
export { createHiSparseSpmvPlan, HiSparseMatrix, type HiSparseMatrixSpmvOptions } from './gpu/matrix.js';
export type { GpuHiSparseParts } from './gpu/parts.js';
export type { HiSparseSpmvEncodeArgs, HiSparseSpmvPlan } from './gpu/spmv-plan.js';
