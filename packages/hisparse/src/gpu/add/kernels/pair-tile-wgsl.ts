import { addCommonWgsl } from './add-common-wgsl.js';

// The large queue's scheme, in both sweeps: one workgroup per queued pair of nodes walks the
// output node's d×d slot grid in row-major tiles of `pairTileWidth(d)` slots. For each tile both
// nodes are expanded into workgroup memory (a present flag and a word per slot), then a workgroup
// scan of "A or B has this slot" gives every union entry its rank in row-major order. This one
// scheme covers every combination the paper lists (§6): dense+dense (a word per slot straight
// away), dense+sparse (the paper buffers the dense node and "attaches" the sparse entries by their
// coordinates — the same scatter), and sparse+sparse (the scatter by slot is a bucket sort, so the
// merged order needs no comparison sort). A transposed operand is read with row and column
// swapped; the scatter by the swapped slot is the per-node re-sorting the paper "requires" for
// transposed addition (§7). The union count is the total of the scans (the paper counts |A| + |B|
// − common; the scan counts the union directly, which is the same number), and no subgroup size
// is assumed: the scan runs in workgroup memory.

/**
 * Slots one workgroup handles per tile (its workgroup size): d² up to 256 (one tile for d ≤ 16),
 * else 256 with d²/256 tiles — 1 KiB of workgroup memory per array whatever d is.
 *
 * @example
 * ```ts
 * pairTileWidth(4); // 16
 * pairTileWidth(32); // 256 (four tiles)
 * ```
 */
export function pairTileWidth(d: number): number {
  return Math.min(d * d, 256);
}

/**
 * The declarations of the large-pair kernels: {@link addCommonWgsl}, `W`/`TILES`, the tile arrays
 * in workgroup memory, and the per-tile enqueue state.
 *
 * @example
 * ```ts
 * const wgsl = `${pairDeclarationsWgsl(32)} @compute @workgroup_size(${pairTileWidth(32)}) fn main(...) { ... }`;
 * ```
 */
export function pairDeclarationsWgsl(d: number): string {
  const w = pairTileWidth(d);
  return `${addCommonWgsl(d)}
const W = ${w}u;
const TILES = ${(d * d) / w}u;
var<workgroup> a_has: array<u32, ${w}>;
var<workgroup> a_word: array<u32, ${w}>;
var<workgroup> b_has: array<u32, ${w}>;
var<workgroup> b_word: array<u32, ${w}>;
var<workgroup> tile_scan: array<u32, ${w}>;
var<workgroup> tile_base: u32;
var<workgroup> small_base: u32;
var<workgroup> large_base: u32;
var<workgroup> small_count: atomic<u32>;
var<workgroup> large_count: atomic<u32>;
var<workgroup> level_range: vec2<u32>;
var<workgroup> skip_pair: u32;
`;
}

/** WGSL that scatters one side's node `p` into the tile starting at `tile_start` (see the file comment). */
function scatterSideWgsl(side: 'a' | 'b', swap: string): string {
  const pool = `pool_${side}`;
  return `
  if (p_${side} != 0u) {
    let t = p_${side} & 3u;
    let off = p_${side} - t;
    if (t == 0u) {
      // Dense: this thread's output slot, read at the swapped place when transposed.
      let s = tile_start + lid;
      let src = select(s, (s % D) * D + s / D, ${swap});
      let w = ${pool}[off + src];
      ${side}_has[lid] = select(0u, 1u, w != 0u);
      ${side}_word[lid] = w;
    } else {
      let n = ${pool}[off];
      let cs = off + coord_start(t);
      let vs = off + value_start(t, n);
      for (var k = lid; k < n; k += W) {
        let c = (${pool}[cs + (k >> 1u)] >> ((k & 1u) * 16u)) & 0xffffu;
        let r = c & 0xffu;
        let col = c >> 8u;
        let s = select(r * D + col, col * D + r, ${swap});
        if (s >= tile_start && s < tile_start + W) {
          ${side}_has[s - tile_start] = 1u;
          ${side}_word[s - tile_start] = ${pool}[vs + k];
        }
      }
    }
  }`;
}

/**
 * WGSL statements, inside the tile loop (`tile_start`, `lid`, `p_a`, `p_b` in scope), that load
 * the tile of both nodes and scan it: afterwards `present` (0 or 1), `ranked` (the exclusive scan,
 * this slot's rank inside the tile) and `tile_total` are defined, and `a_has`/`a_word`/`b_has`/
 * `b_word` hold the tile. All barriers are in uniform control flow.
 *
 * @example
 * ```ts
 * const body = `for (var tile = 0u; tile < TILES; tile++) { let tile_start = tile * W; ${loadAndScanTileWgsl()} ... }`;
 * ```
 */
export function loadAndScanTileWgsl(): string {
  return `
    a_has[lid] = 0u;
    b_has[lid] = 0u;
    workgroupBarrier();
    ${scatterSideWgsl('a', 'false')}
    ${scatterSideWgsl('b', '(params.flags & FLAG_SWAP_B) != 0u')}
    workgroupBarrier();
    let present = a_has[lid] | b_has[lid];
    tile_scan[lid] = present;
    workgroupBarrier();
    for (var step = 1u; step < W; step <<= 1u) {
      let earlier = select(0u, tile_scan[max(lid, step) - step], lid >= step);
      workgroupBarrier();
      tile_scan[lid] += earlier;
      workgroupBarrier();
    }
    let ranked = tile_scan[lid] - present;
    let tile_total = tile_scan[W - 1u];`;
}

