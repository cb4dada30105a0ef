import { defineKernel, read, readWrite } from '@scan/core/kit';
import { blendWgsl, SPMV_PARAMS, WORKGROUP_INDEX_WGSL } from './wgsl-common.js';

/** How the branchless product kernel is specialized. */
export type BranchlessShape = {
  /** Segment-vector length (a power of two, 32…256): the workgroup size. */
  readonly length: number;
  /** Segment vectors per workgroup (1, 2 or 4): each invocation takes one element of each. */
  readonly vectors: number;
  /** Right-hand sides this dispatch computes (1…8). */
  readonly columns: number;
  /** x is read and y written as vec4s (k a multiple of 4). */
  readonly vectorX: boolean;
  /** beta ≠ 0: y is read. */
  readonly readY: boolean;
};

/**
 * The slot layout of `columns` sums: the slot type, its width, and the passes (slots per element)
 * — one f32, one vec2, or one or two vec4s.
 *
 * @example
 * ```ts
 * slotLayout(8); // { type: 'vec4<f32>', width: 4, passes: 2 }
 * ```
 */
export function slotLayout(columns: number): { type: string; width: number; passes: number } {
  const width = columns === 1 ? 1 : columns === 2 ? 2 : 4;
  return { type: width === 1 ? 'f32' : `vec${width}<f32>`, width, passes: Math.ceil(columns / width) };
}

/**
 * Workgroup memory (bytes) of the product kernel: a block of `length` slots per segment vector and
 * pass, and (one column) one block of dummy slots.
 *
 * @example
 * ```ts
 * branchlessWorkgroupBytes({ length: 256, vectors: 4, columns: 1, vectorX: false, readY: false }); // 5120
 * ```
 */
export function branchlessWorkgroupBytes(shape: BranchlessShape): number {
  const { width, passes } = slotLayout(shape.columns);
  const dummies = shape.columns === 1 ? 1 : 0;
  return (shape.vectors * passes + dummies) * shape.length * 4 * width;
}

const COMPONENTS = ['x', 'y', 'z', 'w'];
const range = (n: number): number[] => [...Array(n).keys()];

/**
 * The branchless product (seed 003's reduction), one workgroup of `length` invocations per
 * `vectors` consecutive segment vectors; invocation `lid` takes element `lid` of each. Several
 * vectors per workgroup keep several independent loads in flight per invocation, which is what a
 * pass this short on arithmetic is bound by.
 *
 * 1. **load** — each element's products (values·x, `columns` of them) go to workgroup memory, one
 *    block of slots per vector and pass;
 * 2. **reduce** — up to log2(length) steps driven by the precomputed index (with one column,
 *    dummy writes keep every invocation on the same path), after which each run's sum sits at its
 *    first element; steps that move nothing in these vectors are skipped;
 * 3. **write rows** — every row that starts and ends in one of the vectors gets alpha·sum + beta·y
 *    (an empty row alpha·0 + beta·y);
 * 4. **carry-out** — each vector's first-run and last-run sums, for the recursive scan and the
 *    fix-up of the row that spans vectors.
 *
 * Parameters: n0 rows, n1 nnz, n2 S, n3 k = the stride of x and y; n4 c0 = the first column;
 * alpha, beta. Bindings: col_idx, values, x, index_words, row_ptr, vector_info (row starts and
 * first steps, see the analysis kernels), y, run_sums (2·k·S: the last-run sums, column-major,
 * then the first-run sums).
 *
 * @example
 * ```ts
 * const kernel = branchlessProductKernel({ length: 256, vectors: 4, columns: 1, vectorX: false, readY: false });
 * const bindings = { col_idx: colIdx, values, x, index_words: indexWords, row_ptr: rowPtr, vector_info: vectorInfo, y, run_sums: runSums };
 * b.dispatch(kernel, bindings, groups, spmvParamValues({ n0: rows, n1: nnz, n2: segments, n3: k, alpha, beta, dispatch_x, n4: c0 }));
 * ```
 */
