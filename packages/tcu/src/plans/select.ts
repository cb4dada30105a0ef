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
  /** The direct kernels (subgroup-matrix path only; see {@link TcuDirectEntry}). */
  readonly direct?: TcuDirectEntry;
}

/**
 * How the direct kernels (direct-*.ts) are shaped. A unit is one subgroup's share of whole
 * tiles; units of a workgroup run side by side.
 */
export interface TcuDirectEntry {
  /** Subgroups per workgroup of the reductions (units of S tiles). */
  readonly reduceSubgroups: number;
  /** Tiles per unit of a reduction whose segments are longer than S tiles (one partial sum per unit; S when it does not divide the segment). */
  readonly reduceLongUnitTiles: number;
  /** Subgroups per workgroup of the scans whose units are at most S tiles (s = S, or s ≤ S³). */
  readonly scanSubgroups: number;
  /** Tiles per unit of the scan with s = S. */
  readonly scanTileUnit: number;
  /** Subgroups per workgroup of the chained scan (segments longer than S tiles). */
  readonly chainedScanSubgroups: number;
  /** Tiles each subgroup of the chained scan holds (at most S); a unit is this times the subgroups. */
  readonly chainedScanTiles: number;
}

/**
 * The selection table. The subgroup-matrix row's `direct` entry is measured on the H100 at 2^28
 * f16 values (BENCHMARKS.md: 2 subgroups per workgroup beat 1, 4 and 8 for every reduction and for
 * scans of units ≤ S tiles; one subgroup per workgroup for the serial scans of longer segments, up
 * to 256 tiles = 65536 values, 0.81× copy). Its staged fields only matter for the shapes the direct
 * kernels leave to the staged ones (segment sizes other than S and whole tiles, partial units at
 * the end, u8 counting); the `emulated` row is sized for SwiftShader tests and untuned.
 */
export const TCU_SELECTION_TABLE: Readonly<Record<'subgroup-matrix' | 'emulated', TcuSelectionEntry>> = {
  'subgroup-matrix': {
    warpTiles: 1,
    blockMaxTiles: 16,
    gridPartTiles: 16,
    direct: {
      reduceSubgroups: 2,
      reduceLongUnitTiles: 16,
      scanSubgroups: 2,
      scanTileUnit: 16,
      chainedScanSubgroups: 4,
      chainedScanTiles: 8,
    },
  },
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
