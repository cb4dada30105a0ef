// Values of 4, 8, 12 and 16 bytes (any typed array of n × w bytes) moving with their keys: sort,
// segmentedSort and createSortPlan on the GPU against the CPU reference, and the CPU reference
// against an oracle of its own (argsort's permutation applied to the records); bad input gets
// ScanErrors naming the argument. Few specializations (each compiles seconds on SwiftShader), each
// with several sizes.
import { ScanError } from '@scan/core';
import { createRng, expectEqualArrays, getTestContext, POISON_U32 } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { createSegmentedSortPlan, createSortPlan, segmentedSort, sort } from '../src/index.js';
import { radixConfig } from '../src/plans/radix-config.js';
import type { SortValueArray } from '../src/types.js';
import { bufferWith, readWords, TEST_USAGE } from './gpu-buffers.js';

const wordsOf = (a: ArrayBufferView) => new Uint32Array(a.buffer, a.byteOffset, a.byteLength / 4);

/** `n` keys with many duplicates (a pool of about n/8), extremes included. */
function dupKeys(n: number, seed: number): Uint32Array {
  const rng = createRng(seed);
  const pool = [0, 1, 0xffffffff, 0x80000000, 0x7fffffff];
  while (pool.length < Math.max(8, n >> 3)) pool.push(rng.u32());
  return Uint32Array.from({ length: n }, () => pool[rng.int(0, pool.length - 1)]!);
}

/** Records of `width` bytes as an array of class `make`: word k of record i is i · 8 + k + 1 (all distinct). */
function records<T extends SortValueArray>(n: number, width: number, make: new (b: ArrayBuffer) => T): T {
  const w = width / 4;
  const words = Uint32Array.from({ length: n * w }, (_, j) => Math.floor(j / w) * 8 + (j % w) + 1);
  return new make(words.buffer);
}

/** The oracle: records gathered through the stable permutation (argsort of the CPU reference). */
function gathered(values: SortValueArray, order: Uint32Array, width: number): Uint32Array {
  const w = width / 4;
  const src = new Uint32Array(new Uint8Array(values.buffer, values.byteOffset, values.byteLength).slice().buffer);
  const out = new Uint32Array(order.length * w);
  for (let i = 0; i < order.length; i++) for (let k = 0; k < w; k++) out[i * w + k] = src[order[i]! * w + k]!;
  return out;
}

