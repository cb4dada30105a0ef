import { describe, expect, test } from 'vitest';
import { combine, distribute, enumerate, pack, reduce, scan, split } from '../src/cpu/index.js';
import { type ElementType, identityOf, SCAN_OPS, type ScanOp, type ScanTypedArray, typedArrayFor } from '../src/element-types.js';
import { ScanError } from '../src/errors.js';
import { checkBoolean, checkCount, checkFlags, checkOneOf, checkOptions, normalizeScanOptions } from '../src/validate.js';

// The CPU references are the oracles of every GPU test, so they are checked here against
// hand-worked results and against the algebra they must satisfy, independently of any GPU.

const TYPES: readonly ElementType[] = ['u32', 'i32', 'f32'];
const INTEGER_ONLY: readonly ScanOp[] = ['and', 'or', 'xor'];
const opsFor = (type: ElementType) => SCAN_OPS.filter((op) => type !== 'f32' || !INTEGER_ONLY.includes(op));

/** A tiny seeded generator (mulberry32) so this file needs no test tooling. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

function randomArray(type: ElementType, n: number, seed: number): ScanTypedArray {
  const next = rng(seed);
  const out = typedArrayFor(type, n);
  for (let i = 0; i < n; i++) {
    const bits = next();
    out[i] = type === 'f32' ? (bits / 2 ** 32) * 2 - 1 : type === 'i32' ? bits | 0 : bits;
  }
  return out;
}

function randomFlags(n: number, seed: number): Uint32Array {
  const next = rng(seed);
  return Uint32Array.from({ length: n }, () => next() & 1);
}

/** Bit-level equality (distinguishes -0 from +0 and NaN payloads). */
function bits(a: ScanTypedArray): number[] {
  return Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));
}

function reversed<T extends ScanTypedArray>(a: T): T {
  return a.slice().reverse() as T;
}

/** Expects `fn` to throw an INVALID_ARGUMENT ScanError whose message contains every fragment. */
function expectInvalid(fn: () => unknown, ...fragments: string[]): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, 'expected a ScanError').toBeInstanceOf(ScanError);
  const error = caught as ScanError;
  expect(error.code).toBe('INVALID_ARGUMENT');
  for (const fragment of fragments) expect(error.message).toContain(fragment);
}

describe('scan: hand-worked examples', () => {
  // The example of Blelloch's and of Harris, Sengupta and Owens' scan chapters.
  const data = new Uint32Array([3, 1, 7, 0, 4, 1, 6, 3]);

  test('exclusive forward', () => {
    expect(Array.from(scan(data))).toEqual([0, 3, 4, 11, 11, 15, 16, 22]);
  });
  test('inclusive forward', () => {
    expect(Array.from(scan(data, { inclusive: true }))).toEqual([3, 4, 11, 11, 15, 16, 22, 25]);
  });
  test('exclusive backward', () => {
    expect(Array.from(scan(data, { backward: true }))).toEqual([22, 21, 14, 14, 10, 9, 3, 0]);
  });
  test('inclusive backward', () => {
    expect(Array.from(scan(data, { inclusive: true, backward: true }))).toEqual([25, 22, 21, 14, 14, 10, 9, 3]);
  });
  test('max, min, mul on i32', () => {
    const d = new Int32Array([2, -5, 3, 9, -1]);
    expect(Array.from(scan(d, { op: 'max', inclusive: true }))).toEqual([2, 2, 3, 9, 9]);
    expect(Array.from(scan(d, { op: 'min' }))).toEqual([0x7fffffff, 2, -5, -5, -5]);
    expect(Array.from(scan(d, { op: 'mul', inclusive: true }))).toEqual([2, -10, -30, -270, 270]);
  });
  test('bitwise on u32', () => {
    const d = new Uint32Array([0b1100, 0b1010, 0b0110]);
    expect(Array.from(scan(d, { op: 'and', inclusive: true }))).toEqual([0b1100, 0b1000, 0b0000]);
    expect(Array.from(scan(d, { op: 'or' }))).toEqual([0, 0b1100, 0b1110]);
    expect(Array.from(scan(d, { op: 'xor', inclusive: true }))).toEqual([0b1100, 0b0110, 0b0000]);
  });
  test('empty and single element', () => {
    for (const type of TYPES) {
      for (const op of opsFor(type)) {
        const empty = scan(typedArrayFor(type, 0), { op });
        expect(empty.length).toBe(0);
        const one = typedArrayFor(type, 1);
        one[0] = 5;
        expect(Array.from(scan(one, { op }))).toEqual([identityOf(op, type)]);
        expect(Array.from(scan(one, { op, inclusive: true }))).toEqual([5]);
        expect(Array.from(scan(one, { op, backward: true }))).toEqual([identityOf(op, type)]);
      }
    }
  });
  test('the algorithm option is accepted and ignored', () => {
    for (const algorithm of ['auto', 'blelloch', 'reduce-then-scan', 'decoupled-fallback'] as const) {
      expect(Array.from(scan(data, { algorithm }))).toEqual([0, 3, 4, 11, 11, 15, 16, 22]);
    }
  });
});

