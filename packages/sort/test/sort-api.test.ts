// The public API on the GPU: sort (every algorithm, key and value type, direction), argsort,
// segmentedSort (head flags and offsets) and the plans (bit ranges with a copy back, a count read on
// the GPU, capacity), against the tests' own oracle; bad input gets ScanErrors naming the argument.
import { ScanError } from '@scan/core';
import { createRng, expectEqualArrays, getTestContext } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { argsort, createSegmentedSortPlan, createSortPlan, SORT_ALGORITHMS, segmentedSort, sort } from '../src/index.js';
import type { SortArray } from '../src/types.js';
import { readWords, TEST_USAGE } from './gpu-buffers.js';
import { bitsOf, expectedOrder, gather, makeKeys } from './sort-oracle.js';

/** The oracle of a segmented sort: each segment's keys in their stable order. */
function segmentedOrder(keys: SortArray, heads: ArrayLike<number>, descending: boolean): Uint32Array {
  const order = new Uint32Array(keys.length);
  let start = 0;
  for (let i = 1; i <= keys.length; i++) {
    if (i === keys.length || heads[i]) {
      const part = keys.subarray(start, i) as SortArray;
      const local = expectedOrder(part, descending);
      for (let k = 0; k < local.length; k++) order[start + k] = start + local[k]!;
      start = i;
    }
  }
  return order;
}