export const branchlessProductKernel = defineKernel({
  name: 'spmv/branchless-product',
  bindings: ({ vectorX }: BranchlessShape) => ({
    col_idx: read('array<u32>'),
    values: read('array<f32>'),
    x: read(`array<${vectorX ? 'vec4<f32>' : 'f32'}>`),
    index_words: read('array<u32>'),
    row_ptr: read('array<u32>'),
    vector_info: read('array<u32>'),
    y: readWrite(`array<${vectorX ? 'vec4<f32>' : 'f32'}>`),
    run_sums: readWrite('array<f32>'),
  }),
  params: { ...SPMV_PARAMS },
  wgsl: productWgsl,
});

function productWgsl(shape: BranchlessShape): string {
  const { length: L, vectors: V, columns, vectorX, readY } = shape;
  const { type, width, passes: P } = slotLayout(columns);
  const block = (v: number | string, q: number) => (typeof v === 'number' ? `${(v * P + q) * L}u` : `(${v} * ${P * L}u + ${q * L}u)`);
  // One column: the paper's branch-free step, every invocation adding somewhere (non-movers to a
  // dummy slot of their own). Several columns: the same steps, but only the movers write — the
  // dummies' read–modify–writes of vec4 slots would cost workgroup-memory bandwidth the one-column
  // pass does not feel, and their block workgroup memory (H100, k = 8: biased-16M 1.29 → 0.86 ms,
  // power law 2.76 → 1.67 ms).
  const branchFree = columns === 1;
  const dummy = `${V * P * L}u + lid`;
  const lanesOf = (q: number) => range(Math.min(width, columns - q * width));
  const component = (j: number, slot: string) => (width === 1 ? slot : `${slot}.${COMPONENTS[j]}`);
  // The products of element v, pass q: a vec4 load of x when k is a multiple of 4, else a scalar
  // per column (0 past the last one).
  const product = (v: number, q: number): string => {
    if (vectorX) return `a${v} * x[(xb${v} >> 2u) + ${q}u]`;
    if (width === 1) return `a${v} * x[xb${v}]`;
    const parts = range(width).map((j) => (j < columns - q * width ? `x[xb${v} + ${q * width + j}u]` : '0.0'));
    return `a${v} * ${type}(${parts.join(', ')})`;
  };
  // Step 3 for row `r` (start, end in `s`, `e`): the row's sums sit at its first element's slot. A
  // vec4 store per pass when y's stride is a multiple of 4, else a scalar per column.
  const writeRow = (r: string, s: string, e: string, indent: string): string => {
    const stores = range(P).map((q) => {
      const slot = `vals[${block('v', q)} + o]`;
      if (vectorX) {
        const out = `y[((${r} * k + c0) >> 2u) + ${q}u]`;
        return `${indent}  ${out} = ${blendWgsl(`select(vec4<f32>(), ${slot}, ${s} < ${e})`, out, readY)};`;
      }
      return lanesOf(q)
        .map((j) => {
          const out = `y[${r} * k + c0 + ${q * width + j}u]`;
          return `${indent}  ${out} = ${blendWgsl(`select(0.0, ${component(j, slot)}, ${s} < ${e})`, out, readY)};`;
        })
        .join('\n');
    });
    return `${indent}{
${indent}  // Its vector v and place o in it (an empty row at the very end reads a slot it then ignores);
${indent}  // a row running past v's end is the fix-up's.
${indent}  let v = min((${s} - first) / ${L}u, ${V - 1}u);
${indent}  let o = (${s} - first) % ${L}u;
${indent}  if (${e} <= first + (v + 1u) * ${L}u) {
${stores.join('\n')}
${indent}  }
${indent}}`;
  };
  return `
// ${V}·${P} block(s) of ${L} slots (per vector and pass)${
    branchFree
      ? `, then ${L} dummy slots (one per
// invocation, so dummy writes never race)`
      : ''
  }.
var<workgroup> vals: array<${type}, ${(V * P + (branchFree ? 1 : 0)) * L}>;
var<workgroup> first_step: u32;

@compute @workgroup_size(${L})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let nnz = params.n1;
  let segments = params.n2;
  let k = params.n3;
  let c0 = params.n4;
  let s0 = wg_index * ${V}u;
  // Workgroups past the last segment vector (a 2-D dispatch rounded up) leave together.
  if (s0 >= segments) { return; }
  let first = s0 * ${L}u;

  // The rows these vectors write (step 3), fetched first so their latency hides behind the loads
  // and the reduction.
  let row_begin = vector_info[s0];
  let row_end = vector_info[min(s0 + ${V}u, segments)];
${range(V)
  .map(
    (j) => `  let r${j} = row_begin + lid + ${j * L}u;
  var start${j} = 0u;
  var end${j} = 0u;
  if (r${j} < row_end) {
    start${j} = row_ptr[r${j}];
    end${j} = row_ptr[r${j} + 1u];
  }`,
  )
  .join('\n')}

  // 1. load: element lid of each vector.
${range(V)
  .map(
    (v) => `  let i${v} = first + ${v * L}u + lid;
  var index${v} = 0u;
  var a${v} = 0.0;
  var xb${v} = 0u;
  if (i${v} < nnz) {
    index${v} = (index_words[i${v} / 4u] >> (8u * (i${v} % 4u))) & 0xffu;
    a${v} = values[i${v}];
    xb${v} = col_idx[i${v}] * k + c0;
  }`,
  )
  .join('\n')}
${range(V)
  .flatMap((v) => range(P).map((q) => `  vals[${block(v, q)} + lid] = select(${type}(), ${product(v, q)}, i${v} < nnz);`))
  .join('\n')}

  // 2. reduce, from the first step that moves anything in these vectors (the analysis found it;
  // a workgroup-uniform load, so every invocation takes the same steps).
  if (lid == 0u) {
    var top = 0u;
${range(V)
  .map((v) => `    if (s0 + ${v}u < segments) { top = max(top, vector_info[segments + 1u + s0 + ${v}u]); }`)
  .join('\n')}
    first_step = top;
  }
  for (var c = workgroupUniformLoad(&first_step); c > 0u; c >>= 1u) {
    workgroupBarrier();
${range(V)
  .map(
    (v) => `    let moves${v} = index${v} >= c && index${v} < 2u * c;
${range(P)
  .map((q) =>
    branchFree
      ? `    vals[select(${dummy}, ${block(v, q)} + lid - c, moves${v})] += vals[${block(v, q)} + lid];`
      : `    if (moves${v}) { vals[${block(v, q)} + lid - c] += vals[${block(v, q)} + lid]; }`,
  )
  .join('\n')}`,
  )
  .join('\n')}
  }
  workgroupBarrier();

  // 3. write rows: those starting and ending in one of these vectors.
${range(V)
  .map((j) => `  if (r${j} < row_end) ${writeRow(`r${j}`, `start${j}`, `end${j}`, '  ').trimStart()}`)
  .join('\n')}
  // More rows than invocations·vectors: only where empty rows crowd in.
  for (var r = row_begin + lid + ${V * L}u; r < row_end; r += ${L}u) {
    let start = row_ptr[r];
    let end = row_ptr[r + 1u];
${writeRow('r', 'start', 'end', '    ')}
  }

  // 4. carry-out: column t's last-run sum of vector s at t·S + s, its first-run sum at (k + t)·S + s.
${range(V)
  .map(
    (v) => `  if (s0 + ${v}u < segments && lid == min(${L}u, nnz - first - ${v * L}u) - 1u) {
    let s = s0 + ${v}u;
    let head = lid - index${v};
${range(P)
  .flatMap((q) =>
    lanesOf(q).map((j) => {
      const t = q * width + j;
      return `    run_sums[(c0 + ${t}u) * segments + s] = ${component(j, `vals[${block(v, q)} + head]`)};
    run_sums[(k + c0 + ${t}u) * segments + s] = ${component(j, `vals[${block(v, q)}]`)};`;
    }),
  )
  .join('\n')}
  }`,
  )
  .join('\n')}
}
`;
}
