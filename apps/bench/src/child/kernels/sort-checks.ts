import type { ElementType } from '@scan/core';
import { COMMON_WGSL, ENTRY_ARGS, ERROR_WGSL, WG } from './common.js';
import { HASH_WGSL } from './fill.js';
import { HEAD_FNS_WGSL } from './head-bits.js';

// The checks of the sort cases, written here rather than taken from `@scan/sort`, so that a bug in
// the library's key order cannot hide in its own verification.

/** The `first` index a check reports when the checksums of the keys before and after differ. */
export const CHECKSUM_MISMATCH = 0xfffffffd;

/** Words of a checksum: Σk, Σh1, ⊕h2, Σh2 (see {@link sortChecksumWgsl}). */
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

/** What an order check reads besides the keys. */
export interface SortCheckLayout {
  /** Values that were the original indices, and the unsorted keys (sort-pairs). */
  readonly pairs: boolean;
  /** Bit-packed head flags: order is checked within segments only (segmented-sort). */
  readonly segmented: boolean;
}

/**
 * Buffers the order check binds, in binding order, from the named buffers of a workload.
 *
 * @example
 * ```ts
 * sortCheckBindings({ pairs: true, segmented: false }, { keys, values, original, bits, errors, params });
 * ```
 */
export function sortCheckBindings(
  layout: SortCheckLayout,
  b: { keys: GPUBuffer; values?: GPUBuffer; original: GPUBuffer; bits?: GPUBuffer; errors: GPUBuffer; params: GPUBuffer },
): GPUBuffer[] {
  const need = (x: GPUBuffer | undefined, what: string) => {
    if (!x) throw new Error(`sort check: no ${what} buffer`);
    return x;
  };
  return [
    b.keys,
    ...(layout.pairs ? [need(b.values, 'values'), b.original] : []),
    ...(layout.segmented ? [need(b.bits, 'head bits')] : []),
    b.errors,
    b.params,
  ];
}

/**
 * WGSL of the order check, one invocation per element i of the sorted keys: `rank(key[i−1]) ≤
 * rank(key[i])` for every i ≥ 1 (within segments only: not where i starts a segment). With pairs
 * (values that were the original indices `0..n−1`, unsorted keys in `original`): `value[i] < n`
 * and `key[i] == original[value[i]]` bit for bit, and equal ranks need `value[i−1] < value[i]`
 * (stability). Together these prove the output is the stable sort exactly: a value repeated at
 * p < q would give equal keys at p and q, hence equal ranks from p to q, hence strictly increasing
 * values from p to q — so the n values are distinct, a permutation. Mismatches are counted at i.
 * Bindings (see {@link sortCheckBindings}): keys, [values, original], [head bits], errors, params
 * (`p.n` elements).
 *
 * @example
 * ```ts
 * getPipeline(ctx, { key: 'bench/check-sort/u32/asc/pairs', wgsl: () => checkSortOrderWgsl('u32', false, { pairs: true, segmented: false }) });
 * ```
 */
export function checkSortOrderWgsl(type: ElementType, descending: boolean, layout: SortCheckLayout): string {
  let binding = 0;
  const keys = `@group(0) @binding(${binding++}) var<storage, read> keys: array<u32>;`;
  const pairs = layout.pairs
    ? `@group(0) @binding(${binding++}) var<storage, read> vals: array<u32>;
@group(0) @binding(${binding++}) var<storage, read> original: array<u32>;`
    : '';
  const bits = layout.segmented ? `@group(0) @binding(${binding++}) var<storage, read> bits: array<u32>;` : '';
  const errors = ERROR_WGSL(binding++);
  const params = `@group(0) @binding(${binding++}) var<uniform> p: Params;`;
  return `${COMMON_WGSL}
${keys}
${pairs}
${bits}
${errors}
${params}
${layout.segmented ? HEAD_FNS_WGSL : ''}
${rankWgsl(type, descending)}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i >= p.n) { return; }
  let k = keys[i];${
    layout.pairs
      ? `
  let v = vals[i];
  if (v >= p.n) { mismatch(i); return; }
  if (original[v] != k) { mismatch(i); return; }`
      : ''
  }
  if (i == 0u) { return; }${layout.segmented ? '\n  if (is_head(i)) { return; }' : ''}
  let a = rank(keys[i - 1u]);
  let b = rank(k);
  if (a > b) { mismatch(i); return; }${layout.pairs ? '\n  if (a == b && vals[i - 1u] >= v) { mismatch(i); }' : ''}
}
`;
}

