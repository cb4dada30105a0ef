// A segmented scan whose count the GPU wrote (args.countBuffer): the single pass is recorded for
// maxCount and a fixup turns the count into its parameters. Against the CPU reference on
// min(count, maxCount) elements, with poisoned outputs (nothing past the count is written), and in a
// frame loop with a count written every frame. The by-key plans (one keyed pass) the same way.
import {
  bufferOf,
  createRng,
  getTestContext,
  isPoison,
  poisoned,
  randomData,
  randomSegmentFlags,
  runBatch,
  runFrameLoop,
} from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import {
  createReduceByKeyPlan,
  createRunLengthEncodePlan,
  createScanByKeyPlan,
  createSegmentedScanPlan,
  createUniquePlan,
} from '../src/index.js';

/** Not a multiple of 4, and several tiles. */
const MAX = 9003;
const COUNTS = [0, 1, 3, 5, 33, 1023, 4097, MAX - 1, MAX, MAX + 5];

describe('segmented scan with a GPU count', () => {
  it('forward exclusive add and backward inclusive max, every count, nothing written past it', async () => {
    const ctx = await getTestContext();
    const add = createSegmentedScanPlan(ctx, { type: 'u32', maxCount: MAX });
    const max = createSegmentedScanPlan(ctx, { type: 'i32', op: 'max', inclusive: true, backward: true, maxCount: MAX });
    await Promise.all([add.ready, max.ready]);
    const u = randomData('u32', MAX, 1, 'small');
    const i = randomData('i32', MAX, 2, 'random');
    const heads = randomSegmentFlags(MAX, 40, 3);
    const headBits = cpu.packHeadFlags(heads);
    const results = await runBatch(
      ctx,
      COUNTS.map((count) => ({
        record(encoder) {
          const outs = [poisoned(ctx, 4 * MAX), poisoned(ctx, 4 * MAX)];
          const countBuffer = bufferOf(ctx, new Uint32Array([7, count, 7, 7]));
          const bits = bufferOf(ctx, headBits);
          add.encode(encoder, { input: bufferOf(ctx, u), headBits: bits, output: outs[0]!, countBuffer, countOffset: 4 });
          max.encode(encoder, { input: bufferOf(ctx, i), headBits: bits, output: outs[1]!, countBuffer, countOffset: 4 });
          return outs.map((buffer) => ({ buffer, bytes: 4 * MAX }));
        },
      })),
    );
    COUNTS.forEach((count, k) => {
      const n = Math.min(count, MAX);
      const [a, m] = results[k]!.map((bytes) => new Uint32Array(bytes));
      const h = heads.subarray(0, n);
      expect(a!.subarray(0, n), `add, count ${count}`).toEqual(cpu.segmentedScan(u.subarray(0, n), h));
      const expectedMax = cpu.segmentedScan(i.subarray(0, n), h, { op: 'max', inclusive: true, backward: true });
      expect(new Int32Array(m!.buffer).subarray(0, n), `max, count ${count}`).toEqual(expectedMax);
      expect(a!.subarray(n).every(isPoison) && m!.subarray(n).every(isPoison), `count ${count}: nothing past it`).toBe(true);
    });
    add.destroy();
    max.destroy();
  });

  it('a count written every frame creates nothing in steady state', async () => {
    const ctx = await getTestContext();
    const u = randomData('u32', 4096, 4, 'small');
    const input = bufferOf(ctx, u);
    const headBits = bufferOf(ctx, cpu.packHeadFlags(randomSegmentFlags(4096, 16, 5)));
    const output = poisoned(ctx, 4 * 4096);
    const countBuffer = bufferOf(ctx, new Uint32Array(4));
    const rng = createRng(6);
    const counts = await runFrameLoop(ctx.device, {
      create: () => createSegmentedScanPlan(ctx, { maxCount: 4096 }),
      encode: (plan, encoder) => {
        ctx.device.queue.writeBuffer(countBuffer, 0, new Uint32Array([rng.int(0, 5000)]));
        plan.encode(encoder, { input, headBits, output, countBuffer });
      },
    });
    expect(counts.steady).toEqual({ buffers: 0, bindGroups: 0, pipelines: 0 });
    expect(counts.liveAfterDestroy).toBe(0);
    for (const b of [input, headBits, output, countBuffer]) b.destroy();
  });

  it('the tree algorithm and a missing maxCount are refused with a ScanError naming args.countBuffer', async () => {
    const ctx = await getTestContext();
    const [input, headBits, output, countBuffer] = [0, 1, 2, 3].map(() => poisoned(ctx, 64));
    const encoder = ctx.device.createCommandEncoder();
    const tree = createSegmentedScanPlan(ctx, { algorithm: 'tree', maxCount: 16 });
    expect(() => tree.encode(encoder, { input: input!, headBits: headBits!, output: output!, countBuffer: countBuffer! })).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED', argument: 'args.countBuffer' }),
    );
    const unbounded = createSegmentedScanPlan(ctx);
    expect(() => unbounded.encode(encoder, { input: input!, headBits: headBits!, output: output!, countBuffer: countBuffer! })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'args.countBuffer' }),
    );
    encoder.finish();
  });
});

