import { defineKernel, read, readWrite } from '@scan/core/kit';
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

/** The CSR bindings every structural generator writes (rowPtr, colIdx, values). */
const CSR_OUT = { row_ptr: readWrite('array<u32>'), col_idx: readWrite('array<u32>'), vals: readWrite('array<f32>') } as const;

/**
 * 5-point Laplacian of an s×s grid (parameters `side` = s, `rows` = s²), one invocation per row: 4 on the
 * diagonal, −1 for each neighbour, columns ascending (i − s, i − 1, i, i + 1, i + s where they
 * exist). Row i starts at 5i minus the neighbours the rows before it lack:
 * ⌈i/s⌉ left edges, ⌊i/s⌋ right edges, min(i, s) top-row rows, max(0, i − s(s − 1)) bottom-row rows.
 */
const poisson = defineKernel({
  name: 'bench/spmv-gen/poisson2d',
  bindings: CSR_OUT,
  params: { rows: 'u32', side: 'u32' },
  wgsl: () => `${COMMON_WGSL}
fn row_start(i: u32, s: u32) -> u32 {
  let n = s * s;
  return 5u * i - (i + s - 1u) / s - i / s - min(i, s) - select(0u, i - (n - s), i > n - s);
}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  let s = params.side;
  if (i > params.rows) { return; }
  row_ptr[i] = row_start(i, s);
  if (i == params.rows) { return; }
  var k = row_start(i, s);
  let x = i % s;
  let y = i / s;
  if (y > 0u) { col_idx[k] = i - s; vals[k] = -1.0; k++; }
  if (x > 0u) { col_idx[k] = i - 1u; vals[k] = -1.0; k++; }
  col_idx[k] = i; vals[k] = 4.0; k++;
  if (x + 1u < s) { col_idx[k] = i + 1u; vals[k] = -1.0; k++; }
  if (y + 1u < s) { col_idx[k] = i + s; vals[k] = -1.0; }
}
`,
})({});

/**
 * The paper's biased matrix (parameters `rows` = n, `seed`): row 0 full, every other row r only (r, r);
 * nnz = 2n − 1. One invocation per nonzero (a per-row kernel would walk row 0's n entries alone):
 * entry t < n is (0, t), entry t ≥ n is (t − n + 1, t − n + 1); row r ≥ 1 starts at n + r − 1.
 */
const biased = defineKernel({
  name: 'bench/spmv-gen/biased',
  bindings: CSR_OUT,
  params: { rows: 'u32', seed: 'u32' },
  wgsl: () => `${COMMON_WGSL}${HASH_WGSL}${SPMV_VALUE_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let t = global_index(wid, nwg, lid);
  let n = params.rows;
  if (t <= n) { row_ptr[t] = select(n + t - 1u, 0u, t == 0u); }
  if (t >= 2u * n - 1u) { return; }
  col_idx[t] = select(t - n + 1u, t, t < n);
  vals[t] = unit_value(rand(t, params.seed));
}
`,
})({});

/**
 * Uniform rows (parameters `rows`, `cols`, `seed`) of K = min(16, cols) distinct columns each,
 * ascending: [0, cols) is split into K equal strata (the first cols mod K one wider) and entry j of
 * a row takes one hashed column of stratum j. Every row has the same length and the columns spread
 * over the whole range like uniform draws; unlike `uniformRandomMatrix` two columns never share a
 * stratum. One invocation per nonzero; row r starts at r·K.
 */
const uniform = defineKernel({
  name: 'bench/spmv-gen/uniform',
  bindings: CSR_OUT,
  params: { rows: 'u32', seed: 'u32', cols: 'u32' },
  wgsl: () => `${COMMON_WGSL}${HASH_WGSL}${SPMV_VALUE_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let t = global_index(wid, nwg, lid);
  let cols = params.cols;
  let per_row = min(16u, cols);
  if (t <= params.rows) { row_ptr[t] = t * per_row; }
  if (t >= params.rows * per_row) { return; }
  let j = t % per_row;
  let q = cols / per_row;
  let rem = cols % per_row;
  let lo = j * q + min(j, rem);
  let width = q + select(0u, 1u, j < rem);
  col_idx[t] = lo + rand(t, params.seed ^ 0x3c6ef372u) % width;
  vals[t] = unit_value(rand(t, params.seed));
}
`,
})({});

