import type { TridiagonalLayout } from '../types.js';

// WGSL shared by the tridiagonal kernels: one parameter block, one equation type and the one
// elimination step that cyclic reduction's forward reduction and PCR's step both are.

/**
 * Binding numbers of every tridiagonal kernel; a kernel declares only those it uses.
 * `a`…`d` are the caller's coefficients, `x` the caller's solution, `rows` the plan's scratch: the
 * reduced systems of the global levels, one `vec4(a, b, c, d)` per row (one 16-byte access per
 * row, and 6 storage bindings at most, within WebGPU's default 8 per stage), each level after the
 * previous; the solution of a level overwrites its `d` (`.w`). `status` is the zero-pivot word,
 * `params` the uniform block.
 */
export const BINDING = { a: 0, b: 1, c: 2, d: 3, x: 4, rows: 5, status: 6, params: 7 } as const;

/** Names of the bindings, in binding-number order. */
export type BindingName = keyof typeof BINDING;

/**
 * The parameter block of every tridiagonal kernel (8 u32 words, see {@link tridiagParams}).
 */
export const TRIDIAG_PARAMS_WGSL = `struct Params {
  n: u32,           // unknowns per system at this level
  batch: u32,       // systems
  dispatch_x: u32,  // workgroups per row of a 2-D dispatch
  offset: u32,      // element offset of this level in the scratch arrays
  next_offset: u32, // element offset of the next (reduced) level
  padded: u32,      // workgroup solve: n rounded up to a power of two (at least 2)
  stride: u32,      // workgroup solve: stride of the unknowns forward reduction leaves to PCR
  threads: u32,     // global levels: invocations that have work
}`;

/** The words of a {@link TRIDIAG_PARAMS_WGSL} block. */
export interface TridiagParams {
  n: number;
  batch: number;
  dispatchX: number;
  offset?: number;
  nextOffset?: number;
  padded?: number;
  stride?: number;
  threads?: number;
}

/**
 * The 8 words of a parameter block, in {@link TRIDIAG_PARAMS_WGSL} order.
 *
 * @example
 * ```ts
 * b.paramBlock(tridiagParams({ n: 1024, batch: 64, dispatchX: 64, padded: 1024, stride: 8 }));
 * ```
 */
export function tridiagParams(p: TridiagParams): number[] {
  return [p.n, p.batch, p.dispatchX, p.offset ?? 0, p.nextOffset ?? 0, p.padded ?? 0, p.stride ?? 0, p.threads ?? 0];
}

/**
 * WGSL of the equation type and the elimination step. `reduce_eq(lo, e, hi)` eliminates x_{i−t}
 * and x_{i+t} from equation `e` (row i) with its neighbours `lo` (row i−t) and `hi` (row i+t):
 * k1 = a_i / b_{i−t}, k2 = c_i / b_{i+t}; a' = −a_{i−t}·k1, b' = b_i − c_{i−t}·k1 − a_{i+t}·k2,
 * c' = −c_{i+t}·k2, d' = d_i − d_{i−t}·k1 − d_{i+t}·k2 — the forward-reduction step of cyclic
 * reduction and the step of parallel cyclic reduction alike (Zhang, Cohen, Owens 2010, §3).
 * A row outside the system is the identity equation (b = 1, a = c = d = 0), which leaves `e`
 * as it is. `zero_pivot` says whether a divisor is exactly 0; `not_finite` whether a value is an
 * infinity or NaN (tested on the bits: WGSL may assume finite arithmetic in comparisons).
 */
export const EQUATION_WGSL = `struct Eq { a: f32, b: f32, c: f32, d: f32 }

const IDENTITY_EQ = Eq(0.0, 1.0, 0.0, 0.0);

fn zero_pivot(lo: Eq, hi: Eq) -> bool { return lo.b == 0.0 || hi.b == 0.0; }

fn reduce_eq(lo: Eq, e: Eq, hi: Eq) -> Eq {
  let k1 = e.a / lo.b;
  let k2 = e.c / hi.b;
  return Eq(-lo.a * k1, e.b - lo.c * k1 - hi.a * k2, -hi.c * k2, e.d - lo.d * k1 - hi.d * k2);
}

fn not_finite(v: f32) -> bool { return (bitcast<u32>(v) & 0x7f800000u) == 0x7f800000u; }`;

/**
 * WGSL expression of the index of unknown `i` of system `s` at a level of `n` unknowns starting at
 * element `offset`, in `layout` (`'contiguous'`: s·n + i; `'interleaved'`: i·batch + s).
 *
 * @example
 * ```ts
 * layoutIndexWgsl('interleaved', 'sys', 'i', 'params.n', '0u'); // '(0u + (i) * params.batch + (sys))'
 * ```
 */
export function layoutIndexWgsl(layout: TridiagonalLayout, s: string, i: string, n: string, offset: string): string {
  return layout === 'contiguous' ? `(${offset} + (${s}) * ${n} + (${i}))` : `(${offset} + (${i}) * params.batch + (${s}))`;
}

/**
 * WGSL declarations of the named bindings: the caller's `a`…`d` (`read`), `x` (`read_write`),
 * the scratch `rows` (`read_write`, or `read` when `rowsReadOnly`), `status` (an atomic word) and
 * `params` (the uniform block).
 *
 * @example
 * ```ts
 * bindingsWgsl(['a', 'b', 'c', 'd', 'x', 'status', 'params']);
 * ```
 */
export function bindingsWgsl(names: readonly BindingName[], rowsReadOnly = false): string {
  return names
    .map((name) => {
      const at = `@group(0) @binding(${BINDING[name]})`;
      if (name === 'params') return `${at} var<uniform> params: Params;`;
      if (name === 'status') return `${at} var<storage, read_write> status: array<atomic<u32>>;`;
      if (name === 'rows') return `${at} var<storage, ${rowsReadOnly ? 'read' : 'read_write'}> rows: array<vec4<f32>>;`;
      return `${at} var<storage, ${name === 'x' ? 'read_write' : 'read'}> ${name}_buf: array<f32>;`;
    })
    .join('\n');
}