describe('scan: algebra on random data, every op and type', () => {
  for (const type of TYPES) {
    for (const op of opsFor(type)) {
      test(`${type} ${op}`, () => {
        const f = combine(op, type);
        const id = identityOf(op, type);
        const data = randomArray(type, 257, 1000 + SCAN_OPS.indexOf(op));
        const ex = scan(data, { op });
        const inc = scan(data, { op, inclusive: true });
        expect(ex).toBeInstanceOf(data.constructor as typeof Uint32Array);
        expect(ex[0]).toBe(id);
        // inclusive[i] = op(exclusive[i], data[i]), exclusive[i+1] = inclusive[i]
        for (let i = 0; i < data.length; i++) {
          expect(bits(typedArrayFromNumber(type, inc[i]!))).toEqual(bits(typedArrayFromNumber(type, f(ex[i]!, data[i]!))));
          if (i + 1 < data.length) expect(bits(ex.subarray(i + 1, i + 2))).toEqual(bits(inc.subarray(i, i + 1)));
        }
        // the last inclusive value is the reduction
        expect(bits(inc.subarray(-1))).toEqual(bits(typedArrayFromNumber(type, reduce(data, { op }))));
        // backward = reverse ∘ forward ∘ reverse, bit for bit (every op is commutative, IEEE add and mul too)
        for (const inclusive of [false, true]) {
          const backward = scan(data, { op, inclusive, backward: true });
          expect(bits(backward)).toEqual(bits(reversed(scan(reversed(data), { op, inclusive }))));
        }
      });
    }
  }
});

function typedArrayFromNumber(type: ElementType, value: number): ScanTypedArray {
  const a = typedArrayFor(type, 1);
  a[0] = value;
  return a;
}

