// The CPU references with a user-defined operator (issue 48), against the naive serial definitions
// on operators that do not commute (affine maps, 2×2 integer matrices) and argmax: forward and
// backward, inclusive and exclusive, plain and segmented, at sizes 0, 1, 2, 33 and 1000; rounding
// through the storage types after every combine; and the errors of bad arguments.
import { createRng, type Rng } from '@scan/gpu-testing';
import { describe, expect, test } from 'vitest';
import { reduceWith, scanWith, segmentedReduceWith, segmentedScanWith } from '../../../src/operators/cpu-operator.js';
import { defineOperator } from '../../../src/operators/define-operator.js';
import type { HostArray } from '../../../src/operators/host-records.js';
import type { Operator } from '../../../src/operators/operator-type.js';
import {
  type Affine,
  type ArgMax,
  affine,
  argmax,
  decode,
  encode,
  expectInvalid,
  expectSameArray,
  lanesOf,
  matrix,
  naive,
} from './helpers.js';

const SIZES = [0, 1, 2, 33, 1000];
const DIRECTIONS = [
  { inclusive: false, backward: false },
  { inclusive: true, backward: false },
  { inclusive: false, backward: true },
  { inclusive: true, backward: true },
] as const;

/** A test operator with a generator of its values. */
interface Case<T> {
  readonly op: Operator<T>;
  readonly value: (rng: Rng, i: number) => T;
  readonly classes: readonly (new (n: number) => HostArray)[];
}

const CASES: readonly Case<unknown>[] = [
  erase({
    // a = ±1 and small integer b: every composition is exact in f32, so any grouping gives the same bits.
    op: affine,
    value: (rng): Affine => ({ a: rng.int(0, 1) ? 1 : -1, b: rng.int(-20, 20) }),
    classes: [Float32Array, Uint32Array],
  } satisfies Case<Affine>),
  erase({
    // Full-range entries: products wrap modulo 2^32, which is still a ring, so still associative.
    op: matrix,
    value: (rng): number[] =>
      rng.int(0, 3) === 0
        ? [rng.u32() | 0, rng.u32() | 0, rng.u32() | 0, rng.u32() | 0]
        : [rng.int(-3, 3), rng.int(-3, 3), rng.int(-3, 3), rng.int(-3, 3)],
    classes: [Int32Array, Uint32Array],
  } satisfies Case<number[]>),
  erase({
    // Few distinct values and shuffled indices: ties are common, and the lowest index must win them.
    op: argmax,
    value: (rng, i): ArgMax => ({
      value: rng.int(0, 9) === 0 ? Number.NEGATIVE_INFINITY : rng.int(-4, 4),
      index: (i * 7919 + rng.int(0, 3)) % 1009,
    }),
    classes: [Float32Array, Uint32Array],
  } satisfies Case<ArgMax>),
];

/** A case of any value type, for a list of them (the tests only pass its values back to its own operator). */
function erase<T>(c: Case<T>): Case<unknown> {
  return c as unknown as Case<unknown>;
}

function values<T>(c: Case<T>, n: number, seed: number): T[] {
  const rng = createRng(seed);
  return Array.from({ length: n }, (_, i) => c.value(rng, i));
}

function randomHeads(n: number, seed: number, density: number): Uint8Array {
  const rng = createRng(seed);
  return Uint8Array.from({ length: n }, () => (rng.float() < density ? 1 : 0));
}

describe('the operators of the tests do not commute', () => {
  test('affine and matrix: a ⊕ b ≠ b ⊕ a', () => {
    const f = { a: 2, b: 3 };
    const g = { a: 5, b: 7 };
    expect(affine.cpu(f, g)).toEqual({ a: 10, b: 22 }); // x ↦ 5(2x + 3) + 7
    expect(affine.cpu(g, f)).toEqual({ a: 10, b: 17 }); // x ↦ 2(5x + 7) + 3
    expect(matrix.cpu([1, 1, 0, 1], [1, 0, 1, 1])).not.toEqual(matrix.cpu([1, 0, 1, 1], [1, 1, 0, 1]));
  });
});

