import { defineKernel, type ParamFields, read, readWrite } from '@scan/core/kit';
import type { TridiagonalLayout } from '../types.js';
import { COEFFICIENT_BINDINGS, EQUATION_WGSL, layoutIndexWgsl, ROWS_BINDING, STATUS_BINDING, SYSTEM_PARAMS } from './common.js';

/** What the kernels of one global cyclic-reduction level are specialized on. */
export type GlobalLevelSpec = {
  readonly layout: TridiagonalLayout;
  /** Level 0: the caller's `a`…`d` (and `x` for backward substitution); deeper levels: scratch. */
  readonly first: boolean;
  /** Invocations per workgroup (one invocation per reduced row, or per pair of rows). */
  readonly workgroupSize: number;
};

/**
 * The parameters of both phases of a global level: with `n`, `batch` and `dispatch_x`, the element
 * `offset` of this level in the scratch rows, the `next_offset` of the next (reduced) level, and the
 * invocations that have work (`threads`).
 *
 * @example
 * ```ts
 * b.dispatch(kernel, bindings, workgroups, { n, batch, dispatch_x, offset, next_offset, threads });
 * ```
 */
const LEVEL_PARAMS = { ...SYSTEM_PARAMS, offset: 'u32', next_offset: 'u32', threads: 'u32' } as const satisfies ParamFields;

/** WGSL shared by both phases: the level's row loader and the thread → (system, k) mapping. */
function levelWgsl(spec: GlobalLevelSpec): string {
  const row = spec.first ? 'Eq(a_buf[g], b_buf[g], c_buf[g], d_buf[g])' : 'eq_of(rows[g])';
  const offset = spec.first ? '0u' : 'params.offset';
  // Consecutive invocations take consecutive rows of one system (contiguous) or the same row of
  // consecutive systems (interleaved): both read consecutive addresses.
  const split =
    spec.layout === 'contiguous'
      ? 'return vec2<u32>(t / per_system, t % per_system);'
      : 'return vec2<u32>(t % params.batch, t / params.batch);';
  return `${EQUATION_WGSL}

const WG: u32 = ${spec.workgroupSize}u;

// Element i of system sys in a level of n unknowns at element offset.
fn at(sys: u32, i: u32, n: u32, offset: u32) -> u32 { return ${layoutIndexWgsl(spec.layout, 'sys', 'i', 'n', 'offset')}; }

fn eq_of(r: vec4<f32>) -> Eq { return Eq(r.x, r.y, r.z, r.w); }

// Row i of system sys at this level (a_0 and c_{n-1} read as 0).
fn load_row(sys: u32, i: u32) -> Eq {
  let g = at(sys, i, params.n, ${offset});
  var e = ${row};
  if (i == 0u) { e.a = 0.0; }
  if (i == params.n - 1u) { e.c = 0.0; }
  return e;
}

// (system, k) of invocation t when every system has per_system invocations.
fn split_thread(t: u32, per_system: u32) -> vec2<u32> { ${split} }

fn thread_index(wid: vec3<u32>, lid: u32) -> u32 { return (wid.x + wid.y * params.dispatch_x) * WG + lid; }`;
}

/**
 * One global **forward reduction** level of cyclic reduction (Sengupta et al. 2007 §4.3, past what
 * fits one workgroup): from a level of n unknowns, row k of the next level (⌊n/2⌋ rows) is row
 * 2k + 1 with x_{2k} and x_{2k+2} eliminated (`reduce_eq`; a row past the end is the identity),
 * written compactly at `params.next_offset` of the scratch rows in the same layout. One
 * invocation per reduced row (`params.threads` = ⌊n/2⌋·batch). A zero divisor lowers
 * `status[0]` to the system index.
 *
 * Bindings: level 0 reads `a_buf`…`d_buf`, deeper levels read `rows`; both write `rows`; `status`.
 *
 * @example
 * ```ts
 * const kernel = forwardReductionKernel({ layout: 'contiguous', first: true, workgroupSize: 256 });
 * b.dispatch(kernel, { a_buf, b_buf, c_buf, d_buf, rows, status }, workgroups,
 *   { n, batch, dispatch_x, offset: 0, next_offset: 0, threads });
 * ```
 */
