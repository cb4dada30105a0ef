import { defineKernel, read, readWrite } from '@scan/core/kit';
import { blendWgsl, SPMV_PARAMS, WORKGROUP_INDEX_WGSL } from './wgsl-common.js';

/** Invocations per workgroup of the row kernel. */
export const ROW_WORKGROUP = 256;

/** How the row kernel is specialized. */
export type RowKernelShape = {
  /** Lanes that share one row (a power of two, 1…32). */
  readonly lanes: number;
  /** Right-hand sides this dispatch computes (1…8): columns `c0 … c0 + columns − 1` of x and y. */
  readonly columns: number;
  /** Add lanes with subgroup shuffles (lanes ≤ the subgroup size) instead of workgroup memory. */
  readonly subgroups: boolean;
  /** beta ≠ 0: y is read. */
  readonly readY: boolean;
  /** x is read and y written as vec4s (k and `columns` multiples of 4): one access per four columns. */
  readonly vectorX: boolean;
};

/**
 * CSR-vector (the `'row'` algorithm): a group of `lanes` invocations per row. The lanes stride
 * through the row's nonzeros together (coalesced reads of values and column indices), each keeping
 * `columns` partial sums, then the group adds its lanes — subgroup shuffles when they fit one
 * subgroup, else a tree in workgroup memory — and lane 0 writes the row. A row that is much longer
 * than the others keeps one group busy while the rest idle: that is this method's weakness, and why
 * the plan's `'auto'` avoids it on skewed matrices.
 *
 * Parameters: n0 rows, n1 k = the stride of x and y, n2 c0 = the first column; alpha, beta.
 * Bindings: row_ptr, col_idx, values, x, y.
 *
 * @example
 * ```ts
 * const kernel = rowKernel({ lanes: 4, columns: 1, subgroups: true, readY: false, vectorX: false });
 * const bindings = { row_ptr: rowPtr, col_idx: colIdx, values, x, y };
 * b.dispatch(kernel, bindings, workgroups, spmvParamValues({ n0: rows, n1: k, n2: c0, alpha, beta, dispatch_x }));
 * ```
 */
export const rowKernel = defineKernel({
  name: 'spmv/row',
  bindings: ({ vectorX }: RowKernelShape) => ({
    row_ptr: read('array<u32>'),
    col_idx: read('array<u32>'),
    values: read('array<f32>'),
    x: read(`array<${vectorX ? 'vec4<f32>' : 'f32'}>`),
    y: readWrite(`array<${vectorX ? 'vec4<f32>' : 'f32'}>`),
  }),
  params: { ...SPMV_PARAMS },
  // Subgroups only where lanes are added by shuffles.
  enable: ({ subgroups, lanes }) => (subgroups && lanes > 1 ? ['subgroups'] : []),
  wgsl: rowWgsl,
});

function rowWgsl(shape: RowKernelShape): string {
  const { lanes, columns, subgroups, readY, vectorX } = shape;
  const wg = ROW_WORKGROUP;
  const cols = [...Array(columns).keys()];
  const accumulate = vectorX
    ? [...Array(columns / 4).keys()]
        .map((q) => {
          const load = `    let x${q} = x[(xb >> 2u) + ${q}u];`;
          return [load, ...[0, 1, 2, 3].map((j) => `    acc[${4 * q + j}] += a * x${q}[${j}];`)].join('\n');
        })
        .join('\n')
    : cols.map((t) => `    acc[${t}] += a * x[xb + ${t}u];`).join('\n');
  const laneSum = subgroups
    ? // Lane groups are aligned to their size, and subgroups to theirs (a power of two ≥ lanes), so
      // a shuffle by < lanes stays inside the group. Every invocation reaches the shuffles (no
      // early return), as they need.
      `  for (var off = ${lanes / 2}u; off > 0u; off >>= 1u) {
${cols.map((t) => `    acc[${t}] += subgroupShuffleXor(acc[${t}], off);`).join('\n')}
  }`
    : `  for (var off = ${lanes / 2}u; off > 0u; off >>= 1u) {
${cols.map((t) => `    partial[lid * ${columns}u + ${t}u] = acc[${t}];`).join('\n')}
    workgroupBarrier();
    if ((lane & off) == 0u) {
${cols.map((t) => `      acc[${t}] += partial[(lid + off) * ${columns}u + ${t}u];`).join('\n')}
    }
    workgroupBarrier();
  }`;
  // The row's outputs: vec4s when x is read as vec4s (y has the same stride k), else scalars. After
  // the shuffles every lane holds the sums, so the lanes share the writes; the tree in workgroup
  // memory leaves them in lane 0.
  const words = vectorX ? columns / 4 : columns;
  const writeOf = (w: number): string => {
    if (!vectorX) return `y[row * k + c0 + ${w}u] = ${blendWgsl(`acc[${w}]`, `y[row * k + c0 + ${w}u]`, readY)};`;
    const sum = `vec4<f32>(${[0, 1, 2, 3].map((j) => `acc[${4 * w + j}]`).join(', ')})`;
    return `y[((row * k + c0) >> 2u) + ${w}u] = ${blendWgsl(sum, `y[((row * k + c0) >> 2u) + ${w}u]`, readY)};`;
  };
  const shared = subgroups && lanes > 1;
  const writes = [...Array(words).keys()]
    .map((w) => `  if (row < rows && lane == ${shared ? w % lanes : 0}u) { ${writeOf(w)} }`)
    .join('\n');
  return `
${subgroups || lanes === 1 ? '' : `var<workgroup> partial: array<f32, ${wg * columns}>;`}

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${WORKGROUP_INDEX_WGSL}
  let rows = params.n0;
  let k = params.n1;
  let c0 = params.n2;
  let lane = lid % ${lanes}u;
  let row = wg_index * ${wg / lanes}u + lid / ${lanes}u;
  var acc = array<f32, ${columns}>();
  if (row < rows) {
    let end = row_ptr[row + 1u];
    for (var j = row_ptr[row] + lane; j < end; j += ${lanes}u) {
      let a = values[j];
      let xb = col_idx[j] * k + c0;
${accumulate}
    }
  }
${lanes > 1 ? laneSum : ''}
${writes}
}
`;
}

/**
 * Lanes per row for a mean row length: the power of two nearest half the mean (so each lane has
 * about two nonzeros), from 1 to 32 — a lane per row for very short rows, a whole warp for long
 * ones.
 *
 * @example
 * ```ts
 * lanesForRowLength(5); // 2
 * lanesForRowLength(1000); // 32
 * ```
 */
export function lanesForRowLength(meanRowLength: number): number {
  let lanes = 1;
  while (lanes < 32 && lanes * 2 <= meanRowLength / 2 + 0.5) lanes *= 2;
  return lanes;
}