describe('combine: identities and WGSL arithmetic', () => {
  const samples: Record<ElementType, number[]> = {
    u32: [0, 1, 2, 7, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff],
    i32: [0, 1, -1, 7, -8, 0x7fffffff, -0x80000000, 12345678],
    f32: [0, -0, 1, -1, 0.1, 3.4028234663852886e38, -3.4028234663852886e38, Infinity, -Infinity, 1.401298464324817e-45],
  };
  for (const type of TYPES) {
    for (const op of opsFor(type)) {
      test(`${type} ${op}: identity is neutral`, () => {
        const f = combine(op, type);
        const id = identityOf(op, type);
        for (const raw of samples[type]) {
          const x = typedArrayFromNumber(type, raw)[0]!;
          // op(identity, x) has x's bits except that f32 add turns -0 into +0 (0 + -0 = +0 in IEEE).
          const expected = type === 'f32' && op === 'add' && Object.is(x, -0) ? 0 : x;
          expect(Object.is(f(id, x), expected), `${op}(${id}, ${x})`).toBe(true);
          expect(Object.is(f(x, id), expected), `${op}(${x}, ${id})`).toBe(true);
        }
        expect(reduce(typedArrayFor(type, 0), { op })).toBe(id);
      });
    }
  }

  test('u32 wraps modulo 2^32', () => {
    expect(combine('add', 'u32')(0xffffffff, 2)).toBe(1);
    expect(combine('mul', 'u32')(0x10000, 0x10000)).toBe(0);
    expect(combine('mul', 'u32')(0xffffffff, 0xffffffff)).toBe(1);
    // a double product would lose the low bits: 0x12345679 * 0x9abcdef1 mod 2^32
    expect(combine('mul', 'u32')(0x12345679, 0x9abcdef1)).toBe(Number((0x12345679n * 0x9abcdef1n) % 2n ** 32n));
    expect(combine('xor', 'u32')(0xffffffff, 1)).toBe(0xfffffffe);
    expect(combine('and', 'u32')(0xffffffff, 0x80000000)).toBe(0x80000000);
    expect(combine('or', 'u32')(0x80000000, 1)).toBe(0x80000001);
    // unsigned order: 0x80000000 is large, not negative
    expect(combine('max', 'u32')(0x80000000, 1)).toBe(0x80000000);
    expect(combine('min', 'u32')(0xffffffff, 0)).toBe(0);
  });

  test('i32 wraps to the signed range', () => {
    expect(combine('add', 'i32')(0x7fffffff, 1)).toBe(-0x80000000);
    expect(combine('add', 'i32')(-0x80000000, -1)).toBe(0x7fffffff);
    expect(combine('mul', 'i32')(0x10000, 0x10000)).toBe(0);
    expect(combine('mul', 'i32')(-0x80000000, -1)).toBe(-0x80000000);
    expect(combine('mul', 'i32')(0x12345679, -7)).toBe(Number(BigInt.asIntN(32, 0x12345679n * -7n)));
    expect(combine('and', 'i32')(-1, -0x80000000)).toBe(-0x80000000);
    expect(combine('xor', 'i32')(-1, 0x7fffffff)).toBe(-0x80000000);
    expect(combine('min', 'i32')(-0x80000000, 0x7fffffff)).toBe(-0x80000000);
  });

  test('a scan wraps like the GPU', () => {
    expect(Array.from(scan(new Uint32Array([0xffffffff, 1, 0xffffffff]), { inclusive: true }))).toEqual([0xffffffff, 0, 0xffffffff]);
    expect(Array.from(scan(new Int32Array([0x7fffffff, 1, 1]), { inclusive: true }))).toEqual([0x7fffffff, -0x80000000, -0x7fffffff]);
    expect(reduce(new Uint32Array([0x80000000, 0x80000000]))).toBe(0);
    expect(reduce(new Int32Array([0x10000, 0x10000]), { op: 'mul' })).toBe(0);
  });

  test('f32 rounds to f32 after every step', () => {
    const add = combine('add', 'f32');
    expect(add(1, 2 ** -30)).toBe(1);
    expect(add(2 ** 24, 1)).toBe(2 ** 24);
    expect(add(0.1, 0.2)).toBe(Math.fround(Math.fround(0.1) + Math.fround(0.2)));
    // A double accumulator would reach 1 + 2^-20; f32 steps leave it at 1.
    const tiny = new Float32Array(1 + 1024).fill(2 ** -30);
    tiny[0] = 1;
    expect(reduce(tiny)).toBe(1);
    expect(scan(tiny, { inclusive: true })[1024]).toBe(1);
    expect(combine('mul', 'f32')(3.4028234663852886e38, 2)).toBe(Infinity);
    expect(combine('mul', 'f32')(Math.fround(0.1), Math.fround(0.1))).toBe(Math.fround(Math.fround(0.1) * Math.fround(0.1)));
    expect(combine('add', 'f32')(3.4028234663852886e38, 3.4028234663852886e38)).toBe(Infinity);
  });

  test('f32 NaN and infinities', () => {
    expect(combine('add', 'f32')(Infinity, -Infinity)).toBeNaN();
    expect(combine('add', 'f32')(1, Number.NaN)).toBeNaN();
    expect(combine('mul', 'f32')(0, Infinity)).toBeNaN();
    expect(combine('min', 'f32')(Number.NaN, 1)).toBeNaN();
    expect(combine('max', 'f32')(1, Number.NaN)).toBeNaN();
    const withNaN = new Float32Array([1, Number.NaN, 2]);
    const inc = scan(withNaN, { inclusive: true });
    expect(inc[0]).toBe(1);
    expect(inc[1]).toBeNaN();
    expect(inc[2]).toBeNaN();
    expect(scan(withNaN)[1]).toBe(1); // exclusive: NaN only from the next element on
    expect(reduce(new Float32Array([Infinity, 1]), { op: 'min' })).toBe(1);
    expect(reduce(new Float32Array([-Infinity, 1]), { op: 'max' })).toBe(1);
  });

  test('f32 signed zeros', () => {
    const add = combine('add', 'f32');
    expect(Object.is(add(-0, -0), -0)).toBe(true);
    expect(Object.is(add(0, -0), 0)).toBe(true);
    expect(Object.is(combine('mul', 'f32')(-1, 0), -0)).toBe(true);
    expect(Object.is(combine('min', 'f32')(0, -0), -0)).toBe(true);
    expect(Object.is(combine('max', 'f32')(-0, 0), 0)).toBe(true);
    // exclusive add scan starts at +0 and 0 + -0 = +0
    const z = scan(new Float32Array([-0, -0]), { inclusive: true });
    expect(Object.is(z[0], 0) && Object.is(z[1], 0)).toBe(true);
  });
});

