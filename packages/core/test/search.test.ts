// lowerBound / upperBound: the cached binary search against the CPU reference (types, equal runs,
// NaN, ±0, extremes, needles below and above everything, edge sizes of both arrays, needle chunks,
// 2-D dispatch shapes aside), the array-level functions and the errors.
import { bufferOf, getTestContext, poisoned, randomData, runBatch } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { ELEMENT_TYPES, type ElementType } from '../src/element-types.js';
import { lowerBound, upperBound } from '../src/ops/search.js';
import { createSearchPlan } from '../src/plans/search-plan.js';

type Data = Uint32Array | Int32Array | Float32Array;
const SIDES = ['lower', 'upper'] as const;
/** A needle tile is 256 invocations × 8 needles; the cache holds 2048 keys. */
const TILE = 2048;

function make(type: ElementType, values: number[]): Data {
  return type === 'u32' ? Uint32Array.from(values) : type === 'i32' ? Int32Array.from(values) : Float32Array.from(values);
}

/** Sorted keys in the element order (`Float32Array.prototype.sort`'s: −0 before +0, NaN last). */
function sortedKeys(type: ElementType, n: number, seed: number, kind: 'random' | 'small'): Data {
  const keys = randomData(type, n, seed, kind);
  if (type === 'f32' && kind === 'random') for (let i = 0; i < n; i += 97) (keys as Float32Array)[i] = Number.NaN;
  return keys.sort();
}

/** Needles: the keys themselves, their neighbours, random values, and the extremes of the type. */
function needlesFor(type: ElementType, keys: Data, n: number, seed: number): Data {
  const random = randomData(type, n, seed, n % 2 === 0 ? 'small' : 'random');
  for (let i = 0; i < n; i += 3) if (keys.length > 0) random[i] = keys[(i * 7919) % keys.length] as number;
  const edges =
    type === 'u32'
      ? [0, 0xffffffff]
      : type === 'i32'
        ? [-0x80000000, 0x7fffffff]
        : [-Infinity, Infinity, Number.NaN, -0, 0, -3.4e38, 3.4e38];
  for (let i = 0; i < Math.min(n, edges.length); i++) random[(i * 13) % n] = edges[i] as number;
  return random;
}

