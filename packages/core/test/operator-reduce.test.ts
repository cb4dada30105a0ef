// The reduction of user-defined operators (kernels/operator-reduce.ts through
// plans/operator-reduce-plan.ts) and the one-shot `scan` and `reduce` with an `Operator`, against the
// operators' CPU references: operators that do not commute, edge sizes (none, one record, a partial
// tile, many tiles per workgroup), several chunks joined by carries.
import {
  affine16,
  argmaxRecord,
  bufferOf,
  getTestContext,
  hashRecord,
  matrix2x2,
  operatorData,
  poisoned,
  runBatch,
} from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { builtinOperator } from '../src/operators/builtin-operators.js';
import { reduceWith, scanWith } from '../src/operators/cpu-operator.js';
import { defineOperator } from '../src/operators/define-operator.js';
import { type HostArray, hostArrayOver, readRecord } from '../src/operators/host-records.js';
import type { Operator } from '../src/operators/operator-type.js';
import { reduce } from '../src/ops/primitives.js';
import { scan } from '../src/ops/scan.js';
import { createOperatorReducePlan } from '../src/plans/operator-reduce-plan.js';
import { createReducePlan } from '../src/plans/reduce-plan.js';
import { createScanPlan } from '../src/plans/scan-plan.js';

// biome-ignore lint/suspicious/noExplicitAny: operators of several record types
type AnyOperator = Operator<any>;

function affineData(n: number, seed: number): Uint32Array {
  return operatorData(affine16, n, seed) as Uint32Array;
}