for (const c of CASES) {
  describe(`${c.op.name}: against the serial definitions`, () => {
    const serial = naive(c.op);
    for (const n of SIZES) {
      // Every array class at the small sizes; the first one at 1000, where the naive definitions cost most.
      for (const Class of n > 100 ? c.classes.slice(0, 1) : c.classes) {
        const label = `${c.op.name} n=${n} ${Class.name}`;
        test(`${label}: scan, every direction`, () => {
          const xs = values(c, n, 1000 + n);
          const data = encode(c.op, xs, Class);
          for (const { inclusive, backward } of DIRECTIONS) {
            const got = scanWith(c.op, data, { inclusive, backward });
            expectSameArray(
              got,
              encode(c.op, serial.scan(xs, inclusive, backward), Class),
              `${label} inclusive=${inclusive} backward=${backward}`,
            );
          }
          expect(decode(c.op, data)).toEqual(xs); // the input is left alone
        });

        test(`${label}: reduce`, () => {
          const xs = values(c, n, 2000 + n);
          const got = reduceWith(c.op, encode(c.op, xs, Class));
          expect(lanesOf(c.op, got)).toEqual(lanesOf(c.op, serial.reduce(xs)));
        });

        test(`${label}: segmented scan and reduce`, () => {
          const xs = values(c, n, 3000 + n);
          const data = encode(c.op, xs, Class);
          for (const density of [0, 0.05, 0.5, 1]) {
            const heads = randomHeads(n, 4000 + n, density);
            const segments = serial.segments(xs, heads);
            for (const { inclusive, backward } of DIRECTIONS) {
              const expected = segments.flatMap((s) => serial.scan(s, inclusive, backward));
              expectSameArray(
                segmentedScanWith(c.op, data, heads, { inclusive, backward }),
                encode(c.op, expected, Class),
                `${label} heads density ${density} inclusive=${inclusive} backward=${backward}`,
              );
            }
            const reduced = segmentedReduceWith(c.op, data, heads);
            expectSameArray(reduced, encode(c.op, segments.map(serial.fold), Class), `${label} heads density ${density} reduce`);
            expect(reduced.length).toBe(segments.length * c.op.lanes.length);
          }
        });
      }
    }
  });
}

describe('the definitions, by hand', () => {
  // Affine maps written out: f_i(x) = a_i x + b_i; the scan composes them left to right.
  const f = [
    { a: 2, b: 1 },
    { a: 3, b: 0 },
    { a: 1, b: 5 },
  ];
  const data = encode(affine, f, Float32Array);
  test('forward inclusive and exclusive', () => {
    expect(Array.from(scanWith(affine, data, { inclusive: true }))).toEqual([2, 1, 6, 3, 6, 8]); // f0; f1∘f0 = 6x+3; then +5
    expect(Array.from(scanWith(affine, data))).toEqual([1, 0, 2, 1, 6, 3]); // id, f0, f1∘f0
  });
  test('backward inclusive and exclusive', () => {
    // out[i] = x_i ⊕ … ⊕ x_(n−1): apply f_i first. f0 then f1 then f2 = 6x + 8.
    expect(Array.from(scanWith(affine, data, { inclusive: true, backward: true }))).toEqual([6, 8, 3, 5, 1, 5]);
    expect(Array.from(scanWith(affine, data, { backward: true }))).toEqual([3, 5, 1, 5, 1, 0]);
  });
  test('reduce, and the identity of nothing', () => {
    expect(reduceWith(affine, data)).toEqual({ a: 6, b: 8 });
    expect(reduceWith(affine, new Float32Array(0))).toEqual({ a: 1, b: 0 });
    expect(reduceWith(matrix, new Int32Array(0))).toEqual([1, 0, 0, 1]);
  });
  test('segments restart at heads; record 0 starts one whatever its flag', () => {
    const heads = new Uint8Array([0, 0, 1]);
    expect(Array.from(segmentedScanWith(affine, data, heads, { inclusive: true }))).toEqual([2, 1, 6, 3, 1, 5]);
    expect(Array.from(segmentedScanWith(affine, data, heads, { backward: true }))).toEqual([3, 0, 1, 0, 1, 0]);
    expect(Array.from(segmentedReduceWith(affine, data, heads))).toEqual([6, 3, 1, 5]);
    expect(segmentedReduceWith(affine, new Float32Array(0), new Uint8Array(0))).toEqual(new Float32Array(0));
    expect(Array.from(segmentedReduceWith(affine, data, new Uint32Array([1, 1, 1])))).toEqual([2, 1, 3, 0, 1, 5]);
  });
  test('argmax keeps the lowest index among equal values, wherever it is', () => {
    const words = encode(
      argmax,
      [
        { value: 1, index: 9 },
        { value: 5, index: 4 },
        { value: 5, index: 2 },
        { value: 5, index: 3 },
      ],
      Uint32Array,
    );
    expect(reduceWith(argmax, words)).toEqual({ value: 5, index: 2 });
    expect(decode(argmax, scanWith(argmax, words, { inclusive: true, backward: true })).map((r) => r.index)).toEqual([2, 2, 2, 3]);
  });
});

