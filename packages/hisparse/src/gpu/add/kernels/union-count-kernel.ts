import { defineKernel } from '@scan/core/kit';
import { ADD_PARAMS } from '../items.js';
import { addBindings } from './add-common-wgsl.js';
import { enqueueTileWgsl, loadAndScanTileWgsl, tileKernelWgsl } from './pair-tile-wgsl.js';

const unionCount = defineKernel({
  name: 'hisparse/add/union-count',
  bindings: addBindings({ fill: false, links: true }),
  params: ADD_PARAMS,
  wgsl: (spec: { nodeSize: number }) =>
    tileKernelWgsl(
      spec.nodeSize,
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
});

/**
 * The counting sweep of one level for the large queue (§6: "it is necessary to first compute the
 * size of the output node in order to allocate the corresponding amount of memory"): one workgroup
 * per queued pair counts the union of the two slot lists over the slot grid and reserves the
 * output node (`reserve_node`: its words, type by `chooseNodeType` from the union count, taken
 * from the pool total, the offset kept in the pair's item); above the leaves, every union slot
 * becomes a pair of the next level — traversed together when both sides have a child, copied (a pair with one null side) when one has — binned
 * into the small or the large queue. The slot and rank stored with each child tell the fill sweep
 * where its pointer goes. Bindings: those of `addBindings` but `pool_c` (`pool_a`, `pool_b`,
 * `pairs`, `ctl`, `queues`, `links`, `outs`). Params: `ADD_PARAMS`.
 *
 * @example
 * ```ts
 * b.dispatch(unionCountKernel(32), { pool_a, pool_b, pairs, ctl, queues, links, outs }, largeGroups, params);
 * ```
 */
export function unionCountKernel(d: number) {
  return unionCount({ nodeSize: d });
}
