import { describeValue, ScanError } from '../errors.js';
import { f16Round, numberToF16Bits } from './f16.js';
import type { LaneType, OperatorLayout } from './operator-type.js';

/**
 * `x` as a lane of `lane` stores it, as a typed array (and the GPU) would: u32 and i32 wrap modulo
 * 2^32 (fractions truncated, NaN to 0), f32 rounds with `Math.fround`, f16 to the nearest f16.
 *
 * @example
 * ```ts
 * roundLane('u32', -1); // 4294967295
 * roundLane('i32', 2 ** 31); // -2147483648
 * roundLane('f32', 0.1); // 0.10000000149011612
 * ```
 */
export function roundLane(lane: LaneType, x: number): number {
  switch (lane) {
    case 'u32':
      return x >>> 0;
    case 'i32':
      return x | 0;
    case 'f32':
      return Math.fround(x);
    case 'f16':
      return f16Round(x);
  }
}

const wordF32 = new Float32Array(1);
const wordU32 = new Uint32Array(wordF32.buffer);

/**
 * The bits a lane of `lane` stores for `x`: a u32 word, or for f16 the 16 bits. (Keys and the WGSL
 * identity are written from these, so -0 and +0 differ, as they do on the GPU.)
 *
 * @example
 * ```ts
 * laneBits('i32', -1); // 0xffffffff
 * laneBits('f32', Number.NEGATIVE_INFINITY); // 0xff800000
 * laneBits('f16', 1); // 0x3c00
 * ```
 */
export function laneBits(lane: LaneType, x: number): number {
  switch (lane) {
    case 'u32':
    case 'i32':
      return x >>> 0;
    case 'f32':
      wordF32[0] = x;
      return wordU32[0]!;
    case 'f16':
      return numberToF16Bits(x);
  }
}

/**
 * Why `value` is not a value of `layout`'s type, or `undefined`: a number for scalars, an array of
 * exactly N numbers for vectors, an object with a number in every field for records (`exact`:
 * and no other field, as for an identity; a CPU result may carry more, which storage drops).
 *
 * @example
 * ```ts
 * valueShapeProblem(layoutOf('vec2<f32>'), [1], true); // 'expected an array of 2 numbers'
 * ```
 */
export function valueShapeProblem(layout: OperatorLayout, value: unknown, exact: boolean): string | undefined {
  const { shape, lanes, fields } = layout;
  if (shape === 'scalar') return typeof value === 'number' ? undefined : 'expected a number';
  if (shape === 'vector') {
    const expected = `expected an array of ${lanes.length} numbers`;
    if (!Array.isArray(value) || value.length !== lanes.length) return expected;
    const at = value.findIndex((x) => typeof x !== 'number');
    return at < 0 ? undefined : `${expected}; element ${at} is ${describeValue(value[at])}`;
  }
  const expected = `expected an object of numbers with the fields ${fields.join(', ')}`;
  if (value === null || typeof value !== 'object' || Array.isArray(value) || ArrayBuffer.isView(value)) return expected;
  const record = value as Record<string, unknown>;
  for (const field of fields) {
    if (!Object.hasOwn(record, field)) return `${expected}; ${field} is missing`;
    if (typeof record[field] !== 'number') return `${expected}; ${field} is ${describeValue(record[field])}`;
  }
  if (exact) {
    const extra = Object.keys(record).find((key) => !fields.includes(key));
    if (extra !== undefined) return `${expected}; ${extra} is not a field of the type`;
  }
  return undefined;
}

/**
 * The numbers of a value (checked by {@link valueShapeProblem}) in lane order.
 *
 * @example
 * ```ts
 * valueLanes(layoutOf({ value: 'f32', index: 'u32' }), { index: 3, value: 2.5 }); // [2.5, 3]
 * ```
 */
export function valueLanes(layout: OperatorLayout, value: unknown): number[] {
  if (layout.shape === 'scalar') return [value as number];
  if (layout.shape === 'vector') return [...(value as number[])];
  return layout.fields.map((field) => (value as Record<string, number>)[field]!);
}

/**
 * A new value of `layout`'s type from its lane numbers (a number, an array, or an object whose
 * keys are in field order), taken as they are.
 *
 * @example
 * ```ts
 * valueFromLanes(layoutOf({ a: 'f32', b: 'f32' }), [2, 1]); // { a: 2, b: 1 }
 * ```
 */
export function valueFromLanes(layout: OperatorLayout, lanes: ArrayLike<number>): unknown {
  if (layout.shape === 'scalar') return lanes[0]!;
  if (layout.shape === 'vector') return Array.from(lanes);
  const record: Record<string, number> = {};
  layout.fields.forEach((field, i) => {
    record[field] = lanes[i]!;
  });
  return record;
}

/**
 * A function that rounds a value of `layout`'s type through its storage types ({@link roundLane}
 * on every lane) into a new value, as the GPU stores a combined element. A value of the wrong
 * shape is a {@link ScanError} naming `argument` — a CPU operator that returned it.
 *
 * @example
 * ```ts
 * const round = valueRounder(layoutOf({ count: 'u32', sum: 'f32' }), 'definition.cpu');
 * round({ count: 2 ** 32 + 1, sum: 0.1 }); // { count: 1, sum: 0.10000000149011612 }
 * ```
 */
export function valueRounder<T>(layout: OperatorLayout, argument: string): (value: T) => T {
  const { shape, lanes, fields } = layout;
  const fail = (value: unknown, problem: string): never => {
    throw new ScanError('INVALID_ARGUMENT', `${argument} returned ${describeValue(value)}: ${problem}`, { argument });
  };
  const check = (value: unknown): void => {
    const problem = valueShapeProblem(layout, value, false);
    if (problem !== undefined) fail(value, problem);
  };
  if (shape === 'scalar') {
    const lane = lanes[0]!;
    return (value) => {
      if (typeof value !== 'number') fail(value, 'expected a number');
      return roundLane(lane, value as number) as T;
    };
  }
  if (shape === 'vector') {
    return (value) => {
      check(value);
      return (value as number[]).map((x, i) => roundLane(lanes[i]!, x)) as T;
    };
  }
  return (value) => {
    check(value);
    const record: Record<string, number> = {};
    for (let i = 0; i < fields.length; i++) record[fields[i]!] = roundLane(lanes[i]!, (value as Record<string, number>)[fields[i]!]!);
    return record as T;
  };
}
