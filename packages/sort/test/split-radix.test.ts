// The paper's split radix sort (one stable split per key bit) at the buffer level, against the
// tests' oracle (sort-oracle.ts): Array.prototype.sort on (key, index) pairs. Every key type, keys
// only and key–value, both directions, bit ranges (odd pass counts copy home), edge sizes around
// the split's tile (256 × 32 with u8 flags), contents (random, equal, sorted, reversed, few
// distinct, top byte only, NaN / ±0 / ±∞), with and without subgroups (the split's two paths), 2-D
// dispatches (through a context whose per-dimension limit is tiny), one size past 2^20; scratch
// reuse; words past the count untouched.
import type { ScanContext } from '@scan/core';
import { getTestContext, isPoison, POISON_U32 } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import type { SortBuffers, SortShape } from '../src/plans/sort-shape.js';
import { createSplitRadixSort } from '../src/plans/split-radix-plan.js';
import type { SortArray, SortValueType } from '../src/types.js';
import { bufferWith, narrowDispatchContext, TEST_USAGE } from './gpu-buffers.js';
import { bitsOf, expectedOrder, KEY_CONTENTS, makeEdgeKeys, makeValues } from './sort-oracle.js';

const TYPES: readonly SortValueType[] = ['u32', 'i32', 'f32'];
/** One tile of the split with u8 flags. */
const TILE = 256 * 32;
const SIZES = [0, 1, 2, 3, 5, 100, TILE - 1, TILE, TILE + 1, 3 * TILE + 5];
/** Words after the count in every buffer: poisoned, and they must stay so. */
const SLACK = 5;

// ---- running ----------------------------------------------------------------------------------

interface Case {
  keys: SortArray;
  values?: SortArray;
  label: string;
}

/**
 * Sorts every case through one plan in one submission (so scratch is reused and grown between
 * encodes of one command buffer) and checks keys and values against the oracle, bit for bit, and
 * that the words past the count are still poison.
 */