/**
 * The frame of every large-queue kernel (tile and merge): the level's large-queue range (first
 * entry, count) as the GPU wrote it into the control words, made workgroup-uniform, then a loop in
 * which the workgroups of the grid stride over the range, one pair `item` (its index `wg_index` in
 * the level) per iteration, running `body`, which ends a pair early with `continue`. The grid is a
 * direct dispatch sized on the host (add-on-gpu.ts says why not an indirect one). Each iteration
 * starts with a barrier, so a pair writes workgroup memory only after the previous pair's reads.
 * Needs `var<workgroup> level_range: vec2<u32>` and the builtins `lid`, `wid`, `nwg`.
 *
 * @example
 * ```ts
 * const main = largePairLoopWgsl('let p_a = pairs[item].x; ...');
 * ```
 */
export function largePairLoopWgsl(body: string): string {
  return `
  if (lid == 0u) {
    let r = CTL_LEVELS + LEVEL_WORDS * params.level;
    level_range = vec2<u32>(atomicLoad(&ctl[r]), atomicLoad(&ctl[r + 1u]));
  }
  let range = workgroupUniformLoad(&level_range);
  let grid = nwg.x * nwg.y;
  for (var wg_index = wid.x + wid.y * nwg.x; wg_index < range.y; wg_index += grid) {
    workgroupBarrier();
    let item = queues[params.capacity + range.x + wg_index];
    ${body}
  }`;
}

/**
 * The builtins of a large-queue kernel's `main` (see {@link largePairLoopWgsl}).
 *
 * @example
 * ```ts
 * const wgsl = `@compute @workgroup_size(64) fn main(${LARGE_PAIR_BUILTINS}) { ... }`;
 * ```
 */
export const LARGE_PAIR_BUILTINS =
  '@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>';

/**
 * A whole tile kernel (counting or fill): {@link pairDeclarationsWgsl}, the `extra` declarations,
 * and a `main` of the tile width whose workgroups stride over the level's large pairs
 * ({@link largePairLoopWgsl}), each pair starting with {@link pairPrologueWgsl} and then `body`.
 *
 * @example
 * ```ts
 * const wgsl = tileKernelWgsl(32, fillCommonWgsl(), 'let n = outs[item].x; ...');
 * ```
 */
export function tileKernelWgsl(d: number, extra: string, body: string): string {
  return `${pairDeclarationsWgsl(d)}
${extra}
@compute @workgroup_size(${pairTileWidth(d)})
fn main(${LARGE_PAIR_BUILTINS}) {
  ${largePairLoopWgsl(`${pairPrologueWgsl()}${body}`)}
}
`;
}

/**
 * The first lines of a tile kernel's pair (inside {@link largePairLoopWgsl}): both node pointers;
 * a pair the merge kernels take (`merge_eligible`) is skipped here.
 *
 * @example
 * ```ts
 * const main = largePairLoopWgsl(`${pairPrologueWgsl()} for (var tile = 0u; tile < TILES; tile++) { ... }`);
 * ```
 */
export function pairPrologueWgsl(): string {
  return `
    let p_a = pairs[item].x;
    let p_b = pairs[item].y;
    // Leaf pairs of two sparse lists in one orientation are the merge kernels' (merge-pair-kernels.ts).
    if (lid == 0u) { skip_pair = select(0u, 1u, merge_eligible(p_a, p_b)); }
    if (workgroupUniformLoad(&skip_pair) == 1u) { continue; }`;
}

/**
 * WGSL statements of the large counting kernel, after a tile's scan at an inner level: the tile's
 * union slots become child pairs — items reserved with one atomicAdd on the items' tail, each
 * child binned into the small or the large queue (counted in workgroup atomics, then one global
 * atomicAdd per queue and tile). Needs `inner` uniform; its barriers are then in uniform control
 * flow.
 *
 * @example
 * ```ts
 * const body = `... ${loadAndScanTileWgsl()} if (inner) { ${enqueueTileWgsl()} } base += tile_total;`;
 * ```
 */
export function enqueueTileWgsl(): string {
  return `
      if (lid == 0u) {
        tile_base = atomicAdd(&ctl[CTL_ITEMS], tile_total);
        if (tile_base + tile_total > params.capacity) { atomicOr(&ctl[CTL_OVERFLOW], 1u); }
        atomicStore(&small_count, 0u);
        atomicStore(&large_count, 0u);
      }
      workgroupBarrier();
      let child = tile_base + ranked;
      let c_a = select(0u, a_word[lid], a_has[lid] == 1u);
      let c_b = select(0u, b_word[lid], b_has[lid] == 1u);
      let ok = present == 1u && child < params.capacity;
      var small = false;
      var local = 0u;
      if (ok) {
        write_item(child, c_a, c_b, item, tile_start + lid, base + ranked);
        small = is_small_pair(c_a, c_b);
        if (small) { local = atomicAdd(&small_count, 1u); } else { local = atomicAdd(&large_count, 1u); }
      }
      workgroupBarrier();
      if (lid == 0u) {
        small_base = atomicAdd(&ctl[CTL_SMALL_TAIL], atomicLoad(&small_count));
        large_base = atomicAdd(&ctl[CTL_LARGE_TAIL], atomicLoad(&large_count));
      }
      workgroupBarrier();
      if (ok) {
        if (small) { queues[small_base + local] = child; } else { queues[params.capacity + large_base + local] = child; }
      }`;
}
