/**
 * `@scan/hisparse`: the HiSparse hierarchical sparse matrix format of Derler, Zayer, Seidel and
 * Steinberger (ICS 2017) for WebGPU. This first layer holds the format — a flat `Uint32Array`
 * pool of 16-byte-aligned dense and COO1/COO2/COO4 nodes, the node type in the low bits of each
 * child pointer, the transposed flag and the scale kept outside the pool (see FORMAT.md) — and
 * its layout helpers, which the GPU kernels will be generated against. The CPU reference (build,
 * SpMV, add, edits, statistics) is `@scan/hisparse/cpu`; `HiSparseMatrix` (GPU) comes next.
 *
 * @example
 * ```ts
 * import { chooseNodeType, NODE_TYPE, sparseLayout } from '@scan/hisparse';
 * chooseNodeType(3, 32) === NODE_TYPE.coo4; // true
 * sparseLayout(NODE_TYPE.coo4, 3); // { coordStart: 2, valueStart: 4, words: 8 }
 * ```
 * @packageDocumentation
 */

export type { HiSparseBuildOptions } from './cpu/build.js';
export type { HiSparseStats, NodeTypeCounts } from './cpu/memory.js';
export {
  chooseNodeType,
  DEFAULT_NODE_SIZE,
  entriesPerLoad,
  FORMAT_VERSION,
  levelsFor,
  MAX_NODE_SIZE,
  MIN_NODE_SIZE,
  NODE_TYPE,
  NODE_TYPE_NAMES,
  type NodeType,
  NULL_POINTER,
  nodeWords,
  POOL_HEADER_WORDS,
  POOL_MAGIC,
  packCoord,
  type SparseLayout,
  sparseLayout,
  TYPE_MASK,
} from './format/layout.js';
export type { HiSparseHost } from './format/matrix.js';
export { type NodeEntries, readNode, writeNode } from './format/node-io.js';
export { HiSparsePool } from './format/pool.js';
export { HiSparseMatrix, type HiSparseMatrixSpmvOptions } from './gpu/matrix.js';
export { downloadHiSparse, type GpuHiSparseParts, uploadHiSparse } from './gpu/parts.js';
export type { HiSparseSpmvEncodeArgs, HiSparseSpmvPlan } from './gpu/spmv-plan.js';
