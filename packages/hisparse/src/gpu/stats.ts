import type { HiSparseStats, NodeTypeCounts } from '../cpu/memory.js';
import { NODE_TYPE_NAMES, POOL_HEADER_WORDS } from '../format/layout.js';
import type { Census } from './census.js';

export type { HiSparseStats };

/**
 * The statistics of `hisparseStats` (same fields, same meaning) from a GPU census: nodes, entries
 * and words per level and type. Every entry sits in exactly one leaf, so nnz is the leaves' sum.
 *
 * @example
 * ```ts
 * statsFromCensus(census, { rows, cols, nodeSize: 32, levels: 3 }).memoryBytes;
 * ```
 */
export function statsFromCensus(census: Census, shape: { rows: number; cols: number; nodeSize: number; levels: number }): HiSparseStats {
  const zero = (): NodeTypeCounts => ({ dense: 0, coo1: 0, coo2: 0, coo4: 0 });
  const innerNodes = zero();
  const leafNodes = zero();
  const innerEntries = zero();
  const leafEntries = zero();
  let words = POOL_HEADER_WORDS;
  census.nodes.forEach((counts, level) => {
    const leaf = level === shape.levels - 1;
    NODE_TYPE_NAMES.forEach((name, type) => {
      (leaf ? leafNodes : innerNodes)[name] += counts[type] as number;
      (leaf ? leafEntries : innerEntries)[name] += census.entries[level]?.[type] as number;
      words += census.words[level]?.[type] as number;
    });
  });
  const mean = (sum: NodeTypeCounts, n: NodeTypeCounts): NodeTypeCounts => {
    const out = zero();
    for (const k of NODE_TYPE_NAMES) out[k] = n[k] > 0 ? sum[k] / n[k] : 0;
    return out;
  };
  const nnz = NODE_TYPE_NAMES.reduce((sum, k) => sum + leafEntries[k], 0);
  const memoryBytes = 4 * words;
  return {
    rows: shape.rows,
    cols: shape.cols,
    nodeSize: shape.nodeSize,
    levels: shape.levels,
    nnz,
    innerNodes,
    leafNodes,
    meanLeafEntries: mean(leafEntries, leafNodes),
    meanInnerEntries: mean(innerEntries, innerNodes),
    memoryBytes,
    csrBytes: 4 * (shape.rows + 1) + 8 * nnz,
    cooBytes: 12 * nnz,
    bytesPerNonzero: nnz > 0 ? memoryBytes / nnz : 0,
  };
}
