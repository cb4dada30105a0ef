// The single-pass scan of user-defined operators (kernels/operator-scan.ts through
// plans/operator-scan-plan.ts) against the operators' CPU references: operators that do not commute,
// forward and backward, inclusive and exclusive, edge sizes (one record, a partial tile, tile
// edges, several tiles), several chunks joined by carries, and the look-back forced to its fallback.
import {
  add4,
  affine16,
  affineRecord,
  argmaxRecord,
  bufferOf,
  createRng,
  getTestContext,
  hashRecord,
  matrix2x2,
  operatorData,
  POISON_U32,
  poisoned,
  runBatch,
  userAddF32,
} from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { scanWith } from '../src/operators/cpu-operator.js';
import type { HostArray } from '../src/operators/host-records.js';
import type { Operator } from '../src/operators/operator-type.js';
import { createOperatorScanPlan } from '../src/plans/operator-scan-plan.js';

// biome-ignore lint/suspicious/noExplicitAny: operators of several record types
type AnyOperator = Operator<any>;

describe('operator scan (GPU)', () => {
  for (const subgroups of [true, false]) {
    it(`matches the CPU reference, forward and backward, fallback forced and not, across chunks (${subgroups ? 'subgroups' : 'no subgroups'})`, async () => {
      const ctx = await getTestContext({ subgroups });
      // Tiles are 256 × 16 records for one-word values; chunks of 512 records make several carries.
      const sizes = [1, 100, 2047, 4096, 4097, 5 * 2048 + 37];
      const cases: { op: AnyOperator; data: HostArray }[] = sizes.flatMap((n, i) =>
        [affine16, userAddF32].map((op, j) => ({ op, data: operatorData(op, n, 100 * j + i) })),
      );
      // Records of 2, 3 and 4 words: tiles of 256 × 8 and 256 × 4 records (3: runs of 12 words;
      // odd counts leave 1–3 words past the last whole vec4).
      for (const [i, op] of [affineRecord, matrix2x2, add4, argmaxRecord, hashRecord].entries()) {
        // The hash's counts leave 3, 2, 1 and 3 words past the last whole vec4.
        const counts = op === hashRecord ? [1, 2, 1027, 3 * 2048 + 5] : [1, 1025, 3 * 2048 + 5];
        for (const n of counts) cases.push({ op, data: operatorData(op as AnyOperator, n, 400 + 10 * i + n) });
      }
      const variants = [
        { inclusive: true, backward: false, forceFallback: false, maxChunkRecords: undefined },
        { inclusive: false, backward: false, forceFallback: true, maxChunkRecords: undefined },
        { inclusive: true, backward: true, forceFallback: false, maxChunkRecords: 512 },
        { inclusive: false, backward: true, forceFallback: true, maxChunkRecords: undefined },
        { inclusive: false, backward: false, forceFallback: false, maxChunkRecords: 512 },
      ];
      // 32-bit operators in every variant, records in three of them.
      const jobs = cases.flatMap((c) => (c.op.words === 1 ? variants : variants.slice(1, 4)).map((v) => ({ ...c, ...v })));
      const owned: { destroy(): void }[] = [];
      const results = await runBatch(
        ctx,
        jobs.map((job) => ({
          record: (encoder: GPUCommandEncoder) => {
            const plan = createOperatorScanPlan(ctx, { ...job, maxCount: undefined });
            const input = bufferOf(ctx, job.data);
            const output = poisoned(ctx, job.data.byteLength);
            owned.push(input, plan);
            plan.encode(encoder, { input, output, count: job.data.length / job.op.words });
            return [{ buffer: output, bytes: job.data.byteLength }];
          },
        })),
        owned,
      );
      jobs.forEach((job, i) => {
        const { op, data, ...variant } = job;
        const want = scanWith(op, data, { inclusive: variant.inclusive, backward: variant.backward });
        const n = data.length / op.words;
        const Ctor = data.constructor as new (b: ArrayBuffer) => HostArray;
        const got = new Ctor(results[i]![0]!);
        expect({ op: op.name, n, ...variant, got: Array.from(got) }).toEqual({
          op: op.name,
          n,
          ...variant,
          got: Array.from(want),
        });
      });
    });
  }

  it('takes a count the GPU wrote: the first n records scanned, the rest untouched (one and three words)', async () => {
    const ctx = await getTestContext();
    const maxCount = 5001;
    // 0, one record, a partial run, and maxCount itself (3 and 1 words past the last whole vec4).
    const counts = [0, 1, 4097, maxCount];
    const variants = [
      { inclusive: true, backward: false },
      { inclusive: false, backward: true },
    ];
    const jobs = [affine16, hashRecord].flatMap((op, o) =>
      variants.flatMap((v) =>
        counts.map((n) => ({ op: op as AnyOperator, n, ...v, data: operatorData(op as AnyOperator, maxCount, 900 + o) })),
      ),
    );
    const owned: { destroy(): void }[] = [];
    const results = await runBatch(
      ctx,
      jobs.map((job) => ({
        record: (encoder: GPUCommandEncoder) => {
          const plan = createOperatorScanPlan(ctx, { ...job, maxCount, maxChunkRecords: undefined, forceFallback: false });
          const input = bufferOf(ctx, job.data);
          const output = poisoned(ctx, job.data.byteLength);
          const countBuffer = bufferOf(ctx, new Uint32Array([job.n]));
          owned.push(input, output, countBuffer, plan);
          plan.encode(encoder, { input, output, countBuffer });
          return [{ buffer: output, bytes: job.data.byteLength }];
        },
      })),
      owned,
    );
    jobs.forEach((job, i) => {
      const { op, n, data, inclusive, backward } = job;
      const words = op.words;
      const got = Array.from(new Uint32Array(results[i]![0]!));
      const scanned = scanWith(op, (data as Uint32Array).subarray(0, n * words), { inclusive, backward });
      const want = [
        ...new Uint32Array(scanned.buffer, scanned.byteOffset, n * words),
        ...new Array((maxCount - n) * words).fill(POISON_U32),
      ];
      expect({ op: op.name, n, inclusive, backward, got }).toEqual({ op: op.name, n, inclusive, backward, got: want });
    });
  });

  it("an f32 add scan stays within floating point's bound for any order of summation (the guide's statement)", async () => {
    const ctx = await getTestContext();
    const n = 50_000;
    const rng = createRng(5);
    const data = Float32Array.from({ length: n }, () => rng.float() * 2 - 1);
    const plan = createOperatorScanPlan(ctx, {
      op: userAddF32,
      inclusive: true,
      backward: false,
      maxCount: undefined,
      maxChunkRecords: undefined,
      forceFallback: false,
    });
    const input = bufferOf(ctx, data);
    const output = poisoned(ctx, 4 * n);
    const [[bytes]] = (await runBatch(
      ctx,
      [
        {
          record: (encoder: GPUCommandEncoder) => {
            plan.encode(encoder, { input, output, count: n });
            return [{ buffer: output, bytes: 4 * n }];
          },
        },
      ],
      [input, plan],
    )) as [[ArrayBuffer]];
    const got = new Float32Array(bytes);
    // |computed − exact| ≤ (k − 1) · u · Σ|x| for a sum of k values in any order, u = 2^−24.
    const u = 2 ** -24;
    let exact = 0;
    let magnitude = 0;
    let worst = 0;
    for (let i = 0; i < n; i++) {
      exact += data[i]!;
      magnitude += Math.abs(data[i]!);
      const bound = i * u * magnitude;
      worst = Math.max(worst, Math.abs(got[i]! - exact) / Math.max(bound, Number.MIN_VALUE));
    }
    // The largest error as a fraction of its bound (0 where exact): at most 1.
    expect(worst).toBeLessThanOrEqual(1);
  });
});
