import type { ElementType, ScanContext } from '@scan/core';
import { createNodeContext } from '@scan/core/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CaseShape } from '../src/case-types.js';
import { enumerateCases, seriesName } from '../src/cases.js';
import { type CheckOutcome, runCheck } from '../src/child/device-ops.js';
import { BufferPool, encodeKernel, readWords, submitAndWait } from '../src/child/gpu.js';
import {
  CHECKSUM_MISMATCH,
  CHECKSUM_WORDS,
  checkSortOrderKernel,
  checksumCompareKernel,
  type SortCheckLayout,
  sortChecksumKernel,
} from '../src/child/kernels/sort-checks.js';
import { sortKeysKernel } from '../src/child/kernels/sort-keys.js';
import { runOnce } from '../src/child/measure.js';
import type { Workload } from '../src/child/workload.js';
import type { SegmentedSortCase } from '../src/primitives/segmented-sort.js';
import type { SortCase } from '../src/primitives/sort.js';
import { type BenchCase, workloadOf } from '../src/registry.js';

// The sort checks are what makes a sort timing trustworthy. First the check kernels alone, on
// hand-made keys (no @scan/sort needed): they must accept exactly the documented order and catch
// what a wrong sort does. Then the workloads with the library, at tiny sizes (SwiftShader).
let ctx: ScanContext;
let pool: BufferPool;

beforeAll(async () => {
  ctx = await createNodeContext().catch((e: Error) => {
    throw new Error(`no WebGPU adapter: install Debian chromium for SwiftShader, or run on a GPU (${e.message})`);
  });
  pool = new BufferPool(ctx);
});
afterAll(() => {
  pool?.destroy();
  ctx?.destroy();
});

function upload(words: ArrayLike<number>): GPUBuffer {
  const buffer = pool.storage(4 * Math.max(1, words.length), 'test words');
  ctx.device.queue.writeBuffer(
    buffer,
    0,
    Uint32Array.from(words, (w) => w >>> 0),
  );
  return buffer;
}

/** Head bits with heads at the given indices (and 0). */
function headBits(n: number, heads: readonly number[]): number[] {
  const bits = new Array<number>(Math.ceil(n / 32)).fill(0);
  for (const i of [0, ...heads]) bits[i >> 5] = (bits[i >> 5]! | (1 << (i & 31))) >>> 0;
  return bits;
}

async function checkOrder(
  type: ElementType,
  descending: boolean,
  keys: ArrayLike<number>,
  extra: { values?: ArrayLike<number>; original?: ArrayLike<number>; heads?: readonly number[] } = {},
): Promise<CheckOutcome> {
  const n = keys.length;
  const layout: SortCheckLayout = { pairs: extra.values !== undefined, segmented: extra.heads !== undefined };
  const kernel = checkSortOrderKernel({ type, descending, ...layout });
  const buffers = {
    keys: upload(keys),
    ...(extra.values ? { vals: upload(extra.values), original: upload(extra.original ?? [0]) } : {}),
    ...(extra.heads ? { bits: upload(headBits(n, extra.heads)) } : {}),
  };
  return runCheck(ctx, pool, (encoder, errors) =>
    encodeKernel(ctx, encoder, kernel, { ...buffers, err: errors, params: pool.params(kernel, { n }) }, { invocations: n }),
  );
}

async function checksum(keys: ArrayLike<number>, heads?: readonly number[]): Promise<Uint32Array> {
  const n = keys.length;
  const sums = pool.storage(4 * CHECKSUM_WORDS, 'test sums');
  const encoder = ctx.device.createCommandEncoder();
  encoder.clearBuffer(sums);
  const segmented = heads !== undefined;
  let extra: { bits: GPUBuffer; heads_through_word: GPUBuffer } | undefined;
  if (heads) {
    // Heads through word, on the CPU for the test.
    const bits = headBits(n, heads);
    let acc = 0;
    const through = bits.map((w) => {
      acc += countBits(w);
      return acc;
    });
    extra = { bits: upload(bits), heads_through_word: upload(through) };
  }
  const kernel = sortChecksumKernel({ segmented });
  encodeKernel(
    ctx,
    encoder,
    kernel,
    { keys: upload(keys), sums, ...extra, params: pool.params(kernel, { n, salt: 0x2545f491 }) },
    { invocations: n },
  );
  await submitAndWait(ctx, encoder);
  return readWords(ctx, sums, CHECKSUM_WORDS);
}

