import type { KernelSpec } from '@scan/core/kit';
import { blendWgsl, ROW_SEARCH_WGSL, SPMV_PARAMS_WGSL, WORKGROUP_INDEX_WGSL } from './wgsl-common.js';

// The branchless, index-based segmented-scan SpMV of the Japanese paper (seed 003, §3.3–3.4). The
// nonzeros are cut into fixed-length "segment vectors" of `length` elements (a power of two). Each
// element gets, once, an index: how far it is from the start of its run — the nearer of its row's
// first nonzero and its segment vector's first element. With that index a workgroup reduces every
// run of a segment vector in log2(length) identical steps, no flags and no branches: at step c an
// element whose index lies in [c, 2c) adds its value to the element c places before it; every
// other element adds to a dummy slot. After the last step each run's first element (index 0) holds
// the run's sum.
//
// Every row is written by the segment vector holding its first nonzero (an empty row: the vector
// holding the position where it would start). A row that ends inside that vector is written by the
// reduction itself, straight from workgroup memory; the one row a vector may start and not finish
// is joined across vectors by a segmented scan over the vectors' last-run sums (the paper's
// recursive segmented scan, here the single-pass segmented scan of `@scan/segmented`) and written
// by a small fix-up pass, one invocation per vector.
//
// With several right-hand sides each element carries `columns` products; the reduction moves
// vectors of up to four of them per slot, so its step count (and barrier count) does not grow
// with k.

/** The largest segment-vector length: indices are stored as bytes, four to a word. */
export const MAX_SEGMENT_LENGTH = 256;

/** How the branchless product kernel is specialized. */
export interface BranchlessShape {
  /** Segment-vector length (a power of two, 32…256). */
  length: number;
  /** Right-hand sides this dispatch computes (1…8). */
  columns: number;
  /** x is read as vec4s (k a multiple of 4). */
  vectorX: boolean;
  /** beta ≠ 0: y is read. */
  readY: boolean;
}

const HEADER = `${SPMV_PARAMS_WGSL}
@group(0) @binding(0) var<uniform> params: Params;`;

const INDEX_WGSL = (length: number) => `
// The element's distance from the start of its run: its row's first nonzero or its segment vector's
// first element, whichever comes later.
fn run_index(i: u32, rows: u32) -> u32 {
  let row_start = row_ptr[upper_row(i, rows)];
  return i - max(row_start, (i / ${length}u) * ${length}u);
}
`;

/**
 * Analysis (once per matrix): the per-element run index, a byte each, four to a word.
 *
 * Bindings: 0 params (n0 rows, n1 nnz), 1 row_ptr, 2 index_words (⌈nnz/4⌉).
 *
 * @example
 * ```ts
 * b.dispatch(branchlessIndexKernel(256), [params, rowPtr, indexWords], Math.ceil(Math.ceil(nnz / 4) / 256));
 * ```
 */
export function branchlessIndexKernel(length: number): KernelSpec {
  return {
    key: `spmv/branchless/index/${length}`,
    wgsl: () => `${HEADER}
@group(0) @binding(1) var<storage, read> row_ptr: array<u32>;
@group(0) @binding(2) var<storage, read_write> index_words: array<u32>;
${ROW_SEARCH_WGSL}${INDEX_WGSL(length)}
@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let w = wg_index * 256u + lid;
  let nnz = params.n1;
  if (4u * w >= nnz) { return; }
  var word = 0u;
  for (var b = 0u; b < 4u; b++) {
    let i = 4u * w + b;
    if (i < nnz) { word |= run_index(i, params.n0) << (8u * b); }
  }
  index_words[w] = word;
}
`,
  };
}

/**
 * Analysis (once per matrix and k): the head flags of the recursive scan, 32 to a word, over the
 * k·S sums it scans (S segment vectors, column-major: column t's sums at t·S … t·S + S − 1). The
 * flag of vector s is set when its last run starts a row (so the sum carried out of it begins a
 * new row there rather than continuing the one carried in), and every column starts a segment.
 *
 * Bindings: 0 params (n0 rows, n1 nnz, n2 S, n3 k), 1 row_ptr, 2 flag_words (⌈k·S/32⌉).
 *
 * @example
 * ```ts
 * b.dispatch(branchlessFlagsKernel(256), [params, rowPtr, flagWords], Math.ceil(Math.ceil(k * segments / 32) / 64));
 * ```
 */
export function branchlessFlagsKernel(length: number): KernelSpec {
  return {
    key: `spmv/branchless/flags/${length}`,
    wgsl: () => `${HEADER}
@group(0) @binding(1) var<storage, read> row_ptr: array<u32>;
@group(0) @binding(2) var<storage, read_write> flag_words: array<u32>;
${ROW_SEARCH_WGSL}${INDEX_WGSL(length)}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let w = wg_index * 64u + lid;
  let rows = params.n0;
  let nnz = params.n1;
  let segments = params.n2;
  let total = segments * params.n3;
  if (32u * w >= total) { return; }
  var word = 0u;
  for (var b = 0u; b < 32u; b++) {
    let p = 32u * w + b;
    if (p < total) {
      let s = p % segments;
      let last = min(nnz, (s + 1u) * ${length}u) - 1u;
      let head = last - run_index(last, rows);
      if (s == 0u || row_ptr[upper_row(head, rows)] == head) { word |= 1u << b; }
    }
  }
  flag_words[w] = word;
}
`,
  };
}

