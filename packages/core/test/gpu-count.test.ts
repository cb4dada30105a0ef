// Counts the GPU wrote (args.countBuffer): scan, enumerate, reduce, split, pack and packIf record
// their work for maxCount, and a fixup turns the GPU's count into their parameters. Checked against
// the CPU reference on min(count, maxCount) elements, with poisoned outputs: nothing past the count
// may be written. Also: several GPU-count encodes in one encoder, the argument errors, and the
// frame loop with a count written every frame.
import { createRng, expectEqualArrays, getTestContext, isPoison, randomData, randomFlags, runFrameLoop } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { ScanError } from '../src/errors.js';
import { createEnumeratePlan, createPackIfPlan, createPackPlan, createReducePlan, createScanPlan, createSplitPlan } from '../src/index.js';
import { asTyped, bufferOf, poisoned, runBatch } from './harness.js';

/** Not a multiple of 4 (so the partial last vec4 is staged on the GPU) and past several tiles. */
const MAX = 5003;
/** GPU counts: empty, within the first vec4, around tiles, the maximum, and past it (clamped). */
const COUNTS = [0, 1, 3, 5, 255, 256, 1023, 1025, 4096, MAX - 1, MAX, MAX + 7, 0xffffffff];

/** A count buffer holding `count` at word 2 (so the offset is exercised). */
function countBufferOf(ctx: Awaited<ReturnType<typeof getTestContext>>, count: number): GPUBuffer {
  return bufferOf(ctx, new Uint32Array([0xdead, 0xbeef, count, 0xcafe]));
}

