import { checkHiSparse } from '../format/args.js';
import { NODE_TYPE, NODE_TYPE_NAMES, type NodeType, POOL_HEADER_WORDS, TYPE_MASK } from '../format/layout.js';
import type { HiSparseHost } from '../format/matrix.js';
import { nodeSizeAt, readNode } from '../format/node-io.js';
import { isRegionLeaf, regionLeafCount } from '../format/region-io.js';
import { forEachNode } from './traverse.js';

/**
 * Bytes the matrix needs on its own: the words of every distinct node reachable from its root
 * plus the 16-byte pool header — exactly the bytes of the pool `hisparseCompact` (or a fresh
 * build) gives it. Nodes of other matrices sharing the pool, and the old paths that edits left
 * behind, are not counted.
 *
 * @example
 * ```ts
 * hisparseMemoryBytes(hisparseFromCsr(A)); // === 4 · H.pool.used for a fresh build
 * ```
 */
export function hisparseMemoryBytes(H: HiSparseHost): number {
  const h = checkHiSparse(H, 'H');
  let words = POOL_HEADER_WORDS;
  forEachNode(h, (pointer) => {
    words += nodeSizeAt(h.pool, pointer, h.nodeSize);
  });
  return 4 * words;
}

/**
 * Counts by node type (the names of `NODE_TYPE`).
 *
 * @example
 * ```ts
 * hisparseStats(H).leafNodes.dense; // dense leaves
 * ```
 */
export type NodeTypeCounts = Record<(typeof NODE_TYPE_NAMES)[number], number>;

/**
 * What `hisparseStats` reports (the paper's Figure 2 and Figure 4 columns, for one matrix).
 *
 * @example
 * ```ts
 * const { memoryBytes, csrBytes, cooBytes } = hisparseStats(H);
 * ```
 */
export interface HiSparseStats {
  /** Logical shape and the format's parameters. */
  readonly rows: number;
  readonly cols: number;
  readonly nodeSize: number;
  readonly levels: number;
  /** Stored entries (a +0 word in a dense leaf is not one). */
  readonly nnz: number;
  /** Distinct inner nodes and leaves by type. */
  readonly innerNodes: NodeTypeCounts;
  readonly leafNodes: NodeTypeCounts;
  /** Mean entries per leaf of each type (0 where there is none), and per inner node (children). */
  readonly meanLeafEntries: NodeTypeCounts;
  readonly meanInnerEntries: NodeTypeCounts;
  /**
   * Region leaves (FORMAT.md, "Region leaves") by type, counted apart from inner nodes and leaves
   * (all zero for a matrix without them), and their mean entries.
   */
  readonly regionLeaves: NodeTypeCounts;
  readonly meanRegionEntries: NodeTypeCounts;
  /** `hisparseMemoryBytes`. */
  readonly memoryBytes: number;
  /** The same matrix as CSR (u32 row pointers and column indices, f32 values): 4·(rows + 1) + 8·nnz. */
  readonly csrBytes: number;
  /** The same matrix as COO (u32 row and column, f32 value): 12·nnz. */
  readonly cooBytes: number;
  /** memoryBytes / nnz (0 without entries): the paper's Figure 2 measure. */
  readonly bytesPerNonzero: number;
}

/**
 * Zero for every node type.
 *
 * @example
 * ```ts
 * const counts = zeroCounts(); // { dense: 0, coo1: 0, coo2: 0, coo4: 0 }
 * ```
 */
export function zeroCounts(): NodeTypeCounts {
  return { dense: 0, coo1: 0, coo2: 0, coo4: 0 };
}

/** What statistics are made from: nodes and entries per type of inner nodes and leaves, and the words they take. */
export interface NodeTally {
  readonly innerNodes: NodeTypeCounts;
  readonly leafNodes: NodeTypeCounts;
  readonly innerEntries: NodeTypeCounts;
  readonly leafEntries: NodeTypeCounts;
  /** Region leaves and their entries by type (absent: none, as in a GPU census). */
  readonly regionLeaves?: NodeTypeCounts;
  readonly regionEntries?: NodeTypeCounts;
  /** Words of every counted node plus the pool header. */
  readonly words: number;
}

