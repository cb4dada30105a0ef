import { defineKernel, read, readWrite } from '@scan/core/kit';
import { blendWgsl, SPMV_PARAMS, WORKGROUP_INDEX_WGSL } from './wgsl-common.js';

/** Invocations per workgroup of the segmented method's element-wise kernels. */
export const SEGMENTED_WORKGROUP = 256;

/**
 * Step 1 of the 2007 segmented-scan SpMV (Sengupta et al., §4.2): the products
 * `products[i] = values[i]·x[col_idx[i]]`, one invocation per nonzero.
 *
 * Parameters: n0 nnz. Bindings: col_idx, values, x, products.
 *
 * @example
 * ```ts
 * const kernel = segmentedProductsKernel({ workgroupSize: SEGMENTED_WORKGROUP });
 * b.dispatch(kernel, { col_idx: colIdx, values, x, products }, groups, spmvParamValues({ n0: nnz, dispatch_x }));
 * ```
 */
export const segmentedProductsKernel = defineKernel({
  name: 'spmv/segmented-products',
  bindings: { col_idx: read('array<u32>'), values: read('array<f32>'), x: read('array<f32>'), products: readWrite('array<f32>') },
  params: { ...SPMV_PARAMS },
  wgsl: ({ workgroupSize: wg }: { readonly workgroupSize: number }) => `
@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let i = wg_index * ${wg}u + lid;
  if (i >= params.n0) { return; }
  products[i] = values[i] * x[col_idx[i]];
}
`,
});

/**
 * Step 3 of the 2007 method: after the backward segmented inclusive scan of the products (head
 * flags at each row's first nonzero), the first element of each row holds the row's sum; this
 * gathers it into y. An empty row has no element (its head flag is shared with the next row), so
 * it gets 0 here.
 *
 * Parameters: n0 rows; alpha, beta. Bindings: row_ptr, scanned, y. `readY`: beta ≠ 0, y is read.
 *
 * @example
 * ```ts
 * const kernel = segmentedGatherKernel({ workgroupSize: SEGMENTED_WORKGROUP, readY: false });
 * b.dispatch(kernel, { row_ptr: rowPtr, scanned, y }, groups, spmvParamValues({ n0: rows, alpha, beta, dispatch_x }));
 * ```
 */
export const segmentedGatherKernel = defineKernel({
  name: 'spmv/segmented-gather',
  bindings: { row_ptr: read('array<u32>'), scanned: read('array<f32>'), y: readWrite('array<f32>') },
  params: { ...SPMV_PARAMS },
  wgsl: ({ workgroupSize: wg, readY }: { readonly workgroupSize: number; readonly readY: boolean }) => `
@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let r = wg_index * ${wg}u + lid;
  if (r >= params.n0) { return; }
  let start = row_ptr[r];
  var sum = 0.0;
  if (start < row_ptr[r + 1u]) { sum = scanned[start]; }
  y[r] = ${blendWgsl('sum', 'y[r]', readY)};
}
`,
});
