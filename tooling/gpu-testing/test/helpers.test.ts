import { describe, expect, test } from 'vitest';
import { expectCloseArrays, expectEqualArrays, expectScanClose } from '../src/compare.js';
import { isPoison, POISON_U32 } from '../src/poison.js';
import { createRng, DATA_KINDS, dataKindsFor, randomData, randomFlags } from '../src/random.js';
import { edgeSizes } from '../src/sizes.js';

// The helpers decide whether GPU tests pass, so they are checked on their own (pure, no device).

describe('createRng', () => {
  test('is reproducible and seed-dependent', () => {
    const a = createRng(1);
    const b = createRng(1);
    const c = createRng(2);
    const sa = Array.from({ length: 8 }, () => a.u32());
    expect(Array.from({ length: 8 }, () => b.u32())).toEqual(sa);
    expect(Array.from({ length: 8 }, () => c.u32())).not.toEqual(sa);
  });
  test('ranges', () => {
    const rng = createRng(3);
    const seen = new Set<number>();
    for (let i = 0; i < 10_000; i++) {
      const u = rng.u32();
      expect(Number.isInteger(u) && u >= 0 && u < 2 ** 32).toBe(true);
      const f = rng.float();
      expect(f >= 0 && f < 1).toBe(true);
      const k = rng.int(-8, 8);
      expect(k >= -8 && k <= 8 && Number.isInteger(k)).toBe(true);
      seen.add(k);
    }
    expect(seen.size).toBe(17);
  });
});

describe('randomData', () => {
  test('every kind of every type, reproducibly', () => {
    for (const type of ['u32', 'i32', 'f32'] as const) {
      for (const kind of dataKindsFor(type)) {
        const a = randomData(type, 1000, 5, kind);
        expect(a.length).toBe(1000);
        expect(Array.from(randomData(type, 1000, 5, kind))).toEqual(Array.from(a));
      }
    }
    expect(DATA_KINDS).toContain('nan');
    expect(() => randomData('u32', 4, 1, 'nan')).toThrow(/f32/);
  });
  test('types follow the element type', () => {
    expect(randomData('u32', 1, 1)).toBeInstanceOf(Uint32Array);
    expect(randomData('i32', 1, 1)).toBeInstanceOf(Int32Array);
    expect(randomData('f32', 1, 1)).toBeInstanceOf(Float32Array);
  });
  test('contents of each kind', () => {
    const f = randomData('f32', 10_000, 1);
    expect(f.every((x) => x >= -1 && x < 1)).toBe(true);
    const i = randomData('i32', 10_000, 1);
    expect(i.some((x) => x < -(2 ** 30)) && i.some((x) => x > 2 ** 30)).toBe(true);
    expect(randomData('i32', 1000, 2, 'small').every((x) => x >= -8 && x <= 8)).toBe(true);
    expect(randomData('u32', 1000, 2, 'small').every((x) => x <= 16)).toBe(true);
    expect(new Set(randomData('f32', 100, 3, 'equal')).size).toBe(1);
    const sorted = randomData('i32', 1000, 4, 'sorted');
    expect(sorted.every((x, k) => k === 0 || sorted[k - 1]! <= x)).toBe(true);
    const rev = randomData('u32', 1000, 4, 'reversed');
    expect(rev.every((x, k) => k === 0 || rev[k - 1]! >= x)).toBe(true);
    const ext = randomData('f32', 1000, 5, 'extreme');
    expect(ext.some((x) => x === Infinity) && ext.some((x) => Object.is(x, -0)) && ext.some((x) => x === -3.4028234663852886e38)).toBe(
      true,
    );
    expect(randomData('u32', 1000, 5, 'extreme').some((x) => x === 0xffffffff)).toBe(true);
    expect(randomData('i32', 1000, 5, 'extreme').some((x) => x === -0x80000000)).toBe(true);
    const nan = randomData('f32', 1000, 6, 'nan');
    const nans = nan.filter(Number.isNaN).length;
    expect(nans > 50 && nans < 250).toBe(true);
  });
  test('small f32 sums are exact in any order; mul-safe products too', () => {
    const small = randomData('f32', 1 << 16, 7, 'small');
    let forward = 0;
    for (const x of small) forward = Math.fround(forward + x);
    let back = 0;
    for (let k = small.length - 1; k >= 0; k--) back = Math.fround(back + small[k]!);
    expect(forward).toBe(back);
    const mul = randomData('f32', 1 << 16, 8, 'mul-safe');
    expect(mul.some((x) => Math.abs(x) === 2) && mul.some((x) => Math.abs(x) === 0.5)).toBe(true);
    // every contiguous product stays within [0.5, 2] in magnitude
    let outside = 0;
    for (let start = 0; start < 2000; start += 97) {
      let p = 1;
      for (let k = start; k < start + 5000; k++) {
        p *= mul[k]!;
        if (Math.abs(p) < 0.5 || Math.abs(p) > 2) outside++;
      }
    }
    expect(outside).toBe(0);
    const odd = randomData('u32', 1000, 9, 'mul-safe');
    expect(odd.every((x) => x % 2 === 1)).toBe(true);
  });
});

