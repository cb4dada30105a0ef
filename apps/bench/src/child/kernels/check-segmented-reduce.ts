import { defineKernel, read } from '@scan/core/kit';
import { COMMON_WGSL, ENTRY_ARGS, ERROR_BINDING, ERROR_WGSL, WG } from './common.js';
import { HEAD_FNS_WGSL } from './head-bits.js';

/**
 * The check of a u32 add segmented reduce through prefix sums, for any segment length: with
 * `P` the inclusive prefix sum of the data, `R` the inclusive prefix sum of the plan's `segments`
 * results (both from the bench's own prefix sum, wrapping), and `H` the inclusive prefix sum of the
 * heads per word of head bits, each segment's last element i (index k = heads in [0, i] − 1, from
 * `H` and one popcount) must satisfy `R[k] == P[i]`. If that holds for every k, then
 * `result[k] = R[k] − R[k−1] = P[end_k] − P[end_(k−1)]` = the sum of segment k exactly (u32 is a
 * group under wrapping addition). A wrong result k breaks it at k and, through R, at every later
 * segment: the first mismatch reported is the wrong result. The last element must
 * also land on k = segments − 1 (else the segment count the plan was given is wrong: reported as
 * index 0xfffffffe). Mismatches are reported at the segment index k.
 * Bindings: `bits` (head bits), `heads_through_word` (H), `data_prefix` (P), `result_prefix` (R),
 * `err`; parameters `n` elements, `segments`.
 *
 * @example
 * ```ts
 * const params = pool.params(checkSegmentedReduceKernel, { n, segments });
 * encodeKernel(ctx, encoder, checkSegmentedReduceKernel, { bits, heads_through_word, data_prefix, result_prefix, err: errors, params }, { invocations: n });
 * ```
 */
export const checkSegmentedReduceKernel = defineKernel({
  name: 'bench/check-segmented-reduce',
  bindings: {
    bits: read('array<u32>'),
    heads_through_word: read('array<u32>'),
    data_prefix: read('array<u32>'),
    result_prefix: read('array<u32>'),
    ...ERROR_BINDING,
  },
  params: { n: 'u32', segments: 'u32' },
  wgsl: () => `${COMMON_WGSL}${ERROR_WGSL}
${HEAD_FNS_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i >= params.n || !is_last(i)) { return; }
  let w = i >> 5u;
  // Heads at or before i: those of the earlier words, plus bits 0..i%32 of this word.
  var heads = countOneBits(bits[w] & (0xffffffffu >> (31u - (i & 31u))));
  if (w > 0u) { heads += heads_through_word[w - 1u]; }
  // Element 0 is a head even without its bit.
  if ((bits[0] & 1u) == 0u) { heads += 1u; }
  let k = heads - 1u;
  if (i == params.n - 1u && k != params.segments - 1u) { mismatch(0xfffffffeu); }
  if (k >= params.segments) { mismatch(k); return; }
  if (result_prefix[k] != data_prefix[i]) { mismatch(k); }
}
`,
})({});
