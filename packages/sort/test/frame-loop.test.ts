// Every plan of @scan/sort encoded the way a real-time application does: a new count every frame
// (and a new count offset, for a count read on the GPU), 1,000 frames, with the device's buffer,
// bind group and pipeline creations counted (see runFrameLoop). In steady state a plan creates
// nothing; after destroy() it leaves nothing alive; what it holds meanwhile stays within the bound
// its JSDoc states. Then several encodes of one plan into one encoder, each checked against the CPU
// reference.
import type { ScanContext } from '@scan/core';
import { createRng, expectEqualArrays, getTestContext, POISON_U32, runFrameLoop } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { createSegmentedSortPlan, createSortPlan, createTopKPlan } from '../src/index.js';
import { sortStatusBytes } from '../src/kernels/radix-onesweep.js';
import { TOPK_STATE_BYTES } from '../src/kernels/top-k.js';
import { keyWordsOf } from '../src/key-order.js';
import { createQuicksortRounds } from '../src/plans/quicksort-rounds.js';
import { radixConfig } from '../src/plans/radix-config.js';
import type { SortKeyType } from '../src/types.js';
import { readWords, TEST_USAGE } from './gpu-buffers.js';
import { bitsOf, makeKeys } from './sort-oracle.js';

const N = 4096;
/** Keys the buffers hold: room for counts past the small-count path's largest network (4096). */
const BIG = 3 * N;
const NOTHING = { buffers: 0, bindGroups: 0, pipelines: 0 };
/** The largest k of the top-k plan's frames. */
const TOP_K = 300;
/**
 * Tuning for the cases that mean the one-sweep passes (their scratch, memory bound and structures):
 * counts up to N would otherwise all take the one-workgroup sort (small-sort.test.ts).
 */
const ONESWEEP = { tuning: { smallSortMax: 0 } };

/** Packed head bits for `n` keys: a segment starts every 1–40 keys. */
function packedHeads(n: number, seed: number): { flags: Uint8Array; packed: Uint32Array } {
  const rng = createRng(seed);
  const flags = Uint8Array.from({ length: n }, (_, i) => (i === 0 || rng.int(0, 39) === 0 ? 1 : 0));
  const packed = new Uint32Array(Math.ceil(n / 32));
  flags.forEach((f, i) => {
    if (f) packed[i >> 5]! |= 1 << (i & 31);
  });
  return { flags, packed };
}

/** Buffers every sort plan can take: BIG keys and values, packed head bits, a count buffer. */
async function frameBuffers() {
  const ctx = await getTestContext();
  const make = (words: Uint32Array) => {
    const b = ctx.device.createBuffer({ size: Math.max(16, 4 * words.length), usage: TEST_USAGE });
    ctx.device.queue.writeBuffer(b, 0, words as Uint32Array<ArrayBuffer>);
    return b;
  };
  const keys = make(bitsOf(makeKeys('f32', BIG, 'random', 1)));
  const values = make(Uint32Array.from({ length: BIG }, (_, i) => i));
  const headFlags = make(packedHeads(BIG, 2).packed);
  // The counts a GPU pass might have written, one per word: the largest first.
  const counts = make(new Uint32Array([N, 700, 2900, 31]));
  // The outputs of a top-k (up to TOP_K keys, indices and values).
  const topK = { keys: make(new Uint32Array(TOP_K)), indices: make(new Uint32Array(TOP_K)), values: make(new Uint32Array(TOP_K)) };
  return {
    ctx,
    keys,
    values,
    headFlags,
    counts,
    topK,
    destroy() {
      for (const b of [keys, values, headFlags, counts, topK.keys, topK.indices, topK.values]) b.destroy();
    },
  };
}

type Buffers = Awaited<ReturnType<typeof frameBuffers>>;

/** A plan as the loop drives it. */
interface Case {
  create(): { destroy(): void; readonly ready?: Promise<void>; readonly memoryBytes?: number };
  /** Records frame `frame` with `n` keys. */
  encode(plan: never, encoder: GPUCommandEncoder, n: number, frame: number): void;
  /** Buffers alive at the end at most (scratch, outgrown scratch and parameter rings), from the plan's JSDoc. */
  liveBound: number;
  /** Bytes the plan may hold at the end, when its JSDoc states them. */
  memoryBound?: (ctx: ScanContext) => number;
  /** The largest count the loop gives (default N). */
  top?: number;
}

