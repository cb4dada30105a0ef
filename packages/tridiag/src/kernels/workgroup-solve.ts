import { defineKernel, type Kernel, type ParamFields, readWrite, unroll } from '@scan/core/kit';
import type { TridiagonalLayout } from '../types.js';
import { COEFFICIENT_BINDINGS, EQUATION_WGSL, layoutIndexWgsl, ROWS_BINDING, STATUS_BINDING, SYSTEM_PARAMS } from './common.js';

/** What the workgroup solve is specialized on. */
export type WorkgroupSolveSpec = {
  readonly layout: TridiagonalLayout;
  /**
   * `'buffers'`: read the caller's `a`…`d`, write `x` (systems that fit a workgroup);
   * `'scratch'`: read the deepest level of the global forward reduction from the scratch rows at
   * `params.offset` and overwrite their `d` with the solution.
   */
  readonly source: 'buffers' | 'scratch';
  /** Unknowns held in workgroup memory (a power of two; 16.5 bytes each with the padding). */
  readonly capacity: number;
  /** Invocations per workgroup. */
  readonly workgroupSize: number;
  /**
   * Unknowns left when forward reduction stops (a power of two ≥ 2): 2 is cyclic reduction with its
   * two-unknown solve, `≥ capacity` is PCR alone, anything between is the CR+PCR hybrid.
   */
  readonly switchSize: number;
};

/**
 * The parameters of a solve in workgroup memory: with `n`, `batch` and `dispatch_x`, the element
 * `offset` of the system in the scratch rows (`'scratch'`), n rounded up to a power of two (at
 * least 2, `padded`) and the stride of the unknowns forward reduction leaves to PCR (`stride`).
 *
 * @example
 * ```ts
 * b.dispatch(kernel, bindings, batch, { n, batch, dispatch_x, offset: 0, padded: 1024, stride: 8 });
 * ```
 */
export const SOLVE_PARAMS = { ...SYSTEM_PARAMS, offset: 'u32', padded: 'u32', stride: 'u32' } as const satisfies ParamFields;

/** Bytes of workgroup memory the kernel of `spec` uses. */
export function workgroupSolveBytes(spec: Pick<WorkgroupSolveSpec, 'capacity' | 'switchSize' | 'workgroupSize'>): number {
  const m = Math.min(spec.switchSize, spec.capacity);
  return 16 * padded(spec.capacity) + 4 + (registerPcr(m, spec.workgroupSize) ? 32 * m : 0);
}

/** PCR holds one row per invocation (and exchanges rows through 2 × m vec4s) when m fits the workgroup. */
function registerPcr(m: number, workgroupSize: number): boolean {
  return m > 2 && m <= workgroupSize;
}

/** Words of one workgroup array holding `capacity` unknowns: one pad word per 32 (see the kernel). */
function padded(capacity: number): number {
  return capacity + Math.ceil(capacity / 32);
}

/**
 * One workgroup solves one system of up to `capacity` unknowns in workgroup memory: coalesced loads
 * of a, b, c, d (consecutive invocations read consecutive unknowns), then the phases of Zhang,
 * Cohen and Owens (2010):
 *
 * 1. **forward reduction** (cyclic reduction, Sengupta et al. 2007 §4.3): at stride s = 1, 2, …,
 *    rows i ≡ 2s − 1 (mod 2s) eliminate their neighbours i ± s, halving the system, until
 *    `switchSize` unknowns are left at stride S (rows j·S + S − 1);
 * 2. **solve the rest**: the two-unknown solve when `switchSize` is 2 (CR), else **PCR steps** at
 *    distances S, 2S, … (every remaining row eliminates its neighbours at once, read in registers
 *    then written, so no step reads a row another invocation has already updated), after which every
 *    row stands alone and x_i = d_i / b_i;
 * 3. **backward substitution**: at stride s = S/2, …, 1, rows i ≡ s − 1 (mod 2s) get
 *    x_i = (d_i − a_i·x_{i−s} − c_i·x_{i+s}) / b_i.
 *
 * Sizes that are not powers of two run as if padded to `params.padded` with identity rows
 * (b = 1, a = c = d = 0); those rows are never stored, reads of them return the identity. The
 * solution overwrites `d` in workgroup memory. A zero divisor or a non-finite solution marks the
 * workgroup, which then lowers `status[0]` to its system index with `atomicMin`.
 *
 * Bindings: `a_buf`…`d_buf` and `x_buf` (`'buffers'`) or `rows` (`'scratch'`), `status`. One
 * workgroup per system (`params.batch` workgroups, 2-D when past the per-dimension limit).
 *
 * @example
 * ```ts
 * const kernel = workgroupSolveKernel({ layout: 'contiguous', source: 'buffers', capacity: 1024,
 *   workgroupSize: 256, switchSize: 128 });
 * b.dispatch(kernel, { a_buf, b_buf, c_buf, d_buf, x_buf, status }, batch,
 *   { n: 1000, batch, dispatch_x: batch, offset: 0, padded: 1024, stride: 8 });
 * ```
 */
