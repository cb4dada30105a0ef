import type { ElementType } from '@scan/core';
import { COMMON_WGSL, ENTRY_ARGS, ERROR_WGSL, INDEX_CODEC_WGSL } from './common.js';

/**
 * `split`: the output is all n inputs, 0-flagged first; `pack`: the first `count` outputs are the
 * 1-flagged inputs.
 */
export type PartitionMode = 'split' | 'pack';

/**
 * WGSL that checks a split or pack of index-encoded data (`iota-*` fill): each output position j in
 * the checked range decodes to a source index s < n whose flag is the one its part needs, and s
 * strictly increases within each part (stability). With the reported count equal to the
 * independently counted flags (`ones`), this proves the output exact: each part holds as many
 * distinct, correctly flagged, ordered sources as exist. A wrong count is reported as index
 * 0xfffffffe. Bindings: 0 output (u32 words), 1 flags, 2 the plan's count (`falseCount` or
 * `packedCount`, word 0), 3 ones (word 0), 4 error counters, 5 params (`p.n`).
 *
 * @example
 * ```ts
 * checkPartitionWgsl('split', 'u32');
 * ```
 */
export function checkPartitionWgsl(mode: PartitionMode, type: ElementType): string {
  const decode = type === 'f32' ? (x: string) => `decode_index_f32(${x})` : (x: string) => x;
  const split = mode === 'split';
  return `${COMMON_WGSL}${INDEX_CODEC_WGSL}
@group(0) @binding(0) var<storage, read> out: array<u32>;
@group(0) @binding(1) var<storage, read> flags: array<u32>;
@group(0) @binding(2) var<storage, read> reported: array<u32>;
@group(0) @binding(3) var<storage, read> ones: array<u32>;
${ERROR_WGSL(4)}
@group(0) @binding(5) var<uniform> p: Params;
@compute @workgroup_size(256) fn main(${ENTRY_ARGS}) {
  let j = global_index(wid, nwg, lid);
  let count = reported[0];
  let expected_count = ${split ? 'p.n - ones[0]' : 'ones[0]'};
  if (j == 0u && count != expected_count) { mismatch(0xfffffffeu); }
  if (j >= ${split ? 'p.n' : 'min(count, p.n)'}) { return; }
  let s = ${decode('out[j]')};
  if (s >= p.n) { mismatch(j); return; }
  let want = ${split ? 'select(0u, 1u, j >= count)' : '1u'};
  if (flags[s] != want) { mismatch(j); return; }
  if (j > 0u${split ? ' && j != count' : ''}) {
    let prev = ${decode('out[j - 1u]')};
    if (prev >= s) { mismatch(j); }
  }
}
`;
}