/**
 * Band matrix (parameters `rows` = n, `seed`, `lower`, `upper`, both ≤ n − 1), one invocation per
 * row: columns max(0, r − lower) … min(n − 1, r + upper), off-diagonals hashed in [−1, 1), the
 * diagonal 1 + Σ|off-diagonals| (diagonally dominant, as `bandedMatrix`). Row r starts at
 * r·(lower + upper + 1) minus the entries clipped from the rows before it: m·lower − m(m − 1)/2 at
 * the top (m = min(r, lower)) and t(t + 1)/2 at the bottom (t = max(0, r − (n − upper))).
 */
const banded = defineKernel({
  name: 'bench/spmv-gen/banded',
  bindings: CSR_OUT,
  params: { rows: 'u32', seed: 'u32', lower: 'u32', upper: 'u32' },
  wgsl: () => `${COMMON_WGSL}${HASH_WGSL}${SPMV_VALUE_WGSL}
fn row_start(r: u32) -> u32 {
  let l = params.lower;
  let u = params.upper;
  let m = min(r, l);
  let t = select(0u, r - (params.rows - u), r > params.rows - u);
  return r * (l + u + 1u) - (m * l - m * (m - 1u) / 2u) - t * (t + 1u) / 2u;
}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let r = global_index(wid, nwg, lid);
  if (r > params.rows) { return; }
  let start = row_start(r);
  row_ptr[r] = start;
  if (r == params.rows) { return; }
  let first = r - min(r, params.lower);
  let last = min(params.rows - 1u, r + params.upper);
  var off = 0.0;
  var diagonal = 0u;
  for (var c = first; c <= last; c++) {
    let k = start + (c - first);
    col_idx[k] = c;
    if (c == r) {
      diagonal = k;
    } else {
      let v = unit_value(rand(k, params.seed));
      vals[k] = v;
      off += abs(v);
    }
  }
  vals[diagonal] = 1.0 + off;
}
`,
})({});

/** Draws of one R-MAT edge before its row and column are folded into range (see {@link RMAT_EDGES_KERNEL}). */
export const RMAT_ATTEMPTS = 64;

/** A probability as a 32-bit threshold (`u < threshold` with u a uniform u32). */
function threshold(p: number): number {
  return Math.min(0xffffffff, Math.round(p * 2 ** 32));
}

/**
 * R-MAT edges (parameters `edges`, `seed`, `rows`, `cols`), one invocation per edge e: at each
 * of ⌈log2 max(rows, cols)⌉ levels a hash picks the top-left, top-right, bottom-left or bottom-right
 * quadrant with probabilities a, b, c, d (Graph500's 0.57, 0.19, 0.19, 0.05), appending a row bit
 * and a column bit. An edge outside rows×cols is drawn again with another hash stream; after
 * {@link RMAT_ATTEMPTS} draws (never seen: at 4M rows about 0.9 of the draws land inside) it is
 * folded in by modulo. Writes the edge's row to `rows_out[e]` and its column to `cols_out[e]`.
 */
const rmatEdges = defineKernel({
  name: 'bench/spmv-gen/rmat-edges',
  bindings: { rows_out: readWrite('array<u32>'), cols_out: readWrite('array<u32>') },
  params: { edges: 'u32', seed: 'u32', rows: 'u32', cols: 'u32' },
  wgsl: () => {
    const ta = threshold(POWERLAW.a);
    const tb = threshold(POWERLAW.a + POWERLAW.b);
    const tc = threshold(POWERLAW.a + POWERLAW.b + POWERLAW.c);
    return `${COMMON_WGSL}${HASH_WGSL}${SPMV_VALUE_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let e = global_index(wid, nwg, lid);
  if (e >= params.edges) { return; }
  let levels = max(levels_of(params.rows), levels_of(params.cols));
  var row = 0u;
  var col = 0u;
  for (var attempt = 0u; attempt < ${RMAT_ATTEMPTS}u; attempt++) {
    var h = rand(e, params.seed + attempt * 0x9e3779b9u);
    row = 0u;
    col = 0u;
    for (var l = 0u; l < levels; l++) {
      h = pcg(h ^ 0x68e31da4u);
      let row_bit = select(0u, 1u, h >= ${tb}u);
      let col_bit = select(0u, 1u, (h >= ${ta}u && h < ${tb}u) || h >= ${tc}u);
      row = (row << 1u) | row_bit;
      col = (col << 1u) | col_bit;
    }
    if (row < params.rows && col < params.cols) { break; }
  }
  rows_out[e] = row % params.rows;
  cols_out[e] = col % params.cols;
}
`;
  },
})({});

