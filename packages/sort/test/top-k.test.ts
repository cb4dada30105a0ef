// topK on the GPU and its CPU reference: every key type, largest and smallest, k at its edges,
// equal keys (all equal, ties at the threshold, candidates past the scratch's capacity), NaN/±0 and
// extremes, with and without values; the plan with a k per encode; errors naming the argument.
// Among equal keys the GPU may take any: results are checked for the right keys (by their order),
// indices that are distinct and point at those keys, and values that follow the indices.
import { ScanError } from '@scan/core';
import { expectEqualArrays, getTestContext, POISON_U32 } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { createTopKPlan, topK } from '../src/index.js';
import type { SortArray, SortValueType } from '../src/types.js';
import { bufferWith, readWords, TEST_USAGE } from './gpu-buffers.js';
import { bitsOf, type KeyContent, keyTypeOf, makeKeys, makeValues, orderWord } from './sort-oracle.js';

/** Checks a top-k result against the CPU reference, accepting any choice among equal keys. */
function checkTopK(
  label: string,
  keys: SortArray,
  k: number,
  largest: boolean,
  got: { keys: SortArray; indices: Uint32Array; values?: SortArray },
  values?: SortArray,
): void {
  const type = keyTypeOf(keys);
  const want = cpu.topK(keys, k, { largest });
  expect(got.keys.constructor, label).toBe(keys.constructor);
  expect(got.keys.length, label).toBe(k);
  expect(got.indices.length, label).toBe(k);
  const order = (words: Uint32Array) => Uint32Array.from(words, (w) => orderWord(type, w));
  // The same keys in the same order, NaNs compared as equal whatever their payload.
  expectEqualArrays(order(bitsOf(got.keys)), order(bitsOf(want.keys)), `${label}: keys`);
  const src = bitsOf(keys);
  const seen = new Set<number>();
  for (let i = 0; i < k; i++) {
    const at = got.indices[i]!;
    if (at >= keys.length || seen.has(at) || src[at] !== bitsOf(got.keys)[i]) {
      expect.fail(`${label}: indices[${i}] = ${at} is out of range, repeated, or not the key's index`);
    }
    seen.add(at);
  }
  if (values) {
    expect(got.values?.constructor, label).toBe(values.constructor);
    const v = bitsOf(values);
    expectEqualArrays(
      bitsOf(got.values!),
      Uint32Array.from(got.indices, (i) => v[i]!),
      `${label}: values`,
    );
  } else {
    expect(got.values, label).toBeUndefined();
  }
}

/** The ks worth trying for n keys. */
function ksFor(n: number): number[] {
  return [...new Set([0, 1, 32, 1024, n - 1, n].filter((k) => k >= 0 && k <= n))];
}

const TYPES: readonly SortValueType[] = ['u32', 'i32', 'f32'];
const CONTENTS: readonly KeyContent[] = ['random', 'equal', 'few', 'specials', 'top-byte', 'sorted'];

