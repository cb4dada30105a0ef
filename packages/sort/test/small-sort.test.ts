// The one-workgroup bitonic sort of small counts (one dispatch, see kernels/small-sort.ts) against
// the CPU reference: every key type (f32 with NaN and ±0), both directions, keys only, key–value and
// argsort, bit ranges, counts around its tiers (1024, 4096) and just past them (the radix path,
// checked too), duplicates (stability), a count read on the GPU (clamped at maxCount), and every
// user of the radix sorter (sort, argsort, segmentedSort). Words past the count must stay poisoned.
import type { ScanContext } from '@scan/core';
import { expectEqualArrays, getTestContext, POISON_U32 } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { argsort, createSortPlan, segmentedSort, sort } from '../src/index.js';
import type { ValueMode } from '../src/kernels/radix-onesweep.js';
import { SMALL_SORT_TIERS, smallSortConfig } from '../src/plans/radix-config.js';
import { createRadixSort, radixConfig, smallSortCapacity } from '../src/plans/radix-plan.js';
import type { SortShape } from '../src/plans/sort-shape.js';
import type { BitRange, SortArray, SortValueType } from '../src/types.js';
import { bufferWith, readWords } from './gpu-buffers.js';
import { bitsOf, makeKeys } from './sort-oracle.js';

const COUNTS = [0, 1, 2, 3, 5, 31, 32, 33, 255, 1023, 1024, 1025, 4095, 4096, 4097];
/** Words past the count, poisoned, that no sort may touch. */
const SLACK = 37;

/** Keys with many duplicates (stability shows) or specials (NaN with payloads, ±0, ±∞) for f32. */
function keysFor(type: SortValueType, n: number, seed: number): SortArray {
  if (type === 'f32') return makeKeys(type, n, seed % 2 ? 'specials' : 'few', seed);
  return makeKeys(type, n, seed % 3 === 0 ? 'random' : 'few', seed);
}

/** What the CPU reference gives for `keys` (and their indices as values): the sorted keys and the permutation. */
function reference(keys: SortArray, descending: boolean, bits: BitRange): { keys: Uint32Array; order: Uint32Array } {
  const indices = Uint32Array.from({ length: keys.length }, (_, i) => i);
  const r = cpu.sort(keys, { values: indices, descending, bits });
  return { keys: bitsOf(r.keys), order: r.values as Uint32Array };
}

/** `words`, then poison to `words.length + SLACK` words. */
function withPoison(words: Uint32Array, total = words.length + SLACK): Uint32Array {
  const out = new Uint32Array(total).fill(POISON_U32);
  out.set(words);
  return out;
}

interface Job {
  keys: SortArray;
  /** The GPU count when it differs from the keys' length (written into a count buffer). */
  gpuCount?: number;
}

/**
 * Sorts `job.keys` with `plan` (values: their indices for 'move', poison for 'index') and checks
 * keys and values against the CPU reference, and the poison past the count.
 */
async function check(
  ctx: ScanContext,
  plan: ReturnType<typeof createRadixSort>,
  shape: SortShape,
  values: ValueMode,
  job: Job,
  label: string,
  maxCount = Number.POSITIVE_INFINITY,
): Promise<void> {
  const n = job.keys.length;
  const sorted = Math.min(n, maxCount);
  const keyBuffer = bufferWith(ctx, bitsOf(job.keys), SLACK);
  const indices = Uint32Array.from({ length: n }, (_, i) => i);
  const valueBuffer = bufferWith(ctx, values === 'move' ? indices : new Uint32Array(0), values === 'move' ? SLACK : n + SLACK);
  const countBuffer = job.gpuCount === undefined ? undefined : bufferWith(ctx, new Uint32Array([7, job.gpuCount]));
  ctx.device.pushErrorScope('validation');
  const encoder = ctx.device.createCommandEncoder();
  const count = countBuffer ? { buffer: countBuffer, offset: 4 } : n;
  plan.encode(encoder, { keys: keyBuffer, ...(values === 'none' ? {} : { values: valueBuffer }), count });
  ctx.device.queue.submit([encoder.finish()]);
  expect((await ctx.device.popErrorScope())?.message, label).toBeUndefined();

  const head = reference(job.keys.subarray(0, sorted) as SortArray, shape.descending, shape.bits);
  const wantKeys = bitsOf(job.keys).slice();
  wantKeys.set(head.keys);
  expectEqualArrays(await readWords(ctx, keyBuffer), withPoison(wantKeys), `${label}: keys`);
  if (values === 'move') {
    const wantValues = indices.slice();
    wantValues.set(head.order);
    expectEqualArrays(await readWords(ctx, valueBuffer), withPoison(wantValues), `${label}: values`);
  } else if (values === 'index') {
    // One key is its own permutation; argsort writes index 0 all the same.
    const want = new Uint32Array(n + SLACK).fill(POISON_U32);
    want.set(head.order);
    expectEqualArrays(await readWords(ctx, valueBuffer), want, `${label}: permutation`);
  }
  for (const b of [keyBuffer, valueBuffer, countBuffer]) b?.destroy();
}