/**
 * Analysis (once per matrix): the rows each segment vector writes — `row_starts[s]` is the first
 * row whose first nonzero is at or past the vector's start (a lower bound on `row_ptr`), for s < S,
 * and `row_starts[S]` = rows, so the last vector also writes the empty rows at the end.
 *
 * Bindings: 0 params (n0 rows, n2 S), 1 row_ptr, 2 row_starts (S + 1).
 *
 * @example
 * ```ts
 * b.dispatch(branchlessRowStartsKernel(256), [params, rowPtr, rowStarts], Math.ceil((segments + 1) / 64));
 * ```
 */
export function branchlessRowStartsKernel(length: number): KernelSpec {
  return {
    key: `spmv/branchless/row-starts/${length}`,
    wgsl: () => `${HEADER}
@group(0) @binding(1) var<storage, read> row_ptr: array<u32>;
@group(0) @binding(2) var<storage, read_write> row_starts: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let s = wg_index * 64u + lid;
  let rows = params.n0;
  let segments = params.n2;
  if (s > segments) { return; }
  if (s == segments) { row_starts[s] = rows; return; }
  // The first row r with row_ptr[r] ≥ s·length.
  let p = s * ${length}u;
  var lo = 0u;
  var hi = rows;
  while (lo < hi) {
    let mid = (lo + hi) >> 1u;
    if (row_ptr[mid] < p) { lo = mid + 1u; } else { hi = mid; }
  }
  row_starts[s] = lo;
}
`,
  };
}

/** The workgroup-memory slot type and the number of slot vectors per element for `columns` sums. */
function slotLayout(columns: number): { type: string; width: number; passes: number } {
  const width = columns === 1 ? 1 : columns === 2 ? 2 : 4;
  return { type: width === 1 ? 'f32' : `vec${width}<f32>`, width, passes: Math.ceil(columns / width) };
}

const COMPONENTS = ['x', 'y', 'z', 'w'];

/**
 * The branchless product, one workgroup per segment vector (`length` invocations, one element
 * each):
 *
 * 1. **load** — each element's products (values·x, `columns` of them) go to workgroup memory;
 * 2. **reduce** — log2(length) steps driven by the precomputed index (dummy writes keep every
 *    invocation on the same path), after which each run's sum sits at its first element;
 * 3. **write rows** — every row this vector starts and finishes gets alpha·sum + beta·y (empty
 *    rows alpha·0 + beta·y);
 * 4. **carry-out** — the sums of the vector's first and last runs, for the recursive scan and the
 *    fix-up of the row that spans vectors.
 *
 * Bindings: 0 params (n0 rows, n1 nnz, n2 S, n3 k = the stride of x and y; n4 c0 = the first
 * column), 1 col_idx, 2 values, 3 x, 4 index_words, 5 row_ptr, 6 row_starts, 7 y, 8 run_sums
 * (2·k·S: the last-run sums, column-major, then the first-run sums).
 *
 * @example
 * ```ts
 * const kernel = branchlessProductKernel({ length: 256, columns: 1, vectorX: false, readY: false });
 * ```
 */
