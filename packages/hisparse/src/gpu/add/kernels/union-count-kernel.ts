import type { KernelSpec } from '@scan/core/kit';
import { enqueueTileWgsl, loadAndScanTileWgsl, tileKernelWgsl } from './pair-tile-wgsl.js';

/**
 * The counting sweep of one level for the large queue (§6: "it is necessary to first compute the
 * size of the output node in order to allocate the corresponding amount of memory"): one workgroup
 * per queued pair counts the union of the two slot lists over the slot grid and reserves the
 * output node (`reserve_node`: its words, type by `chooseNodeType` from the union count, taken
 * from the pool total, the offset kept in the pair's item); above the leaves, every union slot
 * becomes a pair of the next level — traversed together when both sides have a child, copied (a pair with one null side) when one has — binned
 * into the small or the large queue. The slot and rank stored with each child tell the fill sweep
 * where its pointer goes. Bindings: 0 params, 1 pool A, 2 pool B, 3 pairs, 4 control words,
 * 6 queues, 7 links, 8 outs.
 *
 * @example
 * ```ts
 * b.dispatch(unionCountKernel(32), [params, poolA, poolB, pairs, ctl, undefined, queues, links, outs], largeGroups);
 * ```
 */
export function unionCountKernel(d: number): KernelSpec {
  return {
    key: `hisparse/add/union-count/d${d}`,
    wgsl: () =>
      tileKernelWgsl(
        d,
        '',
        `
  let inner = (params.flags & FLAG_LEAF) == 0u;
  var base = 0u; // union entries in the tiles before this one
  for (var tile = 0u; tile < TILES; tile++) {
    let tile_start = tile * W;
    ${loadAndScanTileWgsl()}
    if (inner) {
      ${enqueueTileWgsl()}
    }
    base += tile_total;
  }
  if (lid == 0u) {
    reserve_node(item, base);
    tally_node(wg_index, base);
  }`,
      ),
  };
}