/**
 * rowPtr of edges sorted by row (parameters `nnz` edges, `rows`): one invocation per r ≤ rows writes the
 * lower bound of r in the sorted rows (binary search), so rowPtr[rows] = edges. Also writes each
 * nonzero's value from the hash (parameter `seed`): invocation t < edges.
 */
const rowPtrFromSorted = defineKernel({
  name: 'bench/spmv-gen/row-ptr-from-sorted',
  bindings: { sorted_rows: read('array<u32>'), row_ptr: readWrite('array<u32>'), vals: readWrite('array<f32>') },
  params: { nnz: 'u32', seed: 'u32', rows: 'u32' },
  wgsl: () => `${COMMON_WGSL}${HASH_WGSL}${SPMV_VALUE_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let t = global_index(wid, nwg, lid);
  if (t < params.nnz) { vals[t] = unit_value(rand(t, params.seed)); }
  if (t > params.rows) { return; }
  var lo = 0u;
  var hi = params.nnz;
  while (lo < hi) {
    let mid = lo + (hi - lo) / 2u;
    if (sorted_rows[mid] < t) { lo = mid + 1u; } else { hi = mid; }
  }
  row_ptr[t] = lo;
}
`,
})({});

/**
 * A random vector (parameters `n` values, `seed`): element i = `unit_value(rand(i, seed))`, in [−1, 1).
 */
const vector = defineKernel({
  name: 'bench/spmv-gen/vector',
  bindings: { out: readWrite('array<f32>') },
  params: { n: 'u32', seed: 'u32' },
  wgsl: () => `${COMMON_WGSL}${HASH_WGSL}${SPMV_VALUE_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i < params.n) { out[i] = unit_value(rand(i, params.seed)); }
}
`,
})({});

/**
 * The generator kernel of each family written in one pass (R-MAT takes two kernels around a sort),
 * each writing the CSR (`row_ptr`, `col_idx`, `vals`) with its own parameters.
 *
 * @example
 * ```ts
 * const params = pool.params(CSR_GENERATORS.biased, { rows: n, seed });
 * encodeKernel(ctx, encoder, CSR_GENERATORS.biased, { row_ptr, col_idx, vals, params }, { invocations: 2 * n });
 * ```
 */
export const CSR_GENERATORS = { poisson2d: poisson, biased, uniform, banded } as const satisfies Record<
  Exclude<MatrixFamily, 'powerlaw' | 'stencil27' | 'geometric' | 'rmat'>,
  unknown
>;

/**
 * The R-MAT edge generator.
 *
 * @example
 * ```ts
 * const params = pool.params(RMAT_EDGES_KERNEL, { edges, seed, rows, cols });
 * encodeKernel(ctx, encoder, RMAT_EDGES_KERNEL, { rows_out: rowsOut, cols_out: colsOut, params }, { invocations: edges });
 * ```
 */
export const RMAT_EDGES_KERNEL = rmatEdges;

/**
 * rowPtr (and values) of a matrix whose nonzeros are sorted by row.
 *
 * @example
 * ```ts
 * const params = pool.params(ROW_PTR_FROM_SORTED_KERNEL, { nnz, seed, rows });
 * encodeKernel(ctx, encoder, ROW_PTR_FROM_SORTED_KERNEL, { sorted_rows, row_ptr, vals, params }, { invocations: Math.max(nnz, rows + 1) });
 * ```
 */
export const ROW_PTR_FROM_SORTED_KERNEL = rowPtrFromSorted;

/**
 * The random-vector generator (x of the products, w of the transposed check).
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, SPMV_VECTOR_KERNEL, { out: x, params: pool.params(SPMV_VECTOR_KERNEL, { n: length, seed }) }, { invocations: length });
 * ```
 */
export const SPMV_VECTOR_KERNEL = vector;
