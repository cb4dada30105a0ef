// Every plan of @scan/segmented encoded the way a real-time application does: a new count (and a
// new number of segments where a plan takes one) every frame, 1,000 frames, with the device's
// buffer, bind group and pipeline creations counted (see runFrameLoop), warmed up at large counts
// and then fed counts over all of [0, N]. In steady state a plan creates nothing; it holds no more than its documented memory; after destroy() it leaves nothing
// alive; a plan of a user-defined operator (issue 48) alike, with counts in records. Then several
// encodes of one plan into one encoder, each checked against the CPU reference.
import type { Plan, ScanContext, ScanTypedArray } from '@scan/core';
import {
  affineRecord,
  bufferOf,
  createRng,
  expectEqualArrays,
  getTestContext,
  type Job,
  poisoned,
  runBatch,
  runFrameLoop,
} from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import {
  createHeadFlagsToOffsetsPlan,
  createOffsetsToHeadFlagsPlan,
  createPackHeadFlagsPlan,
  createReduceByKeyPlan,
  createRunLengthEncodePlan,
  createScanByKeyPlan,
  createSegmentedDistributePlan,
  createSegmentedEnumeratePlan,
  createSegmentedReducePlan,
  createSegmentedScanPlan,
  createSplitAndSegmentPlan,
  createUniqueByKeyPlan,
  createUniquePlan,
} from '../src/index.js';

const N = 4096;
const NOTHING = { buffers: 0, bindGroups: 0, pipelines: 0 };

/** Bytes of a plan part's parameter ring: 4 slots of `blocks` (rounded up to a power of two) 256-byte blocks. */
const ring = (blocks: number) => 4 * 2 ** Math.ceil(Math.log2(blocks)) * 256;
/** Bytes of a look-back status area: a 128-byte line per tile, plus one. */
const status = (tiles: number) => 128 * (tiles + 1);
/** The 256-byte aux buffer of the slot-view plans. */
const AUX = 256;

/** Inputs every plan can take: N elements of data, 0/1 flags, head flags (bit-packed too), offsets. */
async function inputs() {
  const ctx = await getTestContext();
  const rng = createRng(2026);
  const data = new Uint32Array(N).map(() => rng.int(0, 1000));
  const flags = new Uint32Array(N).map(() => rng.int(0, 1));
  const heads = new Uint8Array(N).map(() => (rng.float() < 1 / 20 ? 1 : 0));
  // N + 1 offsets from 0 to N, empty segments first (k² / N repeats), long ones last.
  const offsets = new Uint32Array(N + 1).map((_, k) => Math.floor((k * k) / N));
  // Heads among the first c elements (element 0 always one): the segments of count c.
  const headsBefore = new Uint32Array(N + 1);
  for (let i = 0; i < N; i++) headsBefore[i + 1] = headsBefore[i]! + (i === 0 || heads[i] ? 1 : 0);
  const buffers = {
    input: bufferOf(ctx, data),
    flags: bufferOf(ctx, flags),
    headFlagsU8: bufferOf(ctx, heads),
    headFlagsU32: bufferOf(ctx, Uint32Array.from(heads)),
    headBits: bufferOf(ctx, cpu.packHeadFlags(heads)),
    offsets: bufferOf(ctx, offsets),
    output: poisoned(ctx, 4 * (N + 1)),
    output2: poisoned(ctx, 4 * N),
    output3: poisoned(ctx, 4 * N),
    output4: poisoned(ctx, 4 * N),
    count: poisoned(ctx, 16),
  };
  return {
    ctx,
    ...buffers,
    segmentsOf: (count: number) => headsBefore[count]!,
    destroy() {
      for (const b of Object.values(buffers)) b.destroy();
    },
  };
}

type Inputs = Awaited<ReturnType<typeof inputs>>;

/** How a frame-loop case makes its plan, records a frame of `count` elements, and what it may hold. */
interface LoopCase {
  create(): Plan<never>;
  encode(plan: Plan<never>, encoder: GPUCommandEncoder, count: number, frame: number): void;
  /** The documented bound at N elements: buffers held and their bytes. */
  bound: { buffers: number; bytes: number };
  /** The largest count (default N): a user-defined operator's counts are records of several words. */
  maxCount?: number;
}

