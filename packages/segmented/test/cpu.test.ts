// The CPU references of @scan/segmented: hand-worked examples (the paper's among them), every op and
// type against core's unsegmented references applied segment by segment, backward semantics, empty
// segments through offsets, representation conversions, and validation messages.
import { ELEMENT_TYPES, type ElementType, SCAN_OPS, ScanError, type ScanTypedArray } from '@scan/core';
import * as core from '@scan/core/cpu';
import { identityOf, opFitsType } from '@scan/core/kit';
import { createRng, expectEqualArrays, randomData } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import {
  headFlagsToOffsets,
  offsetsToHeadFlags,
  packHeadFlags,
  segmentedDistribute,
  segmentedEnumerate,
  segmentedReduce,
  segmentedScan,
  splitAndSegment,
  unpackHeadFlags,
} from '../src/cpu/index.js';
import { checkSegments } from '../src/validate.js';

const u32 = (...v: number[]) => new Uint32Array(v);
const u8 = (...v: number[]) => new Uint8Array(v);

/** Random head flags (element 0 sometimes 0, to exercise the rule that it is a head anyway). */
function randomHeads(n: number, seed: number, density: number): Uint8Array {
  const rng = createRng(seed);
  const heads = new Uint8Array(n);
  for (let i = 0; i < n; i++) heads[i] = rng.float() < density ? 1 : 0;
  return heads;
}

/** [start, end) of every segment of head flags (element 0 always starts one). */
function segmentsOf(heads: ArrayLike<number>): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < heads.length; i++) {
    if (i === 0 || heads[i] === 1) out.push([i, i + 1]);
    else out[out.length - 1]![1] = i + 1;
  }
  return out;
}

/** Applies an unsegmented reference to every segment and concatenates the results. */
function perSegment<T extends ScanTypedArray>(data: T, heads: ArrayLike<number>, f: (slice: T) => T): T {
  const out = data.slice() as T;
  for (const [s, e] of segmentsOf(heads)) out.set(f(data.slice(s, e) as T), s);
  return out;
}

function dataFor(type: ElementType, op: string, n: number, seed: number): ScanTypedArray {
  return randomData(type, n, seed, op === 'add' ? 'small' : op === 'mul' ? 'mul-safe' : 'random');
}

function expectScanError(fn: () => unknown, message: RegExp): void {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(ScanError);
  expect((thrown as ScanError).code).toBe('INVALID_ARGUMENT');
  expect((thrown as ScanError).message).toMatch(message);
}

