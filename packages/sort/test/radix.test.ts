// The one-sweep radix sort against the tests' own oracle (Array.prototype.sort with the documented
// comparator): every key type, with and without values, both directions, edge contents and sizes
// around the tile, bit ranges, the portable path, the fallback forced, and argsort's indices.
import type { ScanContext } from '@scan/core';
import { expectEqualArrays, getTestContext, poisonBuffer } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { createRadixSort, type RadixTuning, radixConfig } from '../src/plans/radix-plan.js';
import type { SortShape } from '../src/plans/sort-shape.js';
import type { SortArray, SortValueType } from '../src/types.js';
import { readWords, TEST_USAGE } from './gpu-buffers.js';
import { bitsOf, expectedOrder, gather, KEY_CONTENTS, makeEdgeKeys, makeKeys } from './sort-oracle.js';

function upload(ctx: ScanContext, data: SortArray | undefined, n: number): GPUBuffer {
  const buffer = ctx.device.createBuffer({ size: Math.max(16, 4 * n), usage: TEST_USAGE });
  if (data && n > 0) ctx.device.queue.writeBuffer(buffer, 0, data.buffer, data.byteOffset, 4 * n);
  return buffer;
}

interface Run {
  keys: SortArray;
  descending?: boolean;
  bits?: [number, number];
  /** 'move': values are the indices uploaded; 'index': argsort's generated indices; 'none'. */
  values: 'none' | 'move' | 'index';
  tuning?: RadixTuning;
}

/** Sorts on the GPU and checks keys (bit for bit) and values against the oracle. */
async function expectSorted(ctx: ScanContext, run: Run, label: string): Promise<void> {
  const n = run.keys.length;
  const keyType: SortValueType = run.keys instanceof Uint32Array ? 'u32' : run.keys instanceof Int32Array ? 'i32' : 'f32';
  const shape: SortShape = {
    keyType,
    valueType: run.values === 'none' ? undefined : 'u32',
    descending: run.descending ?? false,
    bits: run.bits ?? [0, 32],
  };
  const indices = Uint32Array.from({ length: n }, (_, i) => i);
  const keys = upload(ctx, run.keys, n);
  const values = upload(ctx, run.values === 'move' ? indices : undefined, n);
  if (run.values === 'index') poisonBuffer(ctx, values, 4 * n);
  // These tests mean the one-sweep kernel (its tiles, look-back, fallback, portable path) at every
  // size, small ones too: counts up to 4096 would otherwise take the one-workgroup sort
  // (small-sort.test.ts tests that one), so its path is turned off here.
  const plan = createRadixSort(ctx, shape, { values: run.values, tuning: { smallSortMax: 0, ...run.tuning } });
  // As an application would: an encode before `ready` compiles its kernels a second time, synchronously.
  await plan.ready;
  ctx.device.pushErrorScope('validation');
  const encoder = ctx.device.createCommandEncoder();
  plan.encode(encoder, { keys, ...(run.values === 'none' ? {} : { values }), count: n });
  ctx.device.queue.submit([encoder.finish()]);
  const error = await ctx.device.popErrorScope();
  expect(error?.message, label).toBeUndefined();
  const order = expectedOrder(run.keys, shape.descending, run.bits);
  expectEqualArrays(await readWords(ctx, keys, n), bitsOf(gather(run.keys, order)), `${label}: keys`);
  if (run.values !== 'none') expectEqualArrays(await readWords(ctx, values, n), order, `${label}: values`);
  plan.destroy();
  keys.destroy();
  values.destroy();
}

