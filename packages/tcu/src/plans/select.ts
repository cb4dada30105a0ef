/** The paper's three levels (warp → block → grid), chosen from the segment size. */
export type TcuLevel = 'warp' | 'block' | 'grid';

/** One row of the selection table (per path). Sizes are in tiles of S×S elements (S: the tile side). */
export interface TcuSelectionEntry {
  /** Warp level (s ≤ S): tiles per workgroup, the coarsening factor. */
  readonly warpTiles: number;
  /** Block level up to this many tiles per segment (one workgroup per segment); grid level above. */
  readonly blockMaxTiles: number;
  /** Grid level: tiles per part (one workgroup per part; partials reduced/scanned by a second pass). */
  readonly gridPartTiles: number;
}

/**
 * The selection table. Mostly placeholder values: only `warpTiles` of the subgroup-matrix row is
 * measured (16 tiles per workgroup: 1.34 → 1.10 ms for segments of 16 at 2^28 on the H100,
 * BENCHMARKS.md); the block/grid thresholds await a sweep, and the `emulated` row is sized for
 * SwiftShader tests and untuned.
 */
export const TCU_SELECTION_TABLE: Readonly<Record<'subgroup-matrix' | 'emulated', TcuSelectionEntry>> = {
  'subgroup-matrix': { warpTiles: 16, blockMaxTiles: 16, gridPartTiles: 16 },
  emulated: { warpTiles: 2, blockMaxTiles: 16, gridPartTiles: 16 },
};

/** What {@link selectLevel} decided for one pass. */
export interface TcuSelection {
  readonly level: TcuLevel;
  /** Parts per segment (1 except at the grid level). */
  readonly parts: number;
  /** Elements per part. */
  readonly partLen: number;
  /** Tiles per workgroup (warp level). */
  readonly tiles: number;
}

/**
 * Picks the level for segment size `s` on tiles of side `S`: warp (Reduction16/Scan16) for s ≤ S,
 * block (Reduction256N/Scan256N, one workgroup per segment) up to `blockMaxTiles` tiles, else grid
 * (parts of `gridPartTiles` tiles, then a second pass over the partials).
 *
 * @example
 * ```ts
 * selectLevel(16, 65536, TCU_SELECTION_TABLE.emulated); // { level: 'grid', parts: 16, partLen: 4096, tiles: 2 }
 * ```
 */
export function selectLevel(S: number, s: number, entry: TcuSelectionEntry): TcuSelection {
  if (s <= S) return { level: 'warp', parts: 1, partLen: s, tiles: entry.warpTiles };
  if (s <= entry.blockMaxTiles * S * S) return { level: 'block', parts: 1, partLen: s, tiles: 1 };
  const partLen = entry.gridPartTiles * S * S;
  return { level: 'grid', parts: Math.ceil(s / partLen), partLen, tiles: 1 };
}