describe('the paper’s examples (§2.3)', () => {
  it('distribute([a b c][d e]) = [a a a][d d], and backward [c c c][e e]', () => {
    const [a, b, c, d, e] = [1, 2, 3, 4, 5];
    const heads = u8(1, 0, 0, 1, 0);
    expect([...segmentedDistribute(u32(a, b, c, d, e), heads)]).toEqual([a, a, a, d, d]);
    expect([...segmentedDistribute(u32(a, b, c, d, e), heads, { backward: true })]).toEqual([c, c, c, e, e]);
  });

  it('split-and-segment([at bf ct][df et ff]) = [bf][at ct][df ff][et]', () => {
    const [a, b, c, d, e, f] = [1, 2, 3, 4, 5, 6];
    for (const Flags of [Uint8Array, Uint32Array]) {
      const result = splitAndSegment(u32(a, b, c, d, e, f), u8(1, 0, 1, 0, 1, 0), new Flags([1, 0, 0, 1, 0, 0]));
      expect([...result.output]).toEqual([b, a, c, d, f, e]);
      expect([...result.headFlags]).toEqual([1, 1, 0, 1, 0, 1]);
      expect(result.headFlags).toBeInstanceOf(Flags);
    }
  });

  it('enumerate([t f f t f t t]) inside segments', () => {
    const flags = u8(1, 0, 0, 1, 0, 1, 1);
    // One segment: the unsegmented enumerate of the paper.
    expect([...segmentedEnumerate(flags, u8(1, 0, 0, 0, 0, 0, 0))]).toEqual([0, 1, 1, 1, 2, 2, 3]);
    expect([...segmentedEnumerate(flags, u8(1, 0, 0, 1, 0, 0, 0))]).toEqual([0, 1, 1, 0, 1, 1, 2]);
    expect([...segmentedEnumerate(flags, u8(1, 0, 0, 1, 0, 0, 0), { backward: true })]).toEqual([0, 0, 0, 2, 2, 1, 0]);
  });

  it('backward scan: the flags shift by one when the data is reversed (§2.2.2)', () => {
    // flag: 0 0 0 1 0 0 0 0 / data: 1 2 3 4 5 6 7 8 — the segments are [1 2 3][4 5 6 7 8].
    const flags = u8(0, 0, 0, 1, 0, 0, 0, 0);
    const data = u32(1, 2, 3, 4, 5, 6, 7, 8);
    const backward = segmentedScan(data, flags, { backward: true, inclusive: true });
    expect([...backward]).toEqual([6, 5, 3, 30, 26, 21, 15, 8]);
    expect([...segmentedScan(data, flags, { backward: true })]).toEqual([5, 3, 0, 26, 21, 15, 8, 0]);
    // Flipping the flags as they are would start the reversed segment at 4, not 3: wrong.
    const flipped = segmentedScan(data.slice().reverse(), flags.slice().reverse(), { inclusive: true }).reverse();
    expect([...flipped]).not.toEqual([...backward]);
    // Flipped and shifted by one, the forward scan reversed is the backward scan.
    const shifted = new Uint8Array(8);
    const reversed = flags.slice().reverse();
    for (let i = 1; i < 8; i++) shifted[i] = reversed[i - 1]!;
    const viaForward = segmentedScan(data.slice().reverse(), shifted, { inclusive: true }).reverse();
    expect([...viaForward]).toEqual([...backward]);
  });
});

describe('segmentedScan', () => {
  it('hand-worked forward and backward, exclusive and inclusive', () => {
    const data = u32(1, 2, 3, 4, 5);
    const heads = u8(1, 0, 0, 1, 0);
    expect([...segmentedScan(data, heads)]).toEqual([0, 1, 3, 0, 4]);
    expect([...segmentedScan(data, heads, { inclusive: true })]).toEqual([1, 3, 6, 4, 9]);
    expect([...segmentedScan(data, heads, { backward: true })]).toEqual([5, 3, 0, 5, 0]);
    expect([...segmentedScan(data, heads, { backward: true, inclusive: true })]).toEqual([6, 5, 3, 9, 5]);
    expect([...segmentedScan(new Int32Array([3, 1, 2]), u8(1, 0, 1), { op: 'max', inclusive: true })]).toEqual([3, 3, 2]);
    expect(segmentedScan(new Float32Array(0), u8()).length).toBe(0);
    expect(segmentedScan(new Int32Array([5]), u8(1))).toBeInstanceOf(Int32Array);
  });

  it('a zero first flag is a head', () => {
    const data = u32(1, 2, 3, 4);
    expect([...segmentedScan(data, u8(0, 0, 1, 0))]).toEqual([...segmentedScan(data, u8(1, 0, 1, 0))]);
    expect([...segmentedScan(data, new Uint32Array(4), { inclusive: true })]).toEqual([1, 3, 6, 10]);
  });

  it('the identity at every head (exclusive) and every tail (backward), for every op and type', () => {
    for (const type of ELEMENT_TYPES) {
      for (const op of SCAN_OPS.filter((o) => opFitsType(o, type))) {
        const data = dataFor(type, op, 9, 3);
        const heads = u8(1, 0, 1, 1, 0, 0, 1, 0, 0);
        const id = identityOf(op, type);
        const fwd = segmentedScan(data, heads, { op });
        const bwd = segmentedScan(data, heads, { op, backward: true });
        for (const [s, e] of segmentsOf(heads)) {
          expect(fwd[s], `${type} ${op} head ${s}`).toBe(id);
          expect(bwd[e - 1], `${type} ${op} tail ${e - 1}`).toBe(id);
        }
        // Every element its own segment: exclusive is all identity, inclusive is the data.
        const own = new Uint8Array(9).fill(1);
        expect([...segmentedScan(data, own, { op })].every((x) => Object.is(x, id) || x === id)).toBe(true);
        expectEqualArrays(segmentedScan(data, own, { op, inclusive: true, backward: true }), data, `${type} ${op} own`);
      }
    }
  });

  it('equals core’s scan applied to each segment, every op, type and direction', () => {
    for (const type of ELEMENT_TYPES) {
      for (const op of SCAN_OPS.filter((o) => opFitsType(o, type))) {
        for (const [n, density] of [
          [0, 0.5],
          [1, 0.5],
          [37, 0],
          [100, 0.1],
          [100, 1],
          [257, 0.5],
        ] as const) {
          const data = dataFor(type, op, n, n + 1);
          const heads = randomHeads(n, n + 2, density);
          for (const inclusive of [false, true]) {
            for (const backward of [false, true]) {
              const label = `${type} ${op} n=${n} d=${density} incl=${inclusive} bwd=${backward}`;
              const want = perSegment(data, heads, (slice) => core.scan(slice, { op, inclusive, backward }));
              expectEqualArrays(segmentedScan(data, heads, { op, inclusive, backward }), want, label);
            }
          }
        }
      }
    }
  });

  it('wraps integers and rounds f32 like the GPU (through core’s combine)', () => {
    expect([...segmentedScan(u32(0xffffffff, 2, 7), u8(1, 0, 1), { inclusive: true })]).toEqual([0xffffffff, 1, 7]);
    expect([...segmentedScan(new Int32Array([0x10000, 0x10000]), u8(1, 0), { op: 'mul', inclusive: true })]).toEqual([0x10000, 0]);
    expect([...segmentedScan(new Float32Array([1, 1e-8, 1e-8]), u8(1, 0, 0), { inclusive: true })]).toEqual([1, 1, 1]);
    expect([...segmentedScan(new Int32Array([5, -7]), u8(1, 0), { op: 'and', inclusive: true })]).toEqual([5, 5 & -7]);
  });
});