describe('enumerate', () => {
  test("the paper's example: enumerate(t f f t f t t) = 0 1 1 1 2 2 3", () => {
    const flags = [1, 0, 0, 1, 0, 1, 1];
    expect(Array.from(enumerate(new Uint8Array(flags)))).toEqual([0, 1, 1, 1, 2, 2, 3]);
    expect(Array.from(enumerate(new Uint32Array(flags)))).toEqual([0, 1, 1, 1, 2, 2, 3]);
  });
  test('backward counts the flags strictly after', () => {
    expect(Array.from(enumerate(new Uint8Array([1, 0, 0, 1, 0, 1, 1]), { backward: true }))).toEqual([3, 3, 3, 2, 2, 1, 0]);
  });
  test('empty, all zeros, all ones', () => {
    expect(enumerate(new Uint32Array(0))).toEqual(new Uint32Array(0));
    expect(Array.from(enumerate(new Uint32Array(4)))).toEqual([0, 0, 0, 0]);
    expect(Array.from(enumerate(new Uint32Array(4).fill(1)))).toEqual([0, 1, 2, 3]);
    expect(Array.from(enumerate(new Uint32Array(4).fill(1), { backward: true }))).toEqual([3, 2, 1, 0]);
  });
  test('equals an exclusive add scan of the flags', () => {
    const flags = randomFlags(1000, 7);
    expect(Array.from(enumerate(flags))).toEqual(Array.from(scan(flags)));
    expect(Array.from(enumerate(flags, { backward: true }))).toEqual(Array.from(scan(flags, { backward: true })));
  });
  test('returns a Uint32Array for Uint8Array flags', () => {
    expect(enumerate(new Uint8Array([1, 1]))).toBeInstanceOf(Uint32Array);
  });
});

describe('distribute', () => {
  test('copies the first (last) element everywhere', () => {
    expect(Array.from(distribute(new Int32Array([4, 5, 6])))).toEqual([4, 4, 4]);
    expect(Array.from(distribute(new Int32Array([4, 5, 6]), { backward: true }))).toEqual([6, 6, 6]);
    expect(Array.from(distribute(new Uint32Array([0xffffffff, 0])))).toEqual([0xffffffff, 0xffffffff]);
  });
  test('empty gives empty, one gives itself', () => {
    for (const type of TYPES) {
      expect(distribute(typedArrayFor(type, 0)).length).toBe(0);
      expect(Array.from(distribute(typedArrayFromNumber(type, 9), { backward: true }))).toEqual([9]);
    }
  });
  test('copies f32 bits exactly (-0, NaN payload)', () => {
    const data = new Float32Array(3);
    const words = new Uint32Array(data.buffer);
    words[0] = 0x7fc01234; // a NaN with a payload
    words[2] = 0x80000000; // -0
    expect(bits(distribute(data))).toEqual([0x7fc01234, 0x7fc01234, 0x7fc01234]);
    expect(bits(distribute(data, { backward: true }))).toEqual([0x80000000, 0x80000000, 0x80000000]);
    expect(distribute(data)).toBeInstanceOf(Float32Array);
  });
});

