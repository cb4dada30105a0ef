import { COMMON_WGSL, ENTRY_ARGS, WG } from './common.js';

/** Consecutive elements each invocation of {@link blockPrefixSumWgsl} scans serially. */
export const PREFIX_ITEMS = 8;

/** Elements one workgroup of {@link blockPrefixSumWgsl} scans. */
export const PREFIX_SPAN = WG * PREFIX_ITEMS;

/**
 * The bench's own inclusive u32 add prefix sum (wrapping), level one: each workgroup scans
 * `PREFIX_SPAN` elements — a serial scan of 8 consecutive elements per invocation, then a
 * Hillis–Steele scan of the 256 invocation totals in workgroup memory — writes them to `dst` and
 * its total to `sums[g]`. Deliberately textbook (no subgroups, no look-back), so it shares neither
 * code nor technique with the plans it helps check. Bindings: 0 src, 1 dst, 2 sums, 3 params
 * (`p.n` elements, `p.a` workgroups).
 *
 * @example
 * ```ts
 * getPipeline(ctx, { key: 'bench/prefix-sum/block', wgsl: blockPrefixSumWgsl });
 * ```
 */
export function blockPrefixSumWgsl(): string {
  return `${COMMON_WGSL}
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@group(0) @binding(2) var<storage, read_write> sums: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;
var<workgroup> partial: array<u32, ${WG}>;
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let g = group_index(wid, nwg);
  let base = g * ${PREFIX_SPAN}u + lid.x * ${PREFIX_ITEMS}u;
  var vals: array<u32, ${PREFIX_ITEMS}>;
  var acc = 0u;
  for (var k = 0u; k < ${PREFIX_ITEMS}u; k++) {
    if (base + k < p.n) { acc += src[base + k]; }
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
    if (base + k < p.n) { dst[base + k] = before + vals[k]; }
  }
  if (lid.x == ${WG - 1}u && g < p.a) { sums[g] = partial[${WG - 1}u]; }
}
`;
}

/**
 * Level two of the prefix sum: adds the inclusive prefix of the workgroup totals before element
 * i's workgroup (`scanned[g - 1]`) to `dst[i]`. Bindings: 0 dst, 1 scanned, 2 params (`p.n`).
 *
 * @example
 * ```ts
 * getPipeline(ctx, { key: 'bench/prefix-sum/add', wgsl: addBlockPrefixWgsl });
 * ```
 */
export function addBlockPrefixWgsl(): string {
  return `${COMMON_WGSL}
@group(0) @binding(0) var<storage, read_write> dst: array<u32>;
@group(0) @binding(1) var<storage, read> scanned: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  let g = i / ${PREFIX_SPAN}u;
  if (i < p.n && g > 0u) { dst[i] += scanned[g - 1u]; }
}
`;
}