/** A plan of any arguments, typed for the table. */
const erase = <A>(plan: Plan<A>) => plan as unknown as Plan<never>;
const as = <A>(plan: Plan<never>) => plan as unknown as Plan<A>;

const PLANS: Record<string, (b: Inputs) => LoopCase> = {
  'segmented scan, single pass in chunks of 1024': (b) => ({
    create: () => erase(createSegmentedScanPlan(b.ctx, { maxCount: N, maxChunkElements: 1024 })),
    encode: (plan, encoder, count) => as<ScanArgs>(plan).encode(encoder, scanArgs(b, count)),
    // aux, a status line per tile (one tile per chunk) plus one, 4 chunks' parameter blocks.
    bound: { buffers: 3, bytes: AUX + status(1) + ring(4) },
  }),
  'segmented scan, single pass backward f32 max': (b) => ({
    create: () => erase(createSegmentedScanPlan(b.ctx, { type: 'f32', op: 'max', inclusive: true, backward: true })),
    encode: (plan, encoder, count) => as<ScanArgs>(plan).encode(encoder, scanArgs(b, count)),
    bound: { buffers: 3, bytes: AUX + status(1) + ring(1) },
  }),
  'segmented scan, tree': (b) => ({
    create: () => erase(createSegmentedScanPlan(b.ctx, { type: 'i32', inclusive: true, backward: true, algorithm: 'tree', maxCount: N })),
    encode: (plan, encoder, count) => as<ScanArgs>(plan).encode(encoder, scanArgs(b, count)),
    // aux; the saved trees: one word per vec4 (a quarter of the data's bytes), one bit per vec4 in
    // 16-word blocks, the two block values of 2 blocks; 2 levels' parameter blocks.
    bound: { buffers: 6, bytes: AUX + N + 2 * 16 * 4 + 2 * 16 + ring(2) },
  }),
  // A user-defined operator: affine records of two words, so N words of input hold N / 2 of them.
  'segmented scan, user-defined operator (affine records, inclusive backward)': (b) => ({
    create: () => erase(createSegmentedScanPlan(b.ctx, { op: affineRecord, inclusive: true, backward: true, maxCount: N / 2 })),
    encode: (plan, encoder, count) => as<ScanArgs>(plan).encode(encoder, scanArgs(b, count)),
    // The carry (two pairs of a head count and the record, 6 words each: 48 bytes), the 16-byte
    // tail (the words past the last whole vec4, for odd counts of these two-word records), a status
    // line per tile (256 invocations of 6 records: 2 tiles of 1536) plus one, one range's parameter blocks.
    bound: { buffers: 4, bytes: 48 + 16 + status(2) + ring(1) },
    maxCount: N / 2,
  }),
  'segmented reduce': (b) => ({
    create: () => erase(createSegmentedReducePlan(b.ctx, { type: 'f32', op: 'min' })),
    // The number of segments changes with the count: an argument, not a structure.
    encode: (plan, encoder, count) =>
      as<{ input: GPUBuffer; headBits: GPUBuffer; output: GPUBuffer; count: number; segments?: number }>(plan).encode(encoder, {
        input: b.input,
        headBits: b.headBits,
        output: b.output,
        count,
        segments: count % 2 === 0 ? b.segmentsOf(count) : undefined,
      }),
    // aux, a status line per range (one range of 4096) plus one, two parameter blocks.
    bound: { buffers: 3, bytes: AUX + status(1) + ring(2) },
  }),
  'segmented distribute, chunks of 1024': (b) => ({
    create: () => erase(createSegmentedDistributePlan(b.ctx, { backward: true, maxChunkElements: 1024, maxCount: N })),
    encode: (plan, encoder, count) => as<ScanArgs>(plan).encode(encoder, scanArgs(b, count)),
    // The kept heads (the data's size) and 4 chunks' blocks; the scan's aux, status and 4 chunks' blocks.
    bound: { buffers: 5, bytes: 4 * N + ring(4) + AUX + status(1) + ring(4) },
  }),
  'segmented enumerate': (b) => ({
    create: () => erase(createSegmentedEnumeratePlan(b.ctx, { maxCount: N })),
    encode: (plan, encoder, count) =>
      as<{ flags: GPUBuffer; headBits: GPUBuffer; output: GPUBuffer; count: number }>(plan).encode(encoder, {
        flags: b.flags,
        headBits: b.headBits,
        output: b.output,
        count,
      }),
    bound: { buffers: 3, bytes: AUX + status(1) + ring(1) },
  }),
  'split-and-segment': (b) => ({
    create: () => erase(createSplitAndSegmentPlan(b.ctx, { type: 'f32' })),
    encode: (plan, encoder, count) =>
      as<SplitArgs>(plan).encode(encoder, {
        input: b.input,
        flags: b.flags,
        headBits: b.headBits,
        output: b.output,
        outputHeadBits: b.output2,
        count,
      }),
    // v and f (the data's size each) and one block; two scans of aux, status and one block.
    bound: { buffers: 9, bytes: 2 * 4 * N + ring(1) + 2 * (AUX + status(1) + ring(1)) },
  }),
  'pack head flags, u8 in chunks of 2048': (b) => ({
    create: () => erase(createPackHeadFlagsPlan(b.ctx, { flagType: 'u8', maxChunkElements: 2048 })),
    // This plan has no maxCount, so it cannot know its chunk layouts ahead (one chunk is 2^30 flags
    // unless a test shrinks it): its warm-up walks down through them (1 and 2 chunks).
    encode: (plan, encoder, count, frame) =>
      as<{ flags: GPUBuffer; output: GPUBuffer; count: number }>(plan).encode(encoder, {
        flags: b.headFlagsU8,
        output: b.output,
        count: frame < 16 ? N - frame * 256 : count,
      }),
    bound: { buffers: 1, bytes: ring(2) },
  }),
  'pack head flags, u32': (b) => ({
    create: () => erase(createPackHeadFlagsPlan(b.ctx)),
    encode: (plan, encoder, count) =>
      as<{ flags: GPUBuffer; output: GPUBuffer; count: number }>(plan).encode(encoder, { flags: b.headFlagsU32, output: b.output, count }),
    bound: { buffers: 1, bytes: ring(1) },
  }),
  'head flags to offsets': (b) => ({
    create: () => erase(createHeadFlagsToOffsetsPlan(b.ctx, { maxCount: N })),
    encode: (plan, encoder, count) =>
      as<{ headBits: GPUBuffer; output: GPUBuffer; segmentCount: GPUBuffer; count: number }>(plan).encode(encoder, {
        headBits: b.headBits,
        output: b.output,
        segmentCount: b.count,
        count,
      }),
    // Heads per word and their scan (a word per 32 elements each) and one block; core's scan of
    // them: aux, status, one block.
    bound: { buffers: 6, bytes: 2 * (N / 8) + ring(1) + AUX + status(1) + ring(1) },
  }),
  'offsets to head flags, chunks of 1024 offsets': (b) => ({
    create: () => erase(createOffsetsToHeadFlagsPlan(b.ctx, { maxChunkOffsets: 1024 })),
    // Segments from 0 to N, apart from the count (offsets at or past it set nothing); the warm-up
    // visits 4, 3, 2 and 1 chunks of offsets.
    encode: (plan, encoder, count, frame) =>
      as<{ offsets: GPUBuffer; segments: number; output: GPUBuffer; count: number }>(plan).encode(encoder, {
        offsets: b.offsets,
        segments: frame < 16 ? N - 256 * frame : (count * 7919 + frame) % (N + 1),
        output: b.output,
        count,
      }),
    // The zeroing block and up to 4 chunks' blocks.
    bound: { buffers: 1, bytes: ring(5) },
  }),
  // The run-based plans (one keyed single pass each): keys are the 0/1 flags (runs of any length),
  // values the data. Their scratch: the carry (two carries and two ranges' last keys, pairs of a
  // head count and a one-word value: 4 × 20 bytes), a status line per tile (tiles of 3072) plus
  // one, and one parameter block per range.
  'reduce-by-key in ranges of 1024': (b) => ({
    create: () => erase(createReduceByKeyPlan(b.ctx, { maxCount: N, maxChunkElements: 1024 } as never)),
    encode: (plan, encoder, count) =>
      as<{ keys: GPUBuffer; values: GPUBuffer; outKeys: GPUBuffer; outValues: GPUBuffer; runCount: GPUBuffer; count: number }>(plan).encode(
        encoder,
        { keys: b.flags, values: b.input, outKeys: b.output, outValues: b.output2, runCount: b.count, count },
      ),
    // The status line of each range's one tile, plus the run count's 16 bytes past it.
    bound: { buffers: 3, bytes: 80 + status(1) + 16 + ring(4) },
  }),
  'scan-by-key, i32 keys, f32 add inclusive': (b) => ({
    create: () => erase(createScanByKeyPlan(b.ctx, { keyType: 'i32', type: 'f32', inclusive: true })),
    encode: (plan, encoder, count) =>
      as<{ keys: GPUBuffer; values: GPUBuffer; output: GPUBuffer; count: number }>(plan).encode(encoder, {
        keys: b.flags,
        values: b.input,
        output: b.output,
        count,
      }),
    // And the 16-byte tail of the stored words past the last whole vec4.
    bound: { buffers: 4, bytes: 80 + status(2) + 16 + ring(1) },
  }),
  'unique, f32 keys': (b) => ({
    create: () => erase(createUniquePlan(b.ctx, { keyType: 'f32', maxCount: N })),
    encode: (plan, encoder, count) =>
      as<{ keys: GPUBuffer; outKeys: GPUBuffer; runCount: GPUBuffer; count: number }>(plan).encode(encoder, {
        keys: b.flags,
        outKeys: b.output,
        runCount: b.count,
        count,
      }),
    bound: { buffers: 3, bytes: 80 + status(2) + ring(1) },
  }),
  'unique-by-key': (b) => ({
    create: () => erase(createUniqueByKeyPlan(b.ctx)),
    encode: (plan, encoder, count) =>
      as<{ keys: GPUBuffer; values: GPUBuffer; outKeys: GPUBuffer; outValues: GPUBuffer; runCount: GPUBuffer; count: number }>(plan).encode(
        encoder,
        { keys: b.flags, values: b.input, outKeys: b.output, outValues: b.output2, runCount: b.count, count },
      ),
    bound: { buffers: 3, bytes: 80 + status(2) + ring(1) },
  }),
  'run-length encode in ranges of 2048': (b) => ({
    create: () => erase(createRunLengthEncodePlan(b.ctx, { maxChunkElements: 2048 } as never)),
    encode: (plan, encoder, count) =>
      as<{ keys: GPUBuffer; outKeys: GPUBuffer; lengths: GPUBuffer; offsets: GPUBuffer; runCount: GPUBuffer; count: number }>(plan).encode(
        encoder,
        { keys: b.flags, outKeys: b.output, lengths: b.output3, offsets: b.output4, runCount: b.count, count },
      ),
    bound: { buffers: 3, bytes: 80 + status(1) + ring(2) },
  }),
};

