// The paper's segmented quicksort (first-element pivots, `>` / `>=` alternating, split-and-segment,
// a global reduction to stop) on the GPU, against the tests' oracle (sort-oracle.ts):
// Array.prototype.sort on (key, index) pairs. Every key type, keys only and key–value, both
// directions, sizes 0 … 2^14, contents (random, equal, sorted, reversed, few distinct, top byte
// only, NaN / ±0 / ±∞), stability (values are the input positions), with and without subgroups,
// 2-D dispatches, words past the count untouched, the round cap, and argument checks.
import { type ScanContext, ScanError } from '@scan/core';
import { getTestContext, isPoison } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { maxQuicksortRounds, type QuicksortHooks, quicksortBuffers } from '../src/ops/quicksort-runner.js';
import type { SortShape } from '../src/plans/sort-shape.js';
import type { SortArray, SortValueType } from '../src/types.js';
import { bufferWith, narrowDispatchContext, readWords, TEST_USAGE } from './gpu-buffers.js';
import { bitsOf, expectedOrder, makeEdgeKeys, makeValues } from './sort-oracle.js';

const TYPES: readonly SortValueType[] = ['u32', 'i32', 'f32'];
/** 257 and 1000: past one workgroup of the element-wise kernels (256) and of the scans' tiles. */
const SIZES = [0, 1, 2, 5, 257, 1000, 2 ** 14];
/** Contents at every size; `reversed` (about 2·n rounds) only where n is small. */
const CONTENTS = ['random', 'equal', 'sorted', 'few', 'top-byte', 'specials'] as const;
/** Words after the count in every buffer: poisoned, and they must stay so. */
const SLACK = 3;

// ---- running ----------------------------------------------------------------------------------

/**
 * Sorts `keys` (and `values`) with the quicksort inside a validation scope and checks keys and
 * values against the oracle, bit for bit, and that the words past the count are still poison.
 * Returns the stats (rounds, read-backs).
 */
async function check(ctx: ScanContext, shape: SortShape, keys: SortArray, values: SortArray | undefined, label: string) {
  const n = keys.length;
  const keyBuffer = bufferWith(ctx, bitsOf(keys), SLACK);
  const valueBuffer = values ? bufferWith(ctx, bitsOf(values), SLACK) : undefined;
  const stats = { rounds: 0, checks: 0 };
  try {
    ctx.device.pushErrorScope('validation');
    await quicksortBuffers(ctx, shape, { keys: keyBuffer, ...(valueBuffer ? { values: valueBuffer } : {}), count: n }, { stats });
    const error = await ctx.device.popErrorScope();
    expect(error?.message, label).toBeUndefined();
    const order = expectedOrder(keys, shape.descending);
    const firstWrong = (got: Uint32Array, want: Uint32Array) => want.findIndex((w, i) => got[i] !== w);
    const gotKeys = await readWords(ctx, keyBuffer);
    const inKeys = bitsOf(keys);
    expect(
      firstWrong(
        gotKeys,
        Uint32Array.from(order, (i) => inKeys[i]!),
      ),
      `${label}: first wrong key`,
    ).toBe(-1);
    expect(gotKeys.subarray(n, n + SLACK).every(isPoison), `${label}: keys past the count`).toBe(true);
    if (values && valueBuffer) {
      const gotValues = await readWords(ctx, valueBuffer);
      const inValues = bitsOf(values);
      expect(
        firstWrong(
          gotValues,
          Uint32Array.from(order, (i) => inValues[i]!),
        ),
        `${label}: first wrong value`,
      ).toBe(-1);
      expect(gotValues.subarray(n, n + SLACK).every(isPoison), `${label}: values past the count`).toBe(true);
    }
    return stats;
  } finally {
    keyBuffer.destroy();
    valueBuffer?.destroy();
  }
}

const shapeOf = (keyType: SortValueType, valueType: SortValueType | undefined, descending: boolean): SortShape => ({
  keyType,
  valueType,
  descending,
  bits: [0, 32],
});

const describeShape = (s: SortShape) => `${s.keyType}${s.valueType ? `+${s.valueType}` : ''} ${s.descending ? 'desc' : 'asc'}`;

// ---- tests ------------------------------------------------------------------------------------

