// 16-bit keys (Uint16Array 'u16', f16 bits with keyType 'f16', Float16Array where the engine has
// one) on the GPU: sort, argsort and createSortPlan through the radix sort (two keys a word: the
// first pass reads them packed, the last ORs them into zeroed words), its one-workgroup path and its
// digit passes, against the CPU reference, and the CPU reference against an oracle of its own (a
// stable comparison sort by the keys' numeric order); bad input gets ScanErrors naming the argument.
import { ScanError } from '@scan/core';
import { createRng, expectEqualArrays, getTestContext, POISON_U32 } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { argsort, createSortPlan, segmentedSort, sort } from '../src/index.js';
import { radixConfig } from '../src/plans/radix-config.js';
import type { BitRange } from '../src/types.js';
import { bufferWith, readWords, TEST_USAGE } from './gpu-buffers.js';

const F16 = (globalThis as { Float16Array?: new (b: ArrayBuffer) => Uint16Array }).Float16Array;

/** f16 specials: ±0, ±subnormals (smallest, largest), ±1, ±max, ±∞, NaNs of both signs and payloads. */
const F16_SPECIALS = [
  0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0xffff,
];
const U16_SPECIALS = [0, 1, 0xffff, 0xfffe, 0x8000, 0x7fff, 0x00ff, 0xff00];

/** `n` seeded 16-bit keys with duplicates, specials included. */
function halfKeys(n: number, seed: number, type: 'u16' | 'f16'): Uint16Array {
  const rng = createRng(seed);
  const pool = [...(type === 'f16' ? F16_SPECIALS : U16_SPECIALS)];
  while (pool.length < Math.max(24, n >> 2)) pool.push(rng.u32() & 0xffff);
  return Uint16Array.from({ length: n }, () => pool[rng.int(0, pool.length - 1)]!);
}

/** f16 bits as a number (NaN for every NaN). */
function f16Value(b: number): number {
  const sign = b & 0x8000 ? -1 : 1;
  const e = (b >> 10) & 0x1f;
  const m = b & 0x3ff;
  if (e === 31) return m ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (e === 0 ? m * 2 ** -24 : (1 + m / 1024) * 2 ** (e - 15));
}

/** The oracle's order: numbers, −0 before +0, NaN last and all equal; reversed for descending; stable. */
function halfOrder(keys: Uint16Array, type: 'u16' | 'f16', descending: boolean): Uint32Array {
  // (value, −0 before +0) with NaN after everything, all NaNs equal.
  const key = (b: number): [number, number] => {
    if (type === 'u16') return [b, 0];
    const v = f16Value(b);
    if (Number.isNaN(v)) return [Number.POSITIVE_INFINITY, 1];
    return [v, v === 0 && b & 0x8000 ? -1 : 0];
  };
  const cmp = (a: number, b: number) => {
    const [x, xs] = key(keys[a]!);
    const [y, ys] = key(keys[b]!);
    const c = x < y ? -1 : x > y ? 1 : Math.sign(xs - ys);
    return (descending ? -c : c) || a - b;
  };
  return Uint32Array.from(Array.from(keys, (_, i) => i).sort(cmp), (i) => i);
}

