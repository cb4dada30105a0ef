import { defineKernel, read, readWrite } from '@scan/core/kit';
import { ROW_SEARCH_WGSL, SPMV_PARAMS, WORKGROUP_INDEX_WGSL } from './wgsl-common.js';

// Aᵀ on the GPU, built once by a transposed plan: the nonzeros' column indices are sorted (stably,
// with their positions as values) by @scan/sort's radix sort, so the permutation lists the
// nonzeros of Aᵀ row by row with the original rows increasing inside each; then gathers and a
// search over the sorted columns give Aᵀ's arrays.

/** Invocations per workgroup of the transpose kernels. */
export const TRANSPOSE_WORKGROUP = 256;

/** The entry point every transpose kernel shares, around its `body` (`i` is the invocation's index), after `functions`. */
const frame = (functions: string, body: string): string => `${functions}
@compute @workgroup_size(${TRANSPOSE_WORKGROUP})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let i = wg_index * ${TRANSPOSE_WORKGROUP}u + lid;
${body}
}
`;

/**
 * Sort input: `keys[i] = col_idx[i]`, `positions[i] = i`.
 * Parameters: n1 nnz. Bindings: col_idx, keys, positions.
 *
 * @example
 * ```ts
 * b.dispatch(transposeKeysKernel({}), { col_idx: colIdx, keys, positions }, groups, spmvParamValues({ n1: nnz, dispatch_x }));
 * ```
 */
export const transposeKeysKernel = defineKernel({
  name: 'spmv/transpose-keys',
  bindings: { col_idx: read('array<u32>'), keys: readWrite('array<u32>'), positions: readWrite('array<u32>') },
  params: { ...SPMV_PARAMS },
  wgsl: (_: Record<string, never>) =>
    frame(
      '',
      `  if (i >= params.n1) { return; }
  keys[i] = col_idx[i];
  positions[i] = i;`,
    ),
});

/**
 * After the sort: nonzero j of Aᵀ is nonzero `positions[j]` of A — its value, and its row of A
 * (found by binary search on A's `row_ptr`) as its column.
 * Parameters: n0 rows of A, n1 nnz. Bindings: row_ptr, values, positions, col_t, values_t.
 *
 * @example
 * ```ts
 * const bindings = { row_ptr: rowPtr, values, positions, col_t: colT, values_t: valuesT };
 * b.dispatch(transposeGatherKernel({}), bindings, groups, spmvParamValues({ n0: rows, n1: nnz, dispatch_x }));
 * ```
 */
export const transposeGatherKernel = defineKernel({
  name: 'spmv/transpose-gather',
  bindings: {
    row_ptr: read('array<u32>'),
    values: read('array<f32>'),
    positions: read('array<u32>'),
    col_t: readWrite('array<u32>'),
    values_t: readWrite('array<f32>'),
  },
  params: { ...SPMV_PARAMS },
  wgsl: (_: Record<string, never>) =>
    frame(
      ROW_SEARCH_WGSL,
      `  if (i >= params.n1) { return; }
  let p = positions[i];
  col_t[i] = upper_row(p, params.n0);
  values_t[i] = values[p];`,
    ),
});

/**
 * Aᵀ's row pointers: `row_ptr_t[c]` = the first position of the sorted columns holding a value ≥ c
 * (a lower bound), for c = 0 … cols.
 * Parameters: n1 nnz, n2 cols of A. Bindings: keys (sorted), row_ptr_t.
 *
 * @example
 * ```ts
 * b.dispatch(transposeRowPtrKernel({}), { keys, row_ptr_t: rowPtrT }, groups, spmvParamValues({ n1: nnz, n2: cols, dispatch_x }));
 * ```
 */
export const transposeRowPtrKernel = defineKernel({
  name: 'spmv/transpose-row-ptr',
  bindings: { keys: read('array<u32>'), row_ptr_t: readWrite('array<u32>') },
  params: { ...SPMV_PARAMS },
  wgsl: (_: Record<string, never>) =>
    frame(
      '',
      `  if (i > params.n2) { return; }
  var lo = 0u;
  var hi = params.n1;
  while (lo < hi) {
    let mid = (lo + hi) >> 1u;
    if (keys[mid] < i) { lo = mid + 1u; } else { hi = mid; }
  }
  row_ptr_t[i] = lo;`,
    ),
});
