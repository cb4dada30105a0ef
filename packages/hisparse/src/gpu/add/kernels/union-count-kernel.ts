import type { KernelSpec } from '@scan/core/kit';
import { loadAndScanTileWgsl, pairDeclarationsWgsl, pairPrologueWgsl, pairTileWidth } from './pair-tile-wgsl.js';

/**
 * The counting sweep of one level (§6: "it is necessary to first compute the size of the output
 * node in order to allocate the corresponding amount of memory"): one workgroup per queued pair
 * counts the union of the two slot lists, stores it in the pair's item and adds the output node's
 * words (type by `chooseNodeType` from the union count) to the pool total; above the leaves, every
 * union slot becomes a pair of the next level — traversed together when both sides have a child,
 * copied (a pair with one null side) when one has — appended through an atomic tail, one atomicAdd
 * per tile. The slot and rank stored with each child tell the fill sweep where its pointer goes.
 * Bindings: 0 params, 1 pool A, 2 pool B, 3 items, 4 control words.
 *
 * @example
 * ```ts
 * b.dispatch(unionCountKernel(32), [params, poolA, poolB, items, ctl], pairsOfLevel);
 * ```
 */
export function unionCountKernel(d: number): KernelSpec {
  return {
    key: `hisparse/add/union-count/d${d}`,
    wgsl: () => `${pairDeclarationsWgsl(d)}
@compute @workgroup_size(${pairTileWidth(d)})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${pairPrologueWgsl()}
  let inner = (params.flags & FLAG_LEAF) == 0u;
  var base = 0u; // union entries in the tiles before this one
  for (var tile = 0u; tile < TILES; tile++) {
    let tile_start = tile * W;
    ${loadAndScanTileWgsl()}
    // Enqueue this tile's children with one atomicAdd on the queue tail.
    if (lid == 0u && inner && tile_total > 0u) {
      let at = atomicAdd(&ctl[CTL_ITEMS], tile_total);
      if (at + tile_total > params.capacity) { atomicStore(&ctl[CTL_OVERFLOW], 1u); }
      tile_base = at;
    }
    workgroupBarrier();
    let child = tile_base + ranked;
    if (inner && present == 1u && child < params.capacity) {
      let o = child * ITEM_WORDS;
      items[o + ITEM_A] = select(0u, a_word[lid], a_has[lid] == 1u);
      items[o + ITEM_B] = select(0u, b_word[lid], b_has[lid] == 1u);
      items[o + ITEM_PARENT] = item;
      items[o + ITEM_SLOT_RANK] = (tile_start + lid) | ((base + ranked) << 16u);
      items[o + ITEM_COUNT] = 0u;
      items[o + ITEM_OUT] = 0u;
    }
    base += tile_total;
  }
  if (lid == 0u) {
    items[io + ITEM_COUNT] = base;
    atomicAdd(&ctl[CTL_TOTAL], node_words(node_type(base), base));
  }
}
`,
  };
}
