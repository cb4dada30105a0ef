import { invalidArgument } from '../errors.js';
import { f16BitsToNumber, numberToF16Bits } from './f16.js';
import type { LaneType, Operator, OperatorLayout } from './operator-type.js';
import { valueFromLanes, valueLanes, valueShapeProblem } from './operator-values.js';

/**
 * A `Float16Array` (ES2025; Node 20 has none), by shape: the compiler's library here predates it,
 * so host-array functions take it as any array view of numbers and check the class at run time.
 */
export interface Float16ArrayLike extends ArrayBufferView {
  readonly length: number;
  [index: number]: number;
}

/**
 * A host array of an operator's records: scalars in their own typed array (f16: a Uint16Array of
 * bits, or a Float16Array); vectors and records in any 32-bit typed array, as consecutive words.
 */
export type HostArray = Uint32Array | Int32Array | Float32Array | Uint16Array | Float16ArrayLike;

/** Reads and writes the records of one host array, through views of its buffer made once. */
export interface RecordAccess<T> {
  /** Records in the array. */
  readonly count: number;
  /** Record `i` as a new value. */
  read(i: number): T;
  /** Stores `value` (of the right shape, not checked) at record `i`, as its storage types hold it. */
  write(i: number, value: T): void;
}

/** What the host-array checks read of an operator (any `Operator<T>` is one). */
export type HostLayout = Pick<Operator<unknown>, 'type' | 'shape' | 'lanes' | 'fields'>;

/** The engine's Float16Array class, where there is one. */
const Float16ArrayClass = (globalThis as { Float16Array?: abstract new (...args: never[]) => Float16ArrayLike }).Float16Array;

/**
 * Checks that `data` can hold `op`'s records and returns how many it holds. Scalars need their own
 * typed array (u32: Uint32Array, i32: Int32Array, f32: Float32Array, f16: Uint16Array or
 * Float16Array); vectors and records a Uint32Array, Int32Array or Float32Array whose length is a
 * multiple of the record's lanes. Anything else is a `ScanError` naming `argument`.
 *
 * @example
 * ```ts
 * const affine = defineOperator({
 *   type: { a: 'f32', b: 'f32' },
 *   identity: { a: 1, b: 0 },
 *   wgsl: 'var r = a; r.a = a.a * b.a; r.b = b.a * a.b + b.b; return r;',
 *   cpu: (x, y) => ({ a: x.a * y.a, b: y.a * x.b + y.b }),
 * });
 * checkHostArray(affine, new Float32Array(6)); // 3
 * checkHostArray(affine, new Float32Array(5)); // throws: data = Float32Array(5): length 5 is not a multiple of 2 …
 * ```
 */
export function checkHostArray(op: HostLayout, data: unknown, argument = 'data'): number {
  const lanes = op.lanes.length;
  if (op.shape === 'scalar') {
    const lane = op.lanes[0]!;
    if (!fitsScalar(lane, data)) invalidArgument(argument, data, `expected ${SCALAR_ARRAYS[lane]} for ${lane} elements`);
  } else if (!(data instanceof Uint32Array || data instanceof Int32Array || data instanceof Float32Array)) {
    invalidArgument(
      argument,
      data,
      `expected a Uint32Array, Int32Array or Float32Array holding ${describeType(op)} records as ${lanes} words each`,
    );
  }
  const length = (data as HostArray).length;
  if (length % lanes !== 0) {
    invalidArgument(argument, data, `length ${length} is not a multiple of ${lanes}, the words of one ${describeType(op)} record`);
  }
  return length / lanes;
}

/**
 * Record `i` of `data` as a value of `op`'s type (a number, an array, or an object in field order).
 * Bits are read exactly: u32, i32 and f32 lanes through views of the same buffer, f16 from its bits.
 * For many records, `recordAccess` makes the views once.
 *
 * @example
 * ```ts
 * readRecord(argmax, new Uint32Array([0x40200000, 7]), 0); // { value: 2.5, index: 7 }
 * ```
 */
export function readRecord<T>(op: Operator<T>, data: HostArray, i: number): T {
  return recordAccess(op, data).read(checkIndex(op, data, i));
}

/**
 * Stores `value` at record `i` of `data`, as the GPU stores it: u32 and i32 lanes wrap, f32 lanes
 * round with `Math.fround`, f16 lanes to the nearest f16 (ties to even; NaN stays NaN). A value of
 * the wrong shape is a `ScanError` naming `value`.
 *
 * @example
 * ```ts
 * const data = new Uint16Array(2);
 * writeRecord(halfAdd, data, 1, 65520); // data[1] = 0x7c00, infinity
 * ```
 */
