import type { ElementType } from '@scan/core';
import { defineKernel, read, readWrite } from '@scan/core/kit';
import { COMMON_WGSL, ENTRY_ARGS, ERROR_BINDING, ERROR_WGSL, WG } from './common.js';
import { HASH_WGSL } from './fill.js';
import { HEAD_FNS_WGSL } from './head-bits.js';

// The checks of the sort cases, written here rather than taken from `@scan/sort`, so that a bug in
// the library's key order cannot hide in its own verification.

/** The `first` index a check reports when the checksums of the keys before and after differ. */
export const CHECKSUM_MISMATCH = 0xfffffffd;

/** Words of a checksum: Σk, Σh1, ⊕h2, Σh2 (see {@link sortChecksumKernel}). */
export const CHECKSUM_WORDS = 4;

/**
 * WGSL of `fn rank(k: u32) -> u32`: a u32 whose unsigned order is the documented key order of
 * `type` — u32 plain; i32 signed (sign bit flipped); f32 the total order −∞ < … < −0 < +0 < … < +∞ <
 * NaN with every NaN equal (found by its bits) — reversed (bitwise not) when `descending`.
 *
 * @example
 * ```ts
 * rankWgsl('i32', false); // 'fn rank(k: u32) -> u32 { return (k ^ 0x80000000u); }'
 * ```
 */
export function rankWgsl(type: ElementType, descending: boolean): string {
  const flip = descending ? ' ^ 0xffffffffu' : '';
  if (type === 'u32') return `fn rank(k: u32) -> u32 { return k${flip}; }`;
  if (type === 'i32') return `fn rank(k: u32) -> u32 { return (k ^ 0x80000000u)${flip}; }`;
  return `fn rank(k: u32) -> u32 {
  var r = k | 0x80000000u;
  if ((k & 0x80000000u) != 0u) { r = ~k; }
  if ((k & 0x7fffffffu) > 0x7f800000u) { r = 0xffffffffu; }
  return r${flip};
}`;
}

/**
 * What an order check reads besides the keys: the specialization of {@link checkSortOrderKernel}
 * with the key type and direction.
 */
export type SortCheckLayout = {
  /** Values that were the original indices, and the unsorted keys (sort-pairs). */
  readonly pairs: boolean;
  /** Bit-packed head flags: order is checked within segments only (segmented-sort). */
  readonly segmented: boolean;
};

/**
 * The order check, one invocation per element i of the sorted keys: `rank(key[i−1]) ≤
 * rank(key[i])` for every i ≥ 1 (within segments only: not where i starts a segment). With pairs
 * (values that were the original indices `0..n−1`, unsorted keys in `original`): `value[i] < n`
 * and `key[i] == original[value[i]]` bit for bit, and equal ranks need `value[i−1] < value[i]`
 * (stability). Together these prove the output is the stable sort exactly: a value repeated at
 * p < q would give equal keys at p and q, hence equal ranks from p to q, hence strictly increasing
 * values from p to q — so the n values are distinct, a permutation. Mismatches are counted at i.
 * Bindings: `keys`, with pairs `vals` and `original`, when segmented `bits` (head bits), `err`;
 * parameter `n` elements.
 *
 * @example
 * ```ts
 * const kernel = checkSortOrderKernel({ type: 'u32', descending: false, pairs: true, segmented: false });
 * encodeKernel(ctx, encoder, kernel, { keys, vals: values, original, err: errors, params: pool.params(kernel, { n }) }, { invocations: n });
 * ```
 */
export const checkSortOrderKernel = defineKernel({
  name: 'bench/check-sort',
  bindings: (spec: { type: ElementType; descending: boolean } & SortCheckLayout) => ({
    keys: read('array<u32>'),
    vals: spec.pairs ? read('array<u32>') : undefined,
    original: spec.pairs ? read('array<u32>') : undefined,
    bits: spec.segmented ? read('array<u32>') : undefined,
    ...ERROR_BINDING,
  }),
  params: { n: 'u32' },
  wgsl: (spec) => `${COMMON_WGSL}${ERROR_WGSL}
${spec.segmented ? HEAD_FNS_WGSL : ''}
${rankWgsl(spec.type, spec.descending)}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i >= params.n) { return; }
  let k = keys[i];${
    spec.pairs
      ? `
  let v = vals[i];
  if (v >= params.n) { mismatch(i); return; }
  if (original[v] != k) { mismatch(i); return; }`
      : ''
  }
  if (i == 0u) { return; }${spec.segmented ? '\n  if (is_head(i)) { return; }' : ''}
  let a = rank(keys[i - 1u]);
  let b = rank(k);
  if (a > b) { mismatch(i); return; }${spec.pairs ? '\n  if (a == b && vals[i - 1u] >= v) { mismatch(i); }' : ''}
}
`,
});

