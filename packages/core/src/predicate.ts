import type { ElementType } from './element-types.js';
import { invalidArgument } from './errors.js';
import { checkOneOf, checkOptions } from './validate.js';

/** Comparison operators of `packIf`: keep `x` when `x op value`. */
export type CompareOp = 'lt' | 'le' | 'gt' | 'ge' | 'eq' | 'ne';

/** Every comparison operator, in a stable order. */
export const COMPARE_OPS: readonly CompareOp[] = ['lt', 'le', 'gt', 'ge', 'eq', 'ne'];

/** A checked predicate: the operator, the constant, and the constant's 32 bits in the element type. */
export interface Predicate {
  readonly op: CompareOp;
  readonly value: number;
  readonly bits: number;
}

/**
 * Checks `{ op, value }` of `packIf` for elements of `type`: `op` one of {@link COMPARE_OPS},
 * `value` a number the type holds exactly (an integer in range for u32/i32; for f32 a number that
 * survives rounding to f32, NaN and ±Infinity included). Shared by the GPU plan and the CPU
 * reference, so both reject the same input with the same message.
 *
 * @example
 * ```ts
 * checkPredicate({ op: 'gt', value: 0.5 }, 'f32'); // { op: 'gt', value: 0.5, bits: 0x3f000000 }
 * ```
 */
export function checkPredicate(options: unknown, type: ElementType, argument = 'options'): Predicate {
  if (options === undefined) invalidArgument(argument, options, "expected { op, value }, e.g. { op: 'gt', value: 0 }");
  const o = checkOptions(options, ['op', 'value'], argument);
  if (o.op === undefined) invalidArgument(`${argument}.op`, o.op, `expected one of ${COMPARE_OPS.map((c) => `'${c}'`).join(', ')}`);
  const op = checkOneOf(o.op, COMPARE_OPS, `${argument}.op`, 'ne');
  const value = o.value;
  if (typeof value !== 'number') return invalidArgument(`${argument}.value`, value, 'expected a number');
  if (type === 'f32') {
    const rounded = new Float32Array([value]);
    if (!Number.isNaN(value) && rounded[0] !== value) invalidArgument(`${argument}.value`, value, 'not exactly representable as f32');
    return { op, value, bits: new Uint32Array(rounded.buffer)[0] as number };
  }
  const [lo, hi] = type === 'u32' ? [0, 2 ** 32 - 1] : [-(2 ** 31), 2 ** 31 - 1];
  if (!Number.isInteger(value) || value < lo || value > hi) {
    invalidArgument(`${argument}.value`, value, `expected an integer in [${lo}, ${hi}] for ${type} data`);
  }
  return { op, value, bits: value >>> 0 };
}

/**
 * The predicate as a JavaScript test, the CPU reference of the GPU comparison (NaN compares false,
 * and `'ne'` true, in both).
 *
 * @example
 * ```ts
 * predicateTest({ op: 'le', value: 2, bits: 2 })(3); // false
 * ```
 */
export function predicateTest(p: Predicate): (x: number) => boolean {
  const v = p.value;
  switch (p.op) {
    case 'lt':
      return (x) => x < v;
    case 'le':
      return (x) => x <= v;
    case 'gt':
      return (x) => x > v;
    case 'ge':
      return (x) => x >= v;
    case 'eq':
      return (x) => x === v;
    default:
      return (x) => x !== v;
  }
}
