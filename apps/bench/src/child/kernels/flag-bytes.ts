import { COMMON_WGSL, ENTRY_ARGS } from './common.js';

/**
 * WGSL that packs u32 0/1 flags into bytes, four to a word in element order (what a split or pack
 * plan with `flags: 'u8'` reads): word w = flags[4w] | flags[4w+1] << 8 | … Flags past `params.n`
 * are 0. Bindings: 0 flags (u32), 1 bytes (u32 words), 2 params (`n`).
 */
export function flagBytesWgsl(): string {
  return `${COMMON_WGSL}
@group(0) @binding(0) var<storage, read> flags: array<u32>;
@group(0) @binding(1) var<storage, read_write> bytes: array<u32>;
@group(0) @binding(2) var<uniform> params: Params;

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
`;
}