/**
 * WGSL of the multiset checksum of n keys, accumulated into `sums[0..4]` (cleared first): Σk,
 * Σh1(k), ⊕h2(k), Σh2(k) (wrapping), where h1 and h2 are different hashes salted by the element's
 * segment (segmented) or by a constant. The sums do not depend on the order of the keys within a
 * segment; for a fixed salt, h1 and h2 are bijections of k (the PCG steps are invertible), so one
 * changed key always changes Σh1, and keys lost, duplicated or moved to another segment change the
 * sums but with probability about 2^-96. Each workgroup sums in workgroup atomics and adds its
 * totals with one global atomic each. The segment of element i is (heads in [0, i]) − 1, from the
 * inclusive prefix sum of heads per word of head bits (the bench's own) and one popcount.
 * Bindings: 0 keys, 1 sums, [2 head bits, 3 heads through word], then params (`p.n` elements,
 * `p.a` salt).
 *
 * @example
 * ```ts
 * getPipeline(ctx, { key: 'bench/sort-checksum/plain', wgsl: () => sortChecksumWgsl(false) });
 * ```
 */
export function sortChecksumWgsl(segmented: boolean): string {
  const segmentBindings = segmented
    ? `@group(0) @binding(2) var<storage, read> bits: array<u32>;
@group(0) @binding(3) var<storage, read> heads_through_word: array<u32>;
${HEAD_FNS_WGSL}
fn segment_of(i: u32) -> u32 {
  let w = i >> 5u;
  var heads = countOneBits(bits[w] & (0xffffffffu >> (31u - (i & 31u))));
  if (w > 0u) { heads += heads_through_word[w - 1u]; }
  if ((bits[0] & 1u) == 0u) { heads += 1u; }
  return heads - 1u;
}`
    : '';
  const salt = segmented ? 'pcg(segment_of(i) ^ p.a)' : 'p.a';
  return `${COMMON_WGSL}${HASH_WGSL}
@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<atomic<u32>, ${CHECKSUM_WORDS}>;
${segmentBindings}
@group(0) @binding(${segmented ? 4 : 2}) var<uniform> p: Params;
var<workgroup> wg_sum: atomic<u32>;
var<workgroup> wg_h1: atomic<u32>;
var<workgroup> wg_x2: atomic<u32>;
var<workgroup> wg_h2: atomic<u32>;
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  // Workgroup memory starts zeroed; no early return, so every invocation reaches the barrier.
  if (i < p.n) {
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
}

/**
 * WGSL that compares two checksums word by word (one invocation), counting each differing word as
 * a mismatch at {@link CHECKSUM_MISMATCH}. Bindings: 0 the output's sums, 1 the input's sums,
 * 2 error counters.
 *
 * @example
 * ```ts
 * getPipeline(ctx, { key: 'bench/sort-checksum-compare', wgsl: checksumCompareWgsl });
 * ```
 */
export function checksumCompareWgsl(): string {
  return `${COMMON_WGSL}
@group(0) @binding(0) var<storage, read> got: array<u32>;
@group(0) @binding(1) var<storage, read> want: array<u32>;
${ERROR_WGSL(2)}
@compute @workgroup_size(1) fn main() {
  for (var j = 0u; j < ${CHECKSUM_WORDS}u; j++) {
    if (got[j] != want[j]) { mismatch(${CHECKSUM_MISMATCH}u); }
  }
}
`;
}