describe('16-bit keys', async () => {
  const ctx = await getTestContext();
  const config = radixConfig(ctx, { keyType: 'u16', valueType: undefined, descending: false, bits: [0, 16] }, {});
  const tile = config.pass.workgroupSize * config.pass.elementsPerThread;

  it('the CPU reference agrees with the oracle (extremes, ±0, subnormals, NaN, both directions, bit ranges)', () => {
    for (const type of ['u16', 'f16'] as const) {
      for (const descending of [false, true]) {
        const keys = halfKeys(2000, descending ? 2 : 1, type);
        const values = Uint32Array.from(keys, (_, i) => i);
        const got = cpu.sort(keys, { values, descending, keyType: type });
        const order = halfOrder(keys, type, descending);
        expectEqualArrays(got.values!, order, `${type} ${descending}`);
        expectEqualArrays(
          got.keys,
          Uint16Array.from(order, (i) => keys[i]!),
          `${type} keys`,
        );
        expectEqualArrays(cpu.argsort(keys, { descending, keyType: type }), order, `${type} argsort`);
      }
    }
    // Bit ranges are bits of the order: u16's are its bits.
    const keys = halfKeys(500, 3, 'u16');
    for (const bits of [
      [0, 8],
      [4, 12],
      [15, 16],
    ] as BitRange[]) {
      const got = cpu.sort(keys, { values: Uint32Array.from(keys, (_, i) => i), bits });
      const mask = (1 << (bits[1] - bits[0])) - 1;
      const part = Uint16Array.from(keys, (k) => (k >> bits[0]) & mask);
      expectEqualArrays(got.values!, halfOrder(part, 'u16', false), `bits [${bits}]`);
    }
    if (F16) {
      const f = new F16(halfKeys(300, 4, 'f16').buffer as ArrayBuffer);
      const got = cpu.sort(f);
      expect(got.keys.constructor).toBe(F16);
      expectEqualArrays(new Uint16Array(got.keys.buffer), cpu.sort(new Uint16Array(f.buffer), { keyType: 'f16' }).keys, 'Float16Array');
    }
  });

  it('sort, with values, at edge sizes (small path and both digit passes), both directions', async () => {
    let seed = 10;
    const cases = [
      ['u16', false, [0, 1, 2, 3, 999, tile - 1, tile + 1, 3 * tile + 4, 70_001]],
      ['f16', true, [5, 1001, 2 * tile + 3]],
    ] as const;
    for (const [type, descending, sizes] of cases) {
      for (const n of sizes) {
        const keys = halfKeys(n, seed++, type);
        const values = Float32Array.from(keys, (_, i) => i + 0.5);
        const before = keys.slice();
        const label = `${type} ${descending ? 'desc' : 'asc'} n=${n}`;
        const got = await sort(ctx, keys, { values, descending, keyType: type });
        const want = cpu.sort(keys, { values, descending, keyType: type });
        expect(got.keys.constructor, label).toBe(Uint16Array);
        expect(got.keys.length, label).toBe(n);
        expectEqualArrays(got.keys, want.keys, `${label}: keys`);
        expectEqualArrays(got.values!, want.values!, `${label}: values`);
        expectEqualArrays(keys, before, `${label}: keys untouched`);
      }
    }
  });

  it('argsort, and a bit range (one pass: copied home) with 16-byte values', async () => {
    let seed = 40;
    // One specialization each (seconds to compile on SwiftShader): the sizes that reach the passes.
    const n = 3 * tile + 1;
    const keys = halfKeys(n, seed++, 'u16');
    for (const m of [7, n]) {
      const some = keys.subarray(0, m);
      expectEqualArrays(await argsort(ctx, some, { keyType: 'f16' }), cpu.argsort(some, { keyType: 'f16' }), `argsort n=${m}`);
    }
    // One pass (bits [4, 12]: the packed copy home) moving 16-byte values.
    const bits = [4, 12] as const;
    const wide = new Float32Array(4 * n).map((_, i) => i);
    const got = await sort(ctx, keys, { bits, values: wide });
    const want = cpu.sort(keys, { bits, values: wide });
    expectEqualArrays(got.keys, want.keys, 'bits [4, 12]: keys');
    expectEqualArrays(new Uint32Array(got.values!.buffer), new Uint32Array(want.values!.buffer), 'bits [4, 12]: 16-byte values');
    if (F16) {
      // The shape of the one-pass plan below (its pipelines): f16 implied by the array.
      const f = new F16(halfKeys(2 * tile + 1, 50, 'f16').buffer as ArrayBuffer);
      const got = await sort(ctx, f, { descending: true, bits: [8, 16] });
      expect(got.keys.constructor).toBe(F16);
      const want = cpu.sort(new Uint16Array(f.buffer), { keyType: 'f16', descending: true, bits: [8, 16] });
      expectEqualArrays(new Uint16Array(got.keys.buffer), want.keys, 'Float16Array');
    }
  });

  it('a sort plan sorts u16 keys in place (odd counts keep the caller half), with a host and a GPU count', async () => {
    const cap = 3 * tile;
    const plan = createSortPlan(ctx, { keyType: 'u16', valueType: 'u32', maxCount: cap });
    await plan.ready;
    const all = halfKeys(cap + 2, 60, 'u16');
    for (const n of [1, 901, tile + 1, cap - 1]) {
      const keys = all.slice(0, n + 1); // one key past the count, in the last word when n is odd
      const words = new Uint32Array(Math.ceil(keys.length / 2));
      new Uint16Array(words.buffer).set(keys);
      const k = bufferWith(ctx, words, 2);
      const v = bufferWith(
        ctx,
        Uint32Array.from({ length: n }, (_, i) => i),
        1,
      );
      const encoder = ctx.device.createCommandEncoder();
      plan.encode(encoder, { keys: k, values: v, count: n });
      ctx.device.queue.submit([encoder.finish()]);
      const want = cpu.sort(keys.subarray(0, n), { values: Uint32Array.from({ length: n }, (_, i) => i) });
      const got = await readWords(ctx, k);
      const gotKeys = new Uint16Array(got.buffer, got.byteOffset, keys.length);
      expectEqualArrays(gotKeys.subarray(0, n), want.keys, `host n=${n}: keys`);
      expect(gotKeys[n], `host n=${n}: the key past the count`).toBe(keys[n]);
      expectEqualArrays(got.subarray(words.length, words.length + 2), new Uint32Array(2).fill(POISON_U32), `host n=${n}: past the keys`);
      expectEqualArrays((await readWords(ctx, v)).subarray(0, n), want.values!, `host n=${n}: values`);
      k.destroy();
      v.destroy();
    }
    const counted = 2 * tile + 5;
    const words = new Uint32Array(all.buffer);
    const k = bufferWith(ctx, words);
    const v = bufferWith(
      ctx,
      Uint32Array.from({ length: cap }, (_, i) => i),
    );
    const countBuffer = ctx.device.createBuffer({ size: 16, usage: TEST_USAGE });
    ctx.device.queue.writeBuffer(countBuffer, 8, new Uint32Array([counted]));
    const encoder = ctx.device.createCommandEncoder();
    plan.encode(encoder, { keys: k, values: v, countBuffer, countOffset: 8 });
    ctx.device.queue.submit([encoder.finish()]);
    const want = cpu.sort(all.subarray(0, counted), { values: Uint32Array.from({ length: counted }, (_, i) => i) });
    const got = new Uint16Array((await readWords(ctx, k)).buffer);
    expectEqualArrays(got.subarray(0, counted), want.keys, 'GPU count: keys');
    expectEqualArrays(got.subarray(counted), all.subarray(counted), 'GPU count: the rest untouched');
    expectEqualArrays((await readWords(ctx, v)).subarray(0, counted), want.values!, 'GPU count: values');
    // One pass (bits [0, 8]) ends in scratch: the packed copy home, with a GPU count.
    const onePass = createSortPlan(ctx, { keyType: 'f16', descending: true, bits: [8, 16], maxCount: cap });
    ctx.device.queue.writeBuffer(k, 0, words as Uint32Array<ArrayBuffer>);
    const e2 = ctx.device.createCommandEncoder();
    onePass.encode(e2, { keys: k, countBuffer, countOffset: 8 });
    ctx.device.queue.submit([e2.finish()]);
    const got2 = new Uint16Array((await readWords(ctx, k)).buffer);
    const want2 = cpu.sort(all.subarray(0, counted), { keyType: 'f16', descending: true, bits: [8, 16] });
    expectEqualArrays(got2.subarray(0, counted), want2.keys, 'one pass, GPU count: keys');
    expectEqualArrays(got2.subarray(counted), all.subarray(counted), 'one pass, GPU count: the rest untouched');
    for (const b of [k, v, countBuffer]) b.destroy();
    plan.destroy();
    onePass.destroy();
  });

  it('rejects what 16-bit keys cannot do, naming the argument', async () => {
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
    const keys = new Uint16Array(8);
    await fails(() => sort(ctx, new Uint32Array(4), { keyType: 'f16' }), 'INVALID_ARGUMENT', 'options.keyType', /does not fit u32 keys/);
    await fails(() => cpu.argsort(new Float32Array(4), { keyType: 'u16' }), 'INVALID_ARGUMENT', 'options.keyType', /does not fit f32 keys/);
    await fails(() => sort(ctx, keys, { keyType: 'u64' }), 'INVALID_ARGUMENT', 'options.keyType', /'u16' or 'f16'/);
    await fails(() => sort(ctx, keys, { bits: [0, 17] }), 'INVALID_ARGUMENT', 'options.bits', /≤ 16: out of range/);
    await fails(
      () => sort(ctx, keys, { algorithm: 'split-radix' }),
      'UNSUPPORTED',
      'options.algorithm',
      /u16 keys are sorted by 'radix' only/,
    );
    await fails(() => cpu.sort(keys, { keyType: 'f16', algorithm: 'quicksort' }), 'UNSUPPORTED', 'options.algorithm', /f16 keys/);
    await fails(() => segmentedSort(ctx, keys, new Uint8Array(8)), 'UNSUPPORTED', 'keys', /u16 keys are not segment-sorted/);
    await fails(() => createSortPlan(ctx, { keyType: 'f16', bits: [0, 20] }), 'INVALID_ARGUMENT', 'options.bits', /≤ 16/);
    const plan = createSortPlan(ctx, { keyType: 'u16' });
    const small = ctx.device.createBuffer({ size: 4, usage: TEST_USAGE });
    await fails(
      () => plan.encode(ctx.device.createCommandEncoder(), { keys: small, count: 3 }),
      'INVALID_ARGUMENT',
      'args.keys',
      /needs 6/,
    );
    plan.destroy();
    small.destroy();
  });
});
