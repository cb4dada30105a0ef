import type { KernelSpec } from '@scan/core/kit';
import { blendWgsl, SPMV_PARAMS_WGSL, WORKGROUP_INDEX_WGSL } from './wgsl-common.js';

/** Invocations per workgroup of the segmented method's element-wise kernels. */
export const SEGMENTED_WORKGROUP = 256;

const HEADER = `${SPMV_PARAMS_WGSL}
@group(0) @binding(0) var<uniform> params: Params;`;

/**
 * Step 1 of the 2007 segmented-scan SpMV (Sengupta et al., §4.2): the products
 * `products[i] = values[i]·x[col_idx[i]]`, one invocation per nonzero.
 *
 * Bindings: 0 params (n0 nnz), 1 col_idx, 2 values, 3 x, 4 products.
 *
 * @example
 * ```ts
 * b.dispatch(segmentedProductsKernel(), [params, colIdx, values, x, products], Math.ceil(nnz / SEGMENTED_WORKGROUP));
 * ```
 */
export function segmentedProductsKernel(): KernelSpec {
  const wg = SEGMENTED_WORKGROUP;
  return {
    key: `spmv/segmented/products/${wg}`,
    wgsl: () => `${HEADER}
@group(0) @binding(1) var<storage, read> col_idx: array<u32>;
@group(0) @binding(2) var<storage, read> values: array<f32>;
@group(0) @binding(3) var<storage, read> x: array<f32>;
@group(0) @binding(4) var<storage, read_write> products: array<f32>;

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let i = wg_index * ${wg}u + lid;
  if (i >= params.n0) { return; }
  products[i] = values[i] * x[col_idx[i]];
}
`,
  };
}

/**
 * Step 3 of the 2007 method: after the backward segmented inclusive scan of the products (head
 * flags at each row's first nonzero), the first element of each row holds the row's sum; this
 * gathers it into y. An empty row has no element (its head flag is shared with the next row), so
 * it gets 0 here.
 *
 * Bindings: 0 params (n0 rows), 1 row_ptr, 2 scanned, 3 y.
 *
 * @example
 * ```ts
 * b.dispatch(segmentedGatherKernel(false), [params, rowPtr, scanned, y], Math.ceil(rows / SEGMENTED_WORKGROUP));
 * ```
 */
export function segmentedGatherKernel(readY: boolean): KernelSpec {
  const wg = SEGMENTED_WORKGROUP;
  return {
    key: `spmv/segmented/gather/${readY ? 'beta' : 'nobeta'}/${wg}`,
    wgsl: () => `${HEADER}
@group(0) @binding(1) var<storage, read> row_ptr: array<u32>;
@group(0) @binding(2) var<storage, read> scanned: array<f32>;
@group(0) @binding(3) var<storage, read_write> y: array<f32>;

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
  };
}
