import { defineKernel, read } from '@scan/core/kit';
import { COMMON_WGSL, ENTRY_ARGS, ERROR_BINDING, ERROR_WGSL, WG } from './common.js';
import { HEAD_FNS_WGSL } from './head-bits.js';

/**
 * The check of an exclusive u32 add segmented scan, element by element against its recurrence:
 * forward `out[i] = is_head(i) ? 0 : out[i-1] + in[i-1]`; backward (each segment scanned from its
 * end) `out[i] = is_last(i) ? 0 : out[i+1] + in[i+1]`. Every segment then holds its exclusive scan
 * by induction from the element where it starts (its head, or its last element backward), so a
 * pass proves the whole output exact (u32 wraps the same way in both). A mismatch is reported at
 * its physical index. Bindings: `inp`, `out`, `bits` (head bits), `err`; parameter `n` elements.
 *
 * @example
 * ```ts
 * const kernel = checkSegmentedScanKernel({ backward: true });
 * encodeKernel(ctx, encoder, kernel, { inp: input, out: output, bits: headBits, err: errors, params: pool.params(kernel, { n }) }, { invocations: n });
 * ```
 */
export const checkSegmentedScanKernel = defineKernel({
  name: 'bench/check-segmented-scan',
  bindings: { inp: read('array<u32>'), out: read('array<u32>'), bits: read('array<u32>'), ...ERROR_BINDING },
  params: { n: 'u32' },
  wgsl: (spec: { backward: boolean }) => {
    // The neighbour the recurrence comes from, and the condition under which there is none.
    const [start, from] = spec.backward ? ['is_last(i)', 'i + 1u'] : ['is_head(i)', 'i - 1u'];
    return `${COMMON_WGSL}${ERROR_WGSL}
${HEAD_FNS_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i >= params.n) { return; }
  var expected = 0u;
  // A branch, not select(): select would read the neighbour even at the array's ends.
  if (!${start}) { expected = out[${from}] + inp[${from}]; }
  if (out[i] != expected) { mismatch(i); }
}
`;
  },
});
