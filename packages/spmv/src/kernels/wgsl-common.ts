// WGSL shared by the SpMV kernels: one uniform block layout, the linear workgroup index of a
// (possibly 2-D) dispatch, the row search on `row_ptr`, and the blend with beta·y.

/**
 * The uniform block of every SpMV kernel: four counts whose meaning each kernel documents, alpha and
 * beta as f32, the dispatch width (`dispatch_x`, see core's `dispatchShape`) and one more count.
 */
export const SPMV_PARAMS_WGSL = `
struct Params { n0: u32, n1: u32, n2: u32, n3: u32, alpha: f32, beta: f32, dispatch_x: u32, n4: u32 }
`;

const f32Bits = new Float32Array(1);
const u32Bits = new Uint32Array(f32Bits.buffer);

/**
 * The words of {@link SPMV_PARAMS_WGSL}: `counts` fill n0…n3 (missing ones are 0), then alpha and
 * beta as f32 bits, the dispatch width and n4.
 *
 * @example
 * ```ts
 * b.paramBlock(spmvParams([rows, nnz], dispatchShape(workgroups, maxDim).x, { alpha: 2, beta: 0 }));
 * ```
 */
export function spmvParams(counts: readonly number[], dispatchX: number, scale: { alpha?: number; beta?: number } = {}, n4 = 0): number[] {
  const words = [0, 0, 0, 0].map((zero, i) => counts[i] ?? zero);
  f32Bits[0] = scale.alpha ?? 1;
  const alpha = u32Bits[0] as number;
  f32Bits[0] = scale.beta ?? 0;
  const beta = u32Bits[0] as number;
  return [...words, alpha, beta, dispatchX, n4];
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