describe('search plan', () => {
  it('every type and side: sorted sizes 0 … past the cache, needle sizes 0 … several tiles, chunked', async () => {
    const ctx = await getTestContext();
    const sortedSizes = [0, 1, 2, 3, 5, 2047, 2048, 2049, 6000, 70001];
    const needleSizes = [1, 2, 3, TILE - 1, TILE, TILE + 1, 3 * TILE + 5];
    const jobs: { type: ElementType; side: 'lower' | 'upper'; chunk: number | undefined; keys: Data; needles: Data; order?: 'sorted' }[] =
      [];
    for (const type of ELEMENT_TYPES) {
      for (const [s, n] of sortedSizes.entries()) {
        const keys = sortedKeys(type, n, 11 * s + 1, s % 2 === 0 ? 'small' : 'random');
        const m = needleSizes[s % needleSizes.length] as number;
        const needles = needlesFor(type, keys, m, 7 * s + 5);
        for (const side of SIDES) jobs.push({ type, side, chunk: undefined, keys, needles });
      }
      // Equal runs across the cache's sample points, and needles sorted (a merge would see them so).
      const runs = make(
        type,
        Array.from({ length: 9000 }, (_, i) => Math.floor(i / 700) - (type === 'u32' ? 0 : 5)),
      );
      const sortedNeedles = needlesFor(type, runs, 5000, 3).sort();
      for (const side of SIDES) {
        jobs.push({ type, side, chunk: undefined, keys: runs, needles: sortedNeedles });
        // (SwiftShader time goes to compiling: the narrowed kernel for f32 on both sides and one side
        // of each integer type, the chunked plan for u32 only.)
        const narrowed = type === 'f32' || (type === 'u32') === (side === 'upper');
        // Narrowed tiles: sorted needles (each tile's range fits the cache), and random ones (it does not).
        if (narrowed) jobs.push({ type, side, chunk: undefined, keys: runs, needles: sortedNeedles, order: 'sorted' });
        if (narrowed) jobs.push({ type, side, chunk: undefined, keys: runs, needles: needlesFor(type, runs, 3000, 4), order: 'sorted' });
        // Needles denser than the keys: every tile's range fits the cache (the dense path); and no keys.
        const few = sortedKeys(type, 3000, 21, 'random');
        if (narrowed)
          jobs.push({ type, side, chunk: undefined, keys: few, needles: needlesFor(type, few, 20000, 6).sort(), order: 'sorted' });
        if (narrowed)
          jobs.push({ type, side, chunk: undefined, keys: make(type, []), needles: needlesFor(type, few, 100, 2), order: 'sorted' });
        // Chunks of 1024 needles: the offsets of each.
        if (type === 'u32') jobs.push({ type, side, chunk: 1024, keys: runs, needles: needlesFor(type, runs, 4100, 9) });
      }
    }
    const plans = new Map<string, ReturnType<typeof createSearchPlan>>();
    const results = await runBatch(
      ctx,
      jobs.map(({ type, side, chunk, keys, needles, order }) => ({
        record(encoder) {
          const key = `${type}/${side}/${chunk}/${order}`;
          let plan = plans.get(key);
          if (!plan) {
            plan = createSearchPlan(ctx, { type, side, maxChunkElements: chunk, needleOrder: order });
            plans.set(key, plan);
          }
          const output = poisoned(ctx, 4 * needles.length);
          const sorted = bufferOf(ctx, keys.length === 0 ? new Uint32Array(1) : keys);
          plan.encode(encoder, { sorted, sortedCount: keys.length, needles: bufferOf(ctx, needles), needleCount: needles.length, output });
          return [{ buffer: output, bytes: 4 * needles.length }];
        },
      })),
    );
    for (const plan of plans.values()) plan.destroy();
    jobs.forEach(({ type, side, chunk, keys, needles, order }, i) => {
      const got = new Uint32Array(results[i]![0]!);
      const want = (side === 'lower' ? cpu.lowerBound : cpu.upperBound)(keys, needles);
      const label = `${side} ${type} sorted=${keys.length} needles=${needles.length} chunk=${chunk} order=${order}`;
      const bad = got.findIndex((g, j) => g !== want[j]);
      expect({ label, bad, got: got[bad], want: want[bad] }).toEqual({ label, bad: -1, got: undefined, want: undefined });
    });
  });

  it('searches an array into itself (one buffer for sorted and needles); no needles records nothing', async () => {
    const ctx = await getTestContext();
    const keys = sortedKeys('i32', 5000, 4, 'small');
    const plan = createSearchPlan(ctx, { type: 'i32', side: 'upper' });
    const [[bytes]] = (await runBatch(ctx, [
      {
        record(encoder) {
          const both = bufferOf(ctx, keys);
          const output = poisoned(ctx, 4 * keys.length);
          plan.encode(encoder, { sorted: both, sortedCount: keys.length, needles: both, needleCount: keys.length, output });
          plan.encode(encoder, { sorted: both, sortedCount: keys.length, needles: both, needleCount: 0, output });
          return [{ buffer: output, bytes: 4 * keys.length }];
        },
      },
    ])) as [[ArrayBuffer]];
    plan.destroy();
    expect(Array.from(new Uint32Array(bytes))).toEqual(Array.from(cpu.upperBound(keys, keys)));
  });
});

