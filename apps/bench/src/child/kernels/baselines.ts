import { defineKernel, read, readWrite } from '@scan/core/kit';
import { COMMON_WGSL, ENTRY_ARGS, WG } from './common.js';

/** vec4 loads each read-only invocation makes; enough to keep memory busy, few enough for small sizes. */
export const READ_ONLY_ITEMS = 4;

/**
 * The copy baseline: one vec4 per invocation, `dst[i] = src[i]` for `params.n` vec4s. Every
 * primitive's GB/s is compared with this kernel's at the same size on the same device, so its body
 * stays as it is.
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, copyVec4Kernel, { src, dst, params: pool.params(copyVec4Kernel, { n: vecs }) }, { invocations: vecs });
 * ```
 */
export const copyVec4Kernel = defineKernel({
  name: 'bench/copy-vec4',
  bindings: { src: read('array<vec4<u32>>'), dst: readWrite('array<vec4<u32>>') },
  params: { n: 'u32' },
  wgsl: () => `${COMMON_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i < params.n) { dst[i] = src[i]; }
}
`,
})({});

/**
 * The read-only baseline: each workgroup reads 256 · READ_ONLY_ITEMS vec4s (coalesced, strided by
 * the workgroup size) and sums them so the loads cannot be dropped; the sums are added atomically
 * into one u32 per workgroup (`partials`, cleared before each run) — by each subgroup's first
 * invocation after `subgroupAdd` when the device has subgroups, else by every invocation. No
 * workgroup memory and no barrier: on SwiftShader a barrier tree made this "bound" 10× slower than
 * the copy (measured here), which would make it useless as a bound for reductions.
 * Parameters: `n` vec4s of `src`, `groups` workgroups.
 *
 * @example
 * ```ts
 * const kernel = readOnlyVec4Kernel({ subgroups: ctx.caps.features.subgroups });
 * ```
 */
export const readOnlyVec4Kernel = defineKernel({
  name: 'bench/read-only-vec4',
  bindings: { src: read('array<vec4<u32>>'), partials: readWrite('array<atomic<u32>>') },
  params: { n: 'u32', groups: 'u32' },
  enable: (spec: { subgroups: boolean }) => (spec.subgroups ? ['subgroups'] : []),
  wgsl: (spec) => {
    const publish = spec.subgroups
      ? `let s = subgroupAdd(acc.x + acc.y + acc.z + acc.w);
  if (sid == 0u) { atomicAdd(&partials[g], s); }`
      : 'atomicAdd(&partials[g], acc.x + acc.y + acc.z + acc.w);';
    return `${COMMON_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}${spec.subgroups ? ', @builtin(subgroup_invocation_id) sid: u32' : ''}) {
  let g = group_index(wid, nwg);
  if (g >= params.groups) { return; }
  let base = g * ${WG * READ_ONLY_ITEMS}u + lid.x;
  var acc = vec4<u32>(0u);
  for (var k = 0u; k < ${READ_ONLY_ITEMS}u; k++) {
    let i = base + k * ${WG}u;
    if (i < params.n) { acc += src[i]; }
  }
  ${publish}
}
`;
  },
});