/**
 * The radix sort's documented bound for N keys sorted on `passes` digits: the keys (and values)
 * once more, the status area (2 KiB of digit counts a pass, then a look-back area per pass), a
 * 4-slot parameter ring of 1 + passes blocks (rounded up to a power of two) of 256 bytes.
 */
function radixMemory(ctx: ScanContext, keyType: SortKeyType, withValues: boolean, passes: number, valueWords = 1): number {
  const bits = [0, 32 * keyWordsOf(keyType)] as const;
  const c = radixConfig(ctx, { keyType, valueType: withValues ? 'u32' : undefined, descending: false, bits }, {});
  const tiles = Math.ceil(N / (c.pass.workgroupSize * c.pass.elementsPerThread));
  const ring = 4 * 2 ** Math.ceil(Math.log2(1 + passes)) * 256;
  return (keyWordsOf(keyType) + (withValues ? valueWords : 0)) * 4 * N + 2048 * passes + passes * sortStatusBytes(tiles) + ring;
}

type SortPlan = ReturnType<typeof createSortPlan>;

const CASES: Record<string, (b: Buffers) => Case> = {
  'radix, keys only': (b) => ({
    create: () => createSortPlan(b.ctx, { keyType: 'f32', descending: true, ...ONESWEEP }),
    encode: (plan: SortPlan, encoder, n) => plan.encode(encoder, { keys: b.keys, count: n }),
    // Alternate keys, the status area, the parameter ring (values add alternate values).
    liveBound: 3,
    memoryBound: (ctx) => radixMemory(ctx, 'f32', false, 4),
  }),
  'radix, key–value, maxCount': (b) => ({
    create: () => createSortPlan(b.ctx, { keyType: 'f32', valueType: 'u32', descending: true, maxCount: N, ...ONESWEEP }),
    encode: (plan: SortPlan, encoder, n) => plan.encode(encoder, { keys: b.keys, values: b.values, count: n }),
    liveBound: 4,
    memoryBound: (ctx) => radixMemory(ctx, 'f32', true, 4),
  }),
  'radix, key–value, three digits (copied back)': (b) => ({
    create: () => createSortPlan(b.ctx, { keyType: 'f32', valueType: 'f32', descending: true, bits: [4, 28], ...ONESWEEP }),
    encode: (plan: SortPlan, encoder, n) => plan.encode(encoder, { keys: b.keys, values: b.values, count: n }),
    liveBound: 4,
    memoryBound: (ctx) => radixMemory(ctx, 'f32', true, 3),
  }),
  'radix, a count read on the GPU at a new offset every frame': (b) => ({
    create: () => createSortPlan(b.ctx, { keyType: 'f32', valueType: 'u32', descending: true, maxCount: N, ...ONESWEEP }),
    encode: (plan: SortPlan, encoder, _n, frame) =>
      plan.encode(encoder, { keys: b.keys, values: b.values, countBuffer: b.counts, countOffset: 4 * (frame % 4) }),
    // As with a host count (the fixup's block fits the ring's eight), and the blocks its count fixup
    // fills: the histogram's and one per pass, 256 bytes apart.
    liveBound: 5,
    memoryBound: (ctx) => radixMemory(ctx, 'f32', true, 4) + 4 * 256 + 32,
  }),
  'radix, 12-byte values, a count read on the GPU': (b) => ({
    // Records of three words (the values buffer holds BIG / 3 of them).
    create: () => createSortPlan(b.ctx, { keyType: 'f32', valueWidth: 12, descending: true, maxCount: N, ...ONESWEEP }),
    encode: (plan: SortPlan, encoder, _n, frame) =>
      plan.encode(encoder, { keys: b.keys, values: b.values, countBuffer: b.counts, countOffset: 4 * (frame % 4) }),
    liveBound: 5,
    memoryBound: (ctx) => radixMemory(ctx, 'f32', true, 4, 3) + 4 * 256 + 32,
  }),
  'radix, u16 keys and values, a count read on the GPU (the zeroing between the passes)': (b) => ({
    // Two keys a word (the keys buffer holds 2 · BIG of them).
    create: () => createSortPlan(b.ctx, { keyType: 'u16', valueType: 'u32', maxCount: N, ...ONESWEEP }),
    encode: (plan: SortPlan, encoder, _n, frame) =>
      plan.encode(encoder, { keys: b.keys, values: b.values, countBuffer: b.counts, countOffset: 4 * (frame % 4) }),
    liveBound: 5,
  }),
  'radix, key–value, counts across the small/large boundary (1024)': (b) => ({
    // The one-workgroup sort up to 1024 keys, the one-sweep passes above, on every device.
    create: () => createSortPlan(b.ctx, { keyType: 'f32', valueType: 'u32', descending: true, tuning: { smallSortMax: 1024 } }),
    encode: (plan: SortPlan, encoder, n) => plan.encode(encoder, { keys: b.keys, values: b.values, count: n }),
    liveBound: 4,
    memoryBound: (ctx) => radixMemory(ctx, 'f32', true, 4),
  }),
  'radix, keys only, default tiers, counts up to 3 × 4096': (b) => ({
    // Every tier the device uses by default (1024 and 4096; 1024 on SwiftShader), then the passes.
    create: () => createSortPlan(b.ctx, { keyType: 'u32', bits: [0, 24] }),
    encode: (plan: SortPlan, encoder, n) => plan.encode(encoder, { keys: b.keys, count: n }),
    // Alternate keys, the status area, the parameter ring: the small path adds nothing.
    liveBound: 3,
    top: BIG,
  }),
  'radix, key–value, maxCount 8192, default tiers': (b) => ({
    // The frame loop of issue 46: warmed at large counts, then a count within a small tier.
    create: () => createSortPlan(b.ctx, { keyType: 'f32', valueType: 'u32', descending: true, maxCount: 8192 }),
    encode: (plan: SortPlan, encoder, n) => plan.encode(encoder, { keys: b.keys, values: b.values, count: n }),
    liveBound: 4,
    top: 8192,
  }),
  'radix, a count read on the GPU, maxCount within the small path': (b) => ({
    create: () => createSortPlan(b.ctx, { keyType: 'f32', valueType: 'u32', descending: true, maxCount: 1000 }),
    encode: (plan: SortPlan, encoder, _n, frame) =>
      plan.encode(encoder, { keys: b.keys, values: b.values, countBuffer: b.counts, countOffset: 4 * (frame % 4) }),
    // No sort scratch: the parameter ring (4 slots of one block, the count fixup's) and the 32-byte
    // block the fixup fills.
    liveBound: 2,
    memoryBound: () => 4 * 256 + 32,
  }),
  'radix, i64 key–value, counts across the small/large boundary (1024)': (b) => ({
    // Eight digit passes over two-word keys (the keys buffer holds BIG / 2 of them).
    create: () => createSortPlan(b.ctx, { keyType: 'i64', valueType: 'u32', tuning: { smallSortMax: 1024 } }),
    encode: (plan: SortPlan, encoder, n) => plan.encode(encoder, { keys: b.keys, values: b.values, count: n }),
    liveBound: 4,
    memoryBound: (ctx) => radixMemory(ctx, 'i64', true, 8),
  }),
  'radix, u64 keys, a count read on the GPU (two count fixups: nine blocks)': (b) => ({
    create: () => createSortPlan(b.ctx, { keyType: 'u64', descending: true, maxCount: N, ...ONESWEEP }),
    encode: (plan: SortPlan, encoder, _n, frame) =>
      plan.encode(encoder, { keys: b.keys, countBuffer: b.counts, countOffset: 4 * (frame % 4) }),
    // As with a host count, and the blocks the count fixups fill.
    liveBound: 4,
    memoryBound: (ctx) => radixMemory(ctx, 'u64', false, 8) + 8 * 256,
  }),
  'split radix, key–value, nine bits': (b) => ({
    create: () => createSortPlan(b.ctx, { keyType: 'f32', valueType: 'u32', descending: true, algorithm: 'split-radix', bits: [3, 12] }),
    encode: (plan: SortPlan, encoder, n) => plan.encode(encoder, { keys: b.keys, values: b.values, count: n }),
    // Scratch keys, values, flags and false count (4); the flag parameter ring doubled from 4 to 16
    // slots for 9 passes into one encoder (3, the outgrown ones kept until destroy); the split's
    // scratch (2) and its ring doubled to 32 slots for 18 splits (4).
    liveBound: 13,
  }),
  'top-k, key–value, a new k every frame': (b) => ({
    create: () => createTopKPlan(b.ctx, { type: 'f32', maxK: TOP_K, values: 'u32', maxCount: N }),
    encode: (plan: ReturnType<typeof createTopKPlan>, encoder, n, frame) =>
      plan.encode(encoder, {
        keys: b.keys,
        count: n,
        k: Math.min(n, (frame * 37) % (TOP_K + 1)),
        outKeys: b.topK.keys,
        outIndices: b.topK.indices,
        values: b.values,
        outValues: b.topK.values,
      }),
    // The state and two candidate buffers (sized by maxCount), the select's parameter ring, the
    // sort's ring (k within its one-workgroup sort: no scratch).
    liveBound: 5,
    // The 20.5 KiB state, the candidates (a quarter of the keys each), two 4-slot rings of 256-byte blocks.
    memoryBound: () => TOPK_STATE_BYTES + 2 * 4 * Math.ceil(N / 4) + 2 * 4 * 2 * 256,
  }),
  'segmented sort, keys only, segment count from the count': (b) => ({
    create: () => createSegmentedSortPlan(b.ctx, { keyType: 'f32', descending: true }),
    encode: (plan: ReturnType<typeof createSegmentedSortPlan>, encoder, n) =>
      plan.encode(encoder, { keys: b.keys, headFlags: b.headFlags, count: n }),
    // Heads and segment numbers, the radix sorts' alternate keys, values and status (5), the
    // executor's ring (3 encodes a frame fit its 4 slots), the scan's scratch and ring (3).
    liveBound: 9,
  }),
  'segmented sort, key–value, maxSegments': (b) => ({
    create: () => createSegmentedSortPlan(b.ctx, { keyType: 'f32', valueType: 'u32', descending: true, maxCount: N, maxSegments: 300 }),
    encode: (plan: ReturnType<typeof createSegmentedSortPlan>, encoder, n) =>
      plan.encode(encoder, { keys: b.keys, values: b.values, headFlags: b.headFlags, count: n }),
    // Heads, segment numbers, two permutations, the sorted segment numbers and the gather target,
    // the radix sorts' scratch (9); the executor's ring doubled to 8 slots for 6 encodes a frame
    // (2); the scan's scratch and ring (3).
    liveBound: 14,
  }),
  'segmented sort, i64 keys only (the permutation path: keys gathered as two words)': (b) => ({
    create: () => createSegmentedSortPlan(b.ctx, { keyType: 'i64', descending: true }),
    encode: (plan: ReturnType<typeof createSegmentedSortPlan>, encoder, n) =>
      plan.encode(encoder, { keys: b.keys, headFlags: b.headFlags, count: n }),
    // As the key–value plan across the boundary below (64-bit keys cannot ride as values).
    liveBound: 15,
  }),
  'segmented sort, key–value, counts across the small/large boundary': (b) => ({
    create: () => createSegmentedSortPlan(b.ctx, { keyType: 'f32', valueType: 'u32', descending: true }),
    encode: (plan: ReturnType<typeof createSegmentedSortPlan>, encoder, n) =>
      plan.encode(encoder, { keys: b.keys, values: b.values, headFlags: b.headFlags, count: n }),
    // As above (14), and one more outgrown ring: the first encode's has one block a slot, the sort
    // by key's five need eight.
    liveBound: 15,
    top: BIG,
  }),
};

