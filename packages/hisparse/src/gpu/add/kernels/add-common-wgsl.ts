import { CONTROL, FLAG, ITEM, ITEM_WORDS, LEVEL_WORDS, NO_PARENT, SMALL_PAIR_ENTRIES, TALLY_COPIES, TALLY_WORDS } from '../items.js';
import { mergeHelpersWgsl } from './merge-helpers-wgsl.js';
import { nodeLayoutWgsl } from './node-layout-wgsl.js';

// WGSL shared by every add kernel, large pairs and small pairs, counting and fill: the bindings,
// the item and control layouts (generated from items.ts, so host and kernels cannot disagree), the
// node layout, the binning of a child pair into the small or the large queue, and — for the fill
// kernels — the atomic allocation of an output node with its link into the parent, and the value
// of a leaf entry.

/**
 * The uniform block, A's and B's pools (read-only; the same buffer may be bound twice), the items,
 * the control words and the queues (binding 6), the node layout for `d`, and the layout constants.
 *
 * @example
 * ```ts
 * const wgsl = `${addCommonWgsl(32)} @compute @workgroup_size(64) fn main() { ... }`;
 * ```
 */
export function addCommonWgsl(d: number): string {
  return `
struct Params { level: u32, flags: u32, scale_a: f32, scale_b: f32, capacity: u32, max_dim: u32, tally: u32, pad1: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> pool_a: array<u32>;
@group(0) @binding(2) var<storage, read> pool_b: array<u32>;
@group(0) @binding(3) var<storage, read_write> items: array<u32>;
@group(0) @binding(4) var<storage, read_write> ctl: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> queues: array<u32>;
${nodeLayoutWgsl(d)}
const ITEM_WORDS = ${ITEM_WORDS}u;
const ITEM_A = ${ITEM.a}u;
const ITEM_B = ${ITEM.b}u;
const ITEM_PARENT = ${ITEM.parent}u;
const ITEM_SLOT_RANK = ${ITEM.slotRank}u;
const ITEM_COUNT = ${ITEM.count}u;
const ITEM_OUT = ${ITEM.out}u;
const NO_PARENT = ${NO_PARENT}u;
const CTL_ITEMS = ${CONTROL.items}u;
const CTL_TOTAL = ${CONTROL.total}u;
const CTL_ALLOC = ${CONTROL.alloc}u;
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

// C's census (items.ts, tallyStart): the output node of a pair, counted in copy (index mod copies)
// of this level's tally; and a dense-leaf entry that cancelled to +0 (no entry in a dense leaf).
fn tally_node(index: u32, n: u32) {
  let t = node_type(n);
  let at = params.tally + 1u + (params.level * ${TALLY_COPIES}u + index % ${TALLY_COPIES}u) * ${TALLY_WORDS}u;
  atomicAdd(&ctl[at + t], 1u);
  atomicAdd(&ctl[at + 4u + t], n);
  atomicAdd(&ctl[at + 8u + t], node_words(t, n));
}
fn tally_cancelled() { atomicAdd(&ctl[params.tally], 1u); }

// Writes a queued child pair's item (its output node comes later).
fn write_item(child: u32, p_a: u32, p_b: u32, parent: u32, slot: u32, rank: u32) {
  let o = child * ITEM_WORDS;
  items[o + ITEM_A] = p_a;
  items[o + ITEM_B] = p_b;
  items[o + ITEM_PARENT] = parent;
  items[o + ITEM_SLOT_RANK] = slot | (rank << 16u);
  items[o + ITEM_COUNT] = 0u;
  items[o + ITEM_OUT] = 0u;
}
${mergeHelpersWgsl()}`;
}

/**
 * Fill-kernel WGSL: the output pool binding (5) and `allocate_node(item, n)`, which takes the
 * node's words from the pool's atomic counter (§6; sizes are multiples of 4 words, so nodes stay
 * 16-byte aligned), records the pointer in the item, writes a sparse node's count, and links the
 * node into its parent — the dense parent's slot or the sparse parent's value word of the child's
 * rank — or publishes it as C's root; it returns the pointer, or 0 if the pool is too small (then
 * the overflow flag is set and nothing is written). Also `leaf_value`: the scaled sum of common
 * entries, the scaled copy of one-sided ones.
 *
 * @example
 * ```ts
 * const wgsl = `${addCommonWgsl(d)}${fillCommonWgsl()} ... let pointer = allocate_node(item, n);`;
 * ```
 */
export function fillCommonWgsl(): string {
  return `
@group(0) @binding(5) var<storage, read_write> pool_c: array<atomic<u32>>;

fn allocate_node(item: u32, n: u32) -> u32 {
  let io = item * ITEM_WORDS;
  let t = node_type(n);
  let size = node_words(t, n);
  let off = atomicAdd(&ctl[CTL_ALLOC], size);
  let pointer = off | t;
  items[io + ITEM_OUT] = pointer;
  if (off + size > arrayLength(&pool_c)) {
    atomicStore(&ctl[CTL_OVERFLOW], 1u);
    return 0u;
  }
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