export const forwardReductionKernel = defineKernel({
  name: 'tridiag/forward-reduction',
  bindings: (spec: GlobalLevelSpec) => ({
    a_buf: spec.first ? COEFFICIENT_BINDINGS.a_buf : undefined,
    b_buf: spec.first ? COEFFICIENT_BINDINGS.b_buf : undefined,
    c_buf: spec.first ? COEFFICIENT_BINDINGS.c_buf : undefined,
    d_buf: spec.first ? COEFFICIENT_BINDINGS.d_buf : undefined,
    rows: ROWS_BINDING,
    status: STATUS_BINDING,
  }),
  params: LEVEL_PARAMS,
  wgsl: forwardReductionWgsl,
});

function forwardReductionWgsl(spec: GlobalLevelSpec): string {
  return `${levelWgsl(spec)}

@compute @workgroup_size(${spec.workgroupSize})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let t = thread_index(wid, lid);
  if (t >= params.threads) { return; }
  let half = params.n / 2u;
  let sk = split_thread(t, half);
  let sys = sk.x;
  let i = 2u * sk.y + 1u;
  let lo = load_row(sys, i - 1u);
  var hi = IDENTITY_EQ;
  if (i + 1u < params.n) { hi = load_row(sys, i + 1u); }
  if (zero_pivot(lo, hi)) { atomicMin(&status[0], sys); }
  let r = reduce_eq(lo, load_row(sys, i), hi);
  rows[at(sys, sk.y, half, params.next_offset)] = vec4<f32>(r.a, r.b, r.c, r.d);
}
`;
}

/**
 * One global **backward substitution** level: with the solution of the next level (⌊n/2⌋ values,
 * overwriting the `d` of its rows at `params.next_offset`) the odd unknowns are known, x_{2k+1} = y_k, and the
 * even ones follow from their rows, x_{2k} = (d_{2k} − a_{2k}·y_{k−1} − c_{2k}·y_k) / b_{2k}. One
 * invocation per pair (`params.threads` = ⌈n/2⌉·batch) writes x_{2k} and x_{2k+1}: into the
 * caller's `x` at level 0, else over the `d` of this level's rows. A zero divisor or a non-finite value lowers
 * `status[0]` to the system index.
 *
 * Bindings: level 0 reads `a_buf`…`d_buf` and `rows`, writes `x_buf`; deeper levels read and
 * write `rows`; `status`.
 *
 * @example
 * ```ts
 * const kernel = backwardSubstitutionKernel({ layout: 'interleaved', first: false, workgroupSize: 256 });
 * b.dispatch(kernel, { rows, status }, workgroups, { n, batch, dispatch_x, offset, next_offset, threads });
 * ```
 */
export const backwardSubstitutionKernel = defineKernel({
  name: 'tridiag/backward-substitution',
  bindings: (spec: GlobalLevelSpec) => ({
    a_buf: spec.first ? COEFFICIENT_BINDINGS.a_buf : undefined,
    b_buf: spec.first ? COEFFICIENT_BINDINGS.b_buf : undefined,
    c_buf: spec.first ? COEFFICIENT_BINDINGS.c_buf : undefined,
    d_buf: spec.first ? COEFFICIENT_BINDINGS.d_buf : undefined,
    x_buf: spec.first ? readWrite('array<f32>') : undefined,
    // Level 0 only reads the rows (the next level's solution); deeper levels write theirs.
    rows: spec.first ? read('array<vec4<f32>>') : ROWS_BINDING,
    status: STATUS_BINDING,
  }),
  params: LEVEL_PARAMS,
  wgsl: backwardSubstitutionWgsl,
});

function backwardSubstitutionWgsl(spec: GlobalLevelSpec): string {
  const store = (index: string, value: string) => (spec.first ? `x_buf[${index}] = ${value};` : `rows[${index}].w = ${value};`);
  const offset = spec.first ? '0u' : 'params.offset';
  return `${levelWgsl(spec)}

@compute @workgroup_size(${spec.workgroupSize})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let t = thread_index(wid, lid);
  if (t >= params.threads) { return; }
  let n = params.n;
  let half = n / 2u;
  let sk = split_thread(t, (n + 1u) / 2u);
  let sys = sk.x;
  let k = sk.y;
  let i = 2u * k;
  let e = load_row(sys, i);
  var below = 0.0;
  var above = 0.0;
  if (k > 0u) { below = rows[at(sys, k - 1u, half, params.next_offset)].w; }
  if (i + 1u < n) { above = rows[at(sys, k, half, params.next_offset)].w; }
  let x = (e.d - e.a * below - e.c * above) / e.b;
  if (e.b == 0.0 || not_finite(x)) { atomicMin(&status[0], sys); }
  ${store(`at(sys, i, n, ${offset})`, 'x')}
  if (i + 1u < n) { ${store(`at(sys, i + 1u, n, ${offset})`, 'above')} }
}
`;
}
