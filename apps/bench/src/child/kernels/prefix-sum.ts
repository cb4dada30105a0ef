import { defineKernel, read, readWrite } from '@scan/core/kit';
import { COMMON_WGSL, ENTRY_ARGS, WG } from './common.js';

/** Consecutive elements each invocation of {@link blockPrefixSumKernel} scans serially. */
export const PREFIX_ITEMS = 8;

/** Elements one workgroup of {@link blockPrefixSumKernel} scans. */
export const PREFIX_SPAN = WG * PREFIX_ITEMS;

/**
 * The bench's own inclusive u32 add prefix sum (wrapping), level one: each workgroup scans
 * `PREFIX_SPAN` elements — a serial scan of 8 consecutive elements per invocation, then a
 * Hillis–Steele scan of the 256 invocation totals in workgroup memory — writes them to `dst` and
 * its total to `sums[g]`. Deliberately textbook (no subgroups, no look-back), so it shares neither
 * code nor technique with the plans it helps check. Parameters: `n` elements, `groups` workgroups.
 *
 * @example
 * ```ts
 * const params = pool.params(blockPrefixSumKernel, { n, groups });
 * encodeKernel(ctx, encoder, blockPrefixSumKernel, { src, dst, sums, params }, { groups });
 * ```
 */
export const blockPrefixSumKernel = defineKernel({
  name: 'bench/prefix-sum/block',
  bindings: { src: read('array<u32>'), dst: readWrite('array<u32>'), sums: readWrite('array<u32>') },
  params: { n: 'u32', groups: 'u32' },
  wgsl: () => `${COMMON_WGSL}
var<workgroup> partial: array<u32, ${WG}>;
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let g = group_index(wid, nwg);
  let base = g * ${PREFIX_SPAN}u + lid.x * ${PREFIX_ITEMS}u;
  var vals: array<u32, ${PREFIX_ITEMS}>;
  var acc = 0u;
  for (var k = 0u; k < ${PREFIX_ITEMS}u; k++) {
    if (base + k < params.n) { acc += src[base + k]; }
    vals[k] = acc;
  }
  partial[lid.x] = acc;
  workgroupBarrier();
  for (var s = 1u; s < ${WG}u; s <<= 1u) {
    var t = 0u;
    if (lid.x >= s) { t = partial[lid.x - s]; }
    workgroupBarrier();
    partial[lid.x] += t;
    workgroupBarrier();
  }
  var before = 0u;
  if (lid.x > 0u) { before = partial[lid.x - 1u]; }
  for (var k = 0u; k < ${PREFIX_ITEMS}u; k++) {
    if (base + k < params.n) { dst[base + k] = before + vals[k]; }
  }
  if (lid.x == ${WG - 1}u && g < params.groups) { sums[g] = partial[${WG - 1}u]; }
}
`,
})({});

/**
 * Level two of the prefix sum: adds the inclusive prefix of the workgroup totals before element
 * i's workgroup (`scanned[g - 1]`) to `dst[i]`, for i < `n`.
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, addBlockPrefixKernel, { dst, scanned, params: pool.params(addBlockPrefixKernel, { n }) }, { invocations: n });
 * ```
 */
export const addBlockPrefixKernel = defineKernel({
  name: 'bench/prefix-sum/add',
  bindings: { dst: readWrite('array<u32>'), scanned: read('array<u32>') },
  params: { n: 'u32' },
  wgsl: () => `${COMMON_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  let g = i / ${PREFIX_SPAN}u;
  if (i < params.n && g > 0u) { dst[i] += scanned[g - 1u]; }
}
`,
})({});