describe('randomFlags', () => {
  test('0/1 with the requested density', () => {
    const flags = randomFlags(10_000, 1, 0.1);
    expect(flags.every((x) => x === 0 || x === 1)).toBe(true);
    const ones = flags.reduce((s, x) => s + x, 0);
    expect(ones > 800 && ones < 1200).toBe(true);
    expect(randomFlags(100, 1, 0).every((x) => x === 0)).toBe(true);
    expect(randomFlags(100, 1, 1).every((x) => x === 1)).toBe(true);
  });
});

describe('compare', () => {
  test('expectEqualArrays: NaN equals NaN, -0 equals +0', () => {
    expect(() => expectEqualArrays(new Float32Array([Number.NaN, -0]), new Float32Array([Number.NaN, 0]), 'x')).not.toThrow();
  });
  test('expectEqualArrays names label, index, values and count', () => {
    expect(() => expectEqualArrays(new Uint32Array([1, 5, 3, 9]), new Uint32Array([1, 2, 3, 4]), 'scan u32')).toThrow(
      /scan u32: 2 of 4 elements differ; first at index 1: actual 5 \(0x00000005\), expected 2/,
    );
    expect(() => expectEqualArrays(new Uint32Array([POISON_U32]), new Uint32Array([0]), 'p')).toThrow(/poison sentinel/);
    expect(() => expectEqualArrays(new Uint32Array(2), new Uint32Array(3), 'len')).toThrow(/len: length 2, expected 3/);
    expect(() => expectEqualArrays(new Float32Array([Number.NaN]), new Float32Array([1]), 'f')).toThrow(/index 0/);
  });
  test('expectCloseArrays', () => {
    expect(() => expectCloseArrays([1.000001, Infinity, Number.NaN], [1, Infinity, Number.NaN], { rtol: 1e-5, label: 'c' })).not.toThrow();
    expect(() => expectCloseArrays([1.1], [1], { rtol: 1e-5, label: 'c' })).toThrow(/c: 1 of 1/);
    expect(() => expectCloseArrays([-Infinity], [Infinity], { rtol: 1, label: 'c' })).toThrow();
    expect(() => expectCloseArrays([1e-9], [0], { atol: 1e-8, label: 'c' })).not.toThrow();
  });
  test('expectScanClose accepts a reordered f32 sum and rejects a missing element', () => {
    const input = randomData('f32', 1 << 16, 10);
    const sequential = new Float32Array(input.length);
    let acc = 0;
    for (let k = 0; k < input.length; k++) sequential[k] = acc = Math.fround(acc + input[k]!);
    // a tiled order: local sums per 256, carried serially, as a GPU scan does
    const tiled = new Float32Array(input.length);
    let carry = 0;
    for (let t = 0; t < input.length; t += 256) {
      let local = 0;
      for (let k = t; k < t + 256; k++) {
        local = Math.fround(local + input[k]!);
        tiled[k] = Math.fround(carry + local);
      }
      carry = Math.fround(carry + local);
    }
    expect(() => expectScanClose(tiled, input, sequential, 'add', 'tiled')).not.toThrow();
    const broken = tiled.slice();
    for (let k = 10; k < broken.length; k++) broken[k] = broken[k]! - input[10]!; // element 10 lost
    expect(() => expectScanClose(broken, input, sequential, 'add', 'broken')).toThrow(/broken: .* first at index 10/);
    // integer ops and f32 min/max stay exact
    expect(() => expectScanClose(new Float32Array([1.0000001]), new Float32Array([1]), new Float32Array([1]), 'max', 'm')).toThrow();
    expect(() => expectScanClose(new Uint32Array([2]), new Uint32Array([1]), new Uint32Array([1]), 'add', 'u')).toThrow();
  });
  test('expectScanClose backward bound accumulates from the end', () => {
    const input = new Float32Array([1000, 1e-3]);
    // last element (backward prefix = just 1e-3) must be tight; the first may be off by ~1e-3
    expect(() =>
      expectScanClose(new Float32Array([1000.0005, 1e-3]), input, new Float32Array([1000.001, 1e-3]), 'add', 'b', { backward: true }),
    ).not.toThrow();
    expect(() =>
      expectScanClose(new Float32Array([1000.001, 2e-3]), input, new Float32Array([1000.001, 1e-3]), 'add', 'b', { backward: true }),
    ).toThrow(/index 1/);
  });
});

describe('poison', () => {
  test('isPoison reads bits', () => {
    expect(isPoison(0xdeadbeef)).toBe(true);
    expect(isPoison(0xdeadbeef | 0)).toBe(true);
    expect(isPoison(0)).toBe(false);
  });
});

describe('edgeSizes', () => {
  test('sorted, unique, with the required sizes', () => {
    const sizes = edgeSizes(1024);
    expect(sizes).toEqual([...new Set(sizes)].sort((a, b) => a - b));
    for (const n of [0, 1, 2, 3, 4, 5, 7, 8, 1023, 1024, 1025, 2047, 2049, 5123, 65535, 65536, 65537, 2 ** 20 + 3])
      expect(sizes).toContain(n);
    expect(sizes).not.toContain(2 ** 22 + 1);
    expect(edgeSizes(1024, { large: true })).toContain(2 ** 22 + 1);
    expect(edgeSizes(1)[0]).toBe(0);
    expect(() => edgeSizes(0)).toThrow();
  });
});
