import { COMMON_WGSL, ENTRY_ARGS, ERROR_WGSL, WG } from './common.js';
import { HEAD_FNS_WGSL } from './head-bits.js';

/**
 * WGSL that checks a u32 add segmented reduce through prefix sums, for any segment length: with
 * `P` the inclusive prefix sum of the data, `R` the inclusive prefix sum of the plan's `segments`
 * results (both from the bench's own prefix sum, wrapping), and `H` the inclusive prefix sum of the
 * heads per word of head bits, each segment's last element i (index k = heads in [0, i] − 1, from
 * `H` and one popcount) must satisfy `R[k] == P[i]`. If that holds for every k, then
 * `result[k] = R[k] − R[k−1] = P[end_k] − P[end_(k−1)]` = the sum of segment k exactly (u32 is a
 * group under wrapping addition). A wrong result k breaks it at k and, through R, at every later
 * segment: the first mismatch reported is the wrong result. The last element must
 * also land on k = segments − 1 (else the segment count the plan was given is wrong: reported as
 * index 0xfffffffe). Mismatches are reported at the segment index k.
 * Bindings: 0 head bits, 1 H, 2 P, 3 R, 4 error counters, 5 params (`p.n` elements, `p.a` segments).
 *
 * @example
 * ```ts
 * getPipeline(ctx, { key: 'bench/check-segmented-reduce', wgsl: checkSegmentedReduceWgsl });
 * ```
 */
export function checkSegmentedReduceWgsl(): string {
  return `${COMMON_WGSL}
@group(0) @binding(0) var<storage, read> bits: array<u32>;
@group(0) @binding(1) var<storage, read> heads_through_word: array<u32>;
@group(0) @binding(2) var<storage, read> data_prefix: array<u32>;
@group(0) @binding(3) var<storage, read> result_prefix: array<u32>;
${ERROR_WGSL(4)}
@group(0) @binding(5) var<uniform> p: Params;
${HEAD_FNS_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i >= p.n || !is_last(i)) { return; }
  let w = i >> 5u;
  // Heads at or before i: those of the earlier words, plus bits 0..i%32 of this word.
  var heads = countOneBits(bits[w] & (0xffffffffu >> (31u - (i & 31u))));
  if (w > 0u) { heads += heads_through_word[w - 1u]; }
  // Element 0 is a head even without its bit.
  if ((bits[0] & 1u) == 0u) { heads += 1u; }
  let k = heads - 1u;
  if (i == p.n - 1u && k != p.a - 1u) { mismatch(0xfffffffeu); }
  if (k >= p.a) { mismatch(k); return; }
  if (result_prefix[k] != data_prefix[i]) { mismatch(k); }
}
`;
}