describe('split', () => {
  test('stable: falses first, then trues', () => {
    const r = split(new Uint32Array([5, 6, 7, 8, 9]), new Uint8Array([1, 0, 1, 0, 0]));
    expect(Array.from(r.output)).toEqual([6, 8, 9, 5, 7]);
    expect(r.falseCount).toBe(3);
  });
  test('all false, all true, empty', () => {
    const data = new Int32Array([3, -1, 2]);
    expect(split(data, new Uint32Array(3))).toEqual({ output: data, falseCount: 3 });
    expect(split(data, new Uint32Array(3).fill(1))).toEqual({ output: data, falseCount: 0 });
    const empty = split(new Float32Array(0), new Uint8Array(0));
    expect(empty.output).toBeInstanceOf(Float32Array);
    expect(empty.output.length).toBe(0);
    expect(empty.falseCount).toBe(0);
  });
  test('matches the enumerate formulation of the paper', () => {
    const data = randomArray('i32', 500, 11);
    const flags = randomFlags(500, 12);
    const { output, falseCount } = split(data, flags);
    const trueIndex = enumerate(flags);
    for (let i = 0; i < data.length; i++) {
      const at = flags[i] ? falseCount + trueIndex[i]! : i - trueIndex[i]!;
      expect(output[at]).toBe(data[i]);
    }
    expect(Array.from(output.subarray(falseCount))).toEqual(Array.from(pack(data, flags)));
  });
  test('moves f32 bits exactly', () => {
    const data = new Float32Array(2);
    new Uint32Array(data.buffer).set([0x7fc00001, 0x80000000]);
    expect(bits(split(data, new Uint8Array([1, 0])).output)).toEqual([0x80000000, 0x7fc00001]);
  });
});

describe('pack', () => {
  test('keeps the flagged elements in order', () => {
    expect(Array.from(pack(new Float32Array([0.5, 1.5, 2.5, 3.5]), new Uint32Array([0, 1, 1, 0])))).toEqual([1.5, 2.5]);
    expect(pack(new Uint32Array([1, 2]), new Uint8Array([0, 0])).length).toBe(0);
    expect(pack(new Int32Array(0), new Uint8Array(0))).toBeInstanceOf(Int32Array);
  });
  test('keeps f32 bits exactly', () => {
    const data = new Float32Array(3);
    new Uint32Array(data.buffer).set([0x7f800001, 0x80000000, 0x3f800000]);
    expect(bits(pack(data, new Uint8Array([1, 1, 0])))).toEqual([0x7f800001, 0x80000000]);
  });
});

describe('inputs are never modified and may be views', () => {
  test('every function leaves its inputs alone and returns new arrays', () => {
    const backing = randomArray('u32', 64, 3) as Uint32Array;
    const data = backing.subarray(5, 45); // a view with a byte offset
    const flags = randomFlags(40, 4);
    const before = bits(backing);
    const flagsBefore = Array.from(flags);
    const results: ScanTypedArray[] = [
      scan(data),
      scan(data, { backward: true, inclusive: true }),
      distribute(data),
      distribute(data, { backward: true }),
      split(data, flags).output,
      pack(data, flags),
    ];
    reduce(data);
    enumerate(flags);
    expect(bits(backing)).toEqual(before);
    expect(Array.from(flags)).toEqual(flagsBefore);
    for (const r of results) {
      expect(r).toBeInstanceOf(Uint32Array);
      expect(r.buffer).not.toBe(backing.buffer);
    }
    expect(distribute(data)[0]).toBe(backing[5]);
    expect(distribute(data, { backward: true })[0]).toBe(backing[44]);
    expect(scan(data, { inclusive: true })[0]).toBe(backing[5]);
  });
});