describe('sort, argsort and segmentedSort', async () => {
  const ctx = await getTestContext();

  it('sorts with every algorithm, key type, value type and direction, leaving the inputs untouched', async () => {
    let seed = 1;
    for (const algorithm of SORT_ALGORITHMS) {
      for (const keyType of ['u32', 'i32', 'f32'] as const) {
        const descending = seed % 2 === 0;
        const n = algorithm === 'quicksort' ? 700 : 3001;
        const keys = makeKeys(keyType, n, keyType === 'f32' ? 'specials' : 'few', seed++);
        const values = makeKeys(['f32', 'u32', 'i32'][seed % 3] as 'u32', n, 'random', seed++);
        const keysBefore = bitsOf(keys).slice();
        const valuesBefore = bitsOf(values).slice();
        const got = await sort(ctx, keys, { values, descending, algorithm });
        const order = expectedOrder(keys, descending);
        const label = `${algorithm} ${keyType} ${descending ? 'desc' : 'asc'}`;
        expect(got.keys.constructor, label).toBe(keys.constructor);
        expect(got.values?.constructor, label).toBe(values.constructor);
        expectEqualArrays(bitsOf(got.keys), bitsOf(gather(keys, order)), `${label}: keys`);
        expectEqualArrays(bitsOf(got.values!), bitsOf(gather(values, order)), `${label}: values`);
        expectEqualArrays(bitsOf(keys), keysBefore, `${label}: keys untouched`);
        expectEqualArrays(bitsOf(values), valuesBefore, `${label}: values untouched`);
        const keysOnly = await sort(ctx, keys, { descending, algorithm });
        expect(keysOnly.values).toBeUndefined();
        expectEqualArrays(bitsOf(keysOnly.keys), bitsOf(gather(keys, order)), `${label}: keys only`);
      }
    }
  });

  it('sorts 0, 1 and 2 keys, sorted and reversed input, with every algorithm', async () => {
    for (const algorithm of SORT_ALGORITHMS) {
      for (const n of [0, 1, 2]) {
        const keys = makeKeys('i32', n, 'random', n + 7);
        expectEqualArrays(
          bitsOf((await sort(ctx, keys, { algorithm })).keys),
          bitsOf(gather(keys, expectedOrder(keys))),
          `${algorithm} n=${n}`,
        );
      }
      for (const content of ['sorted', 'reversed', 'equal'] as const) {
        const keys = makeKeys('f32', 300, content, 3);
        const got = await sort(ctx, keys, { algorithm, values: Uint32Array.from(keys, (_, i) => i) });
        expectEqualArrays(got.values!, expectedOrder(keys), `${algorithm} ${content}`);
      }
    }
  });

  it('sorts on a bit range with radix and split-radix', async () => {
    const keys = makeKeys('u32', 2500, 'random', 11);
    for (const algorithm of ['radix', 'split-radix'] as const) {
      for (const bits of [
        [0, 12],
        [20, 32],
        [5, 6],
      ] as [number, number][]) {
        const got = await sort(ctx, keys, { algorithm, bits, values: Uint32Array.from(keys, (_, i) => i) });
        expectEqualArrays(got.values!, expectedOrder(keys, false, bits), `${algorithm} bits [${bits}]`);
      }
    }
  });

  it('argsort gives the stable permutation in both directions', async () => {
    for (const keyType of ['u32', 'i32', 'f32'] as const) {
      for (const n of [0, 1, 2, 5000]) {
        for (const descending of [false, true]) {
          const keys = makeKeys(keyType, n, 'few', n + 1);
          expectEqualArrays(
            await argsort(ctx, keys, { descending }),
            expectedOrder(keys, descending),
            `argsort ${keyType} n=${n} ${descending}`,
          );
        }
      }
    }
  });

  it('segmentedSort sorts inside one segment, every element alone, random lengths and offsets with empty segments', async () => {
    const rng = createRng(5);
    const n = 4000;
    const keys = makeKeys('f32', n, 'specials', 21);
    const values = Int32Array.from({ length: n }, (_, i) => -i);
    const one = new Uint8Array(n);
    const alone = new Uint32Array(n).fill(1);
    const random = Uint8Array.from({ length: n }, () => (rng.int(0, 30) === 0 ? 1 : 0));
    for (const [name, heads] of [
      ['one segment', one],
      ['every element alone', alone],
      ['random lengths', random],
    ] as const) {
      for (const descending of [false, true]) {
        const order = segmentedOrder(keys, heads, descending);
        const got = await segmentedSort(ctx, keys, heads, { values, descending });
        expectEqualArrays(bitsOf(got.keys), bitsOf(gather(keys, order)), `${name} ${descending}: keys`);
        expectEqualArrays(bitsOf(got.values!), bitsOf(gather(values, order)), `${name} ${descending}: values`);
      }
    }
    for (const [name, heads] of [
      ['keys only, random lengths', random],
      ['keys only, every element alone', alone],
    ] as const) {
      const got = await segmentedSort(ctx, keys, heads, { descending: true });
      expect(got.values).toBeUndefined();
      expectEqualArrays(bitsOf(got.keys), bitsOf(gather(keys, segmentedOrder(keys, heads, true))), name);
    }
    const offsets = new Uint32Array([0, 0, 10, 10, 1500, 1501, n, n]);
    const heads = new Uint8Array(n);
    for (const o of offsets) if (o < n) heads[o] = 1;
    const got = await segmentedSort(ctx, keys, { offsets });
    expectEqualArrays(bitsOf(got.keys), bitsOf(gather(keys, segmentedOrder(keys, heads, false))), 'offsets');
  });

  it('a sort plan sorts a count read on the GPU (capped at maxCount), leaving the rest alone', async () => {
    const cap = 5000;
    const keys = makeKeys('u32', cap + 100, 'random', 31);
    const plan = createSortPlan(ctx, { keyType: 'u32', valueType: 'f32', maxCount: cap });
    for (const count of [0, 1, 3333, cap, cap + 50]) {
      const keyBuffer = ctx.device.createBuffer({ size: 4 * keys.length, usage: TEST_USAGE });
      const valueBuffer = ctx.device.createBuffer({ size: 4 * keys.length, usage: TEST_USAGE });
      const countBuffer = ctx.device.createBuffer({ size: 16, usage: TEST_USAGE });
      const values = Float32Array.from(keys, (_, i) => i + 0.5);
      ctx.device.queue.writeBuffer(keyBuffer, 0, bitsOf(keys) as Uint32Array<ArrayBuffer>);
      ctx.device.queue.writeBuffer(valueBuffer, 0, values);
      ctx.device.queue.writeBuffer(countBuffer, 8, new Uint32Array([count]));
      const encoder = ctx.device.createCommandEncoder();
      plan.encode(encoder, { keys: keyBuffer, values: valueBuffer, countBuffer, countOffset: 8 });
      ctx.device.queue.submit([encoder.finish()]);
      const sorted = Math.min(count, cap);
      const head = keys.subarray(0, sorted);
      const order = expectedOrder(head);
      const want = keys.slice();
      want.set(gather(head, order));
      const wantValues = values.slice();
      wantValues.set(gather(values.subarray(0, sorted), order));
      expectEqualArrays(await readWords(ctx, keyBuffer, keys.length), want, `indirect count ${count}: keys`);
      expectEqualArrays(await readWords(ctx, valueBuffer, keys.length), bitsOf(wantValues), `indirect count ${count}: values`);
      for (const b of [keyBuffer, valueBuffer, countBuffer]) b.destroy();
    }
    plan.destroy();
  });

  it('a segmented sort plan reads bit-packed head flags', async () => {
    const n = 1000;
    const keys = makeKeys('i32', n, 'random', 41);
    const heads = Uint8Array.from({ length: n }, (_, i) => (i % 37 === 5 ? 1 : 0));
    const packed = new Uint32Array(Math.ceil(n / 32));
    heads.forEach((h, i) => {
      if (h) packed[i >> 5]! |= 1 << (i & 31);
    });
    const plan = createSegmentedSortPlan(ctx, { keyType: 'i32', descending: true });
    const keyBuffer = ctx.device.createBuffer({ size: 4 * n, usage: TEST_USAGE });
    const headBuffer = ctx.device.createBuffer({ size: packed.byteLength, usage: TEST_USAGE });
    ctx.device.queue.writeBuffer(keyBuffer, 0, bitsOf(keys) as Uint32Array<ArrayBuffer>);
    ctx.device.queue.writeBuffer(headBuffer, 0, packed);
    const encoder = ctx.device.createCommandEncoder();
    plan.encode(encoder, { keys: keyBuffer, headFlags: headBuffer, count: n });
    ctx.device.queue.submit([encoder.finish()]);
    expectEqualArrays(await readWords(ctx, keyBuffer, n), bitsOf(gather(keys, segmentedOrder(keys, heads, true))), 'plan');
    plan.destroy();
  });

  it('rejects bad input with ScanErrors that name the argument', async () => {
    const keys = new Uint32Array([3, 1, 2]);
    const fails = async (run: () => unknown, code: string, argument: string) => {
      const error = await (async () => run())().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, argument).toBeInstanceOf(ScanError);
      expect((error as ScanError).code, argument).toBe(code);
      expect((error as ScanError).message, argument).toContain(argument);
    };
    await fails(() => sort(ctx, keys, { values: new Uint32Array(2) }), 'INVALID_ARGUMENT', 'options.values');
    await fails(() => sort(ctx, new Float64Array(3) as never), 'INVALID_ARGUMENT', 'keys');
    await fails(() => sort(ctx, keys, { bits: [0, 33] }), 'INVALID_ARGUMENT', 'options.bits');
    await fails(() => sort(ctx, keys, { bits: [4, 4] }), 'INVALID_ARGUMENT', 'options.bits');
    await fails(() => sort(ctx, keys, { algorithm: 'bogo' as never }), 'INVALID_ARGUMENT', 'options.algorithm');
    await fails(() => argsort(ctx, keys, { values: keys } as never), 'INVALID_ARGUMENT', 'options.values');
    await fails(() => segmentedSort(ctx, keys, new Uint8Array([1, 2, 0])), 'INVALID_ARGUMENT', 'headFlags[1]');
    await fails(() => segmentedSort(ctx, keys, new Uint8Array(2)), 'INVALID_ARGUMENT', 'headFlags');
    await fails(() => segmentedSort(ctx, keys, { offsets: new Uint32Array([0, 2, 1, 3]) }), 'INVALID_ARGUMENT', 'headFlags.offsets[2]');
    await fails(() => createSortPlan(ctx, { algorithm: 'quicksort' as never }), 'UNSUPPORTED', 'options.algorithm');
    await fails(() => createSortPlan(ctx, { bits: [-1, 8] }), 'INVALID_ARGUMENT', 'options.bits');
    // The unstable tuning: one object, checked key by key; its keys are no top-level options.
    await fails(() => createSortPlan(ctx, { padLast: false } as never), 'INVALID_ARGUMENT', 'options.padLast');
    await fails(() => createSortPlan(ctx, { tuning: { padlast: false } as never }), 'INVALID_ARGUMENT', 'options.tuning.padlast');
    await fails(() => createSortPlan(ctx, { tuning: [] as never }), 'INVALID_ARGUMENT', 'options.tuning');
    await fails(() => createSortPlan(ctx, { tuning: { elementsPerThread: 0 } }), 'INVALID_ARGUMENT', 'options.tuning.elementsPerThread');
    await fails(() => createSortPlan(ctx, { tuning: { workgroupSize: 100 } }), 'INVALID_ARGUMENT', 'options.tuning.workgroupSize');
    await fails(() => createSortPlan(ctx, { tuning: { smallSortMax: -1 } }), 'INVALID_ARGUMENT', 'options.tuning.smallSortMax');
    expect(() => createSortPlan(ctx, { tuning: { padLast: 'no' as never } })).toThrow(
      /^options\.tuning\.padLast = "no": expected true or false$/,
    );
    expect(() => createSortPlan(ctx, { tuning: { maxSpin: 1.5 } })).toThrow(
      /^options\.tuning\.maxSpin = 1\.5: expected a positive integer$/,
    );
    const plan = createSortPlan(ctx, {});
    const small = ctx.device.createBuffer({ size: 8, usage: TEST_USAGE });
    const encoder = ctx.device.createCommandEncoder();
    await fails(() => plan.encode(encoder, { keys: small, count: 3 }), 'INVALID_ARGUMENT', 'args.keys');
    await fails(() => plan.encode(encoder, { keys: small, countBuffer: small }), 'INVALID_ARGUMENT', 'args.countBuffer');
    await fails(() => plan.encode(encoder, { keys: small, values: small, count: 1 }), 'INVALID_ARGUMENT', 'args.values');
    const noCopy = ctx.device.createBuffer({ size: 64, usage: GPUBufferUsage.STORAGE });
    const odd = createSortPlan(ctx, { bits: [0, 8] });
    await fails(() => odd.encode(encoder, { keys: noCopy, count: 4 }), 'INVALID_ARGUMENT', 'args.keys');
    for (const b of [small, noCopy]) b.destroy();
    plan.destroy();
    odd.destroy();
  });
});