describe('topK', async () => {
  const ctx = await getTestContext();

  it('the CPU reference is the head of the stable sort, NaNs largest', () => {
    const keys = new Float32Array([3, -1, Number.NaN, 7, -0, 0, Number.NEGATIVE_INFINITY]);
    const best = cpu.topK(keys, 3);
    expect(Array.from(best.indices)).toEqual([2, 3, 0]);
    const worst = cpu.topK(keys, 4, { largest: false, values: new Int32Array([0, 1, 2, 3, 4, 5, 6]) });
    expect(Array.from(worst.indices)).toEqual([6, 1, 4, 5]);
    expect(Array.from(worst.values!)).toEqual([6, 1, 4, 5]);
    expect(Object.is(worst.keys[2], -0)).toBe(true);
    const sorted = cpu.sort(keys, { descending: true }).keys;
    expectEqualArrays(bitsOf(cpu.topK(keys, 7).keys), bitsOf(sorted), 'k = n is sort descending');
  });

  it('every key type and direction, k at its edges, sizes 0 to 1000 (4097) and many contents, with and without values', async () => {
    let seed = 11;
    for (const type of TYPES) {
      for (const largest of [true, false]) {
        // Past 1024 chosen keys SwiftShader sorts them with the one-sweep passes, slow to compile:
        // one shape takes 4097 keys here, two more the large sizes below.
        for (const n of type === 'f32' && largest ? [0, 1, 2, 3, 1000, 4097] : [0, 1, 2, 3, 1000]) {
          for (const k of ksFor(n)) {
            const content = CONTENTS[seed % CONTENTS.length]!;
            const keys = makeKeys(type, n, type === 'f32' && seed % 2 === 0 ? 'specials' : content, seed++);
            const before = bitsOf(keys).slice();
            const withValues = seed % 2 === 0;
            const values = withValues ? makeValues(TYPES[seed % 3]!, n, seed) : undefined;
            const got = await topK(ctx, keys, k, { largest, ...(values ? { values } : {}) });
            checkTopK(`${type} ${largest ? 'largest' : 'smallest'} n=${n} k=${k} ${content}`, keys, k, largest, got, values);
            expectEqualArrays(bitsOf(keys), before, 'keys untouched');
          }
        }
      }
    }
  });

  it('70,000 keys: random, all equal, ties at the threshold, candidates past the capacity', async () => {
    const n = 70_000;
    let seed = 101;
    const cases: [SortValueType, KeyContent, number, boolean][] = [
      ['f32', 'random', 1024, true],
      ['u32', 'random', 32, false],
      ['i32', 'equal', 1024, true],
      ['f32', 'few', 32, false],
      ['f32', 'specials', 1, true],
      // More than 1024 chosen keys: on SwiftShader the one-sweep sort (compiled once, for this shape).
      ['f32', 'top-byte', 5000, true],
      ['f32', 'sorted', n - 1, true],
    ];
    for (const [type, content, k, largest] of cases) {
      const keys = makeKeys(type, n, content, seed++);
      const values = makeValues('f32', n, seed++);
      const got = await topK(ctx, keys, k, { largest, values });
      checkTopK(`${type} ${content} k=${k} ${largest ? 'largest' : 'smallest'}`, keys, k, largest, got, values);
    }
    // Uniform floats in [0, 1): a quarter of them share the top 11-bit bucket of the largest.
    const uniform = Float32Array.from({ length: n }, (_, i) => ((i * 2654435761) % 1_000_003) / 1_000_003);
    checkTopK('uniform [0, 1)', uniform, 1024, true, await topK(ctx, uniform, 1024), undefined);
    // Ties at the threshold: 32 distinct keys, 2000 of each.
    const ties = Uint32Array.from({ length: 64_000 }, (_, i) => (i * 7) % 32);
    checkTopK('threshold ties', ties, 3001, true, await topK(ctx, ties, 3001), undefined);
  });

  it('the plan with workgroup histograms: a k per encode (up to maxK), several encodes into one encoder, poisoned outputs', async () => {
    const n = 6000;
    const keys = makeKeys('f32', n, 'specials', 7);
    const values = makeValues('i32', n, 8);
    // The workgroup histograms and unrolled steps of real GPUs (off by default on SwiftShader, slow to
    // compile: 16 unrolled keys take it half a minute, 2 do here).
    const plan = createTopKPlan(ctx, {
      type: 'f32',
      maxK: 300,
      largest: false,
      values: 'i32',
      maxCount: n,
      tuning: { privateHistogram: true, unrolled: true, elementsPerThread: 2, workgroups: 5 },
    });
    await plan.ready;
    const keyBuffer = bufferWith(ctx, bitsOf(keys));
    const valueBuffer = bufferWith(ctx, bitsOf(values));
    const runs = [
      { count: n, k: 300 },
      { count: 10, k: 10 },
      { count: 2500, k: 1 },
    ];
    const outs = runs.map(() => ({
      keys: bufferWith(ctx, new Uint32Array(300).fill(POISON_U32)),
      indices: bufferWith(ctx, new Uint32Array(300).fill(POISON_U32)),
      values: bufferWith(ctx, new Uint32Array(300).fill(POISON_U32)),
    }));
    const encoder = ctx.device.createCommandEncoder();
    runs.forEach((r, i) => {
      const o = outs[i]!;
      plan.encode(encoder, {
        keys: keyBuffer,
        count: r.count,
        k: r.k,
        outKeys: o.keys,
        outIndices: o.indices,
        values: valueBuffer,
        outValues: o.values,
      });
    });
    ctx.device.queue.submit([encoder.finish()]);
    for (const [i, r] of runs.entries()) {
      const o = outs[i]!;
      const words = await readWords(ctx, o.keys);
      const got = {
        keys: new Float32Array(words.buffer, 0, r.k),
        indices: (await readWords(ctx, o.indices)).slice(0, r.k),
        values: new Int32Array((await readWords(ctx, o.values)).buffer, 0, r.k),
      };
      checkTopK(`encode ${i}`, keys.subarray(0, r.count) as SortArray, r.k, false, got, values.subarray(0, r.count) as SortArray);
      // Nothing past k is written.
      expect(words[r.k] ?? POISON_U32).toBe(POISON_U32);
    }
    plan.destroy();
    for (const b of [keyBuffer, valueBuffer, ...outs.flatMap((o) => [o.keys, o.indices, o.values])]) b.destroy();
  });

  it('rejects bad input with ScanErrors naming the argument (GPU and CPU alike)', async () => {
    const keys = new Uint32Array(4);
    const bad: [unknown, unknown, unknown, string][] = [
      [keys, 5, undefined, 'k'],
      [keys, -1, undefined, 'k'],
      [keys, 1.5, undefined, 'k'],
      [keys, Number.NaN, undefined, 'k'],
      [keys, '2', undefined, 'k'],
      [new Float64Array(4), 1, undefined, 'keys'],
      [keys, 1, { largest: 1 }, 'options.largest'],
      [keys, 1, { values: new Uint32Array(3) }, 'options.values'],
      [keys, 1, { values: new Uint8Array(4) }, 'options.values'],
      [keys, 1, { descending: true }, 'options.descending'],
    ];
    for (const [k0, k, options, argument] of bad) {
      const call = () => topK(ctx, k0 as SortArray, k as number, options as undefined);
      await expect(call(), argument).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', argument });
      await expect(call(), argument).rejects.toThrow(argument);
      expect(() => cpu.topK(k0 as SortArray, k as number, options as undefined), argument).toThrow(ScanError);
    }
    expect(() => createTopKPlan(ctx, {})).toThrow(/options\.k/);
    expect(() => createTopKPlan(ctx, { k: 5, maxK: 4 })).toThrow(/options\.k/);
    expect(() => createTopKPlan(ctx, { k: 1, type: 'u64' as 'u32' })).toThrow(/options\.type/);
    const plan = createTopKPlan(ctx, { maxK: 8 });
    const buf = () => ctx.device.createBuffer({ size: 64, usage: TEST_USAGE });
    const [a, b, c, d] = [buf(), buf(), buf(), buf()];
    const encoder = ctx.device.createCommandEncoder();
    expect(() => plan.encode(encoder, { keys: a, count: 16, k: 9, outKeys: b, outIndices: c })).toThrow(/args\.k/);
    expect(() => plan.encode(encoder, { keys: a, count: 4, k: 5, outKeys: b, outIndices: c })).toThrow(/args\.k/);
    expect(() => plan.encode(encoder, { keys: a, count: 17, k: 2, outKeys: b, outIndices: c })).toThrow(/args\.keys/);
    expect(() => plan.encode(encoder, { keys: a, count: 4, k: 2, outKeys: b, outIndices: b })).toThrow(/args\.outIndices/);
    expect(() => plan.encode(encoder, { keys: a, count: 4, k: 2, outKeys: b, outIndices: c, values: d })).toThrow(/args\.values/);
    plan.destroy();
    for (const x of [a, b, c, d]) x.destroy();
  });
});
