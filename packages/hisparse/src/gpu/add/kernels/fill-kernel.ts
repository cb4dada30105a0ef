import type { KernelSpec } from '@scan/core/kit';
import { loadAndScanTileWgsl, pairDeclarationsWgsl, pairPrologueWgsl, pairTileWidth } from './pair-tile-wgsl.js';

/**
 * The fill sweep of one level: one workgroup per pair allocates its output node from the pool with
 * an atomic counter (§6: "a simple allocator using an atomic counter"; sizes are multiples of 4
 * words, so every node stays 16-byte aligned), links it into its parent — the paper stores "a
 * pointer to the value in the queue entry of the child"; here the child's item names its parent
 * item and its slot and rank there, and the parent's item holds the parent's output pointer — or
 * publishes it as C's root, writes the entry count of a sparse node, then walks the tiles again:
 * each union entry writes its packed coordinate (atomicOr: two entries share a word) and, in a
 * leaf, its value — the scaled sum where both have the entry, the scaled copy where one has it.
 * Inner value words are left to the children. The pool arrives zeroed, so padding and empty dense
 * slots are already 0. Bindings: 0 params, 1 pool A, 2 pool B, 3 items, 4 control words, 5 pool C.
 *
 * @example
 * ```ts
 * b.dispatch(fillKernel(32), [params, poolA, poolB, items, ctl, poolC], pairsOfLevel);
 * ```
 */
export function fillKernel(d: number): KernelSpec {
  return {
    key: `hisparse/add/fill/d${d}`,
    wgsl: () => `${pairDeclarationsWgsl(d)}
@group(0) @binding(5) var<storage, read_write> pool_c: array<atomic<u32>>;
var<workgroup> out_pointer: u32;

// A leaf value of one side: the bits unchanged for a scale of exactly 1 (−0 and NaN payloads
// kept, as the CPU reference does), else the scaled f32.
fn scaled(w: u32, s: f32, one: bool) -> u32 {
  if (one) { return w; }
  return bitcast<u32>(s * bitcast<f32>(w));
}

@compute @workgroup_size(${pairTileWidth(d)})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${pairPrologueWgsl()}
  let leaf = (params.flags & FLAG_LEAF) != 0u;
  let n = items[io + ITEM_COUNT];
  let t = node_type(n);
  if (lid == 0u) {
    let size = node_words(t, n);
    let off = atomicAdd(&ctl[CTL_ALLOC], size);
    let pointer = off | t;
    out_pointer = pointer;
    items[io + ITEM_OUT] = pointer;
    if (off + size <= arrayLength(&pool_c)) {
      if (t != 0u) { atomicStore(&pool_c[off], n); }
      let parent = items[io + ITEM_PARENT];
      if (parent == NO_PARENT) {
        atomicStore(&ctl[CTL_ROOT], pointer);
      } else {
        let po = parent * ITEM_WORDS;
        let pp = items[po + ITEM_OUT];
        let pt = pp & 3u;
        let at = pp - pt;
        let slot_rank = items[io + ITEM_SLOT_RANK];
        let pos = select(at + value_start(pt, items[po + ITEM_COUNT]) + (slot_rank >> 16u), at + (slot_rank & 0xffffu), pt == 0u);
        atomicStore(&pool_c[pos], pointer);
      }
    } else {
      atomicStore(&ctl[CTL_OVERFLOW], 1u);
    }
  }
  workgroupBarrier();
  let off = out_pointer - t;
  let fits = off + node_words(t, n) <= arrayLength(&pool_c);
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
        let has_a = a_has[lid] == 1u;
        let has_b = b_has[lid] == 1u;
        let one_a = (params.flags & FLAG_A_SCALE_ONE) != 0u;
        let one_b = (params.flags & FLAG_B_SCALE_ONE) != 0u;
        var v = 0u;
        if (has_a && has_b) {
          v = bitcast<u32>(params.scale_a * bitcast<f32>(a_word[lid]) + params.scale_b * bitcast<f32>(b_word[lid]));
        } else if (has_a) {
          v = scaled(a_word[lid], params.scale_a, one_a);
        } else {
          v = scaled(b_word[lid], params.scale_b, one_b);
        }
        atomicStore(&pool_c[select(vs + k, off + s, t == 0u)], v);
      }
    }
    base += tile_total;
  }
}
`,
  };
}