function countBits(w: number): number {
  let c = 0;
  for (let x = w >>> 0; x; x >>>= 1) c += x & 1;
  return c;
}

const f32Bits = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0]!;

describe('the order check', () => {
  // −∞ < … < −0 < +0 < … < +∞ < NaN (every NaN equal, whatever its sign or payload).
  const f32Ascending = [
    0xff800000, // −∞
    0xff7fffff, // −max
    f32Bits(-1),
    0x80000001, // the negative subnormal nearest 0
    0x80000000, // −0
    0x00000000, // +0
    0x00000001,
    f32Bits(1),
    0x7f7fffff,
    0x7f800000, // +∞
    0x7fc00000, // NaN
    0xffc00001, // a negative NaN
    0x7f800001, // a signalling NaN
  ];

  test('f32: the total order passes ascending, and reversed descending (NaNs first)', async () => {
    expect(await checkOrder('f32', false, f32Ascending)).toEqual({ mismatches: 0 });
    const nans = f32Ascending.slice(-3);
    const descending = [...nans, ...f32Ascending.slice(0, -3).reverse()];
    expect(await checkOrder('f32', true, descending)).toEqual({ mismatches: 0 });
    expect((await checkOrder('f32', true, f32Ascending)).mismatches).toBeGreaterThan(0);
  });

  test('f32: +0 before −0 fails, and so does a finite key after a NaN', async () => {
    const swapped = [...f32Ascending];
    [swapped[4], swapped[5]] = [swapped[5]!, swapped[4]!];
    expect(await checkOrder('f32', false, swapped)).toEqual({ mismatches: 1, first: 5 });
    expect(await checkOrder('f32', false, [0x7fc00000, f32Bits(1)])).toEqual({ mismatches: 1, first: 1 });
  });

  test('i32 is signed, u32 unsigned', async () => {
    const signed = [0x80000000, 0xffffffff, 0, 1, 0x7fffffff];
    expect(await checkOrder('i32', false, signed)).toEqual({ mismatches: 0 });
    expect(await checkOrder('u32', false, signed)).toEqual({ mismatches: 1, first: 2 });
    expect(await checkOrder('u32', false, [0, 1, 0x7fffffff, 0x80000000, 0xffffffff])).toEqual({ mismatches: 0 });
    expect(await checkOrder('u32', true, [0xffffffff, 7, 7, 0])).toEqual({ mismatches: 0 });
  });

  test('pairs: keys must come from original[value], equal keys keep increasing values, values stay in range', async () => {
    const original = [5, 3, 5, 1];
    const ok = await checkOrder('u32', false, [1, 3, 5, 5], { values: [3, 1, 0, 2], original });
    expect(ok).toEqual({ mismatches: 0 });
    // Unstable: the two 5s swapped.
    expect(await checkOrder('u32', false, [1, 3, 5, 5], { values: [3, 1, 2, 0], original })).toEqual({ mismatches: 1, first: 3 });
    // A value twice (and one lost), keys still sorted and matching.
    expect(await checkOrder('u32', false, [1, 3, 5, 5], { values: [3, 1, 0, 0], original })).toEqual({ mismatches: 1, first: 3 });
    // A key that is not the original key of its value.
    expect(await checkOrder('u32', false, [1, 3, 5, 5], { values: [3, 1, 0, 1], original })).toEqual({ mismatches: 1, first: 3 });
    expect(await checkOrder('u32', false, [1, 3, 5, 5], { values: [3, 1, 0, 4], original })).toEqual({ mismatches: 1, first: 3 });
    // Descending: still stable (equal keys in input order).
    expect(await checkOrder('u32', true, [5, 5, 3, 1], { values: [0, 2, 1, 3], original })).toEqual({ mismatches: 0 });
    expect(await checkOrder('u32', true, [5, 5, 3, 1], { values: [2, 0, 1, 3], original })).toEqual({ mismatches: 1, first: 1 });
  });

  test('segmented: order is checked within segments only', async () => {
    const keys = [2, 5, 9, 1, 4, 0, 3];
    expect(await checkOrder('u32', false, keys, { heads: [3, 5] })).toEqual({ mismatches: 0 });
    expect(await checkOrder('u32', false, keys, { heads: [3] })).toEqual({ mismatches: 1, first: 5 });
    expect(await checkOrder('u32', false, keys, { heads: [] })).toEqual({ mismatches: 2, first: 3 });
  });
});