describe('segmentedReduce', () => {
  it('one value per segment, from head flags or offsets', () => {
    expect([...segmentedReduce(u32(1, 2, 3, 4, 5), u8(1, 0, 0, 1, 0))]).toEqual([6, 9]);
    expect([...segmentedReduce(u32(1, 2, 3, 4, 5), u8(0, 0, 0, 1, 0))]).toEqual([6, 9]);
    expect([...segmentedReduce(u32(1, 2, 3, 4, 5), { offsets: u32(0, 3, 5) })]).toEqual([6, 9]);
    expect(segmentedReduce(u32(), u8()).length).toBe(0);
    expect([...segmentedReduce(u32(), { offsets: u32(0, 0, 0) })]).toEqual([0, 0]);
  });

  it('empty segments (offsets) give the identity of every op and type', () => {
    for (const type of ELEMENT_TYPES) {
      for (const op of SCAN_OPS.filter((o) => opFitsType(o, type))) {
        const data = dataFor(type, op, 5, 11);
        const offsets = u32(0, 0, 2, 2, 2, 5, 5);
        const got = segmentedReduce(data, { offsets }, { op });
        const id = identityOf(op, type);
        expect(got.length).toBe(6);
        for (const k of [0, 2, 3, 5]) expect(got[k], `${type} ${op} empty segment ${k}`).toBe(id);
        expect(got[1]).toBe(core.reduce(data.slice(0, 2), { op }));
        expect(got[4]).toBe(core.reduce(data.slice(2, 5), { op }));
      }
    }
  });

  it('equals core’s reduce on each segment, and flags agree with their offsets', () => {
    for (const type of ELEMENT_TYPES) {
      for (const op of SCAN_OPS.filter((o) => opFitsType(o, type))) {
        const n = 300;
        const data = dataFor(type, op, n, 5);
        const heads = randomHeads(n, 6, 0.05);
        const want = segmentsOf(heads).map(([s, e]) => core.reduce(data.slice(s, e), { op }));
        const got = segmentedReduce(data, heads, { op });
        expect(got).toBeInstanceOf(data.constructor);
        expectEqualArrays(got, want, `${type} ${op} flags`);
        expectEqualArrays(segmentedReduce(data, { offsets: headFlagsToOffsets(heads) }, { op }), want, `${type} ${op} offsets`);
      }
    }
  });
});

