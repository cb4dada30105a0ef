import type { MatrixFamily } from '../../spmv-suite.js';
import { POWERLAW } from '../../spmv-suite.js';
import { COMMON_WGSL, ENTRY_ARGS, WG } from './common.js';
import { HASH_WGSL } from './fill.js';

// The generators of the SpMV suite, on the GPU (DESIGN.md: large inputs never pass through the JS
// heap in Node). Every matrix is written as CSR into three buffers — rowPtr (rows + 1 u32),
// colIdx (u32), values (f32) — with the same definitions as `@scan/spmv`'s CPU generators, values
// drawn from the bench's seeded hash instead of its RNG. Each kernel writes rowPtr in closed form
// where one exists, so no scan is needed.

/**
 * WGSL of `unit_value(h)`: a hash word as a uniform f32 in [−1, 1) on the grid k·2^-23 − 1 (exact),
 * never 0 (the k that would give 0 gives −1), and `levels_of(n)` = ⌈log2 n⌉ (0 for n ≤ 1).
 */
export const SPMV_VALUE_WGSL = `
fn unit_value(h: u32) -> f32 {
  var k = h >> 8u;
  if (k == 0x800000u) { k = 0u; }
  return f32(k) * 1.1920929e-7 - 1.0;
}
fn levels_of(n: u32) -> u32 {
  if (n <= 1u) { return 0u; }
  return 32u - countLeadingZeros(n - 1u);
}
`;

/** The CSR bindings every structural generator writes: 0 rowPtr, 1 colIdx, 2 values, 3 params. */
const CSR_OUT_WGSL = `
@group(0) @binding(0) var<storage, read_write> row_ptr: array<u32>;
@group(0) @binding(1) var<storage, read_write> col_idx: array<u32>;
@group(0) @binding(2) var<storage, read_write> vals: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;
`;

/**
 * 5-point Laplacian of an s×s grid (`p.a` = s, `p.n` = s² rows), one invocation per row: 4 on the
 * diagonal, −1 for each neighbour, columns ascending (i − s, i − 1, i, i + 1, i + s where they
 * exist). Row i starts at 5i minus the neighbours the rows before it lack:
 * ⌈i/s⌉ left edges, ⌊i/s⌋ right edges, min(i, s) top-row rows, max(0, i − s(s − 1)) bottom-row rows.
 */
function poissonWgsl(): string {
  return `${COMMON_WGSL}${CSR_OUT_WGSL}
fn row_start(i: u32, s: u32) -> u32 {
  let n = s * s;
  return 5u * i - (i + s - 1u) / s - i / s - min(i, s) - select(0u, i - (n - s), i > n - s);
}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  let s = p.a;
  if (i > p.n) { return; }
  row_ptr[i] = row_start(i, s);
  if (i == p.n) { return; }
  var k = row_start(i, s);
  let x = i % s;
  let y = i / s;
  if (y > 0u) { col_idx[k] = i - s; vals[k] = -1.0; k++; }
  if (x > 0u) { col_idx[k] = i - 1u; vals[k] = -1.0; k++; }
  col_idx[k] = i; vals[k] = 4.0; k++;
  if (x + 1u < s) { col_idx[k] = i + 1u; vals[k] = -1.0; k++; }
  if (y + 1u < s) { col_idx[k] = i + s; vals[k] = -1.0; }
}
`;
}

/**
 * The paper's biased matrix (`p.n` = n rows, `p.a` seed): row 0 full, every other row r only (r, r);
 * nnz = 2n − 1. One invocation per nonzero (a per-row kernel would walk row 0's n entries alone):
 * entry t < n is (0, t), entry t ≥ n is (t − n + 1, t − n + 1); row r ≥ 1 starts at n + r − 1.
 */
function biasedWgsl(): string {
  return `${COMMON_WGSL}${HASH_WGSL}${SPMV_VALUE_WGSL}${CSR_OUT_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let t = global_index(wid, nwg, lid);
  let n = p.n;
  if (t <= n) { row_ptr[t] = select(n + t - 1u, 0u, t == 0u); }
  if (t >= 2u * n - 1u) { return; }
  col_idx[t] = select(t - n + 1u, t, t < n);
  vals[t] = unit_value(rand(t, p.a));
}
`;
}

/**
 * Uniform rows (`p.n` rows, `p.b` cols, `p.a` seed) of K = min(16, cols) distinct columns each,
 * ascending: [0, cols) is split into K equal strata (the first cols mod K one wider) and entry j of
 * a row takes one hashed column of stratum j. Every row has the same length and the columns spread
 * over the whole range like uniform draws; unlike `uniformRandomMatrix` two columns never share a
 * stratum. One invocation per nonzero; row r starts at r·K.
 */
