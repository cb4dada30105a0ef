import type { KernelSpec } from '@scan/core/kit';
import { ROW_SEARCH_WGSL, SPMV_PARAMS_WGSL, WORKGROUP_INDEX_WGSL } from './wgsl-common.js';

// Aᵀ on the GPU, built once by a transposed plan: the nonzeros' column indices are sorted (stably,
// with their positions as values) by @scan/sort's radix sort, so the permutation lists the
// nonzeros of Aᵀ row by row with the original rows increasing inside each; then gathers and a
// search over the sorted columns give Aᵀ's arrays.

/** Invocations per workgroup of the transpose kernels. */
export const TRANSPOSE_WORKGROUP = 256;

const HEADER = `${SPMV_PARAMS_WGSL}
@group(0) @binding(0) var<uniform> params: Params;`;

const frame = (key: string, declarations: string, body: string): KernelSpec => ({
  key: `spmv/transpose/${key}`,
  wgsl: () => `${HEADER}
${declarations}
@compute @workgroup_size(${TRANSPOSE_WORKGROUP})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let i = wg_index * ${TRANSPOSE_WORKGROUP}u + lid;
${body}
}
`,
});

/**
 * Sort input: `keys[i] = col_idx[i]`, `positions[i] = i`.
 * Bindings: 0 params (n1 nnz), 1 col_idx, 2 keys, 3 positions.
 *
 * @example
 * ```ts
 * b.dispatch(transposeKeysKernel(), [params, colIdx, keys, positions], Math.ceil(nnz / TRANSPOSE_WORKGROUP));
 * ```
 */
export function transposeKeysKernel(): KernelSpec {
  return frame(
    'keys',
    `@group(0) @binding(1) var<storage, read> col_idx: array<u32>;
@group(0) @binding(2) var<storage, read_write> keys: array<u32>;
@group(0) @binding(3) var<storage, read_write> positions: array<u32>;`,
    `  if (i >= params.n1) { return; }
  keys[i] = col_idx[i];
  positions[i] = i;`,
  );
}

/**
 * After the sort: nonzero j of Aᵀ is nonzero `positions[j]` of A — its value, and its row of A
 * (found by binary search on A's `row_ptr`) as its column.
 * Bindings: 0 params (n0 rows of A, n1 nnz), 1 row_ptr, 2 values, 3 positions, 4 col_t, 5 values_t.
 *
 * @example
 * ```ts
 * b.dispatch(transposeGatherKernel(), [params, rowPtr, values, positions, colT, valuesT], Math.ceil(nnz / TRANSPOSE_WORKGROUP));
 * ```
 */
export function transposeGatherKernel(): KernelSpec {
  return frame(
    'gather',
    `@group(0) @binding(1) var<storage, read> row_ptr: array<u32>;
@group(0) @binding(2) var<storage, read> values: array<f32>;
@group(0) @binding(3) var<storage, read> positions: array<u32>;
@group(0) @binding(4) var<storage, read_write> col_t: array<u32>;
@group(0) @binding(5) var<storage, read_write> values_t: array<f32>;
${ROW_SEARCH_WGSL}`,
    `  if (i >= params.n1) { return; }
  let p = positions[i];
  col_t[i] = upper_row(p, params.n0);
  values_t[i] = values[p];`,
  );
}

/**
 * Aᵀ's row pointers: `row_ptr_t[c]` = the first position of the sorted columns holding a value ≥ c
 * (a lower bound), for c = 0 … cols.
 * Bindings: 0 params (n1 nnz, n2 cols of A), 1 sorted keys, 2 row_ptr_t.
 *
 * @example
 * ```ts
 * b.dispatch(transposeRowPtrKernel(), [params, keys, rowPtrT], Math.ceil((cols + 1) / TRANSPOSE_WORKGROUP));
 * ```
 */
export function transposeRowPtrKernel(): KernelSpec {
  return frame(
    'row-ptr',
    `@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> row_ptr_t: array<u32>;`,
    `  if (i > params.n2) { return; }
  var lo = 0u;
  var hi = params.n1;
  while (lo < hi) {
    let mid = (lo + hi) >> 1u;
    if (keys[mid] < i) { lo = mid + 1u; } else { hi = mid; }
  }
  row_ptr_t[i] = lo;`,
  );
}
