/**
 * `@scan/hisparse/kit`, **for package authors**: the internals of the HiSparse pool (FORMAT.md)
 * that kernels are generated against and tools read and write — the node types and their tags in
 * the low bits of a child pointer (`NODE_TYPE`, `TYPE_MASK`, `NULL_POINTER`), the pool header
 * (`POOL_MAGIC`, `POOL_HEADER_WORDS`, `FORMAT_VERSION`), the layout of a node (`sparseLayout`,
 * `nodeWords`, `entriesPerLoad`, `packCoord`), the choice of a node type and the tree's depth
 * (`chooseNodeType`, `levelsFor`), reading and writing one node (`readNode`, `writeNode`), the host
 * pool (`HiSparsePool`), and moving a pool between host and GPU (`uploadHiSparse`,
 * `downloadHiSparse`).
 *
 * Applications do not need these names: what an application uses (`HiSparseMatrix`, the SpMV plan,
 * the options, statistics and node-size bounds) is `@scan/hisparse`'s main entry, and the CPU
 * reference is `@scan/hisparse/cpu`. **The kit may change between minor versions** (it follows the
 * format and the kernels); pin `@scan/hisparse` to a minor range if you build on it.
 *
 * @example
 * ```ts
 * import { hisparseFromCsr } from '@scan/hisparse/cpu';
 * import { NODE_TYPE, readNode } from '@scan/hisparse/kit';
 * import { poisson2d } from '@scan/spmv';
 * const H = hisparseFromCsr(poisson2d(8), { nodeSize: 4 });
 * const root = readNode(H.pool, H.root, H.nodeSize); // its entries: slots in the 4×4 grid, child pointers
 * root.type === NODE_TYPE.dense; // whether the root is a dense node
 * ```
 *
 * @module kit (for package authors)
 */

export {
  chooseNodeType,
  entriesPerLoad,
  FORMAT_VERSION,
  levelsFor,
  NODE_TYPE,
  NODE_TYPE_NAMES,
  type NodeType,
  NULL_POINTER,
  nodeWords,
  POOL_HEADER_WORDS,
  POOL_MAGIC,
  packCoord,
  packRegionCoord,
  REGION_LEAF_FLAG,
  REGION_LEAF_MAX_ENTRIES,
  REGION_LEAF_MAX_SIDE,
  regionLayout,
  regionLeafType,
  regionLeafWords,
  regionLevelAllowed,
  type SparseLayout,
  sparseLayout,
  TYPE_MASK,
} from '../format/layout.js';
export { type NodeEntries, readNode, writeNode } from '../format/node-io.js';
export { HiSparsePool } from '../format/pool.js';
export { isRegionLeaf, type RegionEntries, readRegionLeaf, regionLeafCount, writeRegionLeaf } from '../format/region-io.js';
export { downloadHiSparse, uploadHiSparse } from '../gpu/parts.js';
