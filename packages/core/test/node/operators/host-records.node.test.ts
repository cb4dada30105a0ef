// Host arrays of an operator's records (issue 48): which arrays hold which types, record counts,
// exact reads and writes for every type (checked against a DataView encoding written apart), and
// the errors naming the argument.
import { describe, expect, test } from 'vitest';
import { defineOperator } from '../../../src/operators/define-operator.js';
import {
  checkHostArray,
  type HostArray,
  newHostArray,
  readRecord,
  recordAccess,
  writeRecord,
} from '../../../src/operators/host-records.js';
import type { Operator, OperatorType } from '../../../src/operators/operator-type.js';
import { SCALAR_TYPES, VECTOR_TYPES } from '../../../src/operators/operator-type.js';
import { argmax, bitsOf, decode, encode, expectInvalid, lanesOf, recordOf } from './helpers.js';

/** A do-nothing operator on `type` (only its layout matters here). */
function opOf(type: OperatorType): Operator<unknown> {
  const identity =
    typeof type !== 'string'
      ? Object.fromEntries(Object.keys(type).map((f) => [f, 0]))
      : type.startsWith('vec')
        ? new Array(Number(type[3])).fill(0)
        : 0;
  return defineOperator({ type, identity, wgsl: 'return a;', cpu: (a: unknown) => a } as never) as Operator<unknown>;
}

const WORD_ARRAYS = [Uint32Array, Int32Array, Float32Array] as const;

