import { NODE_TYPE } from '../../../format/layout.js';
import { classOfWgsl } from '../../kernels/size-classes.js';
import { CONTROL, FLAG, ITEM_BINDING, LEVEL_WORDS, NO_PARENT, SMALL_PAIR_ENTRIES, TALLY_COPIES, TALLY_WORDS } from '../items.js';
import { mergeHelpersWgsl } from './merge-helpers-wgsl.js';
import { nodeLayoutWgsl } from './node-layout-wgsl.js';

// WGSL shared by every add kernel, large pairs and small pairs, counting and fill: the bindings,
// the item and control layouts (generated from items.ts, so host and kernels cannot disagree), the
// node layout, the binning of a child pair into the small or the large queue, and — for the fill
// kernels — the atomic allocation of an output node with its link into the parent, and the value
// of a leaf entry.

/**
 * The WGSL struct of the add kernels' uniform block (`addParams` in items.ts writes it).
 *
 * @example
 * ```ts
 * const wgsl = `${ADD_PARAMS_WGSL}\n@group(0) @binding(0) var<uniform> params: Params;`;
 * ```
 */
export const ADD_PARAMS_WGSL =
  'struct Params { level: u32, flags: u32, scale_a: f32, scale_b: f32, capacity: u32, tally: u32, pad0: u32, pad1: u32 }';

/**
 * The uniform block, A's and B's pools (read-only; the same buffer may be bound twice), the three
 * item arrays (pairs, links, outs: items.ts), the control words and the queues (binding 6), the
 * node layout for `d`, and the layout constants.
 *
 * @example
 * ```ts
 * const wgsl = `${addCommonWgsl(32)} @compute @workgroup_size(64) fn main() { ... }`;
 * ```
 */
export function addCommonWgsl(d: number): string {
  return `
${ADD_PARAMS_WGSL}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> pool_a: array<u32>;
@group(0) @binding(2) var<storage, read> pool_b: array<u32>;
// Per item: (A's pointer, B's pointer), (parent item, slot | rank << 16), (union count, output pointer).
@group(0) @binding(${ITEM_BINDING.pairs}) var<storage, read_write> pairs: array<vec2<u32>>;
@group(0) @binding(${ITEM_BINDING.links}) var<storage, read_write> links: array<vec2<u32>>;
@group(0) @binding(${ITEM_BINDING.outs}) var<storage, read_write> outs: array<vec2<u32>>;
@group(0) @binding(4) var<storage, read_write> ctl: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> queues: array<u32>;
${nodeLayoutWgsl(d)}
const NO_PARENT = ${NO_PARENT}u;
const CTL_ITEMS = ${CONTROL.items}u;
const CTL_TOTAL = ${CONTROL.total}u;
const CTL_ROOT = ${CONTROL.root}u;
const CTL_OVERFLOW = ${CONTROL.overflow}u;
const CTL_SMALL_TAIL = ${CONTROL.smallTail}u;
const CTL_LARGE_TAIL = ${CONTROL.largeTail}u;
const CTL_LEVELS = ${CONTROL.levels}u;
const LEVEL_WORDS = ${LEVEL_WORDS}u;
const SMALL = ${SMALL_PAIR_ENTRIES}u;
const FLAG_LEAF = ${FLAG.leaf}u;
const FLAG_SWAP_B = ${FLAG.swapB}u;
const FLAG_A_SCALE_ONE = ${FLAG.aScaleOne}u;
const FLAG_B_SCALE_ONE = ${FLAG.bScaleOne}u;

// Entries of a node for the binning: 0 for none, the count of a sparse node, "many" for a dense one
// (its d² grid is the large kernel's business).
fn entries_a(p: u32) -> u32 {
  if (p == 0u) { return 0u; }
  let t = p & 3u;
  if (t == 0u) { return 0x10000u; }
  return pool_a[p - t];
}
fn entries_b(p: u32) -> u32 {
  if (p == 0u) { return 0u; }
  let t = p & 3u;
  if (t == 0u) { return 0x10000u; }
  return pool_b[p - t];
}
fn is_small_pair(p_a: u32, p_b: u32) -> bool { return entries_a(p_a) + entries_b(p_b) <= SMALL; }

// C's census (items.ts, tallyStart): an output node adds 1 to its type's nodes, n to its entries
// and its words to its words, and a COO4 leaf 1 to its size class. Large pairs add their node
// straight into copy (index mod copies) of this level's tally; small pairs sum theirs in a private
// tally first (\`tally_private\`, flushed once per workgroup), since millions of one-thread pairs
// would otherwise all meet on these words. Also a dense-leaf entry that cancelled to +0 (no entry
// in a dense leaf).
${classOfWgsl()}
const TALLY_WORDS = ${TALLY_WORDS}u;
const NO_CLASS = 0xffffffffu;
fn tally_base(index: u32) -> u32 {
  return params.tally + 1u + (params.level * ${TALLY_COPIES}u + index % ${TALLY_COPIES}u) * TALLY_WORDS;
}
fn size_class_word(t: u32, n: u32) -> u32 {
  if ((params.flags & FLAG_LEAF) != 0u && t == ${NODE_TYPE.coo4}u) { return 12u + class_of(n); }
  return NO_CLASS;
}
fn tally_node(index: u32, n: u32) {
  let t = node_type(n);
  let at = tally_base(index);
  atomicAdd(&ctl[at + t], 1u);
  atomicAdd(&ctl[at + 4u + t], n);
  atomicAdd(&ctl[at + 8u + t], node_words(t, n));
  let k = size_class_word(t, n);
  if (k != NO_CLASS) { atomicAdd(&ctl[at + k], 1u); }
}
fn tally_private(tally: ptr<function, array<u32, TALLY_WORDS>>, n: u32) {
  let t = node_type(n);
  (*tally)[t] += 1u;
  (*tally)[4u + t] += n;
  (*tally)[8u + t] += node_words(t, n);
  let k = size_class_word(t, n);
  if (k != NO_CLASS) { (*tally)[k] += 1u; }
}
fn tally_cancelled() { atomicAdd(&ctl[params.tally], 1u); }

// Reserves the output node of pair \`item\` in C's pool during the counting sweep: its words are
// added to the pool total, and the total before them is the node's offset (after the header, so
// never 0), kept with the union count in the item; the fill sweep only writes there.
fn reserve_node(item: u32, n: u32) {
  let t = node_type(n);
  let off = atomicAdd(&ctl[CTL_TOTAL], node_words(t, n));
  outs[item] = vec2<u32>(n, off | t);
}

// Writes a queued child pair's item (its output node comes later).
fn write_item(child: u32, p_a: u32, p_b: u32, parent: u32, slot: u32, rank: u32) {
  pairs[child] = vec2<u32>(p_a, p_b);
  links[child] = vec2<u32>(parent, slot | (rank << 16u));
}
${mergeHelpersWgsl()}`;
}