export function workgroupSolveKernel(spec: WorkgroupSolveSpec): Kernel<WorkgroupSolveBinding, typeof SOLVE_PARAMS> {
  // A switch size past the capacity is PCR alone, as one at the capacity is: one kernel for both.
  return workgroupSolve({ ...spec, switchSize: Math.min(spec.switchSize, spec.capacity) });
}

/** The bindings a workgroup solve may declare. */
export type WorkgroupSolveBinding = 'a_buf' | 'b_buf' | 'c_buf' | 'd_buf' | 'x_buf' | 'rows' | 'status';

const workgroupSolve = defineKernel({
  name: 'tridiag/workgroup-solve',
  bindings: (spec: WorkgroupSolveSpec) => {
    const buffers = spec.source === 'buffers';
    return {
      a_buf: buffers ? COEFFICIENT_BINDINGS.a_buf : undefined,
      b_buf: buffers ? COEFFICIENT_BINDINGS.b_buf : undefined,
      c_buf: buffers ? COEFFICIENT_BINDINGS.c_buf : undefined,
      d_buf: buffers ? COEFFICIENT_BINDINGS.d_buf : undefined,
      x_buf: buffers ? readWrite('array<f32>') : undefined,
      rows: buffers ? undefined : ROWS_BINDING,
      status: STATUS_BINDING,
    };
  },
  params: SOLVE_PARAMS,
  wgsl: workgroupSolveWgsl,
});

/** What the shared solver phases depend on. */
export type SolverShape = Pick<WorkgroupSolveSpec, 'capacity' | 'workgroupSize' | 'switchSize'>;

/**
 * The workgroup memory of a solve (the four arrays with their padding, the failure flag, the PCR
 * exchange buffers) and the row helpers the phases use. Expects `Eq` and friends
 * (`EQUATION_WGSL`) in the module.
 *
 * @example
 * ```ts
 * const wgsl = `${EQUATION_WGSL}\n${solverDeclsWgsl({ capacity: 512, workgroupSize: 256, switchSize: 128 })}`;
 * ```
 */
