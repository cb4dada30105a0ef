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
 *
 * @example
 * ```ts
 * const table = { ...TCU_SELECTION_TABLE['subgroup-matrix'] };
 * const plan = createTcuReducePlan(ctx, { table: { ...table, direct: { ...table.direct!, reduceSubgroups: 4 } } });
 * ```
 */
export interface TcuDirectEntry {
  /** Subgroups per workgroup of the reductions (units of S tiles). */
  readonly reduceSubgroups: number;
  /** Tiles per unit of a reduction whose segments are longer than S tiles (one partial sum per unit; S when it does not divide the segment). */
  readonly reduceLongUnitTiles: number;
  /** Subgroups per workgroup of the block-level reduction (Algorithm 4: one workgroup per segment), 0 for none. */
  readonly reduceBlockSubgroups: number;
  /** Longest segment (in tiles) the block-level reduction takes; longer ones are reduced in partial sums. */
  readonly reduceBlockMaxTiles: number;
  /** Fewest segments for the block-level reduction (one workgroup each); fewer are reduced in partial sums, which spread over more workgroups. */
  readonly reduceBlockMinSegments: number;
  /**
   * Whole tiles per segment from which segments of S·N elements that are no whole-tile shape take
   * the coalesced Reduction16N (contiguous tiles, the rest strided) instead of the strided one; 0
   * for never.
   */
  readonly reduceCoalescedMinTiles: number;
  /** Subgroups per workgroup of the scans whose units are at most S tiles (s = S, or s ≤ S³). */
  readonly scanSubgroups: number;
  /** Tiles per unit of the scan with s = S. */
  readonly scanTileUnit: number;
  /**
   * Fewest segments for which segments longer than S tiles are scanned one per subgroup, tile
   * after tile with the carry (warp-level Scan256N, no look-back); with fewer, the chained scan
   * spreads each segment over many subgroups. 0 for never.
   */
  readonly scanWarpMinSegments: number;
  /** Subgroups per workgroup of that warp-level scan. */
  readonly scanWarpSubgroups: number;
  /** Subgroups per workgroup of the chained scan (segments longer than S tiles). */
  readonly chainedScanSubgroups: number;
  /** Tiles each subgroup of the chained scan holds (at most S); a unit is this times the subgroups. */
  readonly chainedScanTiles: number;
  /**
   * Test hook: the chained scan's look-back reads every predecessor as not ready, so every unit
   * takes the fallback (sums its predecessors from their input). Default false.
   */
  readonly chainedScanForceFallback?: boolean;
}

/**
 * The selection table, the counterpart of the paper's auto-tuning. The subgroup-matrix row is
 * measured on the H100 at 2^28 f16 values (BENCHMARKS.md has the sweeps):
 *
 * - `reduceSubgroups` 2: at segments 16 / 256 / 4096 one subgroup per workgroup reached 0.61 /
 *   0.56 / 0.59× copy, two 0.97 / 0.97 / 1.01×, four and eight the same or (4096) less;
 * - `reduceLongUnitTiles` 16: partial sums per 16 tiles beat 64 and 256 (0.244 vs 0.276 and 0.314
 *   ms at segment 65536);
 * - `warpTiles` 1: the staged reduction of those partials with one tile per workgroup instead of
 *   16 took segment 65536 from 0.244 to 0.194 ms;
 * - `reduceBlockSubgroups` 8 (Algorithm 4, a workgroup per segment): 0.193 ms at 65536 and 0.188
 *   at 32768, against 0.195 / 0.194 with partial sums; 2, 4 and 16 subgroups 0.232, 0.218, 0.198.
 *   With fewer than `reduceBlockMinSegments` segments the partial sums spread the work wider;
 * - `reduceCoalescedMinTiles` 1: the coalesced Reduction16N beat the strided one at every size
 *   tried from one tile up: 0.233 vs 0.511 ms at segment 272, 0.301 vs 0.537 at 496, 0.218 vs
 *   0.530 at 768, 0.242 vs 0.785 at 4352, 0.227 vs 1.564 at 8208;
 * - `scanSubgroups` 2 and `scanTileUnit` 16: 0.62 ms at segment 256 against 0.89 (one subgroup)
 *   and 0.72 (four); 0.57 ms at segment 16 against 0.78 with 8-tile units;
 * - `chainedScanSubgroups` 4 × `chainedScanTiles` 8: 0.692 ms at segment 65536; 1–8 subgroups
 *   × 2–16 tiles ranged from 0.736 to 2.3 ms;
 * - `scanWarpMinSegments` 4096 and `scanWarpSubgroups` 4: one subgroup per segment (no look-back)
 *   against the chained scan, 4 / 8 subgroups per workgroup: 0.615 / 0.632 vs 0.643 ms at segment
 *   8192 (32768 segments), 0.632 / 0.646 vs 0.689 at 65536 (4096 segments), but 0.752 / 0.775 vs
 *   0.699 at 131072 (2048 segments) and 3.4 vs 0.72 at 2^20 (256 segments), too few to fill the GPU;
 *   1 and 2 subgroups 0.687 and 0.771 at 65536.
 *
 * The staged fields only matter for the shapes the direct kernels leave to the staged ones
 * (segment sizes other than S and whole tiles, partial units at the end, u8 counting, f32
 * partials); the `emulated` row is sized for SwiftShader tests and untuned.
 */
export const TCU_SELECTION_TABLE: Readonly<Record<'subgroup-matrix' | 'emulated', TcuSelectionEntry>> = {
  'subgroup-matrix': {
    warpTiles: 1,
    blockMaxTiles: 16,
    gridPartTiles: 16,
    direct: {
      reduceSubgroups: 2,
      reduceLongUnitTiles: 16,
      reduceBlockSubgroups: 8,
      reduceBlockMaxTiles: 4096,
      reduceBlockMinSegments: 512,
      reduceCoalescedMinTiles: 1,
      scanSubgroups: 2,
      scanTileUnit: 16,
      scanWarpMinSegments: 4096,
      scanWarpSubgroups: 4,
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
