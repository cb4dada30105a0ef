import { defineKernel, read, readWrite } from '@scan/core/kit';
import { COMMON_WGSL, ENTRY_ARGS } from './common.js';

/**
 * Packs u32 0/1 flags into bytes, four to a word in element order (what a split or pack plan with
 * `flags: 'u8'` reads): word w = flags[4w] | flags[4w+1] << 8 | … Flags past `n` are 0.
 *
 * @example
 * ```ts
 * const params = pool.params(flagBytesKernel, { n });
 * encodeKernel(ctx, encoder, flagBytesKernel, { flags, bytes, params }, { invocations: Math.ceil(n / 4) });
 * ```
 */
export const flagBytesKernel = defineKernel({
  name: 'bench/flag-bytes',
  bindings: { flags: read('array<u32>'), bytes: readWrite('array<u32>') },
  params: { n: 'u32' },
  wgsl: () => `${COMMON_WGSL}

@compute @workgroup_size(256)
fn main(${ENTRY_ARGS}) {
  let w = global_index(wid, nwg, lid);
  if (w >= (params.n + 3u) / 4u) { return; }
  var word = 0u;
  for (var j = 0u; j < 4u; j++) {
    let i = 4u * w + j;
    if (i < params.n && flags[i] != 0u) { word = word | (1u << (8u * j)); }
  }
  bytes[w] = word;
}
`,
})({});