describe('quicksort', () => {
  for (const keyType of TYPES) {
    it(`${keyType} keys, keys only and key–value, both directions, sizes and contents`, async () => {
      const ctx = await getTestContext();
      const valueTypes = [undefined, TYPES[(TYPES.indexOf(keyType) + 2) % 3]];
      for (const valueType of valueTypes) {
        for (const descending of [false, true]) {
          const shape = shapeOf(keyType, valueType, descending);
          for (const n of SIZES) {
            // The largest size with random keys only: the other contents are cheap and covered below it.
            for (const content of n === 2 ** 14 ? (['random'] as const) : CONTENTS) {
              const seed = 7 * n + CONTENTS.indexOf(content) + (descending ? 3 : 0);
              const values = valueType ? makeValues(valueType, n, seed + 1) : undefined;
              await check(ctx, shape, makeEdgeKeys(keyType, n, content, seed), values, `${describeShape(shape)} n=${n} ${content}`);
            }
          }
        }
      }
    });
  }

  it('reversed keys (about 2·n rounds: one key leaves its segment per two rounds), both directions', async () => {
    const ctx = await getTestContext();
    for (const keyType of TYPES) {
      for (const descending of [false, true]) {
        const shape = shapeOf(keyType, 'u32', descending);
        for (const n of [2, 3, 64, 150]) {
          // Reversed in the sort's own direction: descending keys for an ascending sort and back.
          const keys = makeEdgeKeys(keyType, n, descending ? 'sorted' : 'reversed', n);
          const stats = await check(ctx, shape, keys, makeValues('u32', n, n + 1), `${describeShape(shape)} n=${n} reversed`);
          expect(stats.rounds, `rounds for ${n} reversed keys`).toBeGreaterThanOrEqual(2 * (n - 1));
          expect(stats.rounds).toBeLessThanOrEqual(maxQuicksortRounds(n));
        }
      }
    }
  });

  it('is stable: equal keys keep their input order (values are the input positions)', async () => {
    const ctx = await getTestContext();
    for (const [keyType, n, content] of [
      ['u32', 5000, 'few'],
      ['f32', 3000, 'specials'],
      ['i32', 2000, 'equal'],
      ['f32', 4096, 'top-byte'],
    ] as const) {
      for (const descending of [false, true]) {
        const positions = Uint32Array.from({ length: n }, (_, i) => i);
        const keys = makeEdgeKeys(keyType, n, content, n);
        await check(
          ctx,
          shapeOf(keyType, 'u32', descending),
          keys,
          positions,
          `stable ${keyType} ${descending ? 'desc' : 'asc'} ${content}`,
        );
      }
    }
  });

  it('needs few read-backs: sorted and equal keys stop after the first batch; random keys in a handful', async () => {
    const ctx = await getTestContext();
    const shape = shapeOf('f32', undefined, false);
    expect((await check(ctx, shape, makeEdgeKeys('f32', 4000, 'sorted', 1), undefined, 'sorted')).checks).toBe(1);
    expect((await check(ctx, shape, makeEdgeKeys('f32', 4000, 'equal', 2), undefined, 'equal')).checks).toBe(1);
    const random = await check(ctx, shape, makeEdgeKeys('f32', 2 ** 14, 'random', 3), undefined, 'random');
    expect(random.checks).toBeLessThanOrEqual(8);
  });

  it('portable path (no subgroups): the segmented scans and the reduction in workgroup memory', async () => {
    const ctx = await getTestContext({ subgroups: false });
    for (const [keyType, valueType, descending, n, content] of [
      ['f32', 'i32', false, 3000, 'specials'],
      ['i32', undefined, true, 1000, 'random'],
      ['u32', 'f32', false, 513, 'few'],
    ] as const) {
      const shape = shapeOf(keyType, valueType, descending);
      const values = valueType ? makeValues(valueType, n, 9) : undefined;
      await check(ctx, shape, makeEdgeKeys(keyType, n, content, 8), values, `portable ${describeShape(shape)} n=${n} ${content}`);
    }
  });

  it('2-D dispatches (a context allowing 3 workgroups per dimension)', async () => {
    const real = await getTestContext();
    const ctx = narrowDispatchContext(real, 3);
    // 2000 keys: 8 element-wise workgroups (3 × 3, the last row partial).
    for (const [keyType, valueType] of [
      ['u32', 'f32'],
      ['f32', undefined],
    ] as const) {
      const shape = shapeOf(keyType, valueType, false);
      const values = valueType ? makeValues(valueType, 2000, 5) : undefined;
      await check(ctx, shape, makeEdgeKeys(keyType, 2000, 'random', 4), values, `2-D ${describeShape(shape)}`);
    }
  });

  it('throws GPU_ERROR past the round cap instead of looping', async () => {
    const ctx = await getTestContext();
    const n = 100;
    const keys = ctx.device.createBuffer({ size: 4 * n, usage: TEST_USAGE });
    ctx.device.queue.writeBuffer(keys, 0, Uint32Array.from(bitsOf(makeEdgeKeys('u32', n, 'reversed', 1))));
    const hooks: QuicksortHooks = { maxRounds: 4 };
    const run = quicksortBuffers(ctx, shapeOf('u32', undefined, false), { keys, count: n }, hooks);
    await expect(run).rejects.toThrow(ScanError);
    await expect(run).rejects.toThrow(/still out of order after 6 rounds/);
    keys.destroy();
    expect(maxQuicksortRounds(1000)).toBe(2064);
  });

  it('rejects a bit range, missing or unexpected values; count 0 and 1 do nothing', async () => {
    const ctx = await getTestContext();
    const keys = bufferWith(ctx, Uint32Array.of(9, 3, 5, 1), SLACK);
    const values = bufferWith(ctx, Uint32Array.of(0, 1, 2, 3), SLACK);
    await expect(quicksortBuffers(ctx, { ...shapeOf('u32', undefined, false), bits: [0, 16] }, { keys, count: 4 })).rejects.toThrow(
      /shape\.bits/,
    );
    await expect(quicksortBuffers(ctx, shapeOf('u32', 'u32', false), { keys, count: 4 })).rejects.toThrow(/values/);
    await expect(quicksortBuffers(ctx, shapeOf('u32', undefined, false), { keys, values, count: 4 })).rejects.toThrow(/keys only/);
    await expect(quicksortBuffers(ctx, shapeOf('u32', undefined, false), { keys, count: 8 })).rejects.toThrow(/args\.keys has/);
    await quicksortBuffers(ctx, shapeOf('u32', 'u32', false), { keys, values, count: 0 });
    await quicksortBuffers(ctx, shapeOf('u32', 'u32', false), { keys, values, count: 1 });
    expect(Array.from(await readWords(ctx, keys)).slice(0, 4)).toEqual([9, 3, 5, 1]);
    keys.destroy();
    values.destroy();
  });
});