type ScanArgs = { input: GPUBuffer; headBits: GPUBuffer; output: GPUBuffer; count: number };
type SplitArgs = ScanArgs & { flags: GPUBuffer; outputHeadBits: GPUBuffer };

function scanArgs(b: Inputs, count: number): ScanArgs {
  return { input: b.input, headBits: b.headBits, output: b.output, count };
}

describe('plans in a frame loop', () => {
  for (const [name, make] of Object.entries(PLANS)) {
    it(`${name}: 1,000 frames with random counts create nothing, hold their bound, destroy() frees everything`, async () => {
      const b = await inputs();
      try {
        const c = make(b);
        let memoryBytes = 0;
        const counts = await runFrameLoop(b.ctx.device, {
          create: c.create,
          // Warmed up near N (the most scratch), then counts over all of [0, N] (see runFrameLoop's
          // maxCount): a count that first takes fewer tree levels, another chunk layout or a partial
          // last vec4 must find its bind groups made.
          encode: (plan, encoder, frame, n) => {
            c.encode(plan, encoder, n, frame);
            memoryBytes = plan.memoryBytes;
          },
          maxCount: c.maxCount ?? N,
          seed: name.length * 7919,
        });
        // `ready` compiles every kernel a variant may need: the warm-up's first encode makes them all.
        expect(counts.warmup.pipelines, `${name}: pipelines plan.ready did not compile`).toBe(0);
        expect(counts.steady, `${name}: created during the counted frames`).toEqual(NOTHING);
        expect(counts.liveAfterDestroy, `${name}: buffers left after destroy()`).toBe(0);
        expect(counts.liveAtEnd, `${name}: buffers held`).toBeLessThanOrEqual(c.bound.buffers);
        expect(memoryBytes, `${name}: bytes held`).toBeLessThanOrEqual(c.bound.bytes);
      } finally {
        b.destroy();
      }
    });
  }
});