describe('sort plans in a frame loop', () => {
  for (const [name, make] of Object.entries(CASES)) {
    it(`${name}: 1,000 frames with random counts create nothing, destroy() frees everything`, async () => {
      const b = await frameBuffers();
      try {
        const c = make(b);
        let memoryAtEnd = 0;
        const counts = await runFrameLoop(b.ctx.device, {
          create: c.create,
          // Warmed up near the top (the most scratch), then counts over all of [0, top] (see
          // runFrameLoop's maxCount): a count that first takes a small tier, or fewer digit passes
          // of a segmented sort's sort by segment, must find its bind groups made.
          encode: (plan, encoder, frame, n) => {
            c.encode(plan as never, encoder, n, frame);
            memoryAtEnd = plan.memoryBytes ?? 0;
          },
          maxCount: c.top ?? N,
          seed: name.length * 7919,
          // Every frame is validated when its encoder finishes; one in 25 also runs (SwiftShader is slow).
          submitEvery: 25,
        });
        expect(counts.warmup.pipelines, `${name}: pipelines plan.ready did not compile`).toBe(0);
        expect(counts.steady, `${name}: created during the counted frames`).toEqual(NOTHING);
        expect(counts.liveAfterDestroy, `${name}: buffers left after destroy()`).toBe(0);
        expect(counts.liveAtEnd, `${name}: buffers held`).toBeLessThanOrEqual(c.liveBound);
        if (c.memoryBound) expect(memoryAtEnd, `${name}: bytes held`).toBeLessThanOrEqual(c.memoryBound(b.ctx));
      } finally {
        b.destroy();
      }
    });
  }

  it('a sort plan without maxCount grows its scratch by doubling: O(log) allocations for rising counts', async () => {
    const b = await frameBuffers();
    try {
      const counts = await runFrameLoop(b.ctx.device, {
        // The one-sweep scratch's growth: no small path (it needs no scratch).
        create: () => createSortPlan(b.ctx, { keyType: 'f32', valueType: 'u32', descending: true, ...ONESWEEP }),
        // Counts rising by 4 every frame from 2 to N: the worst case for exact-size growth.
        encode: (plan, encoder, frame) => plan.encode(encoder, { keys: b.keys, values: b.values, count: 2 + ((4 * frame) % (N - 1)) }),
        warmup: 0,
        frames: N / 4,
        submitEvery: 256,
      });
      // Per scratch buffer (alternate keys, values, status), from its first size to its largest: at
      // most log2 of the ratio + 1 each, and the parameter ring.
      expect(counts.steady.buffers).toBeLessThanOrEqual(3 * 12 + 1);
      expect(counts.liveAfterDestroy).toBe(0);
    } finally {
      b.destroy();
    }
  });

  it('quicksort rounds of one count, recorded every frame, create nothing', async () => {
    const b = await frameBuffers();
    try {
      const shape = { keyType: 'f32' as const, valueType: 'u32' as const, descending: false, bits: [0, 32] as const };
      const counts = await runFrameLoop(b.ctx.device, {
        create: () => createQuicksortRounds(b.ctx, shape, { keys: b.keys, values: b.values, count: 1000 }),
        encode: (rounds, encoder, frame) => {
          if (frame === 0) rounds.encodeStart(encoder);
          rounds.encodeRounds(encoder, 2);
          rounds.encodeDisorder(encoder);
        },
        frames: 200,
        submitEvery: 50,
      });
      expect(counts.warmup.pipelines, 'pipelines rounds.ready did not compile').toBe(0);
      expect(counts.steady).toEqual(NOTHING);
      expect(counts.liveAfterDestroy).toBe(0);
    } finally {
      b.destroy();
    }
  });
});