describe('rounding through the storage types after every combine', () => {
  test('u32 and i32 wrap even when the CPU function does not', () => {
    const add = defineOperator({ type: 'u32', identity: 0, wgsl: 'return a + b;', cpu: (a, b) => a + b });
    expect(Array.from(scanWith(add, new Uint32Array([0xffffffff, 2, 0xffffffff]), { inclusive: true }))).toEqual([0xffffffff, 1, 0]);
    const sub = defineOperator({ type: 'i32', identity: 0, wgsl: 'return a + b;', cpu: (a, b) => a + b });
    expect(reduceWith(sub, new Int32Array([2 ** 31 - 1, 1]))).toBe(-(2 ** 31));
  });

  test('f32: each step rounds, as the GPU stores it (a double accumulator would drift)', () => {
    const add = defineOperator({ type: 'f32', identity: 0, wgsl: 'return a + b;', cpu: (a, b) => a + b });
    const data = new Float32Array([1, ...new Array(10).fill(1e-8)]);
    expect(reduceWith(add, data)).toBe(1);
    expect(Array.from(scanWith(add, data, { inclusive: true }))).toEqual(new Array(11).fill(1));
  });

  test('f16: each step rounds to the nearest f16 (2048 + 1 is 2048, ties to even)', () => {
    const add = defineOperator({ type: 'f16', identity: 0, wgsl: 'return a + b;', cpu: (a, b) => a + b });
    const bits = encode(add, [2048, 1, 1, 1, 1, 0.5], Uint16Array);
    expect(reduceWith(add, bits)).toBe(2048);
    expect(decode(add, scanWith(add, bits, { inclusive: true }))).toEqual([2048, 2048, 2048, 2048, 2048, 2048]);
    expect(decode(add, scanWith(add, bits, { backward: true }))).toEqual([4.5, 3.5, 2.5, 1.5, 0.5, 0]); // small ones add up exactly
    const overflow = encode(add, [60000, 10000], Uint16Array);
    expect(reduceWith(add, overflow)).toBe(Number.POSITIVE_INFINITY);
  });

  test('records round field by field', () => {
    const stats = defineOperator({
      type: { count: 'u32', sum: 'f32' },
      identity: { count: 0, sum: 0 },
      wgsl: 'var r = a;\nr.count = a.count + b.count;\nr.sum = a.sum + b.sum;\nreturn r;',
      cpu: (a, b) => ({ count: a.count + b.count, sum: a.sum + b.sum }),
    });
    const data = encode(
      stats,
      [
        { count: 0xffffffff, sum: 1 },
        { count: 3, sum: 1e-8 },
      ],
      Uint32Array,
    );
    expect(reduceWith(stats, data)).toEqual({ count: 2, sum: 1 });
  });

  test('a CPU function that modifies its operands changes neither the input nor the identity', () => {
    const inPlace = defineOperator<Affine>({
      type: { a: 'f32', b: 'f32' },
      identity: { a: 1, b: 0 },
      wgsl: affine.wgsl,
      cpu: (x, y) => {
        x.b = y.a * x.b + y.b;
        x.a = x.a * y.a;
        return x;
      },
    });
    const data = encode(
      affine,
      [
        { a: 2, b: 1 },
        { a: 3, b: 0 },
        { a: 1, b: 5 },
      ],
      Float32Array,
    );
    const copy = data.slice();
    for (const { inclusive, backward } of DIRECTIONS) {
      expectSameArray(
        scanWith(inPlace, data, { inclusive, backward }),
        scanWith(affine, data, { inclusive, backward }),
        `${inclusive} ${backward}`,
      );
    }
    expectSameArray(data, copy, 'input');
    expect(inPlace.identity).toEqual({ a: 1, b: 0 });
  });

  test('a CPU function that returns the wrong shape is an error naming it', () => {
    const bad = defineOperator<Affine>({
      type: { a: 'f32', b: 'f32' },
      identity: { a: 1, b: 0 },
      wgsl: 'return a;',
      cpu: (x) => ({ a: x.a }) as Affine,
    });
    expectInvalid(
      () => scanWith(bad, new Float32Array(4), { inclusive: true }),
      'definition.cpu',
      'definition.cpu returned Object',
      'b is missing',
    );
    const scalar = defineOperator<number>({ type: 'u32', identity: 0, wgsl: 'return a;', cpu: () => '1' as unknown as number });
    expectInvalid(() => reduceWith(scalar, new Uint32Array(2)), 'definition.cpu', 'definition.cpu returned "1"', 'expected a number');
  });
});

