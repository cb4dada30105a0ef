import { type ParamFields, read, readWrite } from '@scan/core/kit';
import type { TridiagonalLayout } from '../types.js';

// What the tridiagonal kernels share: their bindings and parameters, one equation type and the one
// elimination step that cyclic reduction's forward reduction and PCR's step both are.

/**
 * The caller's coefficients as the global levels and the workgroup solve read them, one f32 per
 * unknown: `a_buf` the sub-diagonal, `b_buf` the diagonal, `c_buf` the super-diagonal, `d_buf` the
 * right-hand side.
 *
 * @example
 * ```ts
 * const bindings = { ...COEFFICIENT_BINDINGS, x_buf: readWrite('array<f32>'), status: STATUS_BINDING };
 * ```
 */
export const COEFFICIENT_BINDINGS = {
  a_buf: read('array<f32>'),
  b_buf: read('array<f32>'),
  c_buf: read('array<f32>'),
  d_buf: read('array<f32>'),
} as const;

/**
 * The zero-pivot word: a kernel lowers `status[0]` to the index of a system that met a zero
 * divisor or a non-finite value (`atomicMin`).
 *
 * @example
 * ```ts
 * const bindings = { rows: ROWS_BINDING, status: STATUS_BINDING };
 * ```
 */
export const STATUS_BINDING = readWrite('array<atomic<u32>>');

/**
 * The plan's scratch `rows`: the reduced systems of the global levels, one `vec4(a, b, c, d)` per
 * row (one 16-byte access per row, and 6 storage bindings at most, within WebGPU's default 8 per
 * stage), each level after the previous; the solution of a level overwrites its `d` (`.w`).
 *
 * @example
 * ```ts
 * const bindings = { rows: ROWS_BINDING, status: STATUS_BINDING };
 * ```
 */
export const ROWS_BINDING = readWrite('array<vec4<f32>>');

/**
 * The parameters every tridiagonal kernel reads: unknowns per system at this level (`n`), systems
 * (`batch`), and workgroups per row of a 2-D dispatch (`dispatch_x`).
 *
 * @example
 * ```ts
 * const params = { ...SYSTEM_PARAMS, padded: 'u32' } as const;
 * ```
 */
export const SYSTEM_PARAMS = { n: 'u32', batch: 'u32', dispatch_x: 'u32' } as const satisfies ParamFields;

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
