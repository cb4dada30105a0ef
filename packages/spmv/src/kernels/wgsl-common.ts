import type { ParamFields, ParamValues } from '@scan/core/kit';

// WGSL shared by the SpMV kernels: one parameter block layout, the linear workgroup index of a
// (possibly 2-D) dispatch, the row search on `row_ptr`, and the blend with beta·y.

/**
 * The parameters of every SpMV kernel, in struct order: four counts whose meaning each kernel
 * documents, alpha and beta, the dispatch width (`dispatch_x`, see core's `dispatchShape`) and one
 * more count. Every SpMV kernel declares all of them (one block layout for the family).
 *
 * @example
 * ```ts
 * const kernel = defineKernel({ name: 'spmv/example', bindings: { y: readWrite('array<f32>') }, params: { ...SPMV_PARAMS }, wgsl: () => '...' });
 * ```
 */
export const SPMV_PARAMS = {
  n0: 'u32',
  n1: 'u32',
  n2: 'u32',
  n3: 'u32',
  alpha: 'f32',
  beta: 'f32',
  dispatch_x: 'u32',
  n4: 'u32',
} as const satisfies ParamFields;

/**
 * The values of {@link SPMV_PARAMS}, by name.
 *
 * @example
 * ```ts
 * const values: SpmvParamValues = spmvParamValues({ n0: rows, dispatch_x: 1 });
 * ```
 */
export type SpmvParamValues = ParamValues<typeof SPMV_PARAMS>;

/**
 * A full set of {@link SPMV_PARAMS} values from those a kernel reads: counts not given are 0,
 * alpha 1 and beta 0 unless given.
 *
 * @example
 * ```ts
 * b.dispatch(kernel, bindings, workgroups, spmvParamValues({ n0: rows, n1: nnz, dispatch_x: dispatchShape(workgroups, maxDim).x }));
 * ```
 */
export function spmvParamValues(values: Partial<SpmvParamValues> & { readonly dispatch_x: number }): SpmvParamValues {
  return { n0: 0, n1: 0, n2: 0, n3: 0, alpha: 1, beta: 0, n4: 0, ...values };
}

/**
 * `upper_row(p, rows)`: the last row r ≤ rows − 1 with `row_ptr[r] ≤ p` (the row that holds nonzero
 * p; empty rows before it are skipped because their `row_ptr` equals the next one). Needs a
 * `row_ptr` binding.
 *
 * @example
 * ```ts
 * const wgsl = `${ROW_SEARCH_WGSL} ... let r = upper_row(i, params.n0);`;
 * ```
 */
export const ROW_SEARCH_WGSL = `
fn upper_row(p: u32, rows: u32) -> u32 {
  var lo = 0u;
  var hi = rows;
  while (hi - lo > 1u) {
    let mid = (lo + hi) >> 1u;
    if (row_ptr[mid] <= p) { lo = mid; } else { hi = mid; }
  }
  return lo;
}
`;

/**
 * The WGSL expression of one output: `alpha·sum + beta·old`, where the old value is read only when
 * `readY` (beta ≠ 0), so NaN in an unread y never leaks in (BLAS semantics).
 *
 * @example
 * ```ts
 * `y[r] = ${blendWgsl('sum', 'y[r]', readY)};`
 * ```
 */
export function blendWgsl(sum: string, old: string, readY: boolean): string {
  return readY ? `params.alpha * ${sum} + params.beta * ${old}` : `params.alpha * ${sum}`;
}

/** The linear index of this workgroup in a dispatch that may be 2-D. */
export const WORKGROUP_INDEX_WGSL = 'let wg_index = wid.x + wid.y * params.dispatch_x;';