describe('operator reduce (GPU)', () => {
  for (const subgroups of [true, false]) {
    it(`matches the CPU reference at edge sizes and across chunks (${subgroups ? 'subgroups' : 'no subgroups'})`, async () => {
      const ctx = await getTestContext({ subgroups });
      // Tiles of 256 × 32 one-word records; 4 partials make runs of several tiles per workgroup.
      const sizes = [0, 1, 100, 8191, 8193, 3 * 4 * 8192 + 5];
      const cases: { op: AnyOperator; n: number; maxChunkRecords?: number; maxPartials?: number; data: HostArray }[] = sizes.flatMap(
        (n, i) =>
          [undefined, 4096].map((maxChunkRecords) => ({
            op: affine16,
            n,
            maxChunkRecords,
            maxPartials: 4,
            data: operatorData(affine16, n, 300 + i),
          })),
      );
      // Records of 2, 3 and 4 words (runs of 16, 8 and 8 records); odd counts leave words past the last whole vec4.
      for (const [i, op] of [argmaxRecord, hashRecord, matrix2x2].entries()) {
        for (const n of [1, 1027, 3 * 4096 + 5]) cases.push({ op, n, maxPartials: 2, data: operatorData(op, n, 700 + 10 * i + n) });
      }
      const owned: { destroy(): void }[] = [];
      const results = await runBatch(
        ctx,
        cases.map(({ op, n, maxChunkRecords, maxPartials, data }) => ({
          record: (encoder: GPUCommandEncoder) => {
            const plan = createOperatorReducePlan(ctx, { op, maxCount: undefined, maxChunkRecords, maxPartials });
            const input = bufferOf(ctx, data);
            const output = poisoned(ctx, op.bytes);
            owned.push(input, plan);
            plan.encode(encoder, { input, output, count: n });
            return [{ buffer: output, bytes: op.bytes }];
          },
        })),
        owned,
      );
      cases.forEach(({ op, n, maxChunkRecords, data }, i) => {
        const got = readRecord(op, hostArrayOver(data, results[i]![0]!, op.bytes), 0);
        expect({ op: op.name, n, maxChunkRecords, got }).toEqual({ op: op.name, n, maxChunkRecords, got: reduceWith(op, data) });
      });
    });
  }

  it('takes a count the GPU wrote: the first n records reduced (one and three words, several partials)', async () => {
    const ctx = await getTestContext();
    const maxCount = 3 * 4 * 8192 + 5;
    const counts = [0, 1, 8193, 4 * 8192 + 3, maxCount];
    const jobs = [affine16, hashRecord].flatMap((op, o) =>
      counts.map((n) => ({ op: op as AnyOperator, n, data: operatorData(op as AnyOperator, maxCount, 950 + o) })),
    );
    const owned: { destroy(): void }[] = [];
    const results = await runBatch(
      ctx,
      jobs.map(({ op, n, data }) => ({
        record: (encoder: GPUCommandEncoder) => {
          const plan = createOperatorReducePlan(ctx, { op, maxCount, maxChunkRecords: undefined, maxPartials: 4 });
          const input = bufferOf(ctx, data);
          const output = poisoned(ctx, op.bytes);
          const countBuffer = bufferOf(ctx, new Uint32Array([n]));
          owned.push(input, output, countBuffer, plan);
          plan.encode(encoder, { input, output, countBuffer });
          return [{ buffer: output, bytes: op.bytes }];
        },
      })),
      owned,
    );
    jobs.forEach(({ op, n, data }, i) => {
      const got = readRecord(op, hostArrayOver(data, results[i]![0]!, op.bytes), 0);
      const want = reduceWith(op, (data as Uint32Array).subarray(0, n * op.words));
      expect({ op: op.name, n, got }).toEqual({ op: op.name, n, got: want });
    });
  });

  it('scan and reduce take an Operator: user-defined ones run their own kernels, built-in ones the built-in path', async () => {
    const ctx = await getTestContext();
    const data = affineData(5000, 7);
    expect(Array.from(await scan(ctx, data, { op: affine16, inclusive: true, backward: true }))).toEqual(
      Array.from(scanWith(affine16, data, { inclusive: true, backward: true })),
    );
    expect(await reduce(ctx, data, { op: affine16 })).toBe(reduceWith(affine16, data));
    expect(await reduce(ctx, new Uint32Array(0), { op: affine16 })).toBe(0x10000);
    const floats = new Float32Array([3, -1, 7, 2]);
    expect(await reduce(ctx, floats, { op: builtinOperator('min', 'f32') })).toBe(-1);
    expect(Array.from(await scan(ctx, floats, { op: builtinOperator('max', 'f32'), inclusive: true }))).toEqual([3, 3, 7, 7]);
    // A built-in operator of another element type than the data's.
    await expect(scan(ctx, floats, { op: builtinOperator('add', 'u32') })).rejects.toThrow(/options\.op = add on u32: the data holds f32/);
    // The multi-pass algorithms take the built-in operators only.
    await expect(scan(ctx, data, { op: affine16, algorithm: 'blelloch' })).rejects.toMatchObject({ code: 'UNSUPPORTED' });
  });

  it("a body that does not compile rejects the one-shot calls and the plans' ready with INVALID_ARGUMENT in the body's lines", async () => {
    const ctx = await getTestContext();
    const broken = defineOperator<number>({
      type: 'u32',
      identity: 0,
      wgsl: 'let s = a +;\nreturn s;',
      cpu: (a, b) => a + b,
      name: 'broken',
    });
    const inBody = { code: 'INVALID_ARGUMENT', message: expect.stringMatching(/line 1, column \d+ of the operator's wgsl/) };
    await expect(scan(ctx, new Uint32Array(8), { op: broken })).rejects.toMatchObject(inBody);
    await expect(reduce(ctx, new Uint32Array(8), { op: broken })).rejects.toMatchObject(inBody);
    const plan = createScanPlan(ctx, { op: broken });
    await expect(plan.ready).rejects.toMatchObject(inBody);
    plan.destroy();
    const reducePlan = createReducePlan(ctx, { op: broken });
    await expect(reducePlan.ready).rejects.toMatchObject(inBody);
    reducePlan.destroy();
  });
});
