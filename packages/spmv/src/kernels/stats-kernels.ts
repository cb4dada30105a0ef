import { defineKernel, read, readWrite } from '@scan/core/kit';
import { SPMV_PARAMS, WORKGROUP_INDEX_WGSL } from './wgsl-common.js';

// Row-length statistics of a matrix already on the GPU (what `'auto'` decides from), reduced per
// workgroup on the GPU so only a few words per 256 rows come back.

/** Rows per workgroup of the statistics kernel. */
export const STATS_WORKGROUP = 256;

/**
 * Column counts of A (the row lengths of Aᵀ): one u32 atomic add per nonzero.
 * Parameters: n1 nnz. Bindings: col_idx, counts (cleared before).
 *
 * @example
 * ```ts
 * b.dispatch(columnCountsKernel({}), { col_idx: colIdx, counts }, groups, spmvParamValues({ n1: nnz, dispatch_x }));
 * ```
 */
export const columnCountsKernel = defineKernel({
  name: 'spmv/column-counts',
  bindings: { col_idx: read('array<u32>'), counts: readWrite('array<atomic<u32>>') },
  params: { ...SPMV_PARAMS },
  wgsl: (_: Record<string, never>) => `
@compute @workgroup_size(${STATS_WORKGROUP})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let i = wg_index * ${STATS_WORKGROUP}u + lid;
  if (i < params.n1) { atomicAdd(&counts[col_idx[i]], 1u); }
}
`,
});

/**
 * Per workgroup of 256 rows: the longest row, the empty rows and the sum of squared lengths
 * (f32; the host adds the partials in f64), as words 0, 1, 2 of `partials[4·workgroup …]`. Row
 * lengths come from `row_ptr` differences, or from `counts` (`fromCounts`).
 * Parameters: n0 rows. Bindings: lengths (row_ptr, or the counts), partials.
 *
 * @example
 * ```ts
 * b.dispatch(rowLengthStatsKernel({ fromCounts: false }), { lengths: rowPtr, partials }, groups, spmvParamValues({ n0: rows, dispatch_x }));
 * ```
 */
export const rowLengthStatsKernel = defineKernel({
  name: 'spmv/row-length-stats',
  bindings: { lengths: read('array<u32>'), partials: readWrite('array<u32>') },
  params: { ...SPMV_PARAMS },
  wgsl: rowLengthStatsWgsl,
});

function rowLengthStatsWgsl({ fromCounts }: { readonly fromCounts: boolean }): string {
  const length = fromCounts ? 'lengths[r]' : 'lengths[r + 1u] - lengths[r]';
  return `
var<workgroup> longest: atomic<u32>;
var<workgroup> empty: atomic<u32>;
var<workgroup> squares: array<f32, ${STATS_WORKGROUP}>;
@compute @workgroup_size(${STATS_WORKGROUP})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let r = wg_index * ${STATS_WORKGROUP}u + lid;
  var len = 0u;
  if (r < params.n0) {
    len = ${length};
    atomicMax(&longest, len);
    if (len == 0u) { atomicAdd(&empty, 1u); }
  }
  squares[lid] = f32(len) * f32(len);
  for (var off = ${STATS_WORKGROUP / 2}u; off > 0u; off >>= 1u) {
    workgroupBarrier();
    if (lid < off) { squares[lid] += squares[lid + off]; }
  }
  workgroupBarrier();
  if (lid == 0u) {
    partials[4u * wg_index] = atomicLoad(&longest);
    partials[4u * wg_index + 1u] = atomicLoad(&empty);
    partials[4u * wg_index + 2u] = bitcast<u32>(squares[0]);
  }
}
`;
}
