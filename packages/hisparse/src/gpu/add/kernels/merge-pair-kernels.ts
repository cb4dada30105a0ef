import { defineKernel } from '@scan/core/kit';
import { ADD_PARAMS, MERGE_PAIR_GROUP } from '../items.js';
import { addBindings, addCommonWgsl, fillCommonWgsl } from './add-common-wgsl.js';
import { LARGE_PAIR_BUILTINS, largePairLoopWgsl } from './pair-tile-wgsl.js';

// The leaf pairs of two sparse nodes in the same orientation, merged by rank instead of over the
// slot grid (§6 treats sparse+sparse as a merge of two sorted lists; the grid of `pair-tile-wgsl.ts`
// is a bucket sort that needs no comparison, but walks all d² slots in tiles with a workgroup scan
// each — at d = 32 sixty barriers per pair for a hundred entries). Both COOX lists are sorted
// row-major already, so every entry finds its place by one binary search in the other list:
//
// - **common**: A's entry k is common when B holds its slot (a binary search in B); the flags of
//   A's entries go into a bit mask in workgroup memory. The union count is |A| + |B| − common.
// - **rank**: the union entries before a slot are A's entries before it, plus B's, minus the
//   common ones counted twice — k + j − c(k) for A's entry k (j its place in B, c(k) the common
//   flags among A's first k, from the mask's popcounts), j + i − c(i) for B's entry j that A lacks
//   (i its place in A).
//
// Pairs whose lists fit the mask (fewer than MERGE_MAX_ENTRIES on A's side) and are read in the same
// orientation take this path at the leaf level (`merge_eligible`); the tile kernels skip them.
// Inner levels, dense nodes and a transposed B keep the tile scheme.

/**
 * The body shared by both phases (one pair of the loop): the pair, its lists, and the common flags
 * of A's entries. The mask and the common count start the pair at zero.
 */
function commonFlagsWgsl(): string {
  return `
  for (var w = lid; w < MASK_WORDS; w += MW) { atomicStore(&common_mask[w], 0u); }
  if (lid == 0u) {
    pair = pairs[item];
    eligible = select(0u, 1u, merge_eligible(pair.x, pair.y));
    atomicStore(&common_total, 0u);
  }
  if (workgroupUniformLoad(&eligible) == 0u) { continue; }
  let p = pair;
  let a = sparse_list_a(p.x);
  let b = sparse_list_b(p.y);
  // Common: which of A's entries B holds too.
  for (var k = lid; k < a.n; k += MW) {
    let key = key_a(a.cs, k);
    let j = lower_b(b, key);
    if (j < b.n && key_b(b.cs, j) == key) { atomicOr(&common_mask[k >> 5u], 1u << (k & 31u)); }
  }
  workgroupBarrier();`;
}

const mergePair = defineKernel({
  name: 'hisparse/add/merge-pair',
  // The counting phase queues no children: no `links` (and no `write_item`, which writes them).
  bindings: (spec: { nodeSize: number; phase: 'count' | 'fill' }) =>
    addBindings({ fill: spec.phase === 'fill', links: spec.phase === 'fill' }),
  params: ADD_PARAMS,
  wgsl: (spec) => mergePairWgsl(spec.nodeSize, spec.phase),
});

/**
 * The merge-path kernel of one phase for the large queue's leaf pairs (see the file comment):
 * `'count'` reserves the output node for the union count (`reserve_node`); `'fill'` places the
 * node (`place_node`) and writes every union entry at its rank.
 * Bindings and params as `unionCountKernel` / `fillKernel`, except that `'count'` writes no
 * children and so binds no `links`; dispatched with the large queue's grid.
 *
 * @example
 * ```ts
 * b.dispatch(mergePairKernel(32, 'count'), { pool_a, pool_b, pairs, ctl, queues, outs }, largeGroups, params);
 * ```
 */
export function mergePairKernel(d: number, phase: 'count' | 'fill') {
  return mergePair({ nodeSize: d, phase });
}