describe('segmentedDistribute, segmentedEnumerate, splitAndSegment', () => {
  it('distribute and enumerate equal core’s references on each segment', () => {
    for (const n of [0, 1, 2, 33, 200]) {
      for (const density of [0, 0.2, 1]) {
        const heads = randomHeads(n, n + 7, density);
        const flags = randomHeads(n, n + 8, 0.5);
        for (const type of ELEMENT_TYPES) {
          const data = randomData(type, n, n + 9, type === 'f32' ? 'nan' : 'random');
          for (const backward of [false, true]) {
            const want = perSegment(data, heads, (slice) => core.distribute(slice, { backward }));
            expectEqualArrays(segmentedDistribute(data, heads, { backward }), want, `distribute ${type} n=${n} bwd=${backward}`);
          }
        }
        for (const backward of [false, true]) {
          const want = new Uint32Array(n);
          for (const [s, e] of segmentsOf(heads)) want.set(core.enumerate(flags.slice(s, e), { backward }), s);
          expectEqualArrays(segmentedEnumerate(flags, heads, { backward }), want, `enumerate n=${n} bwd=${backward}`);
        }
      }
    }
  });

  it('splitAndSegment: a stable split per segment, new heads at every non-empty part', () => {
    for (const n of [0, 1, 5, 64, 301]) {
      for (const density of [0, 0.1, 1]) {
        const heads = randomHeads(n, n + 1, density);
        const flags = randomHeads(n, n + 2, 0.4);
        const data = randomData('f32', n, n + 3, 'nan');
        const got = splitAndSegment(data, flags, heads);
        const wantHeads = new Uint8Array(n);
        const wantOut = new Float32Array(n);
        for (const [s, e] of segmentsOf(heads)) {
          const { output, falseCount } = core.split(data.slice(s, e), flags.slice(s, e));
          wantOut.set(output, s);
          wantHeads[s] = 1;
          if (falseCount > 0 && falseCount < e - s) wantHeads[s + falseCount] = 1;
        }
        // Bits, not values: NaN payloads move untouched.
        expectEqualArrays(new Uint32Array(got.output.buffer), new Uint32Array(wantOut.buffer), `split output n=${n}`);
        expectEqualArrays(got.headFlags, wantHeads, `split heads n=${n} d=${density}`);
      }
    }
    // A segment of only falses or only trues stays one segment.
    expect([...splitAndSegment(u32(1, 2, 3, 4), u8(0, 0, 1, 1), u8(1, 0, 1, 0)).headFlags]).toEqual([1, 0, 1, 0]);
  });

  it('distribute moves f32 bits exactly (-0, NaN payloads)', () => {
    const data = new Float32Array(new Uint32Array([0x80000000, 1, 0x7fc00001, 2]).buffer);
    const out = segmentedDistribute(data, u8(1, 0, 1, 0));
    expect([...new Uint32Array(out.buffer)]).toEqual([0x80000000, 0x80000000, 0x7fc00001, 0x7fc00001]);
  });
});