describe('the checksum', () => {
  const n = 1000;
  const keys = Array.from({ length: n }, (_, i) => Math.imul(i + 1, 0x9e3779b1) >>> 0);

  test('does not depend on the order, and changes with any one key', async () => {
    const sums = await checksum(keys);
    expect(await checksum([...keys].reverse())).toEqual(sums);
    const duplicated = [...keys];
    duplicated[10] = duplicated[11]!;
    expect(await checksum(duplicated)).not.toEqual(sums);
    const flipped = [...keys];
    flipped[999] = (flipped[999]! ^ 1) >>> 0;
    expect(await checksum(flipped)).not.toEqual(sums);
  });

  test('segmented: any order within segments, but a key moved to another segment changes it', async () => {
    const heads = [300, 700];
    const sums = await checksum(keys, heads);
    const within = [...keys.slice(0, 300).reverse(), ...keys.slice(300, 700).reverse(), ...keys.slice(700).reverse()];
    expect(await checksum(within, heads)).toEqual(sums);
    const across = [...keys];
    [across[299], across[300]] = [across[300]!, across[299]!];
    expect(await checksum(across, heads)).not.toEqual(sums);
    // Without segments the same swap is invisible: the salt is what catches it.
    expect(await checksum(across)).toEqual(await checksum(keys));
  });

  test('the compare kernel counts each differing word at CHECKSUM_MISMATCH', async () => {
    const got = upload([1, 2, 3, 4]);
    const want = upload([1, 2, 9, 9]);
    const outcome = await runCheck(ctx, pool, (encoder, errors) =>
      encodeKernel(ctx, encoder, checksumCompareKernel, { got, want, err: errors }, { groups: 1 }),
    );
    expect(outcome).toEqual({ mismatches: 2, first: CHECKSUM_MISMATCH });
  });
});

/** The key generator of sortKeysKernel in JavaScript (the bench's PCG hash). */
function pcg(x: number): number {
  let v = (Math.imul(x >>> 0, 747796405) + 2891336453) >>> 0;
  v = Math.imul(((v >>> ((v >>> 28) + 4)) ^ v) >>> 0, 277803737) >>> 0;
  return ((v >>> 22) ^ v) >>> 0;
}
const rand = (i: number, seed: number) => pcg((i ^ pcg(seed)) >>> 0);
const keyBits = (i: number, seed: number) => (rand(i, seed) ^ pcg((rand(i, (seed ^ 0x5bd1e995) >>> 0) ^ 0x68e31da4) >>> 0)) >>> 0;

describe('the key generator', () => {
  test.each(['u32', 'i32', 'f32'] as const)('%s keys are the hash streams of the JavaScript model; f32 keys are finite', async (type) => {
    const n = 4099;
    const out = pool.storage(4 * n, 'test keys');
    const encoder = ctx.device.createCommandEncoder();
    const kernel = sortKeysKernel({ type });
    encodeKernel(ctx, encoder, kernel, { out, params: pool.params(kernel, { n, seed: 11 }) }, { invocations: n });
    await submitAndWait(ctx, encoder);
    const got = await readWords(ctx, out, n);
    const expected = Uint32Array.from({ length: n }, (_, i) => {
      const k = keyBits(i, 11);
      return type === 'f32' && (k & 0x7f800000) === 0x7f800000 ? (k ^ 0x40000000) >>> 0 : k;
    });
    expect(got).toEqual(expected);
    if (type === 'f32') {
      const floats = new Float32Array(got.buffer);
      expect(floats.every(Number.isFinite)).toBe(true);
      const negative = floats.filter((x) => x < 0).length;
      expect(negative).toBeGreaterThan(n * 0.4);
      expect(negative).toBeLessThan(n * 0.6);
    }
  });

  test('equal keys occur about as often as among uniform random keys (the plain hash fill has none)', () => {
    const n = 1 << 20;
    const seen = new Set<number>();
    let equal = 0;
    for (let i = 0; i < n; i++) {
      const k = keyBits(i, 1 + 0x50a7);
      if (seen.has(k)) equal++;
      else seen.add(k);
    }
    // n²/2^33 = 128 expected.
    expect(equal).toBeGreaterThan(64);
    expect(equal).toBeLessThan(256);
  });
});

