// The segmented single pass of user-defined operators (kernels/operator-segmented.ts through
// plans/operator-segmented-plan.ts) against the operators' CPU references: an operator that does not
// commute on a 32-bit word and on a record, forward and backward, inclusive and exclusive, the
// reduction; short and long segments (longer than a tile), several ranges joined by carries, and
// the look-back forced to its fallback.
import type { HostArray, Operator } from '@scan/core';
import { segmentedReduceWith, segmentedScanWith } from '@scan/core/kit';
import {
  affine16,
  bufferOf,
  createRng,
  getTestContext,
  hashRecord,
  matrix2x2,
  operatorData,
  POISON_U32,
  poisoned,
  runBatch,
} from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { packHeadFlags } from '../src/cpu/pack-head-flags.js';
import { segmentedReduce, segmentedScan } from '../src/index.js';
import { createOperatorSegmentedPlan } from '../src/plans/operator-segmented-plan.js';

/** A seed per test operator. */
const seedOf = (op: Operator<unknown>): number => (op === (affine16 as Operator<unknown>) ? 0 : 1);

/** Head flags: mostly short segments, some longer than a tile; record 0 always starts one. */
function headsOf(n: number, seed: number): Uint8Array {
  const rng = createRng(seed);
  const heads = new Uint8Array(n);
  for (let i = 0; i < n; ) {
    heads[i] = 1;
    i += rng.float() < 0.1 ? rng.int(1, 3000) : rng.int(1, 8);
  }
  return heads;
}