describe('GPU counts', () => {
  it('scan and enumerate: exclusive add, inclusive max backward (f32), enumerate of flags', async () => {
    const ctx = await getTestContext();
    const add = createScanPlan(ctx, { type: 'u32', maxCount: MAX });
    const max = createScanPlan(ctx, { type: 'f32', op: 'max', inclusive: true, backward: true, maxCount: MAX });
    const enumerate = createEnumeratePlan(ctx, { maxCount: MAX });
    await Promise.all([add.ready, max.ready, enumerate.ready]);
    const u = randomData('u32', MAX, 1, 'random');
    const f = randomData('f32', MAX, 2, 'random');
    const flags = randomFlags(MAX, 3, 0.3);
    const results = await runBatch(
      ctx,
      COUNTS.map((count) => ({
        record(encoder) {
          const outs = [poisoned(ctx, 4 * MAX), poisoned(ctx, 4 * MAX), poisoned(ctx, 4 * MAX)];
          const countBuffer = countBufferOf(ctx, count);
          add.encode(encoder, { input: bufferOf(ctx, u), output: outs[0]!, countBuffer, countOffset: 8 });
          max.encode(encoder, { input: bufferOf(ctx, f), output: outs[1]!, countBuffer, countOffset: 8 });
          enumerate.encode(encoder, { flags: bufferOf(ctx, flags), output: outs[2]!, countBuffer, countOffset: 8 });
          return outs.map((buffer) => ({ buffer, bytes: 4 * MAX }));
        },
      })),
    );
    COUNTS.forEach((count, i) => {
      const n = Math.min(count, MAX);
      const [a, m, e] = results[i]!.map((bytes) => new Uint32Array(bytes));
      const expected = [
        new Uint32Array(cpu.scan(u.subarray(0, n)).buffer),
        new Uint32Array(cpu.scan(f.subarray(0, n), { op: 'max', inclusive: true, backward: true }).buffer),
        cpu.enumerate(flags.subarray(0, n)),
      ];
      for (const [j, got] of [a!, m!, e!].entries()) {
        expectEqualArrays(got.subarray(0, n), expected[j]!, `count ${count}, plan ${j}`);
        expect(got.subarray(n).every(isPoison), `count ${count}, plan ${j}: nothing written past the count`).toBe(true);
      }
    });
    for (const p of [add, max, enumerate]) p.destroy();
  });

  it('reduce: add (u32) and min (i32), including an empty count (the identity)', async () => {
    const ctx = await getTestContext();
    const add = createReducePlan(ctx, { type: 'u32', maxCount: MAX });
    const min = createReducePlan(ctx, { type: 'i32', op: 'min', maxCount: MAX });
    const u = randomData('u32', MAX, 4, 'random');
    const s = randomData('i32', MAX, 5, 'random');
    const results = await runBatch(
      ctx,
      COUNTS.map((count) => ({
        record(encoder) {
          const outs = [poisoned(ctx, 16), poisoned(ctx, 16)];
          const countBuffer = countBufferOf(ctx, count);
          add.encode(encoder, { input: bufferOf(ctx, u), output: outs[0]!, countBuffer, countOffset: 8 });
          min.encode(encoder, { input: bufferOf(ctx, s), output: outs[1]!, countBuffer, countOffset: 8 });
          return outs.map((buffer) => ({ buffer, bytes: 4 }));
        },
      })),
    );
    COUNTS.forEach((count, i) => {
      const n = Math.min(count, MAX);
      expect(new Uint32Array(results[i]![0]!)[0], `add, count ${count}`).toBe(cpu.reduce(u.subarray(0, n)));
      expect(new Int32Array(results[i]![1]!)[0], `min, count ${count}`).toBe(cpu.reduce(s.subarray(0, n), { op: 'min' }));
    });
    add.destroy();
    min.destroy();
  });

  it('split, pack (u32 and u8 flags) and packIf: outputs, counts, nothing written past the kept count', async () => {
    const ctx = await getTestContext();
    const data = randomData('i32', MAX, 6, 'random');
    const flags = randomFlags(MAX, 7, 0.5);
    const bytes = new Uint8Array(Math.ceil(MAX / 4) * 4).fill(0xff);
    bytes.set(flags);
    const split = createSplitPlan(ctx, { type: 'i32', maxCount: MAX });
    const pack = createPackPlan(ctx, { type: 'i32', maxCount: MAX });
    const packU8 = createPackPlan(ctx, { type: 'i32', flags: 'u8', maxCount: MAX });
    const packIf = createPackIfPlan(ctx, { type: 'i32', op: 'lt', value: 0, maxCount: MAX });
    const results = await runBatch(
      ctx,
      COUNTS.map((count) => ({
        record(encoder) {
          const outs = [0, 1, 2, 3].map(() => poisoned(ctx, 4 * MAX));
          const counts = [0, 1, 2, 3].map(() => poisoned(ctx, 16));
          const countBuffer = countBufferOf(ctx, count);
          const input = bufferOf(ctx, data);
          const f = bufferOf(ctx, flags);
          split.encode(encoder, { input, flags: f, output: outs[0]!, falseCount: counts[0]!, countBuffer, countOffset: 8 });
          pack.encode(encoder, { input, flags: f, output: outs[1]!, packedCount: counts[1]!, countBuffer, countOffset: 8 });
          packU8.encode(encoder, {
            input,
            flags: bufferOf(ctx, bytes),
            output: outs[2]!,
            packedCount: counts[2]!,
            countBuffer,
            countOffset: 8,
          });
          packIf.encode(encoder, { input, output: outs[3]!, packedCount: counts[3]!, countBuffer, countOffset: 8 });
          return [...outs, ...counts].map((buffer, j) => ({ buffer, bytes: j < 4 ? 4 * MAX : 4 }));
        },
      })),
    );
    COUNTS.forEach((count, i) => {
      const n = Math.min(count, MAX);
      const d = data.subarray(0, n);
      const fl = flags.subarray(0, n);
      const r = results[i]!;
      const s = cpu.split(d, fl);
      expectEqualArrays(asTyped(data, r[0]!).subarray(0, n), s.output, `split, count ${count}`);
      expect(new Uint32Array(r[4]!)[0], `split false count, count ${count}`).toBe(s.falseCount);
      const packs = [cpu.pack(d, fl), cpu.pack(d, fl), cpu.packIf(d, { op: 'lt', value: 0 })];
      for (const [j, expected] of packs.entries()) {
        const got = new Uint32Array(r[1 + j]!);
        expect(new Uint32Array(r[5 + j]!)[0], `pack ${j} count, count ${count}`).toBe(expected.length);
        expectEqualArrays(asTyped(data, r[1 + j]!).subarray(0, expected.length), expected, `pack ${j}, count ${count}`);
        expect(got.subarray(expected.length).every(isPoison), `pack ${j}, count ${count}: nothing past the kept count`).toBe(true);
      }
    });
    for (const p of [split, pack, packU8, packIf]) p.destroy();
  });

  it('a count written every frame creates nothing in steady state', async () => {
    const ctx = await getTestContext();
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const input = ctx.device.createBuffer({ size: 4 * 4096, usage });
    const flags = ctx.device.createBuffer({ size: 4 * 4096, usage });
    const output = ctx.device.createBuffer({ size: 4 * 4096, usage });
    const packed = ctx.device.createBuffer({ size: 16, usage });
    const countBuffer = ctx.device.createBuffer({ size: 16, usage });
    const rng = createRng(9);
    const nothing = { buffers: 0, bindGroups: 0, pipelines: 0 };
    for (const make of [
      () => ({ plan: createScanPlan(ctx, { maxCount: 4096 }), args: { input, output } }),
      () => ({ plan: createReducePlan(ctx, { maxCount: 4096 }), args: { input, output } }),
      () => ({ plan: createPackPlan(ctx, { maxCount: 4096 }), args: { input, flags, output, packedCount: packed } }),
    ]) {
      const { plan, args } = make();
      const counts = await runFrameLoop(ctx.device, {
        create: () => plan,
        encode: (p, encoder) => {
          ctx.device.queue.writeBuffer(countBuffer, 4, new Uint32Array([rng.int(0, 5000)]));
          (p as typeof plan & { encode(e: GPUCommandEncoder, a: object): void }).encode(encoder, { ...args, countBuffer, countOffset: 4 });
        },
      });
      expect(counts.steady).toEqual(nothing);
      expect(counts.liveAfterDestroy).toBe(0);
    }
    for (const b of [input, flags, output, packed, countBuffer]) b.destroy();
  });

  it('bad GPU-count arguments throw a ScanError naming the argument', async () => {
    const ctx = await getTestContext();
    const input = bufferOf(ctx, new Uint32Array(64));
    const output = bufferOf(ctx, new Uint32Array(64));
    const countBuffer = bufferOf(ctx, new Uint32Array(4));
    const code = (f: () => void): [string, string | undefined] => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(ScanError);
        return [(e as ScanError).code, (e as ScanError).argument];
      }
      throw new Error('expected a ScanError');
    };
    const scan = createScanPlan(ctx, { maxCount: 64 });
    const encoder = ctx.device.createCommandEncoder();
    expect(code(() => scan.encode(encoder, { input, output, count: 3, countBuffer }))).toEqual(['INVALID_ARGUMENT', 'args.count']);
    expect(code(() => scan.encode(encoder, { input, output, countBuffer, countOffset: 6 }))).toEqual([
      'INVALID_ARGUMENT',
      'args.countOffset',
    ]);
    expect(code(() => scan.encode(encoder, { input, output, countBuffer, countOffset: 16 }))).toEqual([
      'INVALID_ARGUMENT',
      'args.countOffset',
    ]);
    expect(code(() => createScanPlan(ctx).encode(encoder, { input, output, countBuffer }))).toEqual([
      'INVALID_ARGUMENT',
      'args.countBuffer',
    ]);
    expect(code(() => createScanPlan(ctx, { maxCount: 65 }).encode(encoder, { input, output, countBuffer }))).toEqual([
      'INVALID_ARGUMENT',
      'args.input',
    ]);
    expect(
      code(() => createScanPlan(ctx, { algorithm: 'blelloch', maxCount: 64 }).encode(encoder, { input, output, countBuffer })),
    ).toEqual(['UNSUPPORTED', 'args.countBuffer']);
    expect(
      code(() =>
        createPackPlan(ctx, { algorithm: 'scan-then-scatter', maxCount: 64 }).encode(encoder, {
          input,
          flags: output,
          output: bufferOf(ctx, new Uint32Array(64)),
          packedCount: bufferOf(ctx, new Uint32Array(4)),
          countBuffer,
        }),
      ),
    ).toEqual(['UNSUPPORTED', 'args.countBuffer']);
    expect(code(() => createScanPlan(ctx, { maxCount: -1 }))).toEqual(['INVALID_ARGUMENT', 'options.maxCount']);
    encoder.finish();
  });
});