describe('representations', () => {
  it('headFlagsToOffsets and offsetsToHeadFlags', () => {
    expect([...headFlagsToOffsets(u8(1, 0, 0, 1, 0))]).toEqual([0, 3, 5]);
    expect([...headFlagsToOffsets(u8(0, 1, 1))]).toEqual([0, 1, 2, 3]);
    expect([...headFlagsToOffsets(new Uint32Array(4))]).toEqual([0, 4]);
    expect([...headFlagsToOffsets(u8())]).toEqual([0]);
    expect([...offsetsToHeadFlags(u32(0, 3, 5))]).toEqual([1, 0, 0, 1, 0]);
    // Empty segments cannot be head flags: they vanish.
    expect([...offsetsToHeadFlags(u32(0, 0, 2, 2, 3, 3))]).toEqual([1, 0, 1]);
    expect(offsetsToHeadFlags(u32(0)).length).toBe(0);
    expect(offsetsToHeadFlags(u32(0, 0))).toBeInstanceOf(Uint8Array);
    for (const n of [1, 31, 32, 33, 100]) {
      const heads = randomHeads(n, n, 0.3);
      heads[0] = 1;
      expect([...offsetsToHeadFlags(headFlagsToOffsets(heads))], `round trip n=${n}`).toEqual([...heads]);
    }
  });

  it('packHeadFlags and unpackHeadFlags', () => {
    expect([...packHeadFlags(u8(0, 0, 1, 0, 1))]).toEqual([0b10101]);
    expect([...packHeadFlags(new Uint8Array(40))]).toEqual([1, 0]);
    expect(packHeadFlags(u8()).length).toBe(0);
    expect([...packHeadFlags(new Uint32Array(32).fill(1))]).toEqual([0xffffffff]);
    expect([...packHeadFlags(new Uint8Array(33).fill(1))]).toEqual([0xffffffff, 1]);
    expect([...unpackHeadFlags(u32(0b10101), 5)]).toEqual([1, 0, 1, 0, 1]);
    // Bits are taken as they are: element 0 is not forced, bits past the length are dropped.
    expect([...unpackHeadFlags(u32(0b110), 2)]).toEqual([0, 1]);
    for (const n of [0, 1, 31, 32, 33, 63, 64, 65, 1000]) {
      const heads = randomHeads(n, n + 4, 0.5);
      const back = unpackHeadFlags(packHeadFlags(heads), n);
      if (n > 0) heads[0] = 1;
      expect([...back], `round trip n=${n}`).toEqual([...heads]);
    }
  });

  it('checkSegments counts the segments of either form', () => {
    expect(checkSegments(u8(0, 1, 0, 1), 4)).toMatchObject({ kind: 'headFlags', segmentCount: 3 });
    expect(checkSegments(u8(), 0)).toMatchObject({ kind: 'headFlags', segmentCount: 0 });
    expect(checkSegments({ offsets: u32(0, 0, 4) }, 4)).toMatchObject({ kind: 'offsets', segmentCount: 2 });
  });
});