/**
 * The multiset checksum of `n` keys, accumulated into `sums[0..4]` (cleared first): Σk,
 * Σh1(k), ⊕h2(k), Σh2(k) (wrapping), where h1 and h2 are different hashes salted by the element's
 * segment (segmented) or by a constant. The sums do not depend on the order of the keys within a
 * segment; for a fixed salt, h1 and h2 are bijections of k (the PCG steps are invertible), so one
 * changed key always changes Σh1, and keys lost, duplicated or moved to another segment change the
 * sums but with probability about 2^-96. Each workgroup sums in workgroup atomics and adds its
 * totals with one global atomic each. The segment of element i is (heads in [0, i]) − 1, from the
 * inclusive prefix sum of heads per word of head bits (the bench's own) and one popcount.
 * Bindings: `keys`, `sums`, when segmented `bits` and `heads_through_word`; parameters `n`
 * elements, `salt`.
 *
 * @example
 * ```ts
 * const kernel = sortChecksumKernel({ segmented: false });
 * encodeKernel(ctx, encoder, kernel, { keys, sums, params: pool.params(kernel, { n, salt }) }, { invocations: n });
 * ```
 */
export const sortChecksumKernel = defineKernel({
  name: 'bench/sort-checksum',
  bindings: (spec: { segmented: boolean }) => ({
    keys: read('array<u32>'),
    sums: readWrite(`array<atomic<u32>, ${CHECKSUM_WORDS}>`),
    bits: spec.segmented ? read('array<u32>') : undefined,
    heads_through_word: spec.segmented ? read('array<u32>') : undefined,
  }),
  params: { n: 'u32', salt: 'u32' },
  wgsl: (spec) => {
    const segmentFns = spec.segmented
      ? `${HEAD_FNS_WGSL}
fn segment_of(i: u32) -> u32 {
  let w = i >> 5u;
  var heads = countOneBits(bits[w] & (0xffffffffu >> (31u - (i & 31u))));
  if (w > 0u) { heads += heads_through_word[w - 1u]; }
  if ((bits[0] & 1u) == 0u) { heads += 1u; }
  return heads - 1u;
}`
      : '';
    const salt = spec.segmented ? 'pcg(segment_of(i) ^ params.salt)' : 'params.salt';
    return `${COMMON_WGSL}${HASH_WGSL}
${segmentFns}
var<workgroup> wg_sum: atomic<u32>;
var<workgroup> wg_h1: atomic<u32>;
var<workgroup> wg_x2: atomic<u32>;
var<workgroup> wg_h2: atomic<u32>;
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  // Workgroup memory starts zeroed; no early return, so every invocation reaches the barrier.
  if (i < params.n) {
    let k = keys[i];
    let s = ${salt};
    let h1 = pcg(k ^ s);
    let h2 = pcg(pcg(k + 0x632be5abu) ^ (s * 0x9e3779b9u + 0x7f4a7c15u));
    atomicAdd(&wg_sum, k);
    atomicAdd(&wg_h1, h1);
    atomicXor(&wg_x2, h2);
    atomicAdd(&wg_h2, h2);
  }
  workgroupBarrier();
  if (lid.x == 0u) {
    atomicAdd(&sums[0], atomicLoad(&wg_sum));
    atomicAdd(&sums[1], atomicLoad(&wg_h1));
    atomicXor(&sums[2], atomicLoad(&wg_x2));
    atomicAdd(&sums[3], atomicLoad(&wg_h2));
  }
}
`;
  },
});

/**
 * Compares two checksums word by word (one invocation), counting each differing word as a
 * mismatch at {@link CHECKSUM_MISMATCH}: `got` the output's sums, `want` the input's.
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, checksumCompareKernel, { got, want, err: errors }, { groups: 1 });
 * ```
 */
export const checksumCompareKernel = defineKernel({
  name: 'bench/sort-checksum-compare',
  bindings: { got: read('array<u32>'), want: read('array<u32>'), ...ERROR_BINDING },
  wgsl: () => `${ERROR_WGSL}
@compute @workgroup_size(1) fn main() {
  for (var j = 0u; j < ${CHECKSUM_WORDS}u; j++) {
    if (got[j] != want[j]) { mismatch(${CHECKSUM_MISMATCH}u); }
  }
}
`,
})({});
