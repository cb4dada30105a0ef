import type { ElementType, ScanOp } from '../element-types.js';

/**
 * WGSL snippets for an operator on an element type. Every kernel of the scan family composes its
 * arithmetic from these, so adding an operator touches only this file.
 */
export interface WgslOp {
  /** The WGSL scalar type (`u32`, `i32`, `f32`). */
  readonly type: ElementType;
  readonly op: ScanOp;
  /** The identity as a WGSL expression of the scalar type. */
  readonly identity: string;
  /** `combine(a, b)` as a WGSL expression; works on scalars and vectors alike. */
  combine(a: string, b: string): string;
  /** The subgroup reduction built-in (`subgroupAdd`, `subgroupMin`, …) for this operator. */
  readonly subgroupReduce: string;
  /** The inclusive subgroup scan built-in when WGSL has one (add and mul only). */
  readonly subgroupInclusive: string | undefined;
  /** Whether every order of combination gives the same bits (false for f32 add and mul). */
  readonly exact: boolean;
}

/**
 * The WGSL snippets of `op` on `type`.
 *
 * @example
 * ```ts
 * wgslOp('min', 'i32').combine('a', 'b'); // 'min(a, b)'
 * ```
 */
export function wgslOp(op: ScanOp, type: ElementType): WgslOp {
  const combine = (a: string, b: string): string => {
    switch (op) {
      case 'add':
        return `(${a} + ${b})`;
      case 'mul':
        return `(${a} * ${b})`;
      case 'min':
        return `min(${a}, ${b})`;
      case 'max':
        return `max(${a}, ${b})`;
      case 'and':
        return `(${a} & ${b})`;
      case 'or':
        return `(${a} | ${b})`;
      case 'xor':
        return `(${a} ^ ${b})`;
    }
  };
  const cap = op.charAt(0).toUpperCase() + op.slice(1);
  return {
    type,
    op,
    identity: wgslIdentity(op, type),
    combine,
    subgroupReduce: `subgroup${cap}`,
    subgroupInclusive: op === 'add' || op === 'mul' ? `subgroupInclusive${cap}` : undefined,
    exact: type !== 'f32' || op === 'min' || op === 'max',
  };
}

/**
 * The identity of `op` on `type` as a WGSL expression. The most negative i32 has no literal, so it
 * is a bit cast; f32 infinities call the functions of `WGSL_PRELUDE`, which every kernel
 * module must contain (`slotFunctionsWgsl` emits it).
 *
 * @example
 * ```ts
 * wgslIdentity('min', 'f32'); // 'f32_pos_inf()'
 * ```
 */
export function wgslIdentity(op: ScanOp, type: ElementType): string {
  const suffix = type === 'u32' ? 'u' : type === 'i32' ? 'i' : 'f';
  switch (op) {
    case 'add':
    case 'or':
    case 'xor':
      return type === 'f32' ? '0.0f' : `0${suffix}`;
    case 'mul':
      return type === 'f32' ? '1.0f' : `1${suffix}`;
    case 'and':
      return type === 'u32' ? '0xffffffffu' : '-1i';
    case 'min':
      return type === 'u32' ? '0xffffffffu' : type === 'i32' ? '2147483647i' : 'f32_pos_inf()';
    case 'max':
      return type === 'u32' ? '0u' : type === 'i32' ? 'bitcast<i32>(0x80000000u)' : 'f32_neg_inf()';
  }
}

/**
 * Helper functions every kernel module includes. WGSL's constant evaluation rejects infinities —
 * `bitcast<f32>(0x7f800000u)` of a constant is an error — so the bits are loaded from a `var`,
 * which makes the cast a run-time one. Kernels that use `wgslOp(...).identity` of an f32 `min` or
 * `max` without the slot view (which includes it) must include it themselves.
 *
 * @example
 * ```ts
 * const wgsl = `${WGSL_PRELUDE}\nfn lowest() -> f32 { return ${wgslOp('max', 'f32').identity}; }`;
 * ```
 */
export const WGSL_PRELUDE = `
fn f32_pos_inf() -> f32 { var bits = 0x7f800000u; return bitcast<f32>(bits); }
fn f32_neg_inf() -> f32 { var bits = 0xff800000u; return bitcast<f32>(bits); }
`;