export function solverDeclsWgsl(spec: SolverShape): string {
  const M = Math.min(spec.switchSize, spec.capacity);
  return `const CAP: u32 = ${spec.capacity}u;
const WG: u32 = ${spec.workgroupSize}u;

// One pad word every 32 unknowns: forward reduction and PCR read rows at power-of-two strides,
// which unpadded would all fall into the same few banks.
var<workgroup> wa: array<f32, ${padded(spec.capacity)}>;
var<workgroup> wb: array<f32, ${padded(spec.capacity)}>;
var<workgroup> wc: array<f32, ${padded(spec.capacity)}>;
var<workgroup> wd: array<f32, ${padded(spec.capacity)}>;

fn p(i: u32) -> u32 { return i + (i >> 5u); }
var<workgroup> wg_failed: atomic<u32>;
${registerPcr(M, spec.workgroupSize) ? `var<workgroup> pcr_rows: array<vec4<f32>, ${2 * M}>;   // two buffers of m rows, used in turn` : ''}

// Row i of the system in workgroup memory; rows at or past n are identity rows.
fn row(i: u32, n: u32) -> Eq {
  if (i >= n) { return IDENTITY_EQ; }
  return Eq(wa[p(i)], wb[p(i)], wc[p(i)], wd[p(i)]);
}

// Row i − t, the identity above the first row.
fn row_below(i: u32, t: u32, n: u32) -> Eq {
  if (i < t) { return IDENTITY_EQ; }
  return row(i - t, n);
}

fn set_row(i: u32, e: Eq) {
  wa[p(i)] = e.a;
  wb[p(i)] = e.b;
  wc[p(i)] = e.c;
  wd[p(i)] = e.d;
}

fn fail() { atomicStore(&wg_failed, 1u); }`;
}

/**
 * The phases of the solve on the system in workgroup memory — forward reduction, the rest (two-
 * unknown solve or PCR), backward substitution — leaving the solution in `wd`. Expects in scope
 * `n` (unknowns), `N` (n padded to a power of two), `S` (N / the unknowns left after forward
 * reduction) and `lid`.
 *
 * @example
 * ```ts
 * const body = solverPhasesWgsl({ capacity: 512, workgroupSize: 256, switchSize: 128 });
 * ```
 */
export function solverPhasesWgsl(spec: SolverShape): string {
  const WG = spec.workgroupSize;
  const M = Math.min(spec.switchSize, spec.capacity);
  const R = Math.ceil(M / WG);
  // The rest after forward reduction: CR's two-unknown solve, or PCR steps.
  const rest = registerPcr(M, WG)
    ? REGISTER_PCR_WGSL
    : M === 2
      ? `  // Solve the two unknowns left, rows S − 1 and 2S − 1 (the second may be padding).
  if (lid == 0u) {
    let i0 = S - 1u;
    let i1 = 2u * S - 1u;
    let e0 = row(i0, n);
    let e1 = row(i1, n);
    let det = e0.b * e1.b - e0.c * e1.a;
    if (det == 0.0) { fail(); }
    wd[p(i0)] = (e1.b * e0.d - e0.c * e1.d) / det;
    if (i1 < n) { wd[p(i1)] = (e0.b * e1.d - e1.a * e0.d) / det; }
  }
  workgroupBarrier();`
      : `  // PCR steps on the m unknowns left, rows j·S + S − 1: at distance t every row eliminates rows
  // i ± t; all new rows are computed (in registers) before any is written.
  let m = N / S;
  for (var t = S; t < N; t = t * 2u) {
    var next: array<Eq, ${R}>;
${unroll(
  R,
  (r) => `    {
      let j = lid + ${r}u * WG;
      let i = j * S + S - 1u;
      if (j < m && i < n) {
        let lo = row_below(i, t, n);
        let hi = row(i + t, n);
        if (zero_pivot(lo, hi)) { fail(); }
        next[${r}] = reduce_eq(lo, row(i, n), hi);
      }
    }`,
)}
    workgroupBarrier();
${unroll(
  R,
  (r) => `    {
      let j = lid + ${r}u * WG;
      let i = j * S + S - 1u;
      if (j < m && i < n) { set_row(i, next[${r}]); }
    }`,
)}
    workgroupBarrier();
  }
  // Every row now stands alone: x_i = d_i / b_i.
  for (var j = lid; j < m; j += WG) {
    let i = j * S + S - 1u;
    if (i < n) {
      if (wb[p(i)] == 0.0) { fail(); }
      wd[p(i)] = wd[p(i)] / wb[p(i)];
    }
  }
  workgroupBarrier();`;
  return `  // Forward reduction at strides 1, 2, …, S/2.
  for (var s = 1u; s < S; s = s * 2u) {
    let count = N / (2u * s);
    for (var k = lid; k < count; k += WG) {
      let i = 2u * s * k + 2u * s - 1u;
      if (i < n) {
        let lo = row(i - s, n);
        let hi = row(i + s, n);
        if (zero_pivot(lo, hi)) { fail(); }
        set_row(i, reduce_eq(lo, row(i, n), hi));
      }
    }
    workgroupBarrier();
  }

${rest}

  // Backward substitution at strides S/2, …, 1 (the solution overwrites d).
  for (var s = S / 2u; s > 0u; s = s / 2u) {
    let count = N / (2u * s);
    for (var k = lid; k < count; k += WG) {
      let i = 2u * s * k + s - 1u;
      if (i < n) {
        var rhs = wd[p(i)];
        if (i >= s) { rhs = rhs - wa[p(i)] * wd[p(i - s)]; }
        if (i + s < n) { rhs = rhs - wc[p(i)] * wd[p(i + s)]; }
        if (wb[p(i)] == 0.0) { fail(); }
        wd[p(i)] = rhs / wb[p(i)];
      }
    }
    workgroupBarrier();
  }`;
}

function workgroupSolveWgsl(spec: WorkgroupSolveSpec): string {
  const WG = spec.workgroupSize;
  const fromScratch = spec.source === 'scratch';
  const load = fromScratch
    ? `    let r = rows[g];
    wa[p(i)] = select(r.x, 0.0, i == 0u);
    wb[p(i)] = r.y;
    wc[p(i)] = select(r.z, 0.0, i == n - 1u);
    wd[p(i)] = r.w;`
    : `    wa[p(i)] = select(a_buf[g], 0.0, i == 0u);
    wb[p(i)] = b_buf[g];
    wc[p(i)] = select(c_buf[g], 0.0, i == n - 1u);
    wd[p(i)] = d_buf[g];`;
  const store = fromScratch ? 'rows[at(sys, i)].w = v;' : 'x_buf[at(sys, i)] = v;';
  const offset = fromScratch ? 'params.offset' : '0u';
  return `${EQUATION_WGSL}
${solverDeclsWgsl(spec)}

fn at(sys: u32, i: u32) -> u32 { return ${layoutIndexWgsl(spec.layout, 'sys', 'i', 'params.n', offset)}; }

@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let sys = wid.x + wid.y * params.dispatch_x;
  if (sys >= params.batch) { return; }
  let n = params.n;
  let N = params.padded;
  let S = params.stride;

  // Load the system (a_0 and c_{n-1} are ignored: read as 0).
  // Unrolled (capacity / workgroupSize rounds, known here) so that every load is in flight at once.
${unroll(
  Math.ceil(spec.capacity / WG),
  (r) => `  {
    let i = lid + ${r * WG}u;
    if (i < n) {
      let g = at(sys, i);
${load.replace(/^ {4}/gm, '      ')}
    }
  }`,
)}
  workgroupBarrier();

${solverPhasesWgsl(spec)}

${unroll(
  Math.ceil(spec.capacity / WG),
  (r) => `  {
    let i = lid + ${r * WG}u;
    if (i < n) {
      let v = wd[p(i)];
      if (not_finite(v)) { fail(); }
      ${store}
    }
  }`,
)}
  workgroupBarrier();
  if (lid == 0u && atomicLoad(&wg_failed) != 0u) { atomicMin(&status[0], sys); }
}
`;
}

/**
 * PCR on the m ≤ workgroupSize unknowns forward reduction leaves (rows j·S + S − 1), one row per
 * invocation held in registers: each step publishes the rows to workgroup memory — compacted, so
 * the neighbours at distance t are t words away whatever S is, and in two buffers used in turn, so
 * a step needs one barrier rather than a read barrier and a write barrier — and eliminates the
 * neighbours j ± t. (Exchanging the rows with subgroup shuffles instead, for the steps where j ± t
 * share a subgroup, measured 1.6× slower on the H100 with Dawn; see BENCHMARKS.md.)
 */
const REGISTER_PCR_WGSL = `  // PCR on the m unknowns left, one row per invocation (see REGISTER_PCR_WGSL).
  let m = N / S;
  let j = lid;
  var e = IDENTITY_EQ;
  if (j < m) { e = row(j * S + S - 1u, n); }
  var buffer = 0u;
  for (var t = 1u; t < m; t = t * 2u) {
    if (j < m) { pcr_rows[buffer + j] = vec4<f32>(e.a, e.b, e.c, e.d); }
    workgroupBarrier();
    if (j < m) {
      var lo = IDENTITY_EQ;
      var hi = IDENTITY_EQ;
      if (j >= t) { let r = pcr_rows[buffer + j - t]; lo = Eq(r.x, r.y, r.z, r.w); }
      if (j + t < m) { let r = pcr_rows[buffer + j + t]; hi = Eq(r.x, r.y, r.z, r.w); }
      if (zero_pivot(lo, hi)) { fail(); }
      e = reduce_eq(lo, e, hi);
    }
    buffer = m - buffer;
  }
  // Every row now stands alone: x_i = d_i / b_i.
  if (j < m) {
    let i = j * S + S - 1u;
    if (i < n) {
      if (e.b == 0.0) { fail(); }
      wd[p(i)] = e.d / e.b;
    }
  }
  workgroupBarrier();`;