// The workloads with @scan/sort, past one tile (test/verify.test.ts runs every default case at
// n = 1001). Few specializations: on SwiftShader compiling a one-sweep radix pipeline takes seconds.
const N = 4 * 4096 + 3;
const workloadCases: BenchCase[] = [
  ...enumerateCases({
    sizes: [N],
    only: ['sort', 'sort-pairs', 'segmented-sort'],
    types: ['u32'],
    runs: 10,
    warmup: 0,
    seed: 3,
    density: 0.5,
  }),
  extraCase({ primitive: 'segmented-sort', type: 'u32', segmentMean: 16 }),
  // Descending through the whole path (the default cases are all ascending).
  extraCase({ primitive: 'sort', algorithm: 'radix', type: 'f32', descending: true }),
];

// 16-bit keys (two a word; an odd count) descending, and 64-bit keys, past one tile: their own
// checks (sort-wide-data.ts) pass the library's output, which equals the CPU reference's.
const wideCases: BenchCase[] = [
  extraCase({ primitive: 'sort', algorithm: 'radix', type: 'f16' as SortCase['type'], descending: true }),
  extraCase({ primitive: 'sort', algorithm: 'radix', type: 'u64' as SortCase['type'] }),
];

describe.each(wideCases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
  test('verified, equal to the CPU reference, and a corrupted word is caught', async () => {
    const w = await workloadOf(c.primitive)(ctx, c);
    try {
      await runOnce(ctx, w);
      expect(await w.verify()).toEqual({ mismatches: 0 });
      expect(await w.compareWithCpu!()).toBe(0);
      const [word] = await readWords(ctx, w.output, 1, 400);
      ctx.device.queue.writeBuffer(w.output, 400, new Uint32Array([(word! ^ 0x00010001) >>> 0]));
      expect((await w.verify()).mismatches).toBeGreaterThan(0);
    } finally {
      w.destroy();
    }
  });
});

function extraCase(shape: CaseShape<SortCase | SegmentedSortCase>): BenchCase {
  const series = seriesName(shape);
  return { ...shape, id: `${series}@${N}`, series, n: N, seed: 5, runs: 10, warmup: 0 } as BenchCase;
}

async function run(w: Workload): Promise<void> {
  await runOnce(ctx, w);
}

describe.each(workloadCases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
  test('verified; prepare restores the unsorted keys; a sorted non-permutation is caught', async () => {
    const w = await workloadOf(c.primitive)(ctx, c);
    try {
      expect(w.prepare).toBeDefined();
      const before = await readWords(ctx, w.output, c.n);
      await run(w);
      expect(await w.verify()).toEqual({ mismatches: 0 });
      expect(await w.compareWithCpu!()).toBe(0);
      // Restored: the keys are the unsorted input again, and sorting them again gives the same.
      const encoder = ctx.device.createCommandEncoder();
      w.prepare!(encoder);
      await submitAndWait(ctx, encoder);
      expect(await readWords(ctx, w.output, c.n)).toEqual(before);
      await run(w);
      expect(await w.verify()).toEqual({ mismatches: 0 });
      // A key duplicated over its neighbour keeps the order: only the permutation checks see it.
      const i = c.n >> 1;
      const [a, b] = await readWords(ctx, w.output, 2, 4 * i);
      expect(a).not.toBe(b);
      ctx.device.queue.writeBuffer(w.output, 4 * i, new Uint32Array([b!]));
      const outcome = await w.verify();
      expect(outcome.mismatches).toBeGreaterThan(0);
      // Unsegmented keys stay in order (key[i−1] ≤ key[i+1]), so the checksum is what catches it.
      if (c.primitive === 'sort') expect(outcome.first).toBe(CHECKSUM_MISMATCH);
      expect(await w.compareWithCpu!()).toBeGreaterThan(0);
      if (c.primitive === 'segmented-sort') expect(w.segments).toBeGreaterThan(0);
    } finally {
      w.destroy();
    }
  });
});
