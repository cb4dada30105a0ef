import { defineKernel, read, readWrite } from '@scan/core/kit';
import { blendWgsl, ROW_SEARCH_WGSL, SPMV_PARAMS, WORKGROUP_INDEX_WGSL } from './wgsl-common.js';

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

/** The specialization of the branchless analysis kernels: the segment-vector length. */
export type BranchlessLength = { readonly length: number };

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
 * Parameters: n0 rows, n1 nnz. Bindings: row_ptr, index_words (⌈nnz/4⌉).
 *
 * @example
 * ```ts
 * b.dispatch(branchlessIndexKernel({ length: 256 }), { row_ptr: rowPtr, index_words: indexWords }, groups, spmvParamValues({ n0: rows, n1: nnz, dispatch_x }));
 * ```
 */
export const branchlessIndexKernel = defineKernel({
  name: 'spmv/branchless-index',
  bindings: { row_ptr: read('array<u32>'), index_words: readWrite('array<u32>') },
  params: { ...SPMV_PARAMS },
  wgsl: ({ length }: BranchlessLength) => `${ROW_SEARCH_WGSL}${INDEX_WGSL(length)}
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
});

/**
 * Analysis (once per matrix and k): the head flags of the recursive scan, 32 to a word, over the
 * k·S sums it scans (S segment vectors, column-major: column t's sums at t·S … t·S + S − 1). The
 * flag of vector s is set when its last run starts a row (so the sum carried out of it begins a
 * new row there rather than continuing the one carried in), and every column starts a segment.
 *
 * Parameters: n0 rows, n1 nnz, n2 S, n3 k. Bindings: row_ptr, flag_words (⌈k·S/32⌉).
 *
 * @example
 * ```ts
 * b.dispatch(branchlessFlagsKernel({ length: 256 }), { row_ptr: rowPtr, flag_words: flagWords }, groups, spmvParamValues({ n0: rows, n1: nnz, n2: segments, n3: k, dispatch_x }));
 * ```
 */
export const branchlessFlagsKernel = defineKernel({
  name: 'spmv/branchless-flags',
  bindings: { row_ptr: read('array<u32>'), flag_words: readWrite('array<u32>') },
  params: { ...SPMV_PARAMS },
  wgsl: ({ length }: BranchlessLength) => `${ROW_SEARCH_WGSL}${INDEX_WGSL(length)}
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
});

// The per-vector facts the product reads, `vector_info` (2·S + 1 words): words 0…S are the rows
// each segment vector writes — word s the first row whose first nonzero is at or past the vector's
// start (a lower bound on `row_ptr`), word S = rows, so the last vector also writes the empty rows
// at the end; words S + 1 + s are each vector's first reduction step (branchlessStepsKernel).

/**
 * Analysis (once per matrix): the row starts of `vector_info` (words 0…S).
 *
 * Parameters: n0 rows, n2 S. Bindings: row_ptr, vector_info.
 *
 * @example
 * ```ts
 * b.dispatch(branchlessRowStartsKernel({ length: 256 }), { row_ptr: rowPtr, vector_info: vectorInfo }, groups, spmvParamValues({ n0: rows, n2: segments, dispatch_x }));
 * ```
 */
export const branchlessRowStartsKernel = defineKernel({
  name: 'spmv/branchless-row-starts',
  bindings: { row_ptr: read('array<u32>'), vector_info: readWrite('array<u32>') },
  params: { ...SPMV_PARAMS },
  wgsl: ({ length }: BranchlessLength) => `
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let s = wg_index * 64u + lid;
  let rows = params.n0;
  let segments = params.n2;
  if (s > segments) { return; }
  if (s == segments) { vector_info[s] = rows; return; }
  // The first row r with row_ptr[r] ≥ s·length.
  let p = s * ${length}u;
  var lo = 0u;
  var hi = rows;
  while (lo < hi) {
    let mid = (lo + hi) >> 1u;
    if (row_ptr[mid] < p) { lo = mid + 1u; } else { hi = mid; }
  }
  vector_info[s] = lo;
}
`,
});