/** Counts of the batch below: past the 4 parameter slots, across chunk and tree-level structures. */
const COUNTS = [N, 1, 1000, 3, 2049, 4095, 17, 3000];

/** Seeded data, 0/1 flags and head flags (element 0's flag left 0 at times: it is a head anyway). */
function caseOf(count: number, seed: number) {
  const rng = createRng(seed);
  return {
    data: new Uint32Array(count).map(() => rng.int(0, 100)),
    flags: new Uint32Array(count).map(() => rng.int(0, 1)),
    heads: new Uint8Array(count).map((_, i) => (i > 0 && rng.float() < 0.1 ? 1 : 0)),
  };
}

/** A job that encodes one case and checks what it read back. */
interface CheckedJob extends Job {
  check(outputs: ArrayBuffer[]): void;
}

/** Runs the jobs in one encoder and one submit, then checks each; `owned` inputs are destroyed. */
async function expectBatch(ctx: ScanContext, jobs: CheckedJob[], owned: GPUBuffer[]): Promise<void> {
  const results = await runBatch(ctx, jobs, owned);
  jobs.forEach((job, i) => job.check(results[i]!));
}

const words = (bytes: ArrayBuffer) => new Uint32Array(bytes);
const like = <A extends ScanTypedArray>(a: A, bytes: ArrayBuffer) => new (a.constructor as new (b: ArrayBuffer) => A)(bytes);