describe('value widths', async () => {
  const ctx = await getTestContext();
  const config = radixConfig(ctx, { keyType: 'u32', valueType: 'u32', descending: false, bits: [0, 32] }, {});
  const tile = config.pass.workgroupSize * config.pass.elementsPerThread;

  it('the CPU reference moves records of every width as argsort orders their keys', () => {
    const n = 777;
    for (const [width, make] of [
      [4, Int32Array],
      [8, Float64Array],
      [12, Uint8Array],
      [16, Float32Array],
      [16, BigInt64Array],
    ] as const) {
      for (const descending of [false, true]) {
        const keys = dupKeys(n, width + (descending ? 1 : 0));
        const values = records(n, width, make as new (b: ArrayBuffer) => SortValueArray);
        const got = cpu.sort(keys, { values, descending, bits: [3, 29] });
        expect(got.values?.constructor).toBe(make);
        const order = cpu.sort(keys, { values: Uint32Array.from(keys, (_, i) => i), descending, bits: [3, 29] }).values!;
        expectEqualArrays(wordsOf(got.values!), gathered(values, order, width), `width ${width} ${descending}`);
      }
    }
    // A Uint8Array view at an odd offset (12-byte records), and n = 0.
    const bytes = new Uint8Array(1 + 12 * 5);
    for (let i = 0; i < bytes.length; i++) bytes[i] = i;
    const view = bytes.subarray(1);
    const got = cpu.sort(new Uint32Array([5, 3, 4, 1, 2]), { values: view });
    const want = [3, 4, 1, 2, 0].flatMap((i) => Array.from(view.subarray(12 * i, 12 * i + 12)));
    expect(Array.from(got.values!)).toEqual(want);
    expect(cpu.sort(new Uint32Array(0), { values: new Float64Array(0) }).values).toEqual(new Float64Array(0));
  });

  it('sort moves 8-, 12- and 16-byte values at edge sizes, stable in both directions', async () => {
    let seed = 10;
    // (keys, direction, width, class, sizes): one specialization each.
    const cases = [
      ['u32', false, 8, Float64Array, [0, 1, 2, 500, tile - 1, tile + 1, 3 * tile + 7, 70_001]],
      ['f32', true, 12, Uint8Array, [3, 1500, tile + 1]],
      ['u32', false, 16, Float32Array, [1000, 2 * tile + 3]],
      ['u64', true, 16, BigUint64Array, [5, 5000]],
    ] as const;
    for (const [keyType, descending, width, make, sizes] of cases) {
      for (const n of sizes) {
        const raw = dupKeys(n * (keyType === 'u64' ? 2 : 1), seed++);
        const keys = keyType === 'u64' ? new BigUint64Array(raw.buffer) : keyType === 'f32' ? new Float32Array(raw.buffer) : raw;
        const values = records(n, width, make as new (b: ArrayBuffer) => SortValueArray);
        const before = wordsOf(values).slice();
        const label = `${keyType} ${descending ? 'desc' : 'asc'} ${width}-byte ${make.name} n=${n}`;
        const got = await sort(ctx, keys, { values, descending });
        const want = cpu.sort(keys, { values, descending });
        expect(got.values?.constructor, label).toBe(make);
        expectEqualArrays(wordsOf(got.keys), wordsOf(want.keys), `${label}: keys`);
        expectEqualArrays(wordsOf(got.values!), wordsOf(want.values!), `${label}: values`);
        expectEqualArrays(wordsOf(values), before, `${label}: values untouched`);
      }
    }
  });

  it('sorts on bit ranges with wide values (odd pass counts copy back)', async () => {
    let seed = 50;
    for (const bits of [
      [4, 20],
      [0, 32],
    ] as const) {
      const n = 3 * tile + 11;
      const keys = dupKeys(n, seed++);
      const values = records(n, 16, Float32Array);
      const got = await sort(ctx, keys, { values, bits });
      const want = cpu.sort(keys, { values, bits });
      expectEqualArrays(wordsOf(got.keys), wordsOf(want.keys), `[${bits}]: keys`);
      expectEqualArrays(wordsOf(got.values!), wordsOf(want.values!), `[${bits}]: values`);
    }
  });

  it('a sort plan with valueWidth sorts in place, with a host and a GPU count (copied home)', async () => {
    const cap = 3 * tile;
    const plan = createSortPlan(ctx, { keyType: 'u32', valueWidth: 12, bits: [0, 24], maxCount: cap });
    await plan.ready;
    const keys = dupKeys(cap, 70).map((k) => k & 0xffffff);
    const values = records(cap, 12, Uint32Array);
    for (const n of [1, 900, tile + 1, cap]) {
      const k = bufferWith(ctx, keys.subarray(0, n), 2);
      const v = bufferWith(ctx, values.subarray(0, 3 * n), 3);
      const encoder = ctx.device.createCommandEncoder();
      plan.encode(encoder, { keys: k, values: v, count: n });
      ctx.device.queue.submit([encoder.finish()]);
      const want = cpu.sort(keys.subarray(0, n), { values: values.subarray(0, 3 * n) });
      const gotValues = await readWords(ctx, v);
      expectEqualArrays((await readWords(ctx, k)).subarray(0, n), want.keys, `host n=${n}: keys`);
      expectEqualArrays(gotValues.subarray(0, 3 * n), want.values!, `host n=${n}: values`);
      expectEqualArrays(gotValues.subarray(3 * n), new Uint32Array(3).fill(POISON_U32), `host n=${n}: past the values untouched`);
      k.destroy();
      v.destroy();
    }
    // A GPU count: three passes end in scratch, and the copy home moves the sorted records only.
    const counted = 2 * tile + 5;
    const k = bufferWith(ctx, keys);
    const v = bufferWith(ctx, values);
    const countBuffer = ctx.device.createBuffer({ size: 16, usage: TEST_USAGE });
    ctx.device.queue.writeBuffer(countBuffer, 0, new Uint32Array([counted]));
    const encoder = ctx.device.createCommandEncoder();
    plan.encode(encoder, { keys: k, values: v, countBuffer });
    ctx.device.queue.submit([encoder.finish()]);
    const want = cpu.sort(keys.subarray(0, counted), { values: values.subarray(0, 3 * counted) });
    const gotValues = await readWords(ctx, v);
    expectEqualArrays((await readWords(ctx, k)).subarray(0, counted), want.keys, 'GPU count: keys');
    expectEqualArrays(gotValues.subarray(0, 3 * counted), want.values!, 'GPU count: values');
    expectEqualArrays(gotValues.subarray(3 * counted), values.subarray(3 * counted), 'GPU count: the rest untouched');
    for (const b of [k, v, countBuffer]) b.destroy();
    plan.destroy();
  });

  it('segmentedSort and its plan move 8-byte values inside their segments', async () => {
    const n = 2000;
    const keys = dupKeys(n, 90);
    const rng = createRng(91);
    const heads = Uint8Array.from({ length: n }, (_, i) => (i === 0 || rng.int(0, 50) === 0 ? 1 : 0));
    const values = records(n, 8, Float64Array);
    const want = cpu.segmentedSort(keys, heads, { values, descending: true });
    // The oracle: each segment's CPU sort on its own.
    for (let start = 0, i = 1; i <= n; i++) {
      if (i === n || heads[i]) {
        const local = cpu.sort(keys.subarray(start, i), { values: values.subarray(start, i), descending: true });
        expectEqualArrays(wordsOf(want.values!).subarray(2 * start, 2 * i), wordsOf(local.values!), `segment at ${start}`);
        start = i;
      }
    }
    const got = await segmentedSort(ctx, keys, heads, { values, descending: true });
    expect(got.values?.constructor).toBe(Float64Array);
    expectEqualArrays(got.keys, want.keys, 'keys');
    expectEqualArrays(wordsOf(got.values!), wordsOf(want.values!), 'values');
    expect(() => createSegmentedSortPlan(ctx, { valueWidth: 5 as never })).toThrow(/options.valueWidth = 5/);
  });

  it('rejects values of a bad width and wide values with algorithms that cannot move them', async () => {
    const keys = new Uint32Array(4);
    const fails = async (run: () => unknown, code: string, argument: string, message: RegExp) => {
      let error: unknown;
      try {
        await run();
      } catch (e) {
        error = e;
      }
      expect(error, argument).toBeInstanceOf(ScanError);
      expect((error as ScanError).code).toBe(code);
      expect((error as ScanError).argument).toBe(argument);
      expect((error as ScanError).message).toMatch(message);
    };
    const badWidth =
      /byte length 40 does not match the keys length 4 × a value width of 4, 8, 12 or 16 bytes \(expected 16, 32, 48, 64 bytes\)/;
    await fails(() => sort(ctx, keys, { values: new Uint8Array(40) }), 'INVALID_ARGUMENT', 'options.values', badWidth);
    await fails(() => cpu.sort(keys, { values: new Uint16Array(20) }), 'INVALID_ARGUMENT', 'options.values', badWidth);
    await fails(
      () => cpu.segmentedSort(keys, new Uint8Array(4), { values: new Float64Array(5) }),
      'INVALID_ARGUMENT',
      'options.values',
      badWidth,
    );
    await fails(() => sort(ctx, keys, { values: new Uint32Array(20) }), 'INVALID_ARGUMENT', 'options.values', /byte length 80/);
    await fails(
      () => sort(ctx, keys, { values: new DataView(new ArrayBuffer(16)) as never }),
      'INVALID_ARGUMENT',
      'options.values',
      /typed array/,
    );
    await fails(() => sort(ctx, keys, { values: [1, 2, 3, 4] as never }), 'INVALID_ARGUMENT', 'options.values', /typed array/);
    await fails(
      () => sort(ctx, keys, { values: new Float64Array(4), algorithm: 'split-radix' }),
      'UNSUPPORTED',
      'options.algorithm',
      /8-byte values are moved by 'radix' only/,
    );
    await fails(
      () => cpu.sort(keys, { values: new Float32Array(16), algorithm: 'quicksort' }),
      'UNSUPPORTED',
      'options.algorithm',
      /16-byte/,
    );
    await fails(() => createSortPlan(ctx, { valueWidth: 12, algorithm: 'split-radix' }), 'UNSUPPORTED', 'options.algorithm', /12-byte/);
    await fails(() => createSortPlan(ctx, { valueWidth: 2 as never }), 'INVALID_ARGUMENT', 'options.valueWidth', /expected 4, 8, 12 or 16/);
    const narrow = { ...ctx, caps: { ...ctx.caps, limits: { ...ctx.caps.limits, maxStorageBufferBindingSize: 1024 } } };
    await fails(() => sort(narrow, new Uint32Array(100), { values: new Float32Array(400) }), 'TOO_LARGE', 'options.values', /1600 bytes/);
    const plan = createSortPlan(ctx, { valueWidth: 16 });
    const k = ctx.device.createBuffer({ size: 16, usage: TEST_USAGE });
    const v = ctx.device.createBuffer({ size: 60, usage: TEST_USAGE });
    await fails(
      () => plan.encode(ctx.device.createCommandEncoder(), { keys: k, values: v, count: 4 }),
      'INVALID_ARGUMENT',
      'args.values',
      /./,
    );
    plan.destroy();
    k.destroy();
    v.destroy();
  });
});