/** Lane values that probe each storage type's edges. */
const EDGES = {
  u32: [0, 1, 0x7fffffff, 0x80000000, 0xffffffff],
  i32: [-(2 ** 31), -1, 0, 1, 2 ** 31 - 1],
  f32: [0, -0, 1.5, -3.4028234663852886e38, 1.401298464324817e-45, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
  f16: [0, -0, 1, -65504, 2 ** -24, 1023 * 2 ** -24, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
} as const;

const RECORD: OperatorType = { count: 'u32', offset: 'i32', weight: 'f32', last: 'u32', x: 'f32' };

describe('host arrays: which arrays hold which types', () => {
  test('scalars need their own typed array; f16 a Uint16Array (or a Float16Array)', () => {
    expect(checkHostArray(opOf('u32'), new Uint32Array(5))).toBe(5);
    expect(checkHostArray(opOf('i32'), new Int32Array(5))).toBe(5);
    expect(checkHostArray(opOf('f32'), new Float32Array(5))).toBe(5);
    expect(checkHostArray(opOf('f16'), new Uint16Array(5))).toBe(5);
    expectInvalid(
      () => checkHostArray(opOf('u32'), new Int32Array(2)),
      'data',
      'data = Int32Array(2)',
      'expected a Uint32Array for u32 elements',
    );
    expectInvalid(() => checkHostArray(opOf('i32'), new Uint32Array(2)), 'data', 'data = Uint32Array(2)', 'an Int32Array');
    expectInvalid(() => checkHostArray(opOf('f32'), [1, 2]), 'data', 'data = Array(2)', 'a Float32Array');
    expectInvalid(() => checkHostArray(opOf('f16'), new Float32Array(2)), 'data', 'data = Float32Array(2)', 'a Uint16Array of f16 bits');
    expectInvalid(() => checkHostArray(opOf('f16'), new Int16Array(2)), 'data', 'data = Int16Array(2)');
    expectInvalid(() => checkHostArray(opOf('u32'), new Int32Array(2), 'input'), 'input', 'input = Int32Array(2)');
    expectInvalid(() => checkHostArray(opOf('u32'), undefined, 'input'), 'input', 'input = undefined');
  });

  test('vectors and records: any 32-bit typed array, a whole number of records long', () => {
    for (const Class of WORD_ARRAYS) {
      expect(checkHostArray(opOf('vec2<f32>'), new Class(6))).toBe(3);
      expect(checkHostArray(opOf('vec4<u32>'), new Class(8))).toBe(2);
      expect(checkHostArray(opOf(RECORD), new Class(10))).toBe(2);
      expect(checkHostArray(opOf(RECORD), new Class(0))).toBe(0);
    }
    expectInvalid(
      () => checkHostArray(opOf('vec4<i32>'), new Int32Array(6)),
      'data',
      'data = Int32Array(6)',
      'length 6 is not a multiple of 4, the words of one vec4<i32> record',
    );
    expectInvalid(
      () => checkHostArray(argmax, new Float32Array(3)),
      'data',
      'data = Float32Array(3)',
      'not a multiple of 2, the words of one {value: f32, index: u32} record',
    );
    expectInvalid(
      () => checkHostArray(opOf('vec2<u32>'), new Uint16Array(4)),
      'data',
      'data = Uint16Array(4)',
      'Uint32Array, Int32Array or Float32Array',
    );
    expectInvalid(() => checkHostArray(opOf('vec2<u32>'), new Float64Array(2)), 'data', 'data = Float64Array(2)');
    expectInvalid(() => checkHostArray(opOf(RECORD), new DataView(new ArrayBuffer(20))), 'data', 'data = DataView(20)');
  });

  test('new arrays are of the same class and hold whole records', () => {
    for (const Class of WORD_ARRAYS) {
      const made = newHostArray(opOf(RECORD), new Class(0), 3);
      expect(made).toBeInstanceOf(Class);
      expect(made.length).toBe(15);
    }
    expect(newHostArray(opOf('f16'), new Uint16Array(1), 4)).toEqual(new Uint16Array(4));
  });
});

describe('host arrays: exact reads and writes', () => {
  /** Records of `op` drawn from the edge values of each lane, in every lane position. */
  function edgeValues(op: Operator<unknown>): unknown[] {
    const longest = Math.max(...op.lanes.map((lane) => EDGES[lane].length));
    return Array.from({ length: longest + 1 }, (_, i) =>
      recordOf(
        op,
        op.lanes.map((lane, j) => EDGES[lane][(i + j) % EDGES[lane].length]!),
      ),
    );
  }

  const types: OperatorType[] = [...SCALAR_TYPES, ...VECTOR_TYPES, RECORD, { only: 'i32' }, { value: 'f32', index: 'u32' }];
  for (const type of types) {
    const name = typeof type === 'string' ? type : JSON.stringify(type);
    test(`${name}: write then read gives the same bits and values, in every array class`, () => {
      const op = opOf(type);
      const classes: (new (n: number) => HostArray)[] =
        op.shape !== 'scalar'
          ? [...WORD_ARRAYS]
          : [{ u32: Uint32Array, i32: Int32Array, f32: Float32Array, f16: Uint16Array }[op.lanes[0]!]];
      const values = edgeValues(op);
      for (const Class of classes) {
        const expected = encode(op, values, Class);
        const data = new Class(expected.length);
        values.forEach((v, i) => writeRecord(op, data, i, v));
        expect(bitsOf(data), `${name} in ${Class.name}`).toEqual(bitsOf(expected));
        const read = values.map((_, i) => readRecord(op, data, i));
        // Object.is semantics through toEqual: -0 stays -0, NaN equals NaN.
        expect(read.map((v) => lanesOf(op, v))).toEqual(decode(op, expected).map((v) => lanesOf(op, v)));
        // Records come back as plain objects with the fields in declaration order.
        if (op.shape === 'record') expect(Object.keys(read[0] as object)).toEqual(op.fields);
        if (op.shape === 'vector') expect(Array.isArray(read[0])).toBe(true);
      }
    });
  }

  test('writes round as storage does: integers wrap, f32 and f16 round to nearest', () => {
    const record = opOf({ u: 'u32', i: 'i32', f: 'f32' });
    const data = new Uint32Array(3);
    writeRecord(record, data, 0, { u: -1, i: 2 ** 31, f: 0.1 });
    expect(readRecord(record, data, 0)).toEqual({ u: 0xffffffff, i: -(2 ** 31), f: Math.fround(0.1) });
    const half = opOf('f16');
    const bits = new Uint16Array(4);
    writeRecord(half, bits, 0, 65520);
    writeRecord(half, bits, 1, 2 ** -25);
    writeRecord(half, bits, 2, Number.NaN);
    writeRecord(half, bits, 3, 1 + 2 ** -11);
    expect(Array.from(bits)).toEqual([0x7c00, 0x0000, 0x7e00, 0x3c00]);
    expect(readRecord(half, bits, 2)).toBeNaN(); // NaN preserved as NaN
  });

  test('f32 NaN payloads and -0 are read and written through the same bits', () => {
    const op = opOf('vec2<f32>');
    const data = new Uint32Array([0x7fc00001, 0x80000000]);
    const [nan, zero] = readRecord(op, data, 0) as number[];
    expect(nan).toBeNaN();
    expect(Object.is(zero, -0)).toBe(true);
  });

  test('views of part of a buffer: reads and writes stay inside it', () => {
    const buffer = new Uint32Array(8).fill(0xdeadbeef);
    const view = new Uint32Array(buffer.buffer, 8, 4); // words 2..5
    const access = recordAccess(argmax, view);
    expect(access.count).toBe(2);
    access.write(1, { value: 2.5, index: 7 });
    expect(Array.from(buffer)).toEqual([0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0x40200000, 7, 0xdeadbeef, 0xdeadbeef]);
    expect(access.read(1)).toEqual({ value: 2.5, index: 7 });
  });

  test('bad indices and values name their argument', () => {
    const data = new Float32Array(4);
    expectInvalid(() => readRecord(argmax, data, 2), 'index', 'index = 2', 'from 0 to 1');
    expectInvalid(() => readRecord(argmax, data, -1), 'index', 'index = -1');
    expectInvalid(() => readRecord(argmax, data, 0.5), 'index', 'index = 0.5');
    expectInvalid(() => writeRecord(argmax, data, 0, { value: 1 } as never), 'value', 'value = Object', 'index is missing');
    expectInvalid(() => writeRecord(argmax, new Float32Array(3), 0, { value: 1, index: 0 }), 'data', 'data = Float32Array(3)');
    expectInvalid(() => writeRecord(opOf('vec2<u32>'), new Uint32Array(2), 0, [1]), 'value', 'value = Array(1)', 'an array of 2 numbers');
  });
});

describe('host arrays: Float16Array', () => {
  const Float16 = (globalThis as { Float16Array?: new (n: number) => HostArray }).Float16Array;
  test.skipIf(!Float16)('holds f16 records where the engine has it', () => {
    const op = opOf('f16');
    const data = new Float16!(3);
    writeRecord(op, data, 0, 1 / 3);
    expect(checkHostArray(op, data)).toBe(3);
    expect(readRecord(op, data, 0)).toBe((data as unknown as number[])[0]);
  });
});

// A typed operator keeps its type through the host-record functions.
test('types: readRecord gives the operator’s T', () => {
  const op = defineOperator({ type: 'vec2<u32>', identity: [0, 0], wgsl: 'return a + b;', cpu: (a, b) => [a[0]! + b[0]!, a[1]! + b[1]!] });
  const value: number[] = readRecord(op, new Uint32Array([3, 4]), 0);
  expect(value).toEqual([3, 4]);
  expect(lanesOf(op, value)).toEqual([3, 4]);
});