export function writeRecord<T>(op: Operator<T>, data: HostArray, i: number, value: T): void {
  const problem = valueShapeProblem(op, value, false);
  if (problem !== undefined) invalidArgument('value', value, problem);
  recordAccess(op, data).write(checkIndex(op, data, i), value);
}

/**
 * Reading and writing every record of `data` (checked by {@link checkHostArray}, which names
 * `argument`), with the typed-array views made once.
 *
 * @example
 * ```ts
 * const access = recordAccess(argmax, data);
 * for (let i = 0; i < access.count; i++) console.log(access.read(i));
 * ```
 */
export function recordAccess<T>(op: Operator<T>, data: HostArray, argument = 'data'): RecordAccess<T> {
  const count = checkHostArray(op, data, argument);
  const { lanes } = op;
  const width = lanes.length;
  const { buffer, byteOffset } = data;
  const length = count * width;
  if (lanes[0] === 'f16') {
    const bits = new Uint16Array(buffer, byteOffset, length);
    return {
      count,
      read: (i) => f16BitsToNumber(bits[i]!) as T,
      write: (i, value) => {
        bits[i] = numberToF16Bits(value as number);
      },
    };
  }
  // One view per lane type: a store through the lane's own view converts exactly as the GPU does.
  const views: Record<Exclude<LaneType, 'f16'>, Uint32Array | Int32Array | Float32Array> = {
    u32: new Uint32Array(buffer, byteOffset, length),
    i32: new Int32Array(buffer, byteOffset, length),
    f32: new Float32Array(buffer, byteOffset, length),
  };
  const laneViews = lanes.map((lane) => views[lane as Exclude<LaneType, 'f16'>]);
  if (op.shape === 'scalar') {
    const view = laneViews[0]!;
    return {
      count,
      read: (i) => view[i]! as T,
      write: (i, value) => {
        view[i] = value as number;
      },
    };
  }
  const scratch = new Array<number>(width);
  return {
    count,
    read: (i) => {
      for (let j = 0; j < width; j++) scratch[j] = laneViews[j]![i * width + j]!;
      return valueFromLanes(op, scratch) as T;
    },
    write: (i, value) => {
      const numbers = valueLanes(op, value);
      for (let j = 0; j < width; j++) laneViews[j]![i * width + j] = numbers[j]!;
    },
  };
}

/**
 * A new host array of `count` records of `op`'s type, of the same class as `like`.
 *
 * @example
 * ```ts
 * newHostArray(argmax, new Float32Array(8), 3); // Float32Array(6)
 * ```
 */
export function newHostArray<A extends HostArray>(op: OperatorLayout, like: A, count: number): A {
  return new (like.constructor as new (length: number) => A)(count * op.lanes.length);
}

/** The typed arrays a scalar lane may live in, for messages. */
const SCALAR_ARRAYS: Record<LaneType, string> = {
  u32: 'a Uint32Array',
  i32: 'an Int32Array',
  f32: 'a Float32Array',
  f16: Float16ArrayClass ? 'a Uint16Array of f16 bits or a Float16Array' : 'a Uint16Array of f16 bits',
};

function fitsScalar(lane: LaneType, data: unknown): boolean {
  switch (lane) {
    case 'u32':
      return data instanceof Uint32Array;
    case 'i32':
      return data instanceof Int32Array;
    case 'f32':
      return data instanceof Float32Array;
    case 'f16':
      return data instanceof Uint16Array || (Float16ArrayClass !== undefined && data instanceof Float16ArrayClass);
  }
}

/** The type in a message: `vec2<f32>`, `{value: f32, index: u32}`. */
function describeType(op: HostLayout): string {
  if (typeof op.type === 'string') return op.type;
  return `{${op.fields.map((field, i) => `${field}: ${op.lanes[i]}`).join(', ')}}`;
}

function checkIndex(op: HostLayout, data: HostArray, i: number): number {
  const count = checkHostArray(op, data);
  if (!Number.isInteger(i) || i < 0 || i >= count) invalidArgument('index', i, `expected a record index from 0 to ${count - 1}`);
  return i;
}

/**
 * A host array of the same class as `like` over the first `bytes` bytes of `buffer` (a read-back,
 * which is rounded up to whole words): what the array-level functions resolve to.
 *
 * @example
 * ```ts
 * hostArrayOver(new Uint16Array(3), readBack, 6); // Uint16Array(3)
 * ```
 */
export function hostArrayOver<A extends HostArray>(like: A, buffer: ArrayBuffer, bytes: number): A {
  const Ctor = like.constructor as new (b: ArrayBuffer) => A;
  return new Ctor(buffer.byteLength === bytes ? buffer : buffer.slice(0, bytes));
}