export function branchlessProductKernel(shape: BranchlessShape): KernelSpec {
  const { length, columns, vectorX, readY } = shape;
  const { type, width, passes } = slotLayout(columns);
  const passList = [...Array(passes).keys()];
  const lanesOf = (q: number) => [...Array(Math.min(width, columns - q * width)).keys()];
  const component = (q: number, j: number, slot: string) => (width === 1 ? slot : `${slot}.${COMPONENTS[j]}`);
  // The products of pass q: a vec4 load of x when k is a multiple of 4, else one scalar per column.
  const product = (q: number): string => {
    if (vectorX) return `a * x[(xb >> 2u) + ${q}u]`;
    if (width === 1) return 'a * x[xb]';
    const parts = [...Array(width).keys()].map((j) => (j < columns - q * width ? `x[xb + ${q * width + j}u]` : '0.0'));
    return `a * ${type}(${parts.join(', ')})`;
  };
  const column = (q: number, j: number) => q * width + j;
  return {
    key: `spmv/branchless/product/${length}/k${columns}/${vectorX ? 'x4' : 'x1'}/${readY ? 'beta' : 'nobeta'}`,
    wgsl: () => `${HEADER}
@group(0) @binding(1) var<storage, read> col_idx: array<u32>;
@group(0) @binding(2) var<storage, read> values: array<f32>;
@group(0) @binding(3) var<storage, read> x: array<${vectorX ? 'vec4<f32>' : 'f32'}>;
@group(0) @binding(4) var<storage, read> index_words: array<u32>;
@group(0) @binding(5) var<storage, read> row_ptr: array<u32>;
@group(0) @binding(6) var<storage, read> row_starts: array<u32>;
@group(0) @binding(7) var<storage, read_write> y: array<f32>;
@group(0) @binding(8) var<storage, read_write> run_sums: array<f32>;

// ${passes} block(s) of ${length} slots (one per pass of ${width} column(s)), then ${length} dummy
// slots (one per invocation, so dummy writes never race).
var<workgroup> vals: array<${type}, ${(passes + 1) * length}>;

@compute @workgroup_size(${length})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let nnz = params.n1;
  let segments = params.n2;
  let k = params.n3;
  let c0 = params.n4;
  // Workgroups past the last segment vector (a 2-D dispatch rounded up) leave together.
  if (wg_index >= segments) { return; }
  let first = wg_index * ${length}u;
  let i = first + lid;
  let valid = i < nnz;

  // 1. load.
  var index = 0u;
  var a = 0.0;
  var xb = 0u;
  if (valid) {
    index = (index_words[i / 4u] >> (8u * (i % 4u))) & 0xffu;
    a = values[i];
    xb = col_idx[i] * k + c0;
  }
${passList.map((q) => `  vals[${q * length}u + lid] = select(${type}(), ${product(q)}, valid);`).join('\n')}

  // 2. reduce.
  for (var c = ${length / 2}u; c > 0u; c >>= 1u) {
    workgroupBarrier();
    let moves = index >= c && index < 2u * c;
${passList
  .map((q) => `    vals[select(${passes * length}u + lid, ${q * length}u + lid - c, moves)] += vals[${q * length}u + lid];`)
  .join('\n')}
  }
  workgroupBarrier();

  // 3. write rows: those starting in this vector and ending in it.
  let vector_end = first + ${length}u;
  let row_end = row_starts[wg_index + 1u];
  for (var r = row_starts[wg_index] + lid; r < row_end; r += ${length}u) {
    let start = row_ptr[r];
    let end = row_ptr[r + 1u];
    if (end <= vector_end) {
      let at = start - first;
${passList
  .map((q) =>
    lanesOf(q)
      .map((j) => {
        const t = column(q, j);
        const sum = `select(0.0, ${component(q, j, `vals[${q * length}u + at]`)}, start < end)`;
        return `      y[r * k + c0 + ${t}u] = ${blendWgsl(sum, `y[r * k + c0 + ${t}u]`, readY)};`;
      })
      .join('\n'),
  )
  .join('\n')}
    }
  }

  // 4. carry-out: column t's last-run sum at t·S + s, its first-run sum at (k + t)·S + s.
  let count = min(${length}u, nnz - first);
  if (lid == count - 1u) {
    let head = lid - index;
${passList
  .map((q) =>
    lanesOf(q)
      .map((j) => {
        const t = column(q, j);
        return `    run_sums[(c0 + ${t}u) * segments + wg_index] = ${component(q, j, `vals[${q * length}u + head]`)};
    run_sums[(k + c0 + ${t}u) * segments + wg_index] = ${component(q, j, `vals[${q * length}u]`)};`;
      })
      .join('\n'),
  )
  .join('\n')}
  }
}
`,
  };
}

/**
 * The fix-up, after the recursive scan: one invocation per (segment vector s, column t). If the
 * last row s starts runs past its end (into vector s1), that row is the scanned carry of vector
 * s1 − 1 (its head run plus the vectors wholly inside it) plus the first run of s1.
 *
 * Bindings: 0 params (n0 rows, n2 S, n3 k; alpha, beta), 1 row_ptr, 2 row_starts, 3 carries (the
 * inclusive segmented scan of the last-run sums, k·S), 4 run_sums, 5 y.
 *
 * @example
 * ```ts
 * b.dispatch(branchlessFixupKernel(256, false), [params, rowPtr, rowStarts, carries, runSums, y], Math.ceil(k * segments / 256));
 * ```
 */
export function branchlessFixupKernel(length: number, readY: boolean): KernelSpec {
  return {
    key: `spmv/branchless/fixup/${length}/${readY ? 'beta' : 'nobeta'}`,
    wgsl: () => `${HEADER}
@group(0) @binding(1) var<storage, read> row_ptr: array<u32>;
@group(0) @binding(2) var<storage, read> row_starts: array<u32>;
@group(0) @binding(3) var<storage, read> carries: array<f32>;
@group(0) @binding(4) var<storage, read> run_sums: array<f32>;
@group(0) @binding(5) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let segments = params.n2;
  let k = params.n3;
  let g = wg_index * 256u + lid;
  if (g >= segments * k) { return; }
  let s = g % segments;
  let t = g / segments;
  let rows_begin = row_starts[s];
  let rows_end = row_starts[s + 1u];
  if (rows_begin == rows_end) { return; }
  let r = rows_end - 1u;
  let end = row_ptr[r + 1u];
  if (end <= (s + 1u) * ${length}u) { return; }
  let s1 = (end - 1u) / ${length}u;
  let sum = carries[t * segments + s1 - 1u] + run_sums[(k + t) * segments + s1];
  y[r * k + t] = ${blendWgsl('sum', 'y[r * k + t]', readY)};
}
`,
  };
}
