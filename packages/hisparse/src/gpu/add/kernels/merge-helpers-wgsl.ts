import { MERGE_MAX_ENTRIES } from '../items.js';

/**
 * One operand's list helpers (`sparse_list_x`, `key_x`, `lower_x` for x = a or b): WGSL cannot
 * pass a storage array to a function, so each pool binding gets its own copy from this template.
 */
function sideHelpersWgsl(side: 'a' | 'b'): string {
  return `
fn sparse_list_${side}(p: u32) -> SparseList {
  if (p == 0u) { return SparseList(0u, 0u, 0u); }
  let t = p & 3u;
  let off = p - t;
  let n = pool_${side}[off];
  return SparseList(n, off + coord_start(t), off + value_start(t, n));
}
// Entry m's slot as a row-major sort key: the stored half word is row | col << 8.
fn key_${side}(cs: u32, m: u32) -> u32 {
  let h = (pool_${side}[cs + (m >> 1u)] >> ((m & 1u) * 16u)) & 0xffffu;
  return ((h & 0xffu) << 8u) | (h >> 8u);
}
// The number of entries of the list with a key below \`key\`.
fn lower_${side}(l: SparseList, key: u32) -> u32 {
  var lo = 0u;
  var hi = l.n;
  while (lo < hi) {
    let mid = (lo + hi) >> 1u;
    if (key_${side}(l.cs, mid) < key) { lo = mid + 1u; } else { hi = mid; }
  }
  return lo;
}
`;
}

/**
 * The WGSL helpers of the merge path (`merge-pair-kernels.ts`), part of `addCommonWgsl` (the
 * tile kernels' skip needs `merge_eligible` too): sorted keys `(row << 8) | col` of a COOX list,
 * lower bounds by binary search, and the eligibility test.
 *
 * @example
 * ```ts
 * const wgsl = `${mergeHelpersWgsl()} ... if (merge_eligible(p_a, p_b)) { ... }`;
 * ```
 */
export function mergeHelpersWgsl(): string {
  const maxEntries = MERGE_MAX_ENTRIES;
  return `
const MASK_WORDS = ${maxEntries / 32}u;
// A COOX node's entry list: count, first coordinate word, first value word (n = 0 for a null pointer).
struct SparseList { n: u32, cs: u32, vs: u32 }
${(['a', 'b'] as const).map(sideHelpersWgsl).join('')}
// A leaf pair the merge path takes: no dense node, B in A's orientation, A's list within the mask.
fn merge_eligible(p_a: u32, p_b: u32) -> bool {
  let leaf = (params.flags & FLAG_LEAF) != 0u;
  let swap = (params.flags & FLAG_SWAP_B) != 0u;
  let dense = (p_a != 0u && (p_a & 3u) == 0u) || (p_b != 0u && (p_b & 3u) == 0u);
  return leaf && !swap && !dense && sparse_list_a(p_a).n < ${maxEntries}u;
}
`;
}