describe('segmented operators (GPU)', () => {
  for (const subgroups of [true, false]) {
    it(`scan and reduce match the CPU reference, fallback forced and not, across ranges (${subgroups ? 'subgroups' : 'no subgroups'})`, async () => {
      const ctx = await getTestContext({ subgroups });
      const variants = [
        { mode: 'scan', inclusive: true, backward: false, forceFallback: false, maxChunkRecords: undefined },
        { mode: 'scan', inclusive: false, backward: false, forceFallback: true, maxChunkRecords: 512 },
        { mode: 'scan', inclusive: true, backward: true, forceFallback: false, maxChunkRecords: 512 },
        { mode: 'scan', inclusive: false, backward: true, forceFallback: true, maxChunkRecords: undefined },
        { mode: 'reduce', inclusive: true, backward: false, forceFallback: false, maxChunkRecords: 512 },
        { mode: 'reduce', inclusive: true, backward: false, forceFallback: true, maxChunkRecords: undefined },
      ] as const;
      // Counts that leave a partial run (runs of 12 one-word records, 4 hash or matrix records) and,
      // for the three-word hash, 2 and 1 words past the last whole vec4.
      const jobs = [affine16, matrix2x2, hashRecord].flatMap((op, o) =>
        (op === hashRecord ? [2, 1027] : [1, 700, 5000]).flatMap((n, i) =>
          variants.map((v) => {
            const heads = headsOf(n, 10 * o + i);
            return { op: op as Operator<unknown>, n, heads, data: operatorData(op as Operator<unknown>, n, 20 * o + i), ...v };
          }),
        ),
      );
      const owned: { destroy(): void }[] = [];
      const results = await runBatch(
        ctx,
        jobs.map((job) => ({
          record: (encoder: GPUCommandEncoder) => {
            const plan = createOperatorSegmentedPlan(ctx, { ...job, maxCount: undefined });
            const segments = job.heads.reduce((s, h) => s + h, 0);
            const input = bufferOf(ctx, job.data);
            const headBits = bufferOf(ctx, packHeadFlags(job.heads));
            const bytes = (job.mode === 'scan' ? job.n : segments) * job.op.bytes;
            const output = poisoned(ctx, bytes);
            owned.push(input, headBits, plan);
            plan.encode(encoder, { input, headBits, output, count: job.n, segments });
            return [{ buffer: output, bytes }];
          },
        })),
        owned,
      );
      jobs.forEach((job, i) => {
        const { op, n, heads, data, mode, inclusive, backward, forceFallback, maxChunkRecords } = job;
        const want = mode === 'scan' ? segmentedScanWith(op, data, heads, { inclusive, backward }) : segmentedReduceWith(op, data, heads);
        const Ctor = data.constructor as new (b: ArrayBuffer) => HostArray;
        const got = new Ctor(results[i]![0]!);
        const what = { op: op.name, n, mode, inclusive, backward, forceFallback, maxChunkRecords };
        expect({ ...what, got: Array.from(got) }).toEqual({ ...what, got: Array.from(want) });
      });
    });
  }

  it('a scan plan takes a count the GPU wrote (the first n records, the rest untouched); a reduction rejects it', async () => {
    const ctx = await getTestContext();
    const maxCount = 5001;
    const jobs = [affine16, hashRecord].flatMap((op, o) =>
      [0, 1, 4097, maxCount].flatMap((n) =>
        [false, true].map((backward) => ({
          op: op as Operator<unknown>,
          n,
          backward,
          data: operatorData(op as Operator<unknown>, maxCount, 960 + o),
        })),
      ),
    );
    const owned: { destroy(): void }[] = [];
    const results = await runBatch(
      ctx,
      jobs.map(({ op, n, backward, data }) => ({
        record: (encoder: GPUCommandEncoder) => {
          const plan = createOperatorSegmentedPlan(ctx, {
            op,
            mode: 'scan',
            inclusive: false,
            backward,
            maxCount,
            maxChunkRecords: undefined,
            forceFallback: false,
          });
          const input = bufferOf(ctx, data);
          // The heads of the first n records: the GPU's count decides where the last segment ends.
          const headBits = bufferOf(ctx, packHeadFlags(headsOf(maxCount, 970 + seedOf(op))));
          const output = poisoned(ctx, data.byteLength);
          const countBuffer = bufferOf(ctx, new Uint32Array([n]));
          owned.push(input, headBits, output, countBuffer, plan);
          plan.encode(encoder, { input, headBits, output, countBuffer });
          return [{ buffer: output, bytes: data.byteLength }];
        },
      })),
      owned,
    );
    jobs.forEach(({ op, n, backward, data }, i) => {
      const heads = headsOf(maxCount, 970 + seedOf(op)).subarray(0, n);
      const scanned = segmentedScanWith(op, (data as Uint32Array).subarray(0, n * op.words), heads, { inclusive: false, backward });
      const want = [
        ...new Uint32Array(scanned.buffer, scanned.byteOffset, n * op.words),
        ...new Array((maxCount - n) * op.words).fill(POISON_U32),
      ];
      expect({ op: op.name, n, backward, got: Array.from(new Uint32Array(results[i]![0]!)) }).toEqual({
        op: op.name,
        n,
        backward,
        got: want,
      });
    });
    const reduce = createOperatorSegmentedPlan(ctx, {
      op: affine16 as Operator<unknown>,
      mode: 'reduce',
      inclusive: true,
      backward: false,
      maxCount,
      maxChunkRecords: undefined,
      forceFallback: false,
    });
    const buffer = bufferOf(ctx, new Uint32Array(maxCount));
    expect(() =>
      reduce.encode(ctx.device.createCommandEncoder(), { input: buffer, headBits: buffer, output: buffer, countBuffer: buffer }),
    ).toThrow(expect.objectContaining({ code: 'UNSUPPORTED', argument: 'args.countBuffer' }));
    reduce.destroy();
    buffer.destroy();
  });

  it('segmentedScan and segmentedReduce take an Operator, on the GPU and in ./cpu (records, offsets with empty segments)', async () => {
    const ctx = await getTestContext();
    const n = 3000;
    const heads = headsOf(n, 99);
    const data = operatorData(matrix2x2 as Operator<unknown>, n, 98) as Int32Array;
    for (const options of [{ inclusive: true }, { backward: true }] as const) {
      const want = segmentedScanWith(matrix2x2 as Operator<unknown>, data, heads, { inclusive: false, backward: false, ...options });
      expect(Array.from(cpu.segmentedScan(data, heads, { op: matrix2x2, ...options }))).toEqual(Array.from(want));
      expect(Array.from(await segmentedScan(ctx, data, heads, { op: matrix2x2, ...options }))).toEqual(Array.from(want));
    }
    const offsets = new Uint32Array([0, 0, 5, 5, 5, 2000, 2999, 3000, 3000]);
    const cpuTotals = cpu.segmentedReduce(data, { offsets }, { op: matrix2x2 });
    expect(cpuTotals.length).toBe(4 * 8);
    expect(Array.from(cpuTotals.subarray(0, 4))).toEqual([1, 0, 0, 1]); // an empty segment: the identity
    expect(Array.from(await segmentedReduce(ctx, data, { offsets }, { op: matrix2x2 }))).toEqual(Array.from(cpuTotals));
    expect(Array.from(await segmentedReduce(ctx, data, heads, { op: matrix2x2 }))).toEqual(
      Array.from(segmentedReduceWith(matrix2x2 as Operator<unknown>, data, heads)),
    );
    // The data's length counts words: a record is four of them.
    await expect(segmentedScan(ctx, data.subarray(1), heads, { op: matrix2x2 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(segmentedScan(ctx, data, heads.subarray(1), { op: matrix2x2 })).rejects.toMatchObject({ argument: 'headFlags' });
  });
});