describe('validation', () => {
  it('head flags: type, length, values', () => {
    expectScanError(() => segmentedScan(u32(1, 2, 3), u8(1, 0)), /^headFlags = Uint8Array\(2\): length 2 does not match the data length 3/);
    expectScanError(() => segmentedScan(u32(1, 2), u8(1, 2)), /^headFlags\[1\] = 2: expected 0 or 1/);
    expectScanError(
      () => segmentedScan(u32(1, 2), [1, 0] as unknown as Uint8Array),
      /^headFlags = Array\(2\): expected a Uint32Array or Uint8Array/,
    );
    expectScanError(() => segmentedScan(u32(1, 2), new Int32Array(2) as unknown as Uint8Array), /^headFlags = Int32Array\(2\)/);
    expectScanError(() => segmentedDistribute(u32(1), u8(1, 0)), /^headFlags = Uint8Array\(2\): length 2/);
    expectScanError(() => segmentedEnumerate(u8(1, 0), u8(1)), /^headFlags = Uint8Array\(1\): length 1 does not match the data length 2/);
    expectScanError(() => segmentedEnumerate(u8(1, 3), u8(1, 0)), /^flags\[1\] = 3: expected 0 or 1/);
    expectScanError(() => splitAndSegment(u32(1, 2), u8(0, 1), u8(1, 5)), /^headFlags\[1\] = 5/);
    expectScanError(() => splitAndSegment(u32(1, 2), u8(0), u8(1, 0)), /^flags = Uint8Array\(1\): length 1/);
    expectScanError(() => packHeadFlags(u32(1, 0, 7)), /^headFlags\[2\] = 7: expected 0 or 1/);
    expectScanError(() => headFlagsToOffsets(new Float32Array(2) as unknown as Uint8Array), /^headFlags = Float32Array\(2\)/);
    expectScanError(
      () => segmentedReduce(u32(1, 2), u8(1, 0, 0)),
      /^segments = Uint8Array\(3\): length 3 does not match the data length 2/,
    );
  });

  it('offsets: type, first, monotone (naming the first bad index), last', () => {
    expectScanError(
      () => segmentedReduce(u32(1, 2, 3), { offsets: u32(0, 2, 1, 3) }),
      /^segments\.offsets\[2\] = 1: less than segments\.offsets\[1\] = 2/,
    );
    expectScanError(() => segmentedReduce(u32(1, 2, 3), { offsets: u32(1, 3) }), /^segments\.offsets\[0\] = 1: the first offset must be 0/);
    expectScanError(
      () => segmentedReduce(u32(1, 2, 3), { offsets: u32(0, 2) }),
      /^segments\.offsets\[1\] = 2: the last offset must be the data length 3/,
    );
    expectScanError(
      () => segmentedReduce(u32(1, 2, 3), { offsets: u32() }),
      /^segments\.offsets = Uint32Array\(0\): expected at least one entry/,
    );
    expectScanError(
      () => segmentedReduce(u32(1), { offsets: new Int32Array([0, 1]) as unknown as Uint32Array }),
      /^segments\.offsets = Int32Array\(2\): expected a Uint32Array/,
    );
    expectScanError(() => segmentedReduce(u32(1), { rows: 1 } as never), /^segments = Object: expected head flags/);
    expectScanError(() => offsetsToHeadFlags(u32(0, 5, 4, 5)), /^offsets\[2\] = 4: less than offsets\[1\] = 5/);
    expectScanError(() => offsetsToHeadFlags(u32(3, 5)), /^offsets\[0\] = 3: the first offset must be 0/);
    expectScanError(() => offsetsToHeadFlags(u32()), /^offsets = Uint32Array\(0\): expected at least one entry/);
    expectScanError(() => offsetsToHeadFlags([0, 1] as unknown as Uint32Array), /^offsets = Array\(2\): expected a Uint32Array/);
  });

  it('data, options and packed words', () => {
    expectScanError(() => segmentedScan([1, 2] as unknown as Uint32Array, u8(1, 0)), /^data = Array\(2\)/);
    expectScanError(() => segmentedScan(new Float32Array(2), u8(1, 0), { op: 'xor' }), /^options\.op = "xor": not defined on f32/);
    expectScanError(() => segmentedScan(u32(1), u8(1), { inclusve: true } as never), /^options\.inclusve = true: unknown option/);
    expectScanError(
      () => segmentedScan(u32(1), u8(1), { algorithm: 'fast' } as never),
      /^options\.algorithm = "fast": expected one of 'auto', 'tree', 'single-pass'/,
    );
    expect(() => segmentedScan(u32(1), u8(1), { algorithm: 'tree' })).not.toThrow();
    expectScanError(() => segmentedScan(u32(1), u8(1), { backward: 'yes' } as never), /^options\.backward = "yes": expected true or false/);
    expectScanError(() => segmentedReduce(new Float32Array(1), u8(1), { op: 'or' }), /^options\.op = "or"/);
    expectScanError(() => segmentedReduce(u32(1), u8(1), { inclusive: true } as never), /^options\.inclusive = true: unknown option/);
    expectScanError(
      () => segmentedDistribute(u32(1), u8(1), { op: 'add' } as never),
      /^options\.op = "add": unknown option \(allowed: backward\)/,
    );
    expectScanError(() => segmentedEnumerate(u8(1), u8(1), { backward: 1 } as never), /^options\.backward = 1/);
    expectScanError(() => unpackHeadFlags(u32(1), 40), /^words = Uint32Array\(1\): 1 words hold 32 flags, not 40/);
    expectScanError(() => unpackHeadFlags(u32(1), -1), /^length = -1: expected a non-negative integer/);
    expectScanError(() => unpackHeadFlags(u8(1) as unknown as Uint32Array, 1), /^words = Uint8Array\(1\)/);
  });

  it('inputs are never modified', () => {
    const data = u32(5, 6, 7, 8);
    const flags = u8(1, 0, 1, 0);
    const heads = u8(0, 0, 1, 0);
    segmentedScan(data, heads, { backward: true });
    segmentedReduce(data, heads);
    splitAndSegment(data, flags, heads);
    packHeadFlags(heads);
    expect([...data]).toEqual([5, 6, 7, 8]);
    expect([...heads]).toEqual([0, 0, 1, 0]);
    expect([...flags]).toEqual([1, 0, 1, 0]);
  });
});