function uniformWgsl(): string {
  return `${COMMON_WGSL}${HASH_WGSL}${SPMV_VALUE_WGSL}${CSR_OUT_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let t = global_index(wid, nwg, lid);
  let cols = p.b;
  let per_row = min(16u, cols);
  if (t <= p.n) { row_ptr[t] = t * per_row; }
  if (t >= p.n * per_row) { return; }
  let j = t % per_row;
  let q = cols / per_row;
  let rem = cols % per_row;
  let lo = j * q + min(j, rem);
  let width = q + select(0u, 1u, j < rem);
  col_idx[t] = lo + rand(t, p.a ^ 0x3c6ef372u) % width;
  vals[t] = unit_value(rand(t, p.a));
}
`;
}

/**
 * Band matrix (`p.n` = n, `p.a` seed, `p.b` lower, `p.c` upper, both ≤ n − 1), one invocation per
 * row: columns max(0, r − lower) … min(n − 1, r + upper), off-diagonals hashed in [−1, 1), the
 * diagonal 1 + Σ|off-diagonals| (diagonally dominant, as `bandedMatrix`). Row r starts at
 * r·(lower + upper + 1) minus the entries clipped from the rows before it: m·lower − m(m − 1)/2 at
 * the top (m = min(r, lower)) and t(t + 1)/2 at the bottom (t = max(0, r − (n − upper))).
 */
function bandedWgsl(): string {
  return `${COMMON_WGSL}${HASH_WGSL}${SPMV_VALUE_WGSL}${CSR_OUT_WGSL}
fn row_start(r: u32) -> u32 {
  let l = p.b;
  let u = p.c;
  let m = min(r, l);
  let t = select(0u, r - (p.n - u), r > p.n - u);
  return r * (l + u + 1u) - (m * l - m * (m - 1u) / 2u) - t * (t + 1u) / 2u;
}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let r = global_index(wid, nwg, lid);
  if (r > p.n) { return; }
  let start = row_start(r);
  row_ptr[r] = start;
  if (r == p.n) { return; }
  let first = r - min(r, p.b);
  let last = min(p.n - 1u, r + p.c);
  var off = 0.0;
  var diagonal = 0u;
  for (var c = first; c <= last; c++) {
    let k = start + (c - first);
    col_idx[k] = c;
    if (c == r) {
      diagonal = k;
    } else {
      let v = unit_value(rand(k, p.a));
      vals[k] = v;
      off += abs(v);
    }
  }
  vals[diagonal] = 1.0 + off;
}
`;
}

/** Draws of one R-MAT edge before its row and column are folded into range (see {@link rmatEdgesWgsl}). */
export const RMAT_ATTEMPTS = 64;

/** A probability as a 32-bit threshold (`u < threshold` with u a uniform u32). */
function threshold(p: number): number {
  return Math.min(0xffffffff, Math.round(p * 2 ** 32));
}

/**
 * R-MAT edges (`p.n` edges, `p.a` seed, `p.b` rows, `p.c` cols), one invocation per edge e: at each
 * of ⌈log2 max(rows, cols)⌉ levels a hash picks the top-left, top-right, bottom-left or bottom-right
 * quadrant with probabilities a, b, c, d (Graph500's 0.57, 0.19, 0.19, 0.05), appending a row bit
 * and a column bit. An edge outside rows×cols is drawn again with another hash stream; after
 * {@link RMAT_ATTEMPTS} draws (never seen: at 4M rows about 0.9 of the draws land inside) it is
 * folded in by modulo. Writes the edge's row to `rows_out[e]` and its column to `cols_out[e]`.
 * Bindings: 0 rows_out, 1 cols_out, 2 params.
 */