function mergePairWgsl(d: number, phase: 'count' | 'fill'): string {
  const fill = phase === 'fill';
  return `${addCommonWgsl(d, fill)}
${fill ? `${fillCommonWgsl()}${mergeFillHelpersWgsl()}` : ''}
const MW = ${MERGE_PAIR_GROUP}u;
var<workgroup> level_range: vec2<u32>;
var<workgroup> pair: vec2<u32>;
var<workgroup> eligible: u32;
var<workgroup> common_mask: array<atomic<u32>, MASK_WORDS>;
var<workgroup> common_before: array<u32, MASK_WORDS>;
var<workgroup> common_total: atomic<u32>;
var<workgroup> out_pointer: u32;

@compute @workgroup_size(${MERGE_PAIR_GROUP})
fn main(${LARGE_PAIR_BUILTINS}) {
  ${largePairLoopWgsl(`${commonFlagsWgsl()}${fill ? fillBodyWgsl() : countBodyWgsl()}`)}
}
`;
}

function countBodyWgsl(): string {
  return `
  var mine = 0u;
  for (var w = lid; w < MASK_WORDS; w += MW) { mine += countOneBits(atomicLoad(&common_mask[w])); }
  atomicAdd(&common_total, mine);
  workgroupBarrier();
  if (lid == 0u) {
    let n = a.n + b.n - atomicLoad(&common_total);
    reserve_node(item, n);
    tally_node(wg_index, n);
  }`;
}

function fillBodyWgsl(): string {
  return `
  let n = outs[item].x;
  if (lid == 0u) {
    // Common flags before each mask word: c(k) = common_before[k / 32] + the popcount below k.
    var run = 0u;
    for (var w = 0u; w <= a.n >> 5u; w++) {
      common_before[w] = run;
      run += countOneBits(atomicLoad(&common_mask[w]));
    }
    out_pointer = place_node(item);
  }
  let pointer = workgroupUniformLoad(&out_pointer);
  if (pointer == 0u) { continue; }
  let t = pointer & 3u;
  let off = pointer - t;
  let cs = off + coord_start(t);
  let vs = off + value_start(t, n);
  // A's entries, each at rank k + j − c(k); common ones carry the sum.
  for (var k = lid; k < a.n; k += MW) {
    let key = key_a(a.cs, k);
    let j = lower_b(b, key);
    let both = j < b.n && key_b(b.cs, j) == key;
    let w_b = select(0u, pool_b[b.vs + min(j, max(b.n, 1u) - 1u)], both);
    let v = leaf_value(true, pool_a[a.vs + k], both, w_b);
    write_entry(off, cs, vs, t, k + j - common_before_rank(k), key, v);
  }
  // B's entries that A lacks, each at rank j + i − c(i).
  for (var j = lid; j < b.n; j += MW) {
    let key = key_b(b.cs, j);
    let i = lower_a(a, key);
    if (i < a.n && key_a(a.cs, i) == key) { continue; }
    write_entry(off, cs, vs, t, j + i - common_before_rank(i), key, leaf_value(false, 0u, true, pool_b[b.vs + j]));
  }`;
}

/**
 * Fill-kernel helpers of the merge path: the common flags among A's first i entries, and the write
 * of one union entry at rank `k` (its packed coordinate, two to a word, and its value; a dense
 * output node takes the value at its slot).
 */
function mergeFillHelpersWgsl(): string {
  return `
fn common_before_rank(i: u32) -> u32 {
  let below = (1u << (i & 31u)) - 1u;
  return common_before[i >> 5u] + countOneBits(atomicLoad(&common_mask[i >> 5u]) & below);
}
fn write_entry(off: u32, cs: u32, vs: u32, t: u32, k: u32, key: u32, v: u32) {
  let r = key >> 8u;
  let c = key & 0xffu;
  if (t != 0u) { atomicOr(&pool_c[cs + (k >> 1u)], (r | (c << 8u)) << ((k & 1u) * 16u)); }
  if (t == 0u && v == 0u) { tally_cancelled(); }
  atomicStore(&pool_c[select(vs + k, off + r * D + c, t == 0u)], v);
}`;
}