/**
 * Fill-kernel WGSL: the output pool binding (5) and `place_node(item)`, which writes the node the
 * counting sweep reserved for the pair (`reserve_node`: the paper's "simple allocator using an
 * atomic counter", §6, run while counting, so the fill needs no atomic of its own): a sparse
 * node's count, and the link into its parent — the dense parent's slot or the sparse parent's
 * value word of the child's rank — or C's root. It returns the pointer, or 0 if the pool is too
 * small (then the overflow flag is set and nothing is written). Also `leaf_value`: the scaled sum
 * of common entries, the scaled copy of one-sided ones.
 *
 * @example
 * ```ts
 * const wgsl = `${addCommonWgsl(d)}${fillCommonWgsl()} ... let pointer = place_node(item);`;
 * ```
 */
export function fillCommonWgsl(): string {
  return `
@group(0) @binding(5) var<storage, read_write> pool_c: array<atomic<u32>>;

fn place_node(item: u32) -> u32 {
  let out = outs[item];
  let n = out.x;
  let pointer = out.y;
  let t = pointer & 3u;
  let off = pointer - t;
  if (off + node_words(t, n) > arrayLength(&pool_c)) {
    atomicStore(&ctl[CTL_OVERFLOW], 1u);
    return 0u;
  }
  if (t != 0u) { atomicStore(&pool_c[off], n); }
  let link = links[item];
  let parent = link.x;
  if (parent == NO_PARENT) {
    atomicStore(&ctl[CTL_ROOT], pointer);
  } else {
    let parent_out = outs[parent];
    let pp = parent_out.y;
    let pt = pp & 3u;
    let at = pp - pt;
    let slot_rank = link.y;
    let pos = select(at + value_start(pt, parent_out.x) + (slot_rank >> 16u), at + (slot_rank & 0xffffu), pt == 0u);
    atomicStore(&pool_c[pos], pointer);
  }
  return pointer;
}

// A leaf value of one side: the bits unchanged for a scale of exactly 1 (−0 and NaN payloads
// kept, as the CPU reference does), else the scaled f32.
fn scaled(w: u32, s: f32, one: bool) -> u32 {
  if (one) { return w; }
  return bitcast<u32>(s * bitcast<f32>(w));
}

// The value of a union entry of a leaf: sA·a + sB·b where both have it, else the one side scaled.
fn leaf_value(has_a: bool, w_a: u32, has_b: bool, w_b: u32) -> u32 {
  if (has_a && has_b) {
    return bitcast<u32>(params.scale_a * bitcast<f32>(w_a) + params.scale_b * bitcast<f32>(w_b));
  }
  if (has_a) { return scaled(w_a, params.scale_a, (params.flags & FLAG_A_SCALE_ONE) != 0u); }
  return scaled(w_b, params.scale_b, (params.flags & FLAG_B_SCALE_ONE) != 0u);
}
`;
}
