// 64-bit keys (BigUint64Array 'u64', BigInt64Array 'i64') on the GPU: sort, argsort and
// createSortPlan through the radix sort — its one-workgroup path and its digit passes, ascending and
// descending, keys only, with values and as argsort, on bit ranges that straddle the two words —
// against an oracle of its own (a stable comparison sort of BigInts) and against the CPU reference;
// bad input gets ScanErrors naming the argument.
import { ScanError } from '@scan/core';
import { createRng, expectEqualArrays, getTestContext, POISON_U32 } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { argsort, createSortPlan, segmentedSort, sort } from '../src/index.js';
import { radixConfig } from '../src/plans/radix-config.js';
import type { BitRange } from '../src/types.js';
import { bufferWith, readWords, TEST_USAGE } from './gpu-buffers.js';

type WideKeys = BigUint64Array | BigInt64Array;
type WideType = 'u64' | 'i64';

const ALL = (1n << 64n) - 1n;

/** Extremes and near-extremes of each type, and keys equal in one word only. */
function specialsOf(type: WideType): bigint[] {
  const u = [
    0n,
    1n,
    ALL,
    ALL - 1n,
    1n << 63n,
    (1n << 63n) - 1n,
    1n << 32n,
    (1n << 32n) - 1n,
    0xffffffffn << 32n,
    5n << 32n,
    (5n << 32n) | 7n,
  ];
  return type === 'u64' ? u : u.map((x) => BigInt.asIntN(64, x));
}

/**
 * `n` seeded keys with many duplicates: drawn from a pool of about n/8 values (random 64-bit ones,
 * some equal in their high or their low word, and the type's extremes).
 */
function makeWideKeys(type: WideType, n: number, seed: number): WideKeys {
  const rng = createRng(seed);
  const r64 = () => (BigInt(rng.u32()) << 32n) | BigInt(rng.u32());
  const pool = specialsOf(type);
  const distinct = Math.max(2, n >> 3);
  for (let i = 0; pool.length < distinct + 11; i++) {
    const x = r64();
    const v = i % 3 === 0 ? x & 0xffffffffn : i % 3 === 1 ? x & (0xffffn << 32n) : x;
    pool.push(type === 'u64' ? v : BigInt.asIntN(64, v));
  }
  const out = type === 'u64' ? new BigUint64Array(n) : new BigInt64Array(n);
  for (let i = 0; i < n; i++) out[i] = pool[rng.int(0, pool.length - 1)]!;
  return out;
}

/** The oracle: the stable permutation by order bits [begin, end) of the keys, by BigInt comparison. */
function wideOrder(keys: WideKeys, descending: boolean, bits: BitRange = [0, 64]): Uint32Array {
  const mask = (1n << BigInt(bits[1] - bits[0])) - 1n;
  const signed = keys instanceof BigInt64Array;
  const v = Array.from(keys, (k) => {
    let o = BigInt.asUintN(64, k);
    if (signed) o ^= 1n << 63n;
    if (descending) o ^= ALL;
    return (o >> BigInt(bits[0])) & mask;
  });
  const idx = Array.from(v, (_, i) => i);
  idx.sort((a, b) => (v[a]! < v[b]! ? -1 : v[a]! > v[b]! ? 1 : a - b));
  return Uint32Array.from(idx);
}

const wordsOf = (a: ArrayBufferView) => new Uint32Array(a.buffer, a.byteOffset, a.byteLength / 4);

function gatherWide<T extends WideKeys>(keys: T, order: Uint32Array): T {
  const out = new (keys.constructor as new (n: number) => T)(order.length);
  for (let i = 0; i < order.length; i++) out[i] = keys[order[i]!]!;
  return out;
}