describe('bad arguments', () => {
  const data = new Float32Array(6);
  test('the operator', () => {
    expectInvalid(() => scanWith({ ...affine }, data), 'op', 'op = Object', 'defineOperator');
    expectInvalid(() => reduceWith('add' as never, data), 'op', 'op = "add"');
    expectInvalid(() => segmentedScanWith(undefined as never, data, new Uint8Array(3)), 'op', 'op = undefined');
  });
  test('the data', () => {
    expectInvalid(() => scanWith(affine, new Float32Array(5)), 'data', 'data = Float32Array(5)', 'not a multiple of 2');
    expectInvalid(() => reduceWith(matrix, new Float64Array(4) as never), 'data', 'data = Float64Array(4)');
    expectInvalid(() => segmentedReduceWith(affine, [1, 2] as never, new Uint8Array(1)), 'data', 'data = Array(2)');
  });
  test('the options', () => {
    expectInvalid(
      () => scanWith(affine, data, { inclusve: true } as never),
      'options.inclusve',
      'options.inclusve = true',
      'unknown option',
    );
    expectInvalid(() => scanWith(affine, data, { backward: 'yes' } as never), 'options.backward', 'options.backward = "yes"');
    expectInvalid(() => segmentedScanWith(affine, data, new Uint8Array(3), 7 as never), 'options', 'options = 7');
  });
  test('the head flags: one 0/1 per record', () => {
    expectInvalid(() => segmentedScanWith(affine, data, new Uint8Array(6)), 'heads', 'heads = Uint8Array(6)', 'the 3 records');
    expectInvalid(
      () => segmentedReduceWith(affine, data, new Int32Array(3) as never),
      'heads',
      'heads = Int32Array(3)',
      'Uint8Array or Uint32Array',
    );
    expectInvalid(() => segmentedScanWith(affine, data, new Uint32Array([1, 2, 0])), 'heads[1]', 'heads[1] = 2', 'expected 0 or 1');
  });
});