describe('validation', () => {
  test('data must be a Uint32Array, Int32Array or Float32Array', () => {
    expectInvalid(() => scan([1, 2, 3] as unknown as Uint32Array), 'data', 'Array(3)', 'Uint32Array');
    expectInvalid(() => reduce(new Float64Array(2) as unknown as Float32Array), 'data', 'Float64Array(2)');
    expectInvalid(() => distribute(new Int16Array(2) as unknown as Int32Array), 'data', 'Int16Array(2)');
    expectInvalid(() => split(null as unknown as Uint32Array, new Uint8Array(0)), 'data', 'null');
    expectInvalid(() => pack(undefined as unknown as Uint32Array, new Uint8Array(0)), 'data', 'undefined');
  });
  test('an op must exist and fit the type', () => {
    expectInvalid(() => scan(new Float32Array(2), { op: 'xor' }), 'options.op', 'xor', 'f32');
    expectInvalid(() => reduce(new Float32Array(2), { op: 'and' }), 'options.op', 'and');
    expectInvalid(() => scan(new Uint32Array(2), { op: 'sum' as ScanOp }), 'options.op', '"sum"', 'add');
  });
  test('misspelt or unknown options are rejected with the allowed list', () => {
    expectInvalid(() => scan(new Uint32Array(2), { inclusve: true } as never), 'options.inclusve', 'inclusive', 'backward');
    expectInvalid(() => reduce(new Uint32Array(2), { inclusive: true } as never), 'options.inclusive', 'allowed: op');
    expectInvalid(() => enumerate(new Uint8Array(2), { op: 'add' } as never), 'options.op', 'allowed: backward');
    expectInvalid(() => distribute(new Uint32Array(2), { backwards: true } as never), 'options.backwards');
  });
  test('options must be an object and booleans must be booleans', () => {
    expectInvalid(() => scan(new Uint32Array(2), null as never), 'options', 'null');
    expectInvalid(() => scan(new Uint32Array(2), 3 as never), 'options', '3');
    expectInvalid(() => scan(new Uint32Array(2), { inclusive: 'true' } as never), 'options.inclusive', '"true"');
    expectInvalid(() => enumerate(new Uint8Array(2), { backward: 1 } as never), 'options.backward', '1');
    expectInvalid(() => scan(new Uint32Array(2), { algorithm: 'fast' } as never), 'options.algorithm', '"fast"', 'decoupled-fallback');
  });
  test('flags: type, length, values', () => {
    expectInvalid(() => enumerate([1, 0] as unknown as Uint8Array), 'flags', 'Array(2)', 'Uint8Array');
    expectInvalid(() => enumerate(new Int32Array(2) as unknown as Uint32Array), 'flags', 'Int32Array(2)');
    expectInvalid(() => split(new Uint32Array(3), new Uint8Array(2)), 'flags', 'length 2', 'length 3');
    expectInvalid(() => pack(new Uint32Array(3), new Uint32Array(4)), 'flags', 'length 4', 'length 3');
    expectInvalid(() => pack(new Uint32Array(3), new Uint32Array([0, 1, 2])), 'flags[2]', '= 2', '0 or 1');
    expectInvalid(() => enumerate(new Uint8Array([0, 255])), 'flags[1]', '255');
    expectInvalid(() => split(new Float32Array(1), new Float32Array(1) as unknown as Uint8Array), 'flags', 'Float32Array');
  });
});

describe('validate.ts helpers', () => {
  test('checkOptions', () => {
    expect(checkOptions(undefined, ['a'])).toEqual({});
    const o = { a: 1 };
    expect(checkOptions(o, ['a'])).toBe(o);
    expectInvalid(() => checkOptions([], ['a']), 'options', 'Array(0)');
    expectInvalid(() => checkOptions({ b: 1 }, ['a'], 'opts'), 'opts.b', 'allowed: a');
    expectInvalid(() => checkOptions({ b: 1 }, []), 'allowed: none');
  });
  test('checkBoolean, checkOneOf, checkCount', () => {
    expect(checkBoolean(undefined, 'x', true)).toBe(true);
    expect(checkBoolean(false, 'x', true)).toBe(false);
    expectInvalid(() => checkBoolean(0, 'x', true), 'x = 0');
    expect(checkOneOf(undefined, ['a', 'b'], 'y', 'b')).toBe('b');
    expect(checkOneOf('a', ['a', 'b'], 'y', 'b')).toBe('a');
    expectInvalid(() => checkOneOf('c', ['a', 'b'], 'y', 'b'), 'y = "c"', "'a', 'b'");
    expect(checkCount(0, 'n')).toBe(0);
    expect(checkCount(2 ** 40, 'n')).toBe(2 ** 40);
    for (const bad of [-1, 1.5, Number.NaN, Infinity, 2 ** 53, '3', undefined]) expectInvalid(() => checkCount(bad, 'n'), 'n = ');
  });
  test('checkFlags accepts 0/1 Uint8Array and Uint32Array', () => {
    expect(() => checkFlags(new Uint8Array([0, 1]), 2)).not.toThrow();
    expect(() => checkFlags(new Uint32Array(0), 0)).not.toThrow();
    expectInvalid(() => checkFlags(new Uint32Array([0, 0xffffffff]), 2, 'headFlags'), 'headFlags[1]', '4294967295');
  });
  test('normalizeScanOptions fills defaults', () => {
    expect(normalizeScanOptions(undefined, 'u32')).toEqual({ op: 'add', inclusive: false, backward: false, algorithm: 'auto' });
    expect(normalizeScanOptions({ op: 'min', inclusive: true, backward: true, algorithm: 'blelloch' }, 'f32')).toEqual({
      op: 'min',
      inclusive: true,
      backward: true,
      algorithm: 'blelloch',
    });
    expectInvalid(() => normalizeScanOptions({ op: 'or' }, 'f32'), 'options.op');
  });
});
