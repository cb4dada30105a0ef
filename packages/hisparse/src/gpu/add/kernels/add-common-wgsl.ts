import { type BindingDecl, read, readWrite } from '@scan/core/kit';
import { NODE_TYPE } from '../../../format/layout.js';
import { classOfWgsl } from '../../kernels/size-classes.js';
import { CONTROL, FLAG, LEVEL_WORDS, NO_PARENT, OVERFLOW, SMALL_PAIR_ENTRIES, TALLY_COPIES, TALLY_WORDS } from '../items.js';
import { mergeHelpersWgsl } from './merge-helpers-wgsl.js';
import { nodeLayoutWgsl } from './node-layout-wgsl.js';

// WGSL shared by every add kernel, large pairs and small pairs, counting and fill: the bindings
// (each kernel's definition declares them from `addBindings`), the item and control layouts
// (generated from items.ts, so host and kernels cannot disagree), the node layout, the binning of
// a child pair into the small or the large queue, and — for the fill kernels — the atomic
// allocation of an output node with its link into the parent, and the value of a leaf entry.

/**
 * The bindings of an add kernel: A's and B's pools `pool_a`, `pool_b` (read-only; the same buffer
 * may be bound twice), the three item arrays `pairs`, `links`, `outs` (items.ts; per item: A's
 * pointer and B's, the parent item and slot | rank << 16, the union count and the output pointer),
 * the control words `ctl`, C's pool `pool_c` (fill kernels only) and the queues `queues`. A kernel
 * that queues no children and places no node (the merge path's counting phase) has no `links`
 * (an auto layout holds only the bindings a kernel uses).
 *
 * @example
 * ```ts
 * const bindings = addBindings({ fill: true, links: true });
 * ```
 */
export function addBindings(spec: { readonly fill: boolean; readonly links: boolean }): {
  readonly pool_a: BindingDecl;
  readonly pool_b: BindingDecl;
  readonly pairs: BindingDecl;
  readonly ctl: BindingDecl;
  readonly pool_c: BindingDecl | undefined;
  readonly queues: BindingDecl;
  readonly links: BindingDecl | undefined;
  readonly outs: BindingDecl;
} {
  return {
    pool_a: read('array<u32>'),
    pool_b: read('array<u32>'),
    pairs: readWrite('array<vec2<u32>>'),
    ctl: readWrite('array<atomic<u32>>'),
    pool_c: spec.fill ? readWrite('array<atomic<u32>>') : undefined,
    queues: readWrite('array<u32>'),
    links: spec.links ? readWrite('array<vec2<u32>>') : undefined,
    outs: readWrite('array<vec2<u32>>'),
  };
}

/**
 * The WGSL every add kernel shares, over the bindings of {@link addBindings} and the parameters of
 * `ADD_PARAMS` (items.ts): the node layout for `d`, the layout constants, the binning, the census
 * tally, `reserve_node` and (with `links`, for kernels that queue children) `write_item`.
 *
 * @example
 * ```ts
 * const wgsl = `${addCommonWgsl(32)} @compute @workgroup_size(64) fn main() { ... }`;
 * ```
 */
export function addCommonWgsl(d: number, links = true): string {
  return `
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

${
  links
    ? `
// Writes a queued child pair's item (its output node comes later).
fn write_item(child: u32, p_a: u32, p_b: u32, parent: u32, slot: u32, rank: u32) {
  pairs[child] = vec2<u32>(p_a, p_b);
  links[child] = vec2<u32>(parent, slot | (rank << 16u));
}`
    : ''
}
${mergeHelpersWgsl()}`;
}

/**
 * Fill-kernel WGSL, over the output pool `pool_c` (see {@link addBindings}): `place_node(item)`,
 * which writes the node the counting sweep reserved for the pair (`reserve_node`: the paper's
 * "simple allocator using an atomic counter", §6, run while counting, so the fill needs no atomic
 * of its own): a sparse node's count, and the link into its parent — the dense parent's slot or
 * the sparse parent's value word of the child's rank — or C's root. It returns the pointer, or 0
 * if the pool is too small (then the overflow word gets {@link OVERFLOW}'s `words` bit and nothing is written). Also
 * `leaf_value`: the scaled sum of common entries, the scaled copy of one-sided ones.
 *
 * @example
 * ```ts
 * const wgsl = `${addCommonWgsl(d)}${fillCommonWgsl()} ... let pointer = place_node(item);`;
 * ```
 */
export function fillCommonWgsl(): string {
  return `
const OVERFLOW_WORDS = ${OVERFLOW.words}u;
fn place_node(item: u32) -> u32 {
  let out = outs[item];
  let n = out.x;
  let pointer = out.y;
  let t = pointer & 3u;
  let off = pointer - t;
  if (off + node_words(t, n) > arrayLength(&pool_c)) {
    atomicOr(&ctl[CTL_OVERFLOW], OVERFLOW_WORDS);
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
    // A parent past the pool was not placed (the flag is set): its slot is no word of C's.
    if (at + node_words(pt, parent_out.x) > arrayLength(&pool_c)) {
      atomicOr(&ctl[CTL_OVERFLOW], OVERFLOW_WORDS);
      return 0u;
    }
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