describe('one-sweep radix sort', async () => {
  const ctx = await getTestContext();
  const tile = (t: RadixTuning = {}) => {
    const c = radixConfig(ctx, { keyType: 'u32', valueType: undefined, descending: false, bits: [0, 32] }, t);
    return c.pass.workgroupSize * c.pass.elementsPerThread;
  };

  it('sorts every key type, with and without values, both directions, at edge sizes', async () => {
    const T = tile();
    let seed = 1;
    for (const keyType of ['u32', 'i32', 'f32'] as const) {
      for (const n of [1, 2, 3, T - 1, T, T + 1, 3 * T + 7]) {
        for (const descending of [false, true]) {
          for (const values of ['none', 'move'] as const) {
            const keys = makeKeys(keyType, n, 'random', seed++);
            await expectSorted(ctx, { keys, descending, values }, `${keyType} n=${n} ${descending ? 'desc' : 'asc'} ${values}`);
          }
        }
      }
    }
  });

  it('sorts every content stably (all equal, sorted, reversed, few keys, top byte only, NaN ±0 ±∞)', async () => {
    let seed = 100;
    for (const keyType of ['u32', 'i32', 'f32'] as const) {
      for (const content of KEY_CONTENTS) {
        for (const descending of [false, true]) {
          const keys = makeKeys(keyType, 5000, content, seed++);
          await expectSorted(ctx, { keys, descending, values: 'move' }, `${keyType} ${content} ${descending ? 'desc' : 'asc'}`);
        }
      }
    }
  });

  it('sorts on a bit range only, keeping input order among keys equal on it', async () => {
    let seed = 200;
    for (const bits of [
      [0, 8],
      [0, 16],
      [4, 28],
      [8, 24],
      [31, 32],
      [0, 31],
      [3, 5],
    ] as [number, number][]) {
      for (const descending of [false, true]) {
        const keys = makeKeys('u32', 7000, 'random', seed++);
        await expectSorted(ctx, { keys, descending, bits, values: 'move' }, `bits [${bits}] ${descending ? 'desc' : 'asc'}`);
      }
    }
  });

  it("writes argsort's indices from the first pass", async () => {
    for (const keyType of ['u32', 'i32', 'f32'] as const) {
      for (const n of [1, 2, 4097, 20000]) {
        await expectSorted(ctx, { keys: makeKeys(keyType, n, 'few', n), values: 'index' }, `argsort ${keyType} n=${n}`);
      }
    }
  });

  it('finishes through the fallback when every look-back is forced to fail', async () => {
    const tuning: RadixTuning = { forceFallback: true, maxSpin: 2 };
    for (const keyType of ['u32', 'f32'] as const) {
      const keys = makeKeys(keyType, 9 * tile(tuning) + 5, 'specials', 7);
      await expectSorted(ctx, { keys, values: 'move', tuning }, `fallback ${keyType}`);
    }
  });

  it('sorts on the portable path (no subgroups), also through the fallback', async () => {
    const portable: RadixTuning[] = [
      { subgroups: false },
      { subgroups: false, forceFallback: true, maxSpin: 2 },
      // The tile's counters cleared, as on a device without zero-initialized workgroup memory.
      { subgroups: false, skipClears: false, batchScatter: true },
    ];
    for (const tuning of portable) {
      const T = tile(tuning);
      for (const n of [1, T - 1, T + 1, 5 * T + 3]) {
        const keys = makeKeys('f32', n, 'specials', n);
        await expectSorted(ctx, { keys, values: 'move', descending: n % 2 === 0, tuning }, `portable n=${n} ${JSON.stringify(tuning)}`);
      }
    }
  });

  // What the GPUs run and SwiftShader does not pick by itself: the unrolled per-key steps (off on
  // SwiftShader in Node, where LLVM takes seconds per unrolled pipeline) and the four-word ballot
  // masks of 64- and 128-lane subgroups (here on 4-lane subgroups: the same code, upper words zero).
  it('sorts with the GPUs specializations: unrolled steps, four-word ballot masks, with and without the padding', async () => {
    const runs: RadixTuning[] = [
      { unrolled: true, maskWords: 1 },
      { unrolled: true, maskWords: 4 },
      { unrolled: false, maskWords: 4 },
      { unrolled: true, maskWords: 4, forceFallback: true, maxSpin: 2 },
      // The index tests the padding replaced (padLast: false, as descending f32 always runs).
      { unrolled: true, maskWords: 1, padLast: false },
      { unrolled: true, maskWords: 4, padLast: false, forceFallback: true, maxSpin: 2 },
      // The leader lane by firstTrailingBit and the tile's counters cleared (the defaults before
      // 2026-12-05; skipClears: false is what a device without zero-initialized workgroup memory needs).
      { unrolled: true, maskWords: 1, leaderPopcount: false },
      { unrolled: false, maskWords: 4, leaderPopcount: false },
      { unrolled: true, maskWords: 1, skipClears: false, forceFallback: true, maxSpin: 2 },
      // Experiment (issue 32): the scatter's workgroup loads batched.
      { unrolled: true, maskWords: 1, batchScatter: true },
      { unrolled: false, maskWords: 4, padLast: false, batchScatter: true, forceFallback: true, maxSpin: 2 },
    ];
    for (const tuning of runs) {
      const T = tile(tuning);
      for (const n of [T - 1, 3 * T + 5]) {
        const keys = makeKeys('f32', n, 'specials', n + 1);
        await expectSorted(ctx, { keys, values: 'move', descending: n % 2 === 1, tuning }, `n=${n} ${JSON.stringify(tuning)}`);
      }
    }
  });

  // padLast (the default): a partial tile is padded with the key that sorts last, which must still
  // rank after real keys equal to it (the specials hold u32 0xffffffff, i32 0x7fffffff, NaNs), and be
  // taken back out of the early counts of the largest digit. Descending f32 has no such key and keeps
  // the index tests, as every type does with padLast: false.
  it('pads partial tiles with the key that sorts last, or tests indices (padLast: false), every key type and direction', async () => {
    let seed = 300;
    // Every key type and direction on the looped pass; the unrolled one (the GPUs') on u32 ascending.
    const runs: [SortValueType, boolean, RadixTuning][] = [];
    for (const keyType of ['u32', 'i32', 'f32'] as const) {
      for (const descending of [false, true]) runs.push([keyType, descending, {}]);
    }
    runs.push(['u32', false, { unrolled: true, maskWords: 1 }], ['i32', true, { padLast: false }]);
    for (const [keyType, descending, tuning] of runs) {
      const T = tile(tuning);
      for (const n of [T - 1, 2 * T + 5]) {
        const keys = makeEdgeKeys(keyType, n, 'specials', seed++);
        const values = n === T - 1 ? 'move' : 'index';
        const label = `${keyType} n=${n} ${descending ? 'desc' : 'asc'} ${values} ${JSON.stringify(tuning)}`;
        await expectSorted(ctx, { keys, descending, values, tuning }, label);
      }
    }
  });

  it('sorts past 2^20 keys', async () => {
    const keys = makeKeys('u32', (1 << 20) + 3, 'random', 9);
    await expectSorted(ctx, { keys, values: 'move' }, 'u32 2^20 + 3');
  });
});