describe('lowerBound / upperBound (array level)', () => {
  it('agree with the CPU reference and pin the rules down', async () => {
    const ctx = await getTestContext();
    const f = (values: number[]) => Float32Array.from(values);
    expect(Array.from(await lowerBound(ctx, f([1, 2, 2, 5]), f([2, 0, 9, 5, 1.5])))).toEqual([1, 0, 4, 3, 1]);
    expect(Array.from(await upperBound(ctx, f([1, 2, 2, 5]), f([2, 0, 9, 5, 1.5])))).toEqual([3, 0, 4, 4, 1]);
    // −0 before +0, NaN last and equal to every NaN.
    const signed = f([-Infinity, -0, 0, 1, Infinity, Number.NaN, Number.NaN]);
    expect(Array.from(await lowerBound(ctx, signed, f([0, -0, Number.NaN, Infinity, -Infinity])))).toEqual([2, 1, 5, 4, 0]);
    expect(Array.from(await upperBound(ctx, signed, f([0, -0, Number.NaN, Infinity, -Infinity])))).toEqual([3, 2, 7, 5, 1]);
    expect(Array.from(await lowerBound(ctx, new Int32Array([-3, -1, 4]), new Int32Array([-0x80000000, 0x7fffffff, -1])))).toEqual([
      0, 3, 1,
    ]);
    expect(Array.from(await upperBound(ctx, new Uint32Array([1, 0xffffffff]), new Uint32Array([0xffffffff, 0])))).toEqual([2, 0]);
    expect(Array.from(await lowerBound(ctx, new Uint32Array(0), new Uint32Array([5, 0])))).toEqual([0, 0]);
    expect(await upperBound(ctx, new Uint32Array([1, 2]), new Uint32Array(0))).toEqual(new Uint32Array(0));
    for (const type of ELEMENT_TYPES) {
      const keys = sortedKeys(type, 3000, 8, 'random');
      const needles = needlesFor(type, keys, 700, 2);
      const copy = needles.slice();
      expect(Array.from(await lowerBound(ctx, keys, needles))).toEqual(Array.from(cpu.lowerBound(keys, needles)));
      expect(Array.from(await upperBound(ctx, keys, needles))).toEqual(Array.from(cpu.upperBound(keys, needles)));
      expect(needles).toEqual(copy);
      // Ascending needles take the narrowed path.
      const ascending = needlesFor(type, keys, 9000, 5).sort();
      expect(Array.from(await upperBound(ctx, keys, ascending))).toEqual(Array.from(cpu.upperBound(keys, ascending)));
    }
  });

  it('rejects mismatched or non-typed arrays and bad plan arguments, naming them', async () => {
    const ctx = await getTestContext();
    for (const search of [lowerBound, upperBound]) {
      await expect(search(ctx, new Uint32Array(2), new Int32Array(2) as unknown as Uint32Array)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/^needles = Int32Array\(2\): expected a Uint32Array/),
      });
      await expect(search(ctx, [1] as unknown as Uint32Array, new Uint32Array(1))).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/^sorted = Array\(1\)/),
      });
    }
    expect(() => cpu.upperBound(new Float32Array(1), new Uint32Array(1) as unknown as Float32Array)).toThrow(/^needles = Uint32Array\(1\)/);
    expect(() => createSearchPlan(ctx, { side: 'left' as 'lower' })).toThrow(/options\.side = "left"/);
    expect(() => createSearchPlan(ctx, { type: 'u8' as 'u32' })).toThrow(/options\.type/);
    const plan = createSearchPlan(ctx);
    const encoder = ctx.device.createCommandEncoder();
    const sorted = bufferOf(ctx, new Uint32Array(4));
    const needles = bufferOf(ctx, new Uint32Array(4));
    const output = poisoned(ctx, 16);
    expect(() => plan.encode(encoder, { sorted, sortedCount: 1e9, needles, needleCount: 4, output })).toThrow(/args\.sorted has/);
    expect(() => plan.encode(encoder, { sorted, sortedCount: 4, needles, needleCount: -1, output })).toThrow(/args\.needleCount/);
    expect(() => plan.encode(encoder, { sorted, sortedCount: 1.5, needles, needleCount: 4, output })).toThrow(/args\.sortedCount/);
    expect(() => plan.encode(encoder, { sorted: 3 as never, sortedCount: 4, needles, needleCount: 4, output })).toThrow(/args\.sorted = 3/);
    expect(() => plan.encode(encoder, { sorted, sortedCount: 4, needles, needleCount: 4, output: sorted })).toThrow(
      /args\.output is the same buffer/,
    );
    plan.destroy();
  });
});