/**
 * {@link HiSparseStats} from a tally of the nodes, however it was counted (the CPU walk here, the
 * GPU census of `HiSparseMatrix`). Each entry is in exactly one leaf or region leaf (the path to
 * a position is unique), so nnz is their sum.
 *
 * @example
 * ```ts
 * statsFromTally({ rows: 4, cols: 4, nodeSize: 4, levels: 1 }, tally).bytesPerNonzero;
 * ```
 */
export function statsFromTally(shape: Pick<HiSparseStats, 'rows' | 'cols' | 'nodeSize' | 'levels'>, tally: NodeTally): HiSparseStats {
  const mean = (sum: NodeTypeCounts, n: NodeTypeCounts): NodeTypeCounts => {
    const out = zeroCounts();
    for (const k of NODE_TYPE_NAMES) out[k] = n[k] > 0 ? sum[k] / n[k] : 0;
    return out;
  };
  const regionLeaves = tally.regionLeaves ?? zeroCounts();
  const regionEntries = tally.regionEntries ?? zeroCounts();
  const nnz = NODE_TYPE_NAMES.reduce((sum, k) => sum + tally.leafEntries[k] + regionEntries[k], 0);
  const memoryBytes = 4 * tally.words;
  return {
    rows: shape.rows,
    cols: shape.cols,
    nodeSize: shape.nodeSize,
    levels: shape.levels,
    nnz,
    innerNodes: tally.innerNodes,
    leafNodes: tally.leafNodes,
    meanLeafEntries: mean(tally.leafEntries, tally.leafNodes),
    meanInnerEntries: mean(tally.innerEntries, tally.innerNodes),
    regionLeaves,
    meanRegionEntries: mean(regionEntries, regionLeaves),
    memoryBytes,
    csrBytes: 4 * (shape.rows + 1) + 8 * nnz,
    cooBytes: 12 * nnz,
    bytesPerNonzero: nnz > 0 ? memoryBytes / nnz : 0,
  };
}

/**
 * Statistics of a matrix: nodes of each type among inner nodes and leaves, levels, mean entries
 * per node type, nnz, and the bytes of the matrix in HiSparse, CSR and COO (§3.3, Figures 2 and 4).
 * Shared nodes are counted once; region leaves are their own kind (`regionLeaves`).
 *
 * @example
 * ```ts
 * const st = hisparseStats(hisparseFromCsr(poisson2d(64)));
 * st.leafNodes.coo4; // leaves holding three or more entries
 * st.memoryBytes / st.cooBytes; // the saving over COO
 * ```
 */
export function hisparseStats(H: HiSparseHost): HiSparseStats {
  const h = checkHiSparse(H, 'H');
  const innerNodes = zeroCounts();
  const leafNodes = zeroCounts();
  const leafEntries = zeroCounts();
  const innerEntries = zeroCounts();
  const regionLeaves = zeroCounts();
  const regionEntries = zeroCounts();
  let words = POOL_HEADER_WORDS;
  forEachNode(h, (pointer, level) => {
    const name = NODE_TYPE_NAMES[(pointer & TYPE_MASK) as NodeType];
    const type = (pointer & TYPE_MASK) as NodeType;
    if (level < h.levels - 1 && isRegionLeaf(h.pool, pointer)) {
      words += nodeSizeAt(h.pool, pointer, h.nodeSize);
      regionLeaves[name]++;
      regionEntries[name] += regionLeafCount(h.pool, pointer);
      return;
    }
    const count = type === NODE_TYPE.dense ? readNode(h.pool, pointer, h.nodeSize).slots.length : h.pool.words[pointer - type]!;
    words += nodeSizeAt(h.pool, pointer, h.nodeSize);
    if (level === h.levels - 1) {
      leafNodes[name]++;
      leafEntries[name] += count;
    } else {
      innerNodes[name]++;
      innerEntries[name] += count;
    }
  });
  return statsFromTally(h, { innerNodes, leafNodes, innerEntries, leafEntries, regionLeaves, regionEntries, words });
}
