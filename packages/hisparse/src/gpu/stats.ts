import { type HiSparseStats, statsFromTally, zeroCounts } from '../cpu/memory.js';
import { NODE_TYPE_NAMES, POOL_HEADER_WORDS } from '../format/layout.js';
import type { Census } from './census.js';

export type { HiSparseStats };

/**
 * The statistics of `hisparseStats` (same fields, same meaning) from a GPU census: nodes, entries
 * and words per level and type, and the region leaves apart.
 *
 * @example
 * ```ts
 * statsFromCensus(census, { rows, cols, nodeSize: 32, levels: 3 }).memoryBytes;
 * ```
 */
export function statsFromCensus(census: Census, shape: { rows: number; cols: number; nodeSize: number; levels: number }): HiSparseStats {
  const tally = {
    innerNodes: zeroCounts(),
    leafNodes: zeroCounts(),
    innerEntries: zeroCounts(),
    leafEntries: zeroCounts(),
    words: POOL_HEADER_WORDS,
  };
  const regionLeaves = zeroCounts();
  const regionEntries = zeroCounts();
  census.nodes.forEach((counts, level) => {
    const leaf = level === shape.levels - 1;
    NODE_TYPE_NAMES.forEach((name, type) => {
      (leaf ? tally.leafNodes : tally.innerNodes)[name] += counts[type] as number;
      (leaf ? tally.leafEntries : tally.innerEntries)[name] += census.entries[level]?.[type] as number;
      tally.words += census.words[level]?.[type] as number;
    });
  });
  // Region leaves sit at inner levels among `nodes`; `hisparseStats` counts them apart.
  if (census.regions) {
    NODE_TYPE_NAMES.forEach((name, type) => {
      regionLeaves[name] = census.regions?.leaves[type] as number;
      regionEntries[name] = census.regions?.entries[type] as number;
      tally.innerNodes[name] -= regionLeaves[name];
    });
    tally.words += census.regions.words;
  }
  return statsFromTally(shape, { ...tally, regionLeaves, regionEntries });
}