/** Keys in runs of 1 to 8 (several per tile, some across tile edges). */
function runKeys(n: number, seed: number): Uint32Array {
  const rng = createRng(seed);
  const keys = new Uint32Array(n);
  let key = 5;
  for (let i = 0; i < n; ) {
    key += rng.int(1, 3);
    for (let m = rng.int(1, 8); m > 0 && i < n; m--) keys[i++] = key;
  }
  return keys;
}

describe('by-key plans with a GPU count', () => {
  it('reduce-by-key, scan-by-key and run-length encode (one of each mode): every count, the run count, nothing written past it', async () => {
    const ctx = await getTestContext();
    const reducePlan = createReduceByKeyPlan(ctx, { maxCount: MAX });
    const scanPlan = createScanByKeyPlan(ctx, { type: 'i32', op: 'max', inclusive: true, maxCount: MAX });
    const rlePlan = createRunLengthEncodePlan(ctx, { maxCount: MAX });
    await Promise.all([reducePlan.ready, scanPlan.ready, rlePlan.ready]);
    const keys = runKeys(MAX, 7);
    const u = randomData('u32', MAX, 8, 'small');
    const i = randomData('i32', MAX, 9, 'random');
    const results = await runBatch(
      ctx,
      COUNTS.map((count) => ({
        record(encoder) {
          const countBuffer = bufferOf(ctx, new Uint32Array([7, 7, count]));
          const k = bufferOf(ctx, keys);
          const words = () => poisoned(ctx, 4 * MAX);
          const outs = {
            runs: [poisoned(ctx, 4), poisoned(ctx, 4)],
            reduce: [words(), words()],
            scan: words(),
            rle: [words(), words(), words()],
          };
          const gpuCount = { countBuffer, countOffset: 8 };
          reducePlan.encode(encoder, {
            keys: k,
            values: bufferOf(ctx, u),
            outKeys: outs.reduce[0]!,
            outValues: outs.reduce[1]!,
            runCount: outs.runs[0]!,
            ...gpuCount,
          });
          scanPlan.encode(encoder, { keys: k, values: bufferOf(ctx, i), output: outs.scan, ...gpuCount });
          const [outKeys, lengths, offsets] = outs.rle as [GPUBuffer, GPUBuffer, GPUBuffer];
          rlePlan.encode(encoder, { keys: k, outKeys, lengths, offsets, runCount: outs.runs[1]!, ...gpuCount });
          return [...outs.runs, ...outs.reduce, outs.scan, ...outs.rle].map((buffer) => ({ buffer, bytes: buffer.size }));
        },
      })),
    );
    COUNTS.forEach((count, c) => {
      const n = Math.min(count, MAX);
      const [reduceRuns, rleRuns, rKeys, rValues, scanned, eKeys, eLengths, eOffsets] = results[c]!.map((bytes) => new Uint32Array(bytes));
      const r = cpu.reduceByKey(keys.subarray(0, n), u.subarray(0, n));
      const e = cpu.runLengthEncode(keys.subarray(0, n));
      const s = cpu.scanByKey(keys.subarray(0, n), i.subarray(0, n), { op: 'max', inclusive: true });
      const runs = r.count;
      expect([reduceRuns![0], rleRuns![0]], `count ${count}: run counts`).toEqual([runs, runs]);
      expect([rKeys!.subarray(0, runs), rValues!.subarray(0, runs)], `reduce, count ${count}`).toEqual([r.keys, r.values]);
      expect(new Int32Array(scanned!.buffer).subarray(0, n), `scan, count ${count}`).toEqual(s);
      expect([eKeys!.subarray(0, runs), eLengths!.subarray(0, runs), eOffsets!.subarray(0, runs)], `rle, count ${count}`).toEqual([
        e.values,
        e.lengths,
        e.offsets,
      ]);
      const past = [rKeys!.subarray(runs), rValues!.subarray(runs), scanned!.subarray(n), eKeys!.subarray(runs), eLengths!.subarray(runs)];
      expect(
        past.every((a) => a.every(isPoison)),
        `count ${count}: nothing past it`,
      ).toBe(true);
    });
    for (const plan of [reducePlan, scanPlan, rlePlan]) plan.destroy();
  });

  it('a count written every frame creates nothing in steady state; past one binding or without maxCount it is refused', async () => {
    const ctx = await getTestContext();
    const keys = bufferOf(ctx, runKeys(4096, 10));
    const [outKeys, lengths, offsets] = [0, 1, 2].map(() => poisoned(ctx, 4 * 4096)) as [GPUBuffer, GPUBuffer, GPUBuffer];
    const runCount = poisoned(ctx, 4);
    const countBuffer = bufferOf(ctx, new Uint32Array(4));
    const rng = createRng(11);
    const counts = await runFrameLoop(ctx.device, {
      create: () => createRunLengthEncodePlan(ctx, { maxCount: 4096 }),
      encode: (plan, encoder) => {
        ctx.device.queue.writeBuffer(countBuffer, 0, new Uint32Array([rng.int(0, 5000)]));
        plan.encode(encoder, { keys, outKeys, lengths, offsets, runCount, countBuffer });
      },
    });
    expect(counts.steady).toEqual({ buffers: 0, bindGroups: 0, pipelines: 0 });
    expect(counts.liveAfterDestroy).toBe(0);
    const encoder = ctx.device.createCommandEncoder();
    const unbounded = createUniquePlan(ctx);
    expect(() => unbounded.encode(encoder, { keys, outKeys, runCount, countBuffer })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'args.countBuffer' }),
    );
    // A run count the plan clears needs COPY_DST: the run-heads plans (unique, run-length encode:
    // compactions) clear it for no records only, a kernel zeroes it otherwise; reduce-by-key copies
    // it out of its scratch, so it needs COPY_DST for every count.
    const storageOnly = ctx.device.createBuffer({ size: 4, usage: GPUBufferUsage.STORAGE });
    const bounded = createUniquePlan(ctx, { maxCount: 4096 });
    const rle = createRunLengthEncodePlan(ctx, { maxCount: 4096 });
    const encodes = [
      (args: object) => bounded.encode(encoder, { keys, outKeys, ...args } as never),
      (args: object) => rle.encode(encoder, { keys, outKeys, lengths, offsets, ...args } as never),
    ];
    for (const encode of encodes) {
      expect(() => encode({ runCount: storageOnly, count: 0 })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'args.runCount' }),
      );
      for (const args of [{ count: 16 }, { countBuffer }]) expect(() => encode({ runCount: storageOnly, ...args })).not.toThrow();
      expect(() => encode({ runCount, count: 4097 })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'args.count' }),
      );
    }
    const reduce = createReduceByKeyPlan(ctx, { maxCount: 4096 });
    expect(() => reduce.encode(encoder, { keys, values: offsets, outKeys, outValues: lengths, runCount: storageOnly, count: 16 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'args.runCount' }),
    );
    // The pair pass's ranges (a test hook here) cannot take a GPU count.
    const ranged = createReduceByKeyPlan(ctx, { maxCount: 4096, maxChunkElements: 1024 } as never);
    expect(() => ranged.encode(encoder, { keys, values: offsets, outKeys, outValues: lengths, runCount, countBuffer })).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED', argument: 'args.countBuffer' }),
    );
    encoder.finish();
    for (const b of [keys, outKeys, lengths, offsets, runCount, countBuffer, storageOnly]) b.destroy();
    for (const plan of [bounded, rle, reduce, ranged]) plan.destroy();
  });
});
