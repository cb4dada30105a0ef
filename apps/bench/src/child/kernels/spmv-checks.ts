import { defineKernel, read, readWrite } from '@scan/core/kit';
import { POISON } from '../workload.js';
import { COMMON_WGSL, ENTRY_ARGS, ERROR_BINDING, ERROR_WGSL, WG } from './common.js';

// The checks of the SpMV cases, written here rather than taken from `@scan/spmv`: one invocation
// per row sums the row serially in f32 — the simplest possible SpMV, sharing nothing with the
// library's four algorithms — and the transposed product is checked through the identity
// wᵀ(Aᵀx) = (Aw)ᵀx for a random w, so no transpose of the bench's own is needed.

/** The `first` index a check reports when wᵀ(Aᵀx) and (Aw)ᵀx differ beyond the bound. */
export const IDENTITY_MISMATCH = 0xfffffffc;

/** Relative error allowed per term of a row: 1e-5·(L + 2), L the row's length (far above f32's 6e-8 per rounding). */
export const SPMV_RELATIVE_TOLERANCE = 1e-5;

/** The CSR bindings the row kernels read (rowPtr, colIdx, values). */
const CSR_IN = { row_ptr: read('array<u32>'), col_idx: read('array<u32>'), vals: read('array<f32>') } as const;

/**
 * WGSL of `check_structure(r)`: row r of the generated matrix must be well formed — rowPtr[0] = 0,
 * rowPtr[rows] = nnz, rowPtr monotone — counted as a mismatch at r (a wrong generator or upload
 * must fail, not be multiplied). Needs the parameters `rows` and `nnz`.
 */
const STRUCTURE_WGSL = `
fn check_structure(r: u32) -> bool {
  let lo = row_ptr[r];
  let hi = row_ptr[r + 1u];
  var ok = lo <= hi && hi <= params.nnz;
  if (r == 0u && lo != 0u) { ok = false; }
  if (r + 1u == params.rows && hi != params.nnz) { ok = false; }
  if (!ok) { mismatch(r); }
  return ok;
}
`;

/**
 * The row check of `spmv` and `spmm`, one invocation per output t = r·k + j (row r, column j of
 * k): the row's products a·x[col·k + j] summed serially in f32, and |y[t] − sum| ≤ 1e-5·(L + 2)·
 * Σ|a·x| + 1e-30 required (L the row's length; NaN, infinite or poisoned y fail). A column index
 * past `cols` or a malformed row is a mismatch too. Bindings: the CSR (`row_ptr`, `col_idx`,
 * `vals`), `x`, `y`, `err`; parameters `rows`, `k`, `cols`, `nnz`.
 */
const rowCheck = defineKernel({
  name: 'bench/check-spmv/rows',
  bindings: { ...CSR_IN, x: read('array<f32>'), y: read('array<f32>'), ...ERROR_BINDING },
  params: { rows: 'u32', k: 'u32', cols: 'u32', nnz: 'u32' },
  wgsl: () => `${COMMON_WGSL}${ERROR_WGSL}
${STRUCTURE_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let t = global_index(wid, nwg, lid);
  let k = params.k;
  if (t >= params.rows * k) { return; }
  let r = t / k;
  let j = t % k;
  if (!check_structure(r)) { return; }
  let lo = row_ptr[r];
  let hi = row_ptr[r + 1u];
  var sum = 0.0;
  var mag = 0.0;
  for (var q = lo; q < hi; q++) {
    let c = col_idx[q];
    if (c >= params.cols) { mismatch(t); return; }
    let v = vals[q] * x[c * k + j];
    sum += v;
    mag += abs(v);
  }
  let got = y[t];
  let bound = ${SPMV_RELATIVE_TOLERANCE} * f32(hi - lo + 2u) * mag + 1e-30;
  if (bitcast<u32>(got) == ${POISON}u || !(abs(got - sum) <= bound)) { mismatch(t); }
}
`,
})({});

/**
 * Column lengths C_c of A (for the transposed check's bound), one invocation per nonzero: an
 * atomic increment of `counts[col]` (cleared before). Parameters: `nnz`, `cols` (an index past
 * cols is skipped here and counted by the row kernel).
 */
const columnCounts = defineKernel({
  name: 'bench/check-spmv/column-counts',
  bindings: { col_idx: read('array<u32>'), counts: readWrite('array<atomic<u32>>') },
  params: { nnz: 'u32', cols: 'u32' },
  wgsl: () => `${COMMON_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let t = global_index(wid, nwg, lid);
  if (t < params.nnz && col_idx[t] < params.cols) { atomicAdd(&counts[col_idx[t]], 1u); }
}
`,
})({});

/**
 * Packs w with its weight for the transposed check, one invocation per column c:
 * `packed[c]` = (w_c, |w_c|·(C_c + 6)), so the row kernel binds one buffer for both (a stage may
 * bind only 8 storage buffers). Bindings: `w`, `col_len` (the column lengths), `packed`; parameter
 * `cols`.
 */
const packWeights = defineKernel({
  name: 'bench/check-spmv/pack-weights',
  bindings: { w: read('array<f32>'), col_len: read('array<u32>'), packed: readWrite('array<vec2<f32>>') },
  params: { cols: 'u32' },
  wgsl: () => `${COMMON_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let c = global_index(wid, nwg, lid);
  if (c < params.cols) { packed[c] = vec2<f32>(w[c], abs(w[c]) * f32(col_len[c] + 6u)); }
}
`,
})({});