/**
 * Analysis (once per matrix): each segment vector's first reduction step, words S + 1 + s of
 * `vector_info` — the largest power of two not above the vector's largest run index (0 when every
 * run is one element). Steps above it move nothing (no element's index reaches them), so the
 * product starts there: a vector of short rows skips most of the reduction, the same number of
 * steps for every invocation, still without a branch per element.
 *
 * Parameters: n1 nnz, n2 S. Bindings: index_words, vector_info.
 *
 * @example
 * ```ts
 * b.dispatch(branchlessStepsKernel({ length: 256 }), { index_words: indexWords, vector_info: vectorInfo }, segments, spmvParamValues({ n1: nnz, n2: segments, dispatch_x }));
 * ```
 */
export const branchlessStepsKernel = defineKernel({
  name: 'spmv/branchless-steps',
  bindings: { index_words: read('array<u32>'), vector_info: readWrite('array<u32>') },
  params: { ...SPMV_PARAMS },
  wgsl: ({ length }: BranchlessLength) => `
var<workgroup> largest: atomic<u32>;
@compute @workgroup_size(${length})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let nnz = params.n1;
  let segments = params.n2;
  if (wg_index >= segments) { return; }
  let i = wg_index * ${length}u + lid;
  if (i < nnz) { atomicMax(&largest, (index_words[i / 4u] >> (8u * (i % 4u))) & 0xffu); }
  workgroupBarrier();
  if (lid == 0u) {
    let m = atomicLoad(&largest);
    vector_info[segments + 1u + wg_index] = select(0u, 1u << firstLeadingBit(m), m > 0u);
  }
}
`,
});

/**
 * The fix-up, after the recursive scan: one invocation per (segment vector s, column t). If the
 * last row s starts runs past its end (into vector s1), that row is the scanned carry of vector
 * s1 − 1 (its head run plus the vectors wholly inside it) plus the first run of s1.
 *
 * Parameters: n0 rows, n2 S, n3 k; alpha, beta. Bindings: row_ptr, vector_info, carries (the
 * inclusive segmented scan of the last-run sums, k·S), run_sums, y. `readY`: beta ≠ 0, y is read.
 *
 * @example
 * ```ts
 * const bindings = { row_ptr: rowPtr, vector_info: vectorInfo, carries, run_sums: runSums, y };
 * b.dispatch(branchlessFixupKernel({ length: 256, readY: false }), bindings, groups, spmvParamValues({ n0: rows, n2: segments, n3: k, alpha, dispatch_x }));
 * ```
 */
export const branchlessFixupKernel = defineKernel({
  name: 'spmv/branchless-fixup',
  bindings: {
    row_ptr: read('array<u32>'),
    vector_info: read('array<u32>'),
    carries: read('array<f32>'),
    run_sums: read('array<f32>'),
    y: readWrite('array<f32>'),
  },
  params: { ...SPMV_PARAMS },
  wgsl: ({ length, readY }: BranchlessLength & { readonly readY: boolean }) => `
@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let segments = params.n2;
  let k = params.n3;
  let g = wg_index * 256u + lid;
  if (g >= segments * k) { return; }
  let s = g % segments;
  let t = g / segments;
  let rows_begin = vector_info[s];
  let rows_end = vector_info[s + 1u];
  if (rows_begin == rows_end) { return; }
  let r = rows_end - 1u;
  let end = row_ptr[r + 1u];
  if (end <= (s + 1u) * ${length}u) { return; }
  let s1 = (end - 1u) / ${length}u;
  let sum = carries[t * segments + s1 - 1u] + run_sums[(k + t) * segments + s1];
  y[r * k + t] = ${blendWgsl('sum', 'y[r * k + t]', readY)};
}
`,
});
