import { defineKernel, read, readWrite } from '@scan/core/kit';
import { COMMON_WGSL, ENTRY_ARGS, WG } from './common.js';
import { HASH_WGSL } from './fill.js';

/**
 * Reading bit-packed head flags (bit i%32 of word ⌊i/32⌋), written here rather than taken from
 * `@scan/segmented` so the checks share no code with the plans. Needs a binding `bits: array<u32>`
 * and the parameter `n` (elements). `is_head(i)`: element i starts a segment (element 0 always
 * does); `is_last(i)`: element i ends one (the next element is a head, or i is the last element).
 */
export const HEAD_FNS_WGSL = `
fn is_head(i: u32) -> bool { return i == 0u || ((bits[i >> 5u] >> (i & 31u)) & 1u) != 0u; }
fn is_last(i: u32) -> bool { return i == params.n - 1u || is_head(i + 1u); }
fn head_words() -> u32 { return (params.n >> 5u) + select(0u, 1u, (params.n & 31u) != 0u); }
// Word w of the head bits with the bits past the last element cleared.
fn word_in_range(w: u32) -> u32 {
  let rest = params.n - (w << 5u);
  return select(bits[w], bits[w] & ((1u << rest) - 1u), rest < 32u);
}
`;

/**
 * The head-flag generator: one invocation per word of ⌈n/32⌉; element i is a head when its hash
 * (of i and `seed`) is at most `threshold` (= 2^32 / mean − 1, so the segment lengths are geometric
 * with that mean), element 0 always; bits past `n` are 0 (the layout `packHeadFlags` produces).
 *
 * @example
 * ```ts
 * const params = pool.params(headBitsKernel, { n, seed, threshold: headThreshold(16) });
 * encodeKernel(ctx, encoder, headBitsKernel, { bits, params }, { invocations: words });
 * ```
 */
export const headBitsKernel = defineKernel({
  name: 'bench/head-bits',
  bindings: { bits: readWrite('array<u32>') },
  params: { n: 'u32', seed: 'u32', threshold: 'u32' },
  wgsl: () => `${COMMON_WGSL}${HASH_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let w = global_index(wid, nwg, lid);
  if (w >= (params.n >> 5u) + select(0u, 1u, (params.n & 31u) != 0u)) { return; }
  var x = 0u;
  for (var b = 0u; b < 32u; b++) {
    let i = (w << 5u) + b;
    if (i < params.n && (i == 0u || rand(i, params.seed) <= params.threshold)) { x |= 1u << b; }
  }
  bits[w] = x;
}
`,
})({});

/**
 * Counts the heads (= segments) of `n` elements: each invocation pop-counts one word, a workgroup
 * atomic sums the workgroup's words, and one global `atomicAdd` per workgroup adds them into
 * `total[0]` (cleared first) — one global atomic per 8192 elements instead of one per word.
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, headCountKernel, { bits, total, params: pool.params(headCountKernel, { n }) }, { invocations: words });
 * ```
 */
export const headCountKernel = defineKernel({
  name: 'bench/head-count',
  bindings: { bits: read('array<u32>'), total: readWrite('array<atomic<u32>>') },
  params: { n: 'u32' },
  wgsl: () => `${COMMON_WGSL}
${HEAD_FNS_WGSL}
var<workgroup> wg_count: atomic<u32>;
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let w = global_index(wid, nwg, lid);
  // Workgroup memory starts zeroed; no early return, so every invocation reaches the barrier.
  if (w < head_words()) {
    let c = countOneBits(word_in_range(w));
    if (c != 0u) { atomicAdd(&wg_count, c); }
  }
  workgroupBarrier();
  if (lid.x == 0u) {
    let t = atomicLoad(&wg_count);
    if (t != 0u) { atomicAdd(&total[0], t); }
  }
}
`,
})({});

/**
 * Heads per word of head bits (`counts[w]`, bits past `n` excluded): the input of the bench's own
 * prefix sum that gives each segment end its segment index.
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, headWordCountsKernel, { bits, counts, params: pool.params(headWordCountsKernel, { n }) }, { invocations: words });
 * ```
 */
export const headWordCountsKernel = defineKernel({
  name: 'bench/head-word-counts',
  bindings: { bits: read('array<u32>'), counts: readWrite('array<u32>') },
  params: { n: 'u32' },
  wgsl: () => `${COMMON_WGSL}
${HEAD_FNS_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let w = global_index(wid, nwg, lid);
  if (w < head_words()) { counts[w] = countOneBits(word_in_range(w)); }
}
`,
})({});

/**
 * The `threshold` of {@link headBitsKernel} for a mean segment length: a hash ≤ 2^32/mean − 1
 * has probability 1/mean (inclusive, so that mean 1 makes every element a head).
 *
 * @example
 * ```ts
 * headThreshold(16); // 268435455
 * headThreshold(1); // 4294967295
 * ```
 */
export function headThreshold(mean: number): number {
  return Math.max(0, Math.min(2 ** 32, Math.round(2 ** 32 / mean)) - 1);
}
