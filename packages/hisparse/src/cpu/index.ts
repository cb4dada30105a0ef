/**
 * `@scan/hisparse/cpu`: the CPU reference of the HiSparse format (Derler et al., ICS 2017) —
 * build from CSR or COO, back to CSR, SpMV and SpMVᵀ, addition, O(1) transpose and scale,
 * copy-on-write edits, compaction, memory accounting — on {@link HiSparseHost} matrices whose
 * nodes live in a flat u32 pool laid out exactly as FORMAT.md says. Synchronous, no GPU; the GPU
 * kernels are checked against it word for word (build) and value for value (SpMV, add).
 *
 * @example
 * ```ts
 * import { poisson2d } from '@scan/spmv';
 * import { hisparseFromCsr, hisparseSpmv, hisparseStats, transpose } from '@scan/hisparse/cpu';
 * const H = hisparseFromCsr(poisson2d(32), { nodeSize: 16 });
 * const y = hisparseSpmv(transpose(H), new Float32Array(H.rows).fill(1));
 * hisparseStats(H).bytesPerNonzero; // well below COO's 12
 * ```
 * @module
 */

export { ScanError } from '@scan/core';
export {
  DEFAULT_NODE_SIZE,
  FORMAT_VERSION,
  MAX_NODE_SIZE,
  MIN_NODE_SIZE,
  NODE_TYPE,
  NODE_TYPE_NAMES,
  type NodeType,
  NULL_POINTER,
  POOL_HEADER_WORDS,
  POOL_MAGIC,
  REGION_LEAF_FLAG,
  REGION_LEAF_MAX_ENTRIES,
  REGION_LEAF_MAX_SIDE,
} from '../format/layout.js';
export type { HiSparseHost } from '../format/matrix.js';
export { HiSparsePool } from '../format/pool.js';
export { hisparseAdd } from './add.js';
export { type HiSparseBuildOptions, hisparseFromCoo, hisparseFromCsr } from './build.js';
export { AUTO_NODE_SIZES, type HiSparseCensusEntry, hisparseCensus } from './census.js';
export { hisparseCompact } from './compact.js';
export { hisparseInsert, hisparseRemove } from './edit.js';
export { type HiSparseStats, hisparseMemoryBytes, hisparseStats, type NodeTypeCounts } from './memory.js';
export { type HiSparseSpmvOptions, hisparseSpmv } from './spmv.js';
export { scale, transpose } from './state.js';
export { hisparseToCsr } from './to-csr.js';