async function checkCases(ctx: ScanContext, shape: SortShape, cases: Case[], maxCount?: number): Promise<void> {
  const device = ctx.device;
  const plan = createSplitRadixSort(ctx, shape, maxCount);
  // As an application would: an encode before `ready` compiles its kernels a second time, synchronously.
  await plan.ready;
  const owned: GPUBuffer[] = [];
  const reads: { staging: GPUBuffer; words: number }[][] = [];
  device.pushErrorScope('validation');
  const encoder = device.createCommandEncoder();
  for (const c of cases) {
    const n = c.keys.length;
    const keys = bufferWith(ctx, bitsOf(c.keys), SLACK);
    const values = c.values ? bufferWith(ctx, bitsOf(c.values), SLACK) : undefined;
    owned.push(keys, ...(values ? [values] : []));
    const args: SortBuffers = { keys, ...(values ? { values } : {}), count: n };
    plan.encode(encoder, args);
    reads.push(
      [keys, ...(values ? [values] : [])].map((b) => {
        const staging = device.createBuffer({ size: 4 * (n + SLACK), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
        encoder.copyBufferToBuffer(b, 0, staging, 0, 4 * (n + SLACK));
        owned.push(staging);
        return { staging, words: n + SLACK };
      }),
    );
  }
  device.queue.submit([encoder.finish()]);
  const error = await device.popErrorScope();
  expect(error?.message).toBeUndefined();
  try {
    for (const [k, c] of cases.entries()) {
      const n = c.keys.length;
      const order = expectedOrder(c.keys, shape.descending, shape.bits);
      const got = [];
      for (const { staging } of reads[k]!) {
        await staging.mapAsync(GPUMapMode.READ);
        got.push(new Uint32Array(staging.getMappedRange().slice(0)));
        staging.unmap();
      }
      const [gotKeys, gotValues] = got;
      const inKeys = bitsOf(c.keys);
      const firstWrong = (got: Uint32Array, want: Uint32Array) => want.findIndex((w, i) => got[i] !== w);
      const wantKeys = Uint32Array.from(order, (i) => inKeys[i]!);
      expect(firstWrong(gotKeys!, wantKeys), `${c.label}: first wrong key`).toBe(-1);
      expect(gotKeys!.subarray(n).every(isPoison), `${c.label}: keys past the count`).toBe(true);
      if (c.values) {
        const inValues = bitsOf(c.values);
        const wantValues = Uint32Array.from(order, (i) => inValues[i]!);
        expect(firstWrong(gotValues!, wantValues), `${c.label}: first wrong value`).toBe(-1);
        expect(gotValues!.subarray(n).every(isPoison), `${c.label}: values past the count`).toBe(true);
      }
    }
  } finally {
    plan.destroy();
    for (const b of owned) b.destroy();
  }
}

const shapeOf = (
  keyType: SortValueType,
  valueType: SortValueType | undefined,
  descending: boolean,
  bits: readonly [number, number] = [0, 32],
) => ({ keyType, valueType, descending, bits }) satisfies SortShape;

const describeShape = (s: SortShape) =>
  `${s.keyType}${s.valueType ? `+${s.valueType}` : ''} ${s.descending ? 'desc' : 'asc'} [${s.bits[0]}, ${s.bits[1]})`;

/**
 * Every content at the small sizes and at one tile + 1; the other tile boundaries and several tiles
 * with random keys (the split is slow on SwiftShader: about 0.3 µs per key and bit).
 */
function casesFor(shape: SortShape, seed: number, sizes: readonly number[] = SIZES): Case[] {
  const cases: Case[] = [];
  for (const n of sizes) {
    const contents = n <= 100 || n === TILE + 1 ? KEY_CONTENTS : (['random'] as const);
    for (const content of contents) {
      const s = seed + 1000 * n + KEY_CONTENTS.indexOf(content);
      const keys = makeEdgeKeys(shape.keyType as SortValueType, n, content, s);
      const values = shape.valueType ? makeValues(shape.valueType, n, s + 7) : undefined;
      cases.push({ keys, ...(values ? { values } : {}), label: `${describeShape(shape)} n=${n} ${content}` });
    }
  }
  return cases;
}

// ---- tests ------------------------------------------------------------------------------------

describe('split radix sort', () => {
  for (const keyType of TYPES) {
    it(`${keyType} keys, keys only and key–value, both directions, edge sizes and contents`, async () => {
      const ctx = await getTestContext();
      // Values of another type each time: they move as raw words whatever the type.
      const valueTypes = [undefined, TYPES[(TYPES.indexOf(keyType) + 1) % 3]];
      for (const valueType of valueTypes) {
        for (const descending of [false, true]) {
          const shape = shapeOf(keyType, valueType, descending);
          await checkCases(ctx, shape, casesFor(shape, 17));
        }
      }
    });
  }

  it('bit ranges: one bit, low and high halves, odd pass counts (copied home), every type and direction', async () => {
    const ctx = await getTestContext();
    const ranges: [number, number][] = [
      [0, 1],
      [31, 32],
      [8, 9],
      [0, 16],
      [16, 32],
      [5, 27],
      [3, 32],
      [0, 31],
    ];
    for (const keyType of TYPES) {
      for (const descending of [false, true]) {
        for (const [r, bits] of ranges.entries()) {
          const shape = shapeOf(keyType, 'u32', descending, bits);
          const cases = (['random', 'few', 'top-byte', 'specials'] as const).map((content, j) => {
            const n = [2000, TILE + 1, 500, 64][j]!;
            const s = 31 * r + 7 * j + (descending ? 5 : 0);
            return {
              keys: makeEdgeKeys(keyType, n, content, s),
              values: makeValues('u32', n, s + 1),
              label: `${describeShape(shape)} n=${n} ${content}`,
            };
          });
          await checkCases(ctx, shape, cases);
        }
      }
    }
  });

  it('portable path (no subgroups): the split without ballots, both directions, keys only and key–value', async () => {
    // The flag kernel is the same either way; this covers the split's workgroup-memory path under the sort.
    const ctx = await getTestContext({ subgroups: false });
    for (const [keyType, valueType, descending] of [
      ['f32', 'i32', false],
      ['i32', undefined, true],
    ] as const) {
      const shape = shapeOf(keyType, valueType, descending);
      // The portable split is the slowest path on SwiftShader (a whole tile of group scans per
      // dispatch, even for 2 keys): a few sizes and contents only.
      const cases = (
        [
          [2, 'reversed'],
          [100, 'specials'],
          [100, 'few'],
          [TILE + 1, 'random'],
        ] as const
      ).map(([n, content], k) => ({
        keys: makeEdgeKeys(keyType, n, content, 29 + k),
        ...(valueType ? { values: makeValues(valueType, n, 39 + k) } : {}),
        label: `portable ${describeShape(shape)} n=${n} ${content}`,
      }));
      await checkCases(ctx, shape, cases);
    }
  });
});

describe('split radix sort: dispatch shapes, large sizes, reuse, arguments', () => {
  it('2-D dispatches (a context allowing 3 workgroups per dimension), partial last rows', async () => {
    const real = await getTestContext();
    const ctx = narrowDispatchContext(real, 3);
    for (const [keyType, valueType] of [
      ['u32', 'f32'],
      ['f32', undefined],
    ] as const) {
      const shape = shapeOf(keyType, valueType, keyType === 'f32');
      // 17 000 keys: 17 flag workgroups (3 × 6, the last row partial); 4 tiles + 1: 5 split tiles (3 × 2).
      const cases = [17_000, 4 * TILE + 1].map((n, j) => ({
        keys: makeEdgeKeys(keyType, n, 'random', 50 + j),
        ...(valueType ? { values: makeValues(valueType, n, 60 + j) } : {}),
        label: `2-D ${describeShape(shape)} n=${n}`,
      }));
      await checkCases(ctx, shape, cases);
    }
  });

  it('past 2^20: u32 keys, whole keys', async () => {
    const ctx = await getTestContext();
    const n = 2 ** 20 + 3;
    await checkCases(ctx, shapeOf('u32', undefined, false), [{ keys: makeEdgeKeys('u32', n, 'random', 3), label: `n=${n}` }]);
  });

  it('reserves maxCount up front and allocates nothing once warm; count 0 and 1 touch nothing', async () => {
    const ctx = await getTestContext();
    const device = ctx.device;
    const plan = createSplitRadixSort(ctx, shapeOf('i32', 'u32', false, [2, 7]), 5000);
    const reserved = plan.scratchBytes;
    expect(reserved).toBeGreaterThan(2 * 4 * 5000);
    const keys = bufferWith(ctx, new Uint32Array(5000).fill(POISON_U32), SLACK);
    const values = bufferWith(ctx, new Uint32Array(5000).fill(POISON_U32), SLACK);
    const counts = [0, 1, 4999, 5000, 17, 5000];
    // The first encoders take the parameter rings' allocations (they double until they hold the
    // encodes one encoder takes: 20 flag passes and 40 splits here; a ring that grows mid-encoder
    // starts afresh, so the second encoder may still double it once); the scratch stays what
    // maxCount reserved.
    for (let warmup = 0; warmup < 2; warmup++) {
      const first = device.createCommandEncoder();
      for (const count of counts) plan.encode(first, { keys, values, count });
      first.finish();
    }
    expect(plan.scratchBytes).toBe(reserved);
    const warm = plan.allocations;
    const encoder = device.createCommandEncoder();
    for (const count of [...counts].reverse()) plan.encode(encoder, { keys, values, count });
    expect(plan.allocations).toBe(warm);
    // A count of 0 or 1 records nothing: reversed keys stay as they are.
    const reversed = Uint32Array.from({ length: 8 }, (_, i) => 8 - i);
    const small = bufferWith(ctx, reversed, SLACK);
    const smallValues = bufferWith(ctx, reversed, SLACK);
    plan.encode(encoder, { keys: small, values: smallValues, count: 0 });
    plan.encode(encoder, { keys: small, values: smallValues, count: 1 });
    const staging = device.createBuffer({ size: 32, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    encoder.copyBufferToBuffer(small, 0, staging, 0, 32);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    expect(Array.from(new Uint32Array(staging.getMappedRange()))).toEqual(Array.from(reversed));
    for (const b of [staging, small, smallValues]) b.destroy();
    plan.destroy();
    keys.destroy();
    values.destroy();
  });

  it('rejects missing or unexpected values, a bad bit range, aliased buffers', async () => {
    const ctx = await getTestContext();
    const keys = ctx.device.createBuffer({ size: 64, usage: TEST_USAGE });
    const values = ctx.device.createBuffer({ size: 64, usage: TEST_USAGE });
    const encoder = ctx.device.createCommandEncoder();
    const kv = createSplitRadixSort(ctx, shapeOf('u32', 'u32', false));
    expect(() => kv.encode(encoder, { keys, count: 4 })).toThrow(/args\.values/);
    expect(() => kv.encode(encoder, { keys, values: keys, count: 4 })).toThrow(/same buffer/);
    expect(() => kv.encode(encoder, { keys, values, count: 17 })).toThrow(/args\.keys has 64 bytes/);
    const k = createSplitRadixSort(ctx, shapeOf('u32', undefined, false));
    expect(() => k.encode(encoder, { keys, values, count: 4 })).toThrow(/keys only/);
    expect(() => createSplitRadixSort(ctx, shapeOf('u32', undefined, false, [4, 4]))).toThrow(/shape\.bits/);
    expect(() => createSplitRadixSort(ctx, shapeOf('u32', undefined, false, [0, 33]))).toThrow(/shape\.bits/);
    kv.destroy();
    k.destroy();
    keys.destroy();
    values.destroy();
  });
});