/** Input buffers of a test, destroyed after its batch. */
function inputsOf(ctx: ScanContext) {
  const owned: GPUBuffer[] = [];
  const upload = (data: ArrayBufferView) => {
    const b = bufferOf(ctx, data);
    owned.push(b);
    return b;
  };
  return { owned, upload };
}

describe('several encodes of one plan before one submit', () => {
  for (const algorithm of ['single-pass', 'tree'] as const) {
    it(`segmented scan (${algorithm}): eight counts into one encoder, each its own output`, async () => {
      const ctx = await getTestContext();
      const plan = createSegmentedScanPlan(ctx, { op: 'max', inclusive: true, backward: true, algorithm, maxChunkElements: 1024 });
      await plan.ready;
      const { owned, upload } = inputsOf(ctx);
      const jobs = COUNTS.map((count, i): CheckedJob => {
        const c = caseOf(count, i);
        const output = poisoned(ctx, 4 * count);
        return {
          record(encoder) {
            plan.encode(encoder, { input: upload(c.data), headBits: upload(cpu.packHeadFlags(c.heads)), output, count });
            return [{ buffer: output, bytes: 4 * count }];
          },
          check([out]) {
            const want = cpu.segmentedScan(c.data, c.heads, { op: 'max', inclusive: true, backward: true });
            expectEqualArrays(words(out!), want, `n=${count}`);
          },
        };
      });
      await expectBatch(ctx, jobs, owned);
      plan.destroy();
    });
  }

  it('segmented reduce and distribute: eight counts each into one encoder', async () => {
    const ctx = await getTestContext();
    const reduce = createSegmentedReducePlan(ctx, { type: 'i32', op: 'add' });
    const distribute = createSegmentedDistributePlan(ctx, { type: 'i32', maxChunkElements: 1024 });
    await Promise.all([reduce.ready, distribute.ready]);
    const { owned, upload } = inputsOf(ctx);
    const jobs = COUNTS.flatMap((count, i): CheckedJob[] => {
      const c = caseOf(count, 100 + i);
      const data = Int32Array.from(c.data, (x) => x - 50);
      const sums = cpu.segmentedReduce(data, c.heads);
      const reduced = poisoned(ctx, 4 * sums.length);
      const spread = poisoned(ctx, 4 * count);
      return [
        {
          record(encoder) {
            const args = { input: upload(data), headBits: upload(cpu.packHeadFlags(c.heads)), output: reduced, count };
            reduce.encode(encoder, { ...args, segments: sums.length });
            return [{ buffer: reduced, bytes: 4 * sums.length }];
          },
          check([out]) {
            expectEqualArrays(like(data, out!), sums, `reduce n=${count}`);
          },
        },
        {
          record(encoder) {
            distribute.encode(encoder, { input: upload(data), headBits: upload(cpu.packHeadFlags(c.heads)), output: spread, count });
            return [{ buffer: spread, bytes: 4 * count }];
          },
          check([out]) {
            expectEqualArrays(like(data, out!), cpu.segmentedDistribute(data, c.heads), `distribute n=${count}`);
          },
        },
      ];
    });
    await expectBatch(ctx, jobs, owned);
    reduce.destroy();
    distribute.destroy();
  });

  it('split-and-segment and the flag conversions: eight counts each into one encoder', async () => {
    const ctx = await getTestContext();
    const split = createSplitAndSegmentPlan(ctx);
    const pack = createPackHeadFlagsPlan(ctx, { flagType: 'u8', maxChunkElements: 2048 });
    const toOffsets = createHeadFlagsToOffsetsPlan(ctx);
    const toBits = createOffsetsToHeadFlagsPlan(ctx, { maxChunkOffsets: 256 });
    await Promise.all([split.ready, pack.ready, toOffsets.ready, toBits.ready]);
    const { owned, upload } = inputsOf(ctx);
    const jobs = COUNTS.flatMap((count, i): CheckedJob[] => {
      const c = caseOf(count, 200 + i);
      const want = cpu.splitAndSegment(c.data, c.flags, c.heads);
      const bits = cpu.packHeadFlags(c.heads);
      const offsets = cpu.headFlagsToOffsets(c.heads);
      const wordCount = Math.ceil(count / 32);
      const output = poisoned(ctx, 4 * count);
      const outputHeadBits = poisoned(ctx, 4 * wordCount);
      const packed = poisoned(ctx, 4 * wordCount);
      const offsetsOut = poisoned(ctx, 4 * (count + 1));
      const segmentCount = poisoned(ctx, 4);
      const unpacked = poisoned(ctx, 4 * wordCount);
      return [
        {
          record(encoder) {
            const args = { input: upload(c.data), flags: upload(c.flags), headBits: upload(bits), output, outputHeadBits, count };
            split.encode(encoder, args);
            return [
              { buffer: output, bytes: 4 * count },
              { buffer: outputHeadBits, bytes: 4 * wordCount },
            ];
          },
          check([out, outBits]) {
            expectEqualArrays(words(out!), want.output, `split n=${count}`);
            expectEqualArrays(cpu.unpackHeadFlags(words(outBits!), count), want.headFlags, `split heads n=${count}`);
          },
        },
        {
          record(encoder) {
            pack.encode(encoder, { flags: upload(c.heads), output: packed, count });
            return [{ buffer: packed, bytes: 4 * wordCount }];
          },
          check([out]) {
            expectEqualArrays(words(out!), bits, `pack n=${count}`);
          },
        },
        {
          record(encoder) {
            toOffsets.encode(encoder, { headBits: upload(bits), output: offsetsOut, segmentCount, count });
            return [
              { buffer: offsetsOut, bytes: 4 * offsets.length },
              { buffer: segmentCount, bytes: 4 },
            ];
          },
          check([out, segments]) {
            expectEqualArrays(words(out!), offsets, `offsets n=${count}`);
            expect(words(segments!)[0], `segments n=${count}`).toBe(offsets.length - 1);
          },
        },
        {
          record(encoder) {
            toBits.encode(encoder, { offsets: upload(offsets), segments: offsets.length - 1, output: unpacked, count });
            return [{ buffer: unpacked, bytes: 4 * wordCount }];
          },
          check([out]) {
            expectEqualArrays(words(out!), bits, `offsets to bits n=${count}`);
          },
        },
      ];
    });
    await expectBatch(ctx, jobs, owned);
    for (const plan of [split, pack, toOffsets, toBits]) plan.destroy();
  });
});
