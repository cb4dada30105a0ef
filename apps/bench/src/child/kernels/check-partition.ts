import type { ElementType } from '@scan/core';
import { defineKernel, read } from '@scan/core/kit';
import { COMMON_WGSL, ENTRY_ARGS, ERROR_BINDING, ERROR_WGSL, INDEX_CODEC_WGSL } from './common.js';

/**
 * `split`: the output is all n inputs, 0-flagged first; `pack`: the first `count` outputs are the
 * 1-flagged inputs.
 */
export type PartitionMode = 'split' | 'pack';

/**
 * The check of a split or pack of index-encoded data (`iota-*` fill): each output position j in
 * the checked range decodes to a source index s < n whose flag is the one its part needs, and s
 * strictly increases within each part (stability). With the reported count equal to the
 * independently counted flags (`ones`), this proves the output exact: each part holds as many
 * distinct, correctly flagged, ordered sources as exist. A wrong count is reported as index
 * 0xfffffffe. Bindings: `out` (u32 words), `flags`, `reported` (the plan's `falseCount` or
 * `packedCount`, word 0), `ones` (word 0), `err`; parameter `n` elements.
 *
 * @example
 * ```ts
 * const kernel = checkPartitionKernel({ mode: 'split', type: 'u32' });
 * encodeKernel(ctx, encoder, kernel, { out, flags, reported: count, ones, err: errors, params: pool.params(kernel, { n }) }, { invocations: n });
 * ```
 */
export const checkPartitionKernel = defineKernel({
  name: 'bench/check-partition',
  bindings: {
    out: read('array<u32>'),
    flags: read('array<u32>'),
    reported: read('array<u32>'),
    ones: read('array<u32>'),
    ...ERROR_BINDING,
  },
  params: { n: 'u32' },
  wgsl: (spec: { mode: PartitionMode; type: ElementType }) => {
    const decode = spec.type === 'f32' ? (x: string) => `decode_index_f32(${x})` : (x: string) => x;
    const split = spec.mode === 'split';
    return `${COMMON_WGSL}${INDEX_CODEC_WGSL}${ERROR_WGSL}
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let j = global_index(wid, nwg, lid);
  let count = reported[0];
  let expected_count = ${split ? 'params.n - ones[0]' : 'ones[0]'};
  if (j == 0u && count != expected_count) { mismatch(0xfffffffeu); }
  if (j >= ${split ? 'params.n' : 'min(count, params.n)'}) { return; }
  let s = ${decode('out[j]')};
  if (s >= params.n) { mismatch(j); return; }
  let want = ${split ? 'select(0u, 1u, j >= count)' : '1u'};
  if (flags[s] != want) { mismatch(j); return; }
  if (j > 0u${split ? ' && j != count' : ''}) {
    let prev = ${decode('out[j - 1u]')};
    if (prev >= s) { mismatch(j); }
  }
}
`;
  },
});
