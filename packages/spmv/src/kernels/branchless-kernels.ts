import type { KernelSpec } from '@scan/core/kit';
import { blendWgsl, ROW_SEARCH_WGSL, SPMV_PARAMS_WGSL, WORKGROUP_INDEX_WGSL } from './wgsl-common.js';

// The branchless, index-based segmented-scan SpMV of the Japanese paper (seed 003, §3.3–3.4). The
// nonzeros are cut into fixed-length "segment vectors" of `length` elements (a power of two). Each
// element gets, once, an index: how far it is from the start of its run — the nearer of its row's
// first nonzero and its segment vector's first element. With that index a workgroup reduces every
// run of a segment vector in log2(length) identical steps, no flags and no branches: at step c an
// element whose index lies in [c, 2c) adds its value to the element c places before it; every
// other element adds to a dummy slot. After the last step each run's first element (index 0) holds
// the run's sum. Rows that span segment vectors are joined by a segmented scan over the sums of the
// vectors' last runs (the paper's recursive segmented scan, here the single-pass segmented scan of
// `@scan/segmented`), and a last pass writes each row.

/** The largest segment-vector length: indices are stored as bytes, four to a word. */
export const MAX_SEGMENT_LENGTH = 256;

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
 * Analysis (once per matrix): the head flags of the recursive scan, one bit per segment vector,
 * 32 to a word: set when the vector's last run starts a row (so the sum carried out of the vector
 * begins a new row there rather than continuing the one carried in).
 *
 * Bindings: 0 params (n0 rows, n1 nnz, n2 segment vectors), 1 row_ptr, 2 flag_words.
 *
 * @example
 * ```ts
 * b.dispatch(branchlessFlagsKernel(256), [params, rowPtr, flagWords], Math.ceil(Math.ceil(segments / 32) / 64));
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
  if (32u * w >= segments) { return; }
  var word = 0u;
  for (var b = 0u; b < 32u; b++) {
    let s = 32u * w + b;
    if (s < segments) {
      let last = min(nnz, (s + 1u) * ${length}u) - 1u;
      let head = last - run_index(last, rows);
      if (row_ptr[upper_row(head, rows)] == head) { word |= 1u << b; }
    }
  }
  flag_words[w] = word;
}
`,
  };
}

/**
 * The branchless reduction, one workgroup per segment vector (`length` invocations, one element
 * each): **load** the products into workgroup memory; **reduce** in log2(length) steps driven by
 * the precomputed index (dummy writes keep every invocation on the same path); **write** each
 * run's sum at its first element (`partial`) and the sum of the vector's last run (`last_sums`,
 * the input of the recursive scan).
 *
 * Bindings: 0 params (n1 nnz), 1 col_idx, 2 values, 3 x, 4 index_words, 5 partial (nnz),
 * 6 last_sums (segment vectors).
 *
 * @example
 * ```ts
 * b.dispatch(branchlessReduceKernel(256), [params, colIdx, values, x, indexWords, partial, lastSums], segments);
 * ```
 */
export function branchlessReduceKernel(length: number): KernelSpec {
  return {
    key: `spmv/branchless/reduce/${length}`,
    wgsl: () => `${HEADER}
@group(0) @binding(1) var<storage, read> col_idx: array<u32>;
@group(0) @binding(2) var<storage, read> values: array<f32>;
@group(0) @binding(3) var<storage, read> x: array<f32>;
@group(0) @binding(4) var<storage, read> index_words: array<u32>;
@group(0) @binding(5) var<storage, read_write> partial: array<f32>;
@group(0) @binding(6) var<storage, read_write> last_sums: array<f32>;

// ${length} elements, then ${length} dummy slots (one per invocation, so dummy writes never race).
var<workgroup> vals: array<f32, ${2 * length}>;

@compute @workgroup_size(${length})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let nnz = params.n1;
  // Workgroups past the last segment vector (a 2-D dispatch rounded up) leave together.
  if (wg_index * ${length}u >= nnz) { return; }
  let i = wg_index * ${length}u + lid;
  let valid = i < nnz;
  var index = 0u;
  var product = 0.0;
  if (valid) {
    index = (index_words[i / 4u] >> (8u * (i % 4u))) & 0xffu;
    product = values[i] * x[col_idx[i]];
  }
  vals[lid] = product;
  for (var c = ${length / 2}u; c > 0u; c >>= 1u) {
    workgroupBarrier();
    let dest = select(${length}u + lid, lid - c, index >= c && index < 2u * c);
    vals[dest] += vals[lid];
  }
  workgroupBarrier();
  if (valid && index == 0u) { partial[i] = vals[lid]; }
  let count = min(${length}u, nnz - wg_index * ${length}u);
  if (lid == count - 1u) { last_sums[wg_index] = vals[lid - index]; }
}
`,
  };
}

/**
 * The last pass: each row's sum. A row inside one segment vector has it at its first nonzero; a row
 * that spans vectors s0 … s1 is the scanned carry of vector s1 − 1 (its head run plus the vectors
 * wholly inside it) plus the first run of s1. An empty row gets 0.
 *
 * Bindings: 0 params (n0 rows), 1 row_ptr, 2 partial, 3 carries (the inclusive segmented scan of
 * `last_sums`), 4 y.
 *
 * @example
 * ```ts
 * b.dispatch(branchlessFinishKernel(256, false), [params, rowPtr, partial, carries, y], Math.ceil(rows / 256));
 * ```
 */
export function branchlessFinishKernel(length: number, readY: boolean): KernelSpec {
  return {
    key: `spmv/branchless/finish/${length}/${readY ? 'beta' : 'nobeta'}`,
    wgsl: () => `${HEADER}
@group(0) @binding(1) var<storage, read> row_ptr: array<u32>;
@group(0) @binding(2) var<storage, read> partial: array<f32>;
@group(0) @binding(3) var<storage, read> carries: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let r = wg_index * 256u + lid;
  if (r >= params.n0) { return; }
  let start = row_ptr[r];
  let end = row_ptr[r + 1u];
  var sum = 0.0;
  if (start < end) {
    let s0 = start / ${length}u;
    let s1 = (end - 1u) / ${length}u;
    if (s0 == s1) { sum = partial[start]; } else { sum = partial[s1 * ${length}u] + carries[s1 - 1u]; }
  }
  y[r] = ${blendWgsl('sum', 'y[r]', readY)};
}
`,
  };
}