describe('64-bit keys', async () => {
  const ctx = await getTestContext();
  const config = radixConfig(ctx, { keyType: 'u64', valueType: undefined, descending: false, bits: [0, 64] }, {});
  const tile = config.pass.workgroupSize * config.pass.elementsPerThread;

  it('the CPU reference agrees with the oracle (bit ranges, both directions, extremes)', () => {
    for (const type of ['u64', 'i64'] as const) {
      for (const descending of [false, true]) {
        for (const bits of [
          [0, 64],
          [0, 20],
          [4, 60],
          [32, 64],
          [28, 37],
          [63, 64],
        ] as BitRange[]) {
          const keys = makeWideKeys(type, 3000, bits[0] + bits[1] + (descending ? 1 : 0));
          const values = Uint32Array.from(keys, (_, i) => i);
          const got = cpu.sort(keys, { values, descending, bits });
          const order = wideOrder(keys, descending, bits);
          expectEqualArrays(got.values!, order, `${type} ${descending} [${bits}]`);
          expectEqualArrays(wordsOf(got.keys), wordsOf(gatherWide(keys, order)), `${type} keys`);
        }
        const keys = makeWideKeys(type, 500, 9);
        expectEqualArrays(cpu.argsort(keys, { descending }), wideOrder(keys, descending), `${type} argsort`);
      }
    }
  });

  it('sort moves keys and values, stable in both directions, at edge sizes (small path and digit passes)', async () => {
    let seed = 1;
    const sizes = [0, 1, 2, 3, 1000, tile * 3 + 1, 70_001];
    for (const n of sizes) {
      for (const [type, descending] of [
        ['u64', false],
        ['i64', true],
      ] as const) {
        const keys = makeWideKeys(type, n, seed++);
        const values = Float32Array.from(keys, (_, i) => i + 0.5);
        const before = wordsOf(keys).slice();
        const got = await sort(ctx, keys, { values, descending });
        const order = wideOrder(keys, descending);
        const label = `${type} n=${n} ${descending ? 'desc' : 'asc'}`;
        expect(got.keys.constructor, label).toBe(keys.constructor);
        expect(got.values?.constructor, label).toBe(Float32Array);
        expectEqualArrays(wordsOf(got.keys), wordsOf(gatherWide(keys, order)), `${label}: keys`);
        expectEqualArrays(
          got.values!,
          Float32Array.from(order, (i) => i + 0.5),
          `${label}: values`,
        );
        expectEqualArrays(wordsOf(keys), before, `${label}: keys untouched`);
      }
    }
  });

  it('keys only and argsort', async () => {
    // Each (type, direction, values) is a set of kernels to compile (seconds on SwiftShader): one
    // pair each; the directions and types are all covered by the other tests.
    let seed = 100;
    for (const [type, descending] of [
      ['u64', false],
      ['i64', true],
    ] as const) {
      for (const n of [2, 900, 5000]) {
        const keys = makeWideKeys(type, n, seed++);
        const order = wideOrder(keys, descending);
        const label = `${type} n=${n} ${descending}`;
        if (type === 'u64') {
          const got = await sort(ctx, keys, { descending });
          expect(got.values).toBeUndefined();
          expectEqualArrays(wordsOf(got.keys), wordsOf(gatherWide(keys, order)), `${label}: keys only`);
        } else {
          expectEqualArrays(await argsort(ctx, keys, { descending }), order, `${label}: argsort`);
        }
      }
    }
    expect(await argsort(ctx, new BigUint64Array(0))).toEqual(new Uint32Array(0));
    expect(await argsort(ctx, new BigInt64Array([-5n]))).toEqual(new Uint32Array([0]));
  });

  it('sorts on bit ranges inside either word and across them (odd pass counts copy back)', async () => {
    let seed = 200;
    // The shapes of the first test (their digit passes compiled), on new ranges; one through the
    // one-workgroup sort.
    // (A range is a histogram kernel to compile per shape: one shape each.)
    for (const [bits, n, type, descending] of [
      [[4, 60], 4000, 'u64', false],
      [[32, 64], 4000, 'i64', true],
      [[28, 37], 4000, 'u64', false],
      [[0, 20], 4000, 'i64', true],
      [[12, 50], 700, 'u64', false],
    ] as [BitRange, number, 'u64' | 'i64', boolean][]) {
      {
        const keys = makeWideKeys(type, n, seed++);
        const got = await sort(ctx, keys, { bits, descending, values: Uint32Array.from(keys, (_, i) => i) });
        expectEqualArrays(got.values!, wideOrder(keys, descending, bits), `${type} [${bits}] n=${n} ${descending}`);
      }
    }
  });

  it('a sort plan sorts u64 keys in place around tile sizes, with a host and a GPU count', async () => {
    let seed = 300;
    const plan = createSortPlan(ctx, {
      keyType: 'i64',
      descending: true,
      valueType: 'u32',
      maxCount: 4 * tile,
      tuning: { smallSortMax: 0 },
    });
    const odd = createSortPlan(ctx, { keyType: 'u64', bits: [8, 64] });
    await Promise.all([plan.ready, odd.ready]);
    for (const n of [1, 2, tile - 1, tile, tile + 1, 3 * tile + 5]) {
      const keys = makeWideKeys('i64', n, seed++) as BigInt64Array;
      const k = bufferWith(ctx, wordsOf(keys), 6);
      const v = bufferWith(
        ctx,
        Uint32Array.from(keys, (_, i) => i),
        3,
      );
      const encoder = ctx.device.createCommandEncoder();
      plan.encode(encoder, { keys: k, values: v, count: n });
      ctx.device.queue.submit([encoder.finish()]);
      const order = wideOrder(keys, true);
      const gotKeys = await readWords(ctx, k);
      expectEqualArrays(gotKeys.subarray(0, 2 * n), wordsOf(gatherWide(keys, order)), `i64 plan n=${n}: keys`);
      expectEqualArrays(gotKeys.subarray(2 * n), new Uint32Array(6).fill(POISON_U32), `n=${n}: past the keys untouched`);
      expectEqualArrays((await readWords(ctx, v)).subarray(0, n), order, `i64 plan n=${n}: values`);
      k.destroy();
      v.destroy();
    }
    // A GPU count (7 passes: odd, copied home by the kernel) of a longer buffer.
    const keys = makeWideKeys('u64', 3 * tile, seed++) as BigUint64Array;
    const countedPlan = createSortPlan(ctx, { keyType: 'u64', bits: [8, 64], maxCount: 3 * tile });
    await countedPlan.ready;
    const counted = 2 * tile + 3;
    const k = bufferWith(ctx, wordsOf(keys));
    const countBuffer = ctx.device.createBuffer({ size: 16, usage: TEST_USAGE });
    ctx.device.queue.writeBuffer(countBuffer, 4, new Uint32Array([counted]));
    let encoder = ctx.device.createCommandEncoder();
    countedPlan.encode(encoder, { keys: k, countBuffer, countOffset: 4 });
    ctx.device.queue.submit([encoder.finish()]);
    const head = keys.slice(0, counted);
    const got = await readWords(ctx, k);
    expectEqualArrays(got.subarray(0, 2 * counted), wordsOf(gatherWide(head, wideOrder(head, false, [8, 64]))), 'GPU count: sorted part');
    expectEqualArrays(got.subarray(2 * counted), wordsOf(keys).subarray(2 * counted), 'GPU count: the rest untouched');
    // The plan with odd passes and a host count.
    ctx.device.queue.writeBuffer(k, 0, keys.buffer as ArrayBuffer);
    encoder = ctx.device.createCommandEncoder();
    odd.encode(encoder, { keys: k, count: keys.length });
    ctx.device.queue.submit([encoder.finish()]);
    expectEqualArrays(await readWords(ctx, k), wordsOf(gatherWide(keys, wideOrder(keys, false, [8, 64]))), 'odd passes, host count');
    for (const p of [plan, odd, countedPlan]) p.destroy();
    k.destroy();
    countBuffer.destroy();
  });

  it('segmentedSort sorts u64 and i64 keys inside their segments, keys only and with values', async () => {
    let seed = 400;
    for (const [type, descending, n] of [
      ['u64', false, 3000],
      ['i64', true, 900],
    ] as const) {
      const keys = makeWideKeys(type, n, seed++);
      const rng = createRng(seed++);
      const heads = Uint8Array.from({ length: n }, (_, i) => (i === 0 || rng.int(0, 40) === 0 ? 1 : 0));
      // The oracle: each segment's keys in their stable order.
      const order = new Uint32Array(n);
      for (let start = 0, i = 1; i <= n; i++) {
        if (i === n || heads[i]) {
          const local = wideOrder(keys.subarray(start, i) as WideKeys, descending);
          for (let k = 0; k < local.length; k++) order[start + k] = start + local[k]!;
          start = i;
        }
      }
      const values = Uint32Array.from(keys, (_, i) => i);
      const label = `${type} ${descending ? 'desc' : 'asc'}`;
      const want = cpu.segmentedSort(keys, heads, { values, descending });
      expectEqualArrays(want.values!, order, `${label}: CPU reference`);
      const got = await segmentedSort(ctx, keys, heads, { values, descending });
      expectEqualArrays(wordsOf(got.keys), wordsOf(gatherWide(keys, order)), `${label}: keys`);
      expectEqualArrays(got.values!, order, `${label}: values`);
      const keysOnly = await segmentedSort(ctx, keys, heads, { descending });
      expect(keysOnly.values).toBeUndefined();
      expectEqualArrays(wordsOf(keysOnly.keys), wordsOf(gatherWide(keys, order)), `${label}: keys only`);
    }
  });

  it('rejects what 64-bit keys cannot do, naming the argument', async () => {
    const keys = new BigUint64Array(8);
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
    await fails(() => sort(ctx, keys, { bits: [0, 65] }), 'INVALID_ARGUMENT', 'options.bits', /0 ≤ begin < end ≤ 64: out of range/);
    await fails(() => cpu.sort(new Uint32Array(2), { bits: [0, 33] }), 'INVALID_ARGUMENT', 'options.bits', /≤ 32: out of range/);
    await fails(
      () => sort(ctx, keys, { algorithm: 'split-radix' }),
      'UNSUPPORTED',
      'options.algorithm',
      /u64 keys are sorted by 'radix' only/,
    );
    await fails(() => cpu.sort(new BigInt64Array(2), { algorithm: 'quicksort' }), 'UNSUPPORTED', 'options.algorithm', /i64 keys/);
    await fails(
      () => sort(ctx, keys, { values: new Uint32Array(7) }),
      'INVALID_ARGUMENT',
      'options.values',
      /byte length 28 does not match/,
    );
    await fails(
      () => sort(ctx, new Float64Array(2) as never),
      'INVALID_ARGUMENT',
      'keys',
      /BigUint64Array, BigInt64Array, Uint16Array or Float16Array/,
    );
    await fails(() => createSortPlan(ctx, { keyType: 'i64', algorithm: 'split-radix' }), 'UNSUPPORTED', 'options.algorithm', /i64/);
    await fails(() => createSortPlan(ctx, { keyType: 'u64', bits: [60, 70] }), 'INVALID_ARGUMENT', 'options.bits', /≤ 64/);
    // 8 bytes a key against the binding: 200 keys are 1600 bytes (800 as 32-bit keys).
    const narrow = { ...ctx, caps: { ...ctx.caps, limits: { ...ctx.caps.limits, maxStorageBufferBindingSize: 1024 } } };
    await fails(
      () => sort(narrow, new BigUint64Array(200)),
      'TOO_LARGE',
      'keys',
      /^keys = 200 64-bit keys \(1600 bytes\): .* at most 128 64-bit keys/,
    );
    await fails(() => argsort(narrow, new BigInt64Array(200)), 'TOO_LARGE', 'keys', /64-bit keys/);
    await fails(() => createSortPlan(narrow, { keyType: 'i64', maxCount: 200 }), 'TOO_LARGE', 'options.maxCount', /64-bit keys/);
    const plan = createSortPlan(ctx, { keyType: 'u64' });
    const small = ctx.device.createBuffer({ size: 28, usage: TEST_USAGE });
    await fails(() => plan.encode(ctx.device.createCommandEncoder(), { keys: small, count: 4 }), 'INVALID_ARGUMENT', 'args.keys', /./);
    plan.destroy();
    small.destroy();
  });
});