/**
 * First half of the transposed check, one invocation per row r of A: (Aw)_r summed serially with
 * Kahan compensation (its error then stays near 2ε·Σ|a·w| however long the row — the biased
 * matrices have a row of n entries), `dot_terms[r]` = (Aw)_r·x_r, and `mag_terms[r]` =
 * |x_r|·Σ_c |a_rc|·|w_c|·(C_c + 6), C_c the length of column c. Summed over r: (Aw)ᵀx, and the
 * weighted magnitude whose 1e-5 multiple bounds the identity (see {@link identity}). Checks the
 * row's structure and column range like the row check. Bindings: the CSR, `packed`
 * (w_c, |w_c|·(C_c + 6)), `x`, `dot_terms`, `mag_terms`, `err`; parameters `rows`, `cols`, `nnz`.
 */
const transposedRows = defineKernel({
  name: 'bench/check-spmv/transposed-rows',
  bindings: {
    ...CSR_IN,
    packed: read('array<vec2<f32>>'),
    x: read('array<f32>'),
    dot_terms: readWrite('array<f32>'),
    mag_terms: readWrite('array<f32>'),
    ...ERROR_BINDING,
  },
  params: { rows: 'u32', cols: 'u32', nnz: 'u32' },
  wgsl: () => `${COMMON_WGSL}${ERROR_WGSL}
${STRUCTURE_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let r = global_index(wid, nwg, lid);
  if (r >= params.rows) { return; }
  dot_terms[r] = 0.0;
  mag_terms[r] = 0.0;
  if (!check_structure(r)) { return; }
  var sum = 0.0;
  var carry = 0.0;
  var mag = 0.0;
  for (var q = row_ptr[r]; q < row_ptr[r + 1u]; q++) {
    let c = col_idx[q];
    if (c >= params.cols) { mismatch(r); return; }
    let wc = packed[c];
    let v = vals[q] * wc.x;
    let term = v - carry;
    let next = sum + term;
    carry = (next - sum) - term;
    sum = next;
    mag += abs(vals[q]) * wc.y;
  }
  dot_terms[r] = sum * x[r];
  mag_terms[r] = mag * abs(x[r]);
}
`,
})({});

/**
 * Second half, one invocation per column c (an output of Aᵀx): `terms[c]` = w_c·y_c, and y_c must
 * be finite and not the poison (an unwritten output fails here, whatever the identity says).
 * Mismatches at c. Bindings: `w`, `y`, `terms`, `err`; parameter `cols`.
 */
const transposedColumns = defineKernel({
  name: 'bench/check-spmv/transposed-columns',
  bindings: { w: read('array<f32>'), y: read('array<f32>'), terms: readWrite('array<f32>'), ...ERROR_BINDING },
  params: { cols: 'u32' },
  wgsl: () => `${COMMON_WGSL}${ERROR_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let c = global_index(wid, nwg, lid);
  if (c >= params.cols) { return; }
  let bits = bitcast<u32>(y[c]);
  if (bits == ${POISON}u || (bits & 0x7f800000u) == 0x7f800000u) { mismatch(c); terms[c] = 0.0; return; }
  terms[c] = w[c] * y[c];
}
`,
})({});

/**
 * The identity wᵀ(Aᵀx) = (Aw)ᵀx, one invocation: |wᵀy − (Aw)ᵀx| ≤ 1e-5·W + 1e-30 with
 * W = Σ_r |x_r|·Σ_c |a_rc·w_c|·(C_c + 6). Why that bound: each y_c = (Aᵀx)_c may err by
 * 1e-5·(C_c + 2)·Σ_r |a_rc·x_r| (the row check's bound, for a row of Aᵀ), so wᵀy by
 * 1e-5·Σ_c |w_c|·(C_c + 2)·Σ_r |a_rc·x_r|; the compensated (Aw)_r err by about 2ε·Σ|a·w|; and the
 * three f32 tree sums by at most 48 roundings (3e-6) of their magnitude — all inside the 4 more
 * units per term. A failure is reported at {@link IDENTITY_MISMATCH}. Bindings: `lhs` (wᵀy), `rhs`
 * ((Aw)ᵀx), `weighted` (W), `err`.
 */
const identity = defineKernel({
  name: 'bench/check-spmv/identity',
  bindings: { lhs: read('array<f32>'), rhs: read('array<f32>'), weighted: read('array<f32>'), ...ERROR_BINDING },
  wgsl: () => `${ERROR_WGSL}
@compute @workgroup_size(1) fn main() {
  let bound = ${SPMV_RELATIVE_TOLERANCE} * weighted[0] + 1e-30;
  if (!(abs(lhs[0] - rhs[0]) <= bound)) { mismatch(${IDENTITY_MISMATCH}u); }
}
`,
})({});

/**
 * The kernels of the SpMV checks.
 *
 * @example
 * ```ts
 * const params = pool.params(SPMV_CHECKS.rows, { rows, k, cols, nnz });
 * encodeKernel(ctx, encoder, SPMV_CHECKS.rows, { row_ptr, col_idx, vals, x, y, err: errors, params }, { invocations: rows * k });
 * ```
 */
export const SPMV_CHECKS = { rows: rowCheck, columnCounts, packWeights, transposedRows, transposedColumns, identity } as const;