function rmatEdgesWgsl(): string {
  const ta = threshold(POWERLAW.a);
  const tb = threshold(POWERLAW.a + POWERLAW.b);
  const tc = threshold(POWERLAW.a + POWERLAW.b + POWERLAW.c);
  return `${COMMON_WGSL}${HASH_WGSL}${SPMV_VALUE_WGSL}
@group(0) @binding(0) var<storage, read_write> rows_out: array<u32>;
@group(0) @binding(1) var<storage, read_write> cols_out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let e = global_index(wid, nwg, lid);
  if (e >= p.n) { return; }
  let levels = max(levels_of(p.b), levels_of(p.c));
  var row = 0u;
  var col = 0u;
  for (var attempt = 0u; attempt < ${RMAT_ATTEMPTS}u; attempt++) {
    var h = rand(e, p.a + attempt * 0x9e3779b9u);
    row = 0u;
    col = 0u;
    for (var l = 0u; l < levels; l++) {
      h = pcg(h ^ 0x68e31da4u);
      let row_bit = select(0u, 1u, h >= ${tb}u);
      let col_bit = select(0u, 1u, (h >= ${ta}u && h < ${tb}u) || h >= ${tc}u);
      row = (row << 1u) | row_bit;
      col = (col << 1u) | col_bit;
    }
    if (row < p.b && col < p.c) { break; }
  }
  rows_out[e] = row % p.b;
  cols_out[e] = col % p.c;
}
`;
}

/**
 * rowPtr of edges sorted by row (`p.n` edges, `p.b` rows): one invocation per r ≤ rows writes the
 * lower bound of r in the sorted rows (binary search), so rowPtr[rows] = edges. Also writes each
 * nonzero's value from the hash (`p.a` seed): invocation t < edges. Bindings: 0 sorted rows,
 * 1 rowPtr, 2 values, 3 params.
 */
function rowPtrFromSortedWgsl(): string {
  return `${COMMON_WGSL}${HASH_WGSL}${SPMV_VALUE_WGSL}
@group(0) @binding(0) var<storage, read> sorted_rows: array<u32>;
@group(0) @binding(1) var<storage, read_write> row_ptr: array<u32>;
@group(0) @binding(2) var<storage, read_write> vals: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let t = global_index(wid, nwg, lid);
  if (t < p.n) { vals[t] = unit_value(rand(t, p.a)); }
  if (t > p.b) { return; }
  var lo = 0u;
  var hi = p.n;
  while (lo < hi) {
    let mid = lo + (hi - lo) / 2u;
    if (sorted_rows[mid] < t) { lo = mid + 1u; } else { hi = mid; }
  }
  row_ptr[t] = lo;
}
`;
}

/**
 * A random vector (`p.n` values, `p.a` seed): element i = `unit_value(rand(i, seed))`, in [−1, 1).
 * Bindings: 0 out, 1 params.
 */
function vectorWgsl(): string {
  return `${COMMON_WGSL}${HASH_WGSL}${SPMV_VALUE_WGSL}
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var<uniform> p: Params;
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i < p.n) { out[i] = unit_value(rand(i, p.a)); }
}
`;
}

/**
 * The generator kernel of each family written in one pass (R-MAT takes two kernels around a sort).
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, CSR_GENERATORS.biased, [rowPtr, colIdx, values, pool.params(n, seed)], { invocations: 2 * n });
 * ```
 */
export const CSR_GENERATORS: Readonly<Record<Exclude<MatrixFamily, 'powerlaw'>, { key: string; wgsl: () => string }>> = {
  poisson2d: { key: 'bench/spmv-gen/poisson2d', wgsl: poissonWgsl },
  biased: { key: 'bench/spmv-gen/biased', wgsl: biasedWgsl },
  uniform: { key: 'bench/spmv-gen/uniform', wgsl: uniformWgsl },
  banded: { key: 'bench/spmv-gen/banded', wgsl: bandedWgsl },
};

/**
 * The R-MAT edge generator.
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, RMAT_EDGES_KERNEL, [rowsOut, colsOut, pool.params(edges, seed, rows, cols)], { invocations: edges });
 * ```
 */
export const RMAT_EDGES_KERNEL = { key: 'bench/spmv-gen/rmat-edges', wgsl: rmatEdgesWgsl };

/**
 * rowPtr (and values) of a matrix whose nonzeros are sorted by row.
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, ROW_PTR_FROM_SORTED_KERNEL, [sortedRows, rowPtr, values, pool.params(nnz, seed, rows)], { invocations: Math.max(nnz, rows + 1) });
 * ```
 */
export const ROW_PTR_FROM_SORTED_KERNEL = { key: 'bench/spmv-gen/row-ptr-from-sorted', wgsl: rowPtrFromSortedWgsl };

/**
 * The random-vector generator (x of the products, w of the transposed check).
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, SPMV_VECTOR_KERNEL, [x, pool.params(length, seed)], { invocations: length });
 * ```
 */
export const SPMV_VECTOR_KERNEL = { key: 'bench/spmv-gen/vector', wgsl: vectorWgsl };
