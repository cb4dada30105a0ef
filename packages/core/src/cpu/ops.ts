import type { ElementType, ScanOp } from '../element-types.js';

/** A binary operator on JavaScript numbers holding values of one element type. */
export type CombineFn = (a: number, b: number) => number;

/**
 * `op` on `type` as a JavaScript function that gives the same bits as the WGSL the kernels run:
 * integers wrap modulo 2^32 (`>>> 0` for u32, `| 0` for i32, `Math.imul` for products, which a
 * plain `*` would round past 2^53), and every f32 result is rounded to f32 with `Math.fround`
 * at each step, because a double accumulator would be more accurate than the GPU and differ from it.
 * (A sum or product of two f32 values rounded once through a double equals the single f32 rounding,
 * since a double has more than twice the bits of an f32.)
 *
 * @example
 * ```ts
 * combine('add', 'u32')(0xffffffff, 2); // 1
 * combine('mul', 'i32')(0x10000, 0x10000); // 0
 * combine('add', 'f32')(1, 1e-8); // 1
 * ```
 */
export function combine(op: ScanOp, type: ElementType): CombineFn {
  switch (type) {
    case 'u32':
      return u32Op(op);
    case 'i32':
      return i32Op(op);
    case 'f32':
      return f32Op(op);
  }
}

function u32Op(op: ScanOp): CombineFn {
  switch (op) {
    case 'add':
      return (a, b) => (a + b) >>> 0;
    case 'mul':
      return (a, b) => Math.imul(a, b) >>> 0;
    case 'min':
      return (a, b) => Math.min(a, b);
    case 'max':
      return (a, b) => Math.max(a, b);
    case 'and':
      return (a, b) => (a & b) >>> 0;
    case 'or':
      return (a, b) => (a | b) >>> 0;
    case 'xor':
      return (a, b) => (a ^ b) >>> 0;
  }
}

function i32Op(op: ScanOp): CombineFn {
  switch (op) {
    case 'add':
      return (a, b) => (a + b) | 0;
    case 'mul':
      return (a, b) => Math.imul(a, b);
    case 'min':
      return (a, b) => Math.min(a, b);
    case 'max':
      return (a, b) => Math.max(a, b);
    case 'and':
      return (a, b) => a & b;
    case 'or':
      return (a, b) => a | b;
    case 'xor':
      return (a, b) => a ^ b;
  }
}

function f32Op(op: ScanOp): CombineFn {
  switch (op) {
    case 'add':
      return (a, b) => Math.fround(a + b);
    case 'mul':
      return (a, b) => Math.fround(a * b);
    // NaN propagates and min(-0, +0) is -0 here; WGSL leaves both unspecified, so GPU results
    // for NaN and signed zeros are compared loosely (NaN equals NaN, -0 equals +0) in the tests.
    case 'min':
      return (a, b) => Math.min(a, b);
    case 'max':
      return (a, b) => Math.max(a, b);
    default:
      // checkOp rejects bitwise operators on f32 before we get here.
      throw new Error(`combine: ${op} is not defined on f32`);
  }
}