/** A buffer holding `words` then poison up to `capacity` words. */
function poisonedAfter(ctx: ScanContext, words: Uint32Array, capacity: number): GPUBuffer {
  const b = ctx.device.createBuffer({ size: 4 * capacity, usage: TEST_USAGE });
  const init = new Uint32Array(capacity).fill(POISON_U32);
  init.set(words);
  ctx.device.queue.writeBuffer(b, 0, init);
  return b;
}

/** The words of a sorted job: `sorted` then the poison the plan must have left alone. */
function expectedWords(sorted: Uint32Array, capacity: number): Uint32Array {
  const want = new Uint32Array(capacity).fill(POISON_U32);
  want.set(sorted);
  return want;
}

describe('several encodes of one sort plan before one submit', async () => {
  const ctx = await getTestContext();
  const CAPACITY = 3000;

  /** Records `jobs` sorts with one plan into one encoder, submits once, and checks each against the CPU. */
  async function runJobs(
    label: string,
    counts: number[],
    record: (encoder: GPUCommandEncoder, job: number, buffers: { keys: GPUBuffer; values: GPUBuffer; heads: GPUBuffer }) => void,
    expected: (keys: Float32Array, values: Uint32Array, heads: Uint8Array) => { keys: Float32Array; values: Uint32Array },
  ) {
    const jobs = counts.map((n, j) => {
      const keys = makeKeys('f32', n, j % 2 ? 'specials' : 'few', 100 + j) as Float32Array;
      const values = Uint32Array.from({ length: n }, (_, i) => (i * 7 + j) >>> 0);
      const heads = packedHeads(n, 200 + j);
      return {
        n,
        keys,
        values,
        heads,
        buffers: {
          keys: poisonedAfter(ctx, bitsOf(keys), CAPACITY),
          values: poisonedAfter(ctx, values, CAPACITY),
          heads: poisonedAfter(ctx, heads.packed, Math.ceil(CAPACITY / 32)),
        },
      };
    });
    ctx.device.pushErrorScope('validation');
    const encoder = ctx.device.createCommandEncoder();
    jobs.forEach((job, j) => record(encoder, j, job.buffers));
    ctx.device.queue.submit([encoder.finish()]);
    expect((await ctx.device.popErrorScope())?.message, label).toBeUndefined();
    for (const [j, job] of jobs.entries()) {
      const want = expected(job.keys, job.values, job.heads.flags);
      expectEqualArrays(await readWords(ctx, job.buffers.keys), expectedWords(bitsOf(want.keys), CAPACITY), `${label} ${j}: keys`);
      expectEqualArrays(await readWords(ctx, job.buffers.values), expectedWords(want.values, CAPACITY), `${label} ${j}: values`);
      for (const buffer of Object.values(job.buffers)) buffer.destroy();
    }
  }

  const COUNTS = [2500, 1, 17, 3000, 0, 1234, 2, 777, 2999];

  it('a key–value radix sort plan: nine host counts into one encoder (past the parameter slots)', async () => {
    // The one-sweep passes at every count (these counts would take the one-workgroup sort).
    const plan = createSortPlan(ctx, { keyType: 'f32', valueType: 'u32', descending: true, ...ONESWEEP });
    await plan.ready;
    await runJobs(
      'radix',
      COUNTS,
      (encoder, j, b) => plan.encode(encoder, { keys: b.keys, values: b.values, count: COUNTS[j]! }),
      (keys, values) => cpu.sort(keys, { values, descending: true }) as { keys: Float32Array; values: Uint32Array },
    );
    plan.destroy();
  });

  /**
   * Eight counts read on the GPU (one word each of a count buffer, some past `maxCount`) into one
   * encoder: the first min(count, maxCount) keys sorted by `options`, the rest as they were.
   */
  async function gpuCountJobs(name: string, options: { descending?: boolean; bits?: [number, number] }) {
    const cap = 2600;
    // The one-sweep passes with a GPU count (maxCount 2600 would take the one-workgroup sort).
    const plan = createSortPlan(ctx, { keyType: 'f32', valueType: 'u32', maxCount: cap, ...options, ...ONESWEEP });
    await plan.ready;
    const gpuCounts = [2500, 1, 17, 3000, 0, 1234, 2, 777];
    const countBuffer = ctx.device.createBuffer({ size: 4 * gpuCounts.length, usage: TEST_USAGE });
    ctx.device.queue.writeBuffer(countBuffer, 0, Uint32Array.from(gpuCounts));
    await runJobs(
      name,
      gpuCounts,
      (encoder, j, b) => plan.encode(encoder, { keys: b.keys, values: b.values, countBuffer, countOffset: 4 * j }),
      (keys, values) => {
        const m = Math.min(keys.length, cap);
        const head = cpu.sort(keys.subarray(0, m), { values: values.subarray(0, m), ...options });
        const outKeys = keys.slice();
        const outValues = values.slice();
        outKeys.set(head.keys);
        outValues.set(head.values!);
        return { keys: outKeys, values: outValues };
      },
    );
    countBuffer.destroy();
    plan.destroy();
  }

  it('a radix sort plan: eight counts read on the GPU at different offsets, capped at maxCount', async () => {
    await gpuCountJobs('radix, GPU counts', { descending: true });
  });

  it('three digit passes (an odd number, ending in scratch) with GPU counts: only the sorted elements go home', async () => {
    // The copy back of an odd number of passes moves the count the GPU wrote, not maxCount: the
    // caller's elements past the count must stay as they were.
    await gpuCountJobs('radix, three passes, GPU counts', { bits: [0, 24] });
  });

  it('a key–value radix sort plan: nine host counts into one encoder, across the small/large boundary', async () => {
    // Counts up to 1024 take the one-workgroup sort, the others the one-sweep passes: one parameter
    // ring serves recipes of one block and of five.
    const plan = createSortPlan(ctx, { keyType: 'f32', valueType: 'u32', descending: true, tuning: { smallSortMax: 1024 } });
    await plan.ready;
    await runJobs(
      'radix across the boundary',
      COUNTS,
      (encoder, j, b) => plan.encode(encoder, { keys: b.keys, values: b.values, count: COUNTS[j]! }),
      (keys, values) => cpu.sort(keys, { values, descending: true }) as { keys: Float32Array; values: Uint32Array },
    );
    plan.destroy();
  });

  it('a radix sort plan within the small path: eight counts read on the GPU, capped at maxCount', async () => {
    const cap = 900;
    const plan = createSortPlan(ctx, { keyType: 'f32', valueType: 'u32', descending: true, maxCount: cap });
    await plan.ready;
    const gpuCounts = [2500, 1, 17, 3000, 0, 899, 2, 777];
    const countBuffer = ctx.device.createBuffer({ size: 4 * gpuCounts.length, usage: TEST_USAGE });
    ctx.device.queue.writeBuffer(countBuffer, 0, Uint32Array.from(gpuCounts));
    await runJobs(
      'small path, GPU counts',
      gpuCounts,
      (encoder, j, b) => plan.encode(encoder, { keys: b.keys, values: b.values, countBuffer, countOffset: 4 * j }),
      (keys, values) => {
        const m = Math.min(keys.length, cap);
        const head = cpu.sort(keys.subarray(0, m), { values: values.subarray(0, m), descending: true });
        const outKeys = keys.slice();
        const outValues = values.slice();
        outKeys.set(head.keys);
        outValues.set(head.values!);
        return { keys: outKeys, values: outValues };
      },
    );
    countBuffer.destroy();
    plan.destroy();
  });

  it('a split radix sort plan: nine counts into one encoder', async () => {
    const plan = createSortPlan(ctx, { keyType: 'f32', valueType: 'u32', descending: true, algorithm: 'split-radix', bits: [20, 32] });
    await plan.ready;
    await runJobs(
      'split radix',
      COUNTS,
      (encoder, j, b) => plan.encode(encoder, { keys: b.keys, values: b.values, count: COUNTS[j]! }),
      (keys, values) => cpu.sort(keys, { values, descending: true, bits: [20, 32] }) as { keys: Float32Array; values: Uint32Array },
    );
    plan.destroy();
  });

  it('a segmented sort plan: nine counts into one encoder', async () => {
    const plan = createSegmentedSortPlan(ctx, { keyType: 'f32', valueType: 'u32', descending: true });
    await plan.ready;
    await runJobs(
      'segmented',
      COUNTS,
      (encoder, j, b) => plan.encode(encoder, { keys: b.keys, values: b.values, headFlags: b.heads, count: COUNTS[j]! }),
      (keys, values, heads) => cpu.segmentedSort(keys, heads, { values, descending: true }) as { keys: Float32Array; values: Uint32Array },
    );
    plan.destroy();
  });
});
