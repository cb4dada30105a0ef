import { defineKernel } from '@scan/core/kit';
import { ADD_PARAMS } from '../items.js';
import { addBindings, fillCommonWgsl } from './add-common-wgsl.js';
import { loadAndScanTileWgsl, tileKernelWgsl } from './pair-tile-wgsl.js';

const fillTile = defineKernel({
  name: 'hisparse/add/fill',
  bindings: addBindings({ fill: true, links: true }),
  params: ADD_PARAMS,
  wgsl: (spec: { nodeSize: number }) =>
    tileKernelWgsl(
      spec.nodeSize,
      `${fillCommonWgsl()}
var<workgroup> out_pointer: u32;`,
      `
  let leaf = (params.flags & FLAG_LEAF) != 0u;
  let n = outs[item].x;
  let t = node_type(n);
  if (lid == 0u) { out_pointer = place_node(item); }
  workgroupBarrier();
  let fits = out_pointer != 0u;
  let off = out_pointer - t;
  let cs = off + coord_start(t);
  let vs = off + value_start(t, n);
  var base = 0u;
  for (var tile = 0u; tile < TILES; tile++) {
    let tile_start = tile * W;
    ${loadAndScanTileWgsl()}
    if (fits && present == 1u) {
      let s = tile_start + lid;
      let k = base + ranked;
      if (t != 0u) {
        let coord = (s / D) | ((s % D) << 8u);
        atomicOr(&pool_c[cs + (k >> 1u)], coord << ((k & 1u) * 16u));
      }
      if (leaf) {
        let v = leaf_value(a_has[lid] == 1u, a_word[lid], b_has[lid] == 1u, b_word[lid]);
        if (t == 0u && v == 0u) { tally_cancelled(); }
        atomicStore(&pool_c[select(vs + k, off + s, t == 0u)], v);
      }
    }
    base += tile_total;
  }`,
    ),
});

/**
 * The fill sweep of one level for the large queue: one workgroup per pair places the output node
 * the counting sweep reserved and links it into its parent (`place_node`; the
 * paper stores "a pointer to the value in the queue entry of the child" — here the child's item
 * names its parent item and its slot and rank there, and the parent's item holds the parent's
 * output pointer), then walks the tiles again: each union entry writes its packed coordinate
 * (atomicOr: two entries share a word) and, in a leaf, its value. Inner value words are left to
 * the children. The pool arrives zeroed, so padding and empty dense slots are already 0.
 * Bindings: every one of `addBindings` (`pool_a`, `pool_b`, `pairs`, `ctl`, `pool_c`, `queues`,
 * `links`, `outs`). Params: `ADD_PARAMS`.
 *
 * @example
 * ```ts
 * b.dispatch(fillKernel(32), { pool_a, pool_b, pairs, ctl, pool_c, queues, links, outs }, largeGroups, params);
 * ```
 */
export function fillKernel(d: number) {
  return fillTile({ nodeSize: d });
}