function shapeOf(keyType: SortValueType, descending: boolean, values: ValueMode, bits: BitRange = [0, 32]): SortShape {
  return { keyType, valueType: values === 'none' ? undefined : 'u32', descending, bits };
}

describe('one-workgroup sort of small counts', async () => {
  const ctx = await getTestContext();
  const u32Shape = shapeOf('u32', false, 'none');
  // The tiers a plan uses by default (on SwiftShader the 1024 network only, see
  // SWIFTSHADER_SMALL_SORT_MAX), and every tier the device holds (LARGEST forces them all).
  const small = radixConfig(ctx, u32Shape, {}).small;
  const LARGEST = SMALL_SORT_TIERS[SMALL_SORT_TIERS.length - 1];
  const full = radixConfig(ctx, u32Shape, { smallSortMax: LARGEST }).small;
  const radixNote = (n: number, max: number) => (n > max ? ' (radix)' : '');

  it('picks its tiers from the workgroup memory and smallSortMax', () => {
    const limits = ctx.caps.limits;
    // Every WebGPU device has 16 KiB of workgroup memory: 2048 slots at least.
    expect(full.max).toBeGreaterThanOrEqual(2048);
    expect(full.tiers[0]).toBe(1024);
    expect(small.tiers[0]).toBe(1024);
    expect(smallSortCapacity(full, 5)).toBe(1024);
    expect(smallSortCapacity(full, 1024)).toBe(1024);
    expect(smallSortCapacity(full, 1025)).toBe(full.tiers[1]);
    expect(smallSortCapacity(full, full.max + 1)).toBeUndefined();
    const at = (bytes: number, smallSortMax?: number, architecture = 'a GPU') =>
      smallSortConfig(
        {
          ...ctx.caps,
          limits: { ...limits, maxComputeWorkgroupStorageSize: bytes },
          adapter: { vendor: 'v', architecture, description: '' },
        },
        smallSortMax === undefined ? {} : { smallSortMax },
      );
    expect(at(48 << 10)).toMatchObject({ tiers: [...SMALL_SORT_TIERS], padded: [true, true], max: 4096 });
    expect(at(32 << 10)).toMatchObject({ tiers: [1024, 4096], padded: [true, false], max: 4096 });
    expect(at(16 << 10)).toMatchObject({ tiers: [1024, 2048], padded: [true, false], max: 2048 });
    expect(at(8 << 10)).toMatchObject({ tiers: [1024], padded: [false], max: 1024 });
    expect(at(4 << 10)).toMatchObject({ tiers: [512], max: 512 });
    expect(at(48 << 10, 0)).toMatchObject({ tiers: [], max: 0 });
    expect(at(48 << 10, 1000)).toMatchObject({ tiers: [1024], max: 1000 });
    expect(at(48 << 10, 1025)).toMatchObject({ tiers: [1024, 4096], max: 1025 });
    expect(at(48 << 10, 1 << 20)).toMatchObject({ tiers: [1024, 4096], max: 4096 });
    // SwiftShader compiles big workgroup memory slowly: the 1024 network by default, more on request.
    expect(at(32 << 10, undefined, 'swiftshader')).toMatchObject({ tiers: [1024], max: 1024 });
    expect(at(32 << 10, 4096, 'swiftshader')).toMatchObject({ tiers: [1024, 4096], max: 4096 });
    expect(() => at(48 << 10, -1)).toThrow(/smallSortMax/);
    expect(() => createSortPlan(ctx, { smallSortMax: 0.5 } as never)).toThrow(/smallSortMax/);
  });

  it('sorts every key type, both directions, keys only, key–value and argsort, at counts around its tiers', async () => {
    let seed = 1;
    // The counts past the tier take the one-sweep passes, which radix.test.ts checks in every shape:
    // here three shapes (one per key type, each value mode once) go past it; the other plans are
    // made with maxCount at the tier, so SwiftShader compiles no one-sweep kernels for them.
    const pastTier = new Set(['u32 asc none', 'i32 desc move', 'f32 desc index']);
    for (const keyType of ['u32', 'i32', 'f32'] as const) {
      for (const descending of [false, true]) {
        for (const values of ['none', 'move', 'index'] as const) {
          const shape = shapeOf(keyType, descending, values);
          const radixToo = pastTier.has(`${keyType} ${descending ? 'desc' : 'asc'} ${values}`);
          // One plan per shape, encoded with every count (as a frame loop would).
          const plan = createRadixSort(ctx, shape, { values, ...(radixToo ? {} : { maxCount: small.max }) });
          await plan.ready;
          for (const n of COUNTS.filter((c) => radixToo || c <= small.max)) {
            const label = `${keyType} ${descending ? 'desc' : 'asc'} ${values} n=${n}${radixNote(n, small.max)}`;
            await check(ctx, plan, shape, values, { keys: keysFor(keyType, n, seed++) }, label);
          }
          plan.destroy();
        }
      }
    }
  });

  it('sorts with every tier the device holds (the 4096 network where it fits), each value mode and direction', async () => {
    let seed = 300;
    for (const [keyType, descending, values] of [
      ['u32', false, 'none'],
      ['i32', true, 'move'],
      ['f32', true, 'index'],
      ['f32', false, 'move'],
    ] as const) {
      const shape = shapeOf(keyType, descending, values);
      const plan = createRadixSort(ctx, shape, { values, tuning: { smallSortMax: LARGEST } });
      await plan.ready;
      for (const n of [2, 1024, 1025, 2049, 4095, 4096, 4097]) {
        const label = `all tiers: ${keyType} ${descending ? 'desc' : 'asc'} ${values} n=${n}${radixNote(n, full.max)}`;
        await check(ctx, plan, shape, values, { keys: keysFor(keyType, n, seed++) }, label);
      }
      plan.destroy();
    }
  });

  it('keeps equal keys in input order (all equal, few distinct, sorted, reversed), ascending and descending', async () => {
    for (const descending of [false, true]) {
      const shape = shapeOf('f32', descending, 'move');
      const plan = createRadixSort(ctx, shape, { values: 'move', tuning: { smallSortMax: LARGEST } });
      for (const content of ['equal', 'few', 'sorted', 'reversed'] as const) {
        for (const n of [33, 1000, 4000]) {
          const label = `f32 ${content} n=${n} ${descending ? 'desc' : 'asc'}${radixNote(n, full.max)}`;
          await check(ctx, plan, shape, 'move', { keys: makeKeys('f32', n, content, n) }, label);
        }
      }
      plan.destroy();
    }
  });

  it('sorts on a bit range narrower than 32, equal fields in input order', async () => {
    let seed = 500;
    for (const [bits, keyType, values, descending, smallSortMax] of [
      [[4, 13], 'u32', 'move', false, undefined],
      [[24, 32], 'f32', 'index', true, undefined],
      [[0, 1], 'u32', 'move', true, undefined],
      [[31, 32], 'f32', 'move', false, undefined],
      [[3, 20], 'i32', 'move', true, LARGEST],
    ] as const) {
      const shape = shapeOf(keyType, descending, values, bits);
      const plan = createRadixSort(ctx, shape, { values, ...(smallSortMax ? { tuning: { smallSortMax } } : {}) });
      const max = smallSortMax ? full.max : small.max;
      for (const n of [2, 33, 1024, 4096, 4097]) {
        const label = `bits [${bits}] ${keyType} ${values} ${descending ? 'desc' : 'asc'} n=${n}${radixNote(n, max)}`;
        await check(ctx, plan, shape, values, { keys: makeKeys(keyType, n, 'random', seed++) }, label);
      }
      plan.destroy();
    }
  });

  it('reads the count on the GPU when maxCount is small enough, clamping counts past it', async () => {
    let seed = 900;
    for (const maxCount of [1000, 1024, 3000, full.max, full.max + 1]) {
      for (const values of ['move', 'index'] as const) {
        const shape = shapeOf('f32', true, values);
        const plan = createRadixSort(ctx, shape, { values, maxCount, gpuCount: true, tuning: { smallSortMax: LARGEST } });
        await plan.ready;
        const keys = keysFor('f32', maxCount + 50, seed++);
        for (const gpuCount of [0, 1, 2, 31, maxCount - 1, maxCount, maxCount + 50, 0xffffffff]) {
          const label = `GPU count ${gpuCount} (maxCount ${maxCount}${radixNote(maxCount, full.max)}) ${values}`;
          // The keys past the count (and past maxCount) are left where they are.
          const n = Math.min(gpuCount, maxCount + 50);
          const part = keys.subarray(0, n) as SortArray;
          await check(ctx, plan, shape, values, { keys: part, gpuCount }, label, maxCount);
        }
        plan.destroy();
      }
    }
  });

  it('holds no scratch for counts it covers, and the one-sweep scratch past them', async () => {
    const shape = shapeOf('u32', false, 'move');
    // maxCount = what the small path covers by default: nothing is reserved for the one-sweep passes,
    // and an encode makes the parameter ring only.
    const covered = createRadixSort(ctx, shape, { values: 'move', maxCount: small.max });
    expect(covered.memoryBytes).toBe(0);
    await check(ctx, covered, shape, 'move', { keys: keysFor('u32', small.max, 3) }, 'covered maxCount');
    expect(covered.memoryBytes).toBeLessThanOrEqual(4 * 256);
    covered.destroy();
    const off = createRadixSort(ctx, shape, { values: 'move', maxCount: small.max, tuning: { smallSortMax: 0 } });
    expect(off.memoryBytes).toBeGreaterThan(2 * 4 * small.max);
    off.destroy();
  });

  it('serves sort, argsort and segmentedSort (their internal radix sorts, bit ranges included)', async () => {
    let seed = 1200;
    for (const n of [1, 2, 33, 1025, 4096, 4097]) {
      const keys = keysFor('f32', n, seed++) as Float32Array;
      const values = makeKeys('i32', n, 'random', seed++) as Int32Array;
      const got = await sort(ctx, keys, { values, descending: n % 2 === 0 });
      const want = cpu.sort(keys, { values, descending: n % 2 === 0 });
      expectEqualArrays(bitsOf(got.keys), bitsOf(want.keys), `sort n=${n}: keys`);
      expectEqualArrays(bitsOf(got.values!), bitsOf(want.values!), `sort n=${n}: values`);
      const ranged = await sort(ctx, keys, { bits: [8, 20] });
      expectEqualArrays(bitsOf(ranged.keys), bitsOf(cpu.sort(keys, { bits: [8, 20] }).keys), `sort n=${n} bits [8, 20]`);
      expectEqualArrays(await argsort(ctx, keys, { descending: true }), cpu.argsort(keys, { descending: true }), `argsort n=${n}`);
      const heads = Uint8Array.from({ length: n }, (_, i) => (i === 0 || (i * 7919) % 13 === 0 ? 1 : 0));
      const seg = await segmentedSort(ctx, keys, heads, { values });
      const segWant = cpu.segmentedSort(keys, heads, { values });
      expectEqualArrays(bitsOf(seg.keys), bitsOf(segWant.keys), `segmentedSort n=${n}: keys`);
      expectEqualArrays(bitsOf(seg.values!), bitsOf(segWant.values!), `segmentedSort n=${n}: values`);
      const segKeys = await segmentedSort(ctx, keys, heads, { descending: true });
      expectEqualArrays(
        bitsOf(segKeys.keys),
        bitsOf(cpu.segmentedSort(keys, heads, { descending: true }).keys),
        `segmentedSort n=${n} keys only`,
      );
    }
  });
});
