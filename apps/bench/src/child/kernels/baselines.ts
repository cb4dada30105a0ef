import { COMMON_WGSL, ENTRY_ARGS, WG } from './common.js';

/** vec4 loads each read-only invocation makes; enough to keep memory busy, few enough for small sizes. */
export const READ_ONLY_ITEMS = 4;

/**
 * The copy baseline: one vec4 per invocation, `dst[i] = src[i]` for `p.n` vec4s. Every primitive's
 * GB/s is compared with this kernel's at the same size on the same device.
 * Bindings: 0 src, 1 dst, 2 params.
 *
 * @example
 * ```ts
 * getPipeline(ctx, { key: 'bench/copy-vec4', wgsl: copyVec4Wgsl });
 * ```
 */
export function copyVec4Wgsl(): string {
  return `${COMMON_WGSL}
@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<u32>>;
@group(0) @binding(2) var<uniform> p: Params;
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i < p.n) { dst[i] = src[i]; }
}
`;
}

/**
 * The read-only baseline: each workgroup reads 256 · READ_ONLY_ITEMS vec4s (coalesced, strided by
 * the workgroup size) and sums them so the loads cannot be dropped; the sums are added atomically
 * into one u32 per workgroup (`partials`, cleared before each run) — by each subgroup's first
 * invocation after `subgroupAdd` when the device has subgroups, else by every invocation. No
 * workgroup memory and no barrier: on SwiftShader a barrier tree made this "bound" 10× slower than
 * the copy (measured here), which would make it useless as a bound for reductions.
 * Bindings: 0 src (`p.n` vec4s), 1 partials, 2 params.
 *
 * @example
 * ```ts
 * getPipeline(ctx, { key: 'bench/read-only-vec4/sg', wgsl: () => readOnlyVec4Wgsl(true) });
 * ```
 */
export function readOnlyVec4Wgsl(subgroups: boolean): string {
  const publish = subgroups
    ? `let s = subgroupAdd(acc.x + acc.y + acc.z + acc.w);
  if (sid == 0u) { atomicAdd(&partials[g], s); }`
    : 'atomicAdd(&partials[g], acc.x + acc.y + acc.z + acc.w);';
  return `${subgroups ? 'enable subgroups;' : ''}
${COMMON_WGSL}
@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> partials: array<atomic<u32>>;
@group(0) @binding(2) var<uniform> p: Params;
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}${subgroups ? ', @builtin(subgroup_invocation_id) sid: u32' : ''}) {
  let g = group_index(wid, nwg);
  if (g >= p.a) { return; }
  let base = g * ${WG * READ_ONLY_ITEMS}u + lid.x;
  var acc = vec4<u32>(0u);
  for (var k = 0u; k < ${READ_ONLY_ITEMS}u; k++) {
    let i = base + k * ${WG}u;
    if (i < p.n) { acc += src[i]; }
  }
  ${publish}
}
`;
}
