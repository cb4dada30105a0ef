// reduce, enumerate, distribute, split and pack against the CPU reference, both paths, poisoned outputs.
import { expectCloseArrays, expectEqualArrays, getTestContext, randomData, randomFlags } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { ELEMENT_TYPES, opFitsType, SCAN_OPS } from '../src/element-types.js';
import { distribute, enumerate, pack, reduce, split } from '../src/ops/primitives.js';
import { createReducePlan } from '../src/plans/reduce-plan.js';
import { createPackPlan, createSplitPlan } from '../src/plans/scatter-plans.js';
import { createDistributePlan, createEnumeratePlan } from '../src/plans/simple-plans.js';
import { asTyped, bufferOf, POISON_U32, poisoned, runBatch } from './harness.js';

const BIG = (1 << 20) + 3;
const SIZES = [0, 1, 2, 3, 4, 5, 63, 64, 65, 1023, 1024, 1025, 4095, 4096, 4097, 65537, BIG];
/**
 * Chunks of 4096 elements: 65537 already makes 17 chunks with the carry through each, so past 2^20
 * (257 chunks, twice as many dispatches) runs unchunked only.
 */
const CHUNKED_SIZES = SIZES.filter((n) => n !== BIG);

for (const subgroups of [true, false]) {
  describe(`primitives (${subgroups ? 'subgroups' : 'workgroup memory'})`, () => {
    it('reduce: every type and op, sizes 0 … 2^20+3, chunked and not', async () => {
      const ctx = await getTestContext({ subgroups });
      for (const type of ELEMENT_TYPES) {
        for (const op of SCAN_OPS.filter((o) => opFitsType(o, type))) {
          for (const maxChunkElements of [undefined, 4096]) {
            const plan = createReducePlan(ctx, { type, op, maxChunkElements });
            const kind = op === 'add' ? 'small' : op === 'mul' ? 'mul-safe' : 'random';
            const inputs = (maxChunkElements ? CHUNKED_SIZES : SIZES).map((n) => randomData(type, n, n + 7, kind));
            const results = await runBatch(
              ctx,
              inputs.map((data) => ({
                record(encoder) {
                  const input = bufferOf(ctx, data);
                  const output = poisoned(ctx, 4);
                  plan.encode(encoder, { input, output, count: data.length });
                  return [{ buffer: output, bytes: 4 }];
                },
              })),
            );
            plan.destroy();
            inputs.forEach((data, i) => {
              const got = asTyped(data, results[i]![0]!)[0]!;
              const want = cpu.reduce(data, { op });
              const label = `reduce ${type} ${op} n=${data.length} chunk=${maxChunkElements}`;
              if (type === 'f32' && op === 'mul') expectCloseArrays([got], [want], { rtol: 1e-6, label });
              else expectEqualArrays([got], [want], label);
            });
          }
        }
      }
    });

    it('enumerate, distribute forward and backward', async () => {
      const ctx = await getTestContext({ subgroups });
      for (const backward of [false, true]) {
        const en = createEnumeratePlan(ctx, { backward });
        const flagSets = SIZES.map((n) => randomFlags(n, n, n % 3 === 0 ? 0.9 : 0.3));
        const enumerated = await runBatch(
          ctx,
          flagSets.map((flags) => ({
            record(encoder) {
              const f = bufferOf(ctx, flags);
              const output = poisoned(ctx, 4 * flags.length);
              en.encode(encoder, { flags: f, output, count: flags.length });
              return [{ buffer: output, bytes: 4 * flags.length }];
            },
          })),
        );
        en.destroy();
        flagSets.forEach((flags, i) =>
          expectEqualArrays(
            new Uint32Array(enumerated[i]![0]!),
            cpu.enumerate(flags, { backward }),
            `enumerate n=${flags.length} bwd=${backward}`,
          ),
        );
        for (const type of ELEMENT_TYPES) {
          for (const maxChunkElements of [undefined, 4096]) {
            const dist = createDistributePlan(ctx, { type, backward, maxChunkElements });
            const inputs = (maxChunkElements ? CHUNKED_SIZES : SIZES).map((n) => randomData(type, n, n + 1, 'random'));
            const results = await runBatch(
              ctx,
              inputs.map((data) => ({
                record(encoder) {
                  const input = bufferOf(ctx, data);
                  const output = poisoned(ctx, 4 * data.length);
                  dist.encode(encoder, { input, output, count: data.length });
                  return [{ buffer: output, bytes: 4 * data.length }];
                },
              })),
            );
            dist.destroy();
            inputs.forEach((data, i) =>
              expectEqualArrays(
                asTyped(data, results[i]![0]!),
                cpu.distribute(data, { backward }),
                `distribute ${type} n=${data.length} bwd=${backward}`,
              ),
            );
          }
        }
      }
    });

    it('split and pack: every type, flag densities 0, 0.01, 0.5, 1', async () => {
      const ctx = await getTestContext({ subgroups });
      for (const type of ELEMENT_TYPES) {
        const sp = createSplitPlan(ctx, { type });
        const pk = createPackPlan(ctx, { type });
        // Every density at every size up to 65537 (11 tiles of the u32-flag shape); past 2^20 one
        // density per type, a different one for each (compact.test.ts runs u32 at 0.5 there too).
        const bigDensity = { u32: 0.01, i32: 0.5, f32: 1 }[type];
        const cases = SIZES.flatMap((n) =>
          [0, 0.01, 0.5, 1]
            .filter((density) => n !== BIG || density === bigDensity)
            .map((density) => ({ data: randomData(type, n, n + 3, 'random'), flags: randomFlags(n, n + 5, density) })),
        );
        const results = await runBatch(
          ctx,
          cases.map(({ data, flags }) => ({
            record(encoder) {
              const input = bufferOf(ctx, data);
              const f = bufferOf(ctx, flags);
              const out1 = poisoned(ctx, 4 * data.length);
              const out2 = poisoned(ctx, 4 * data.length);
              const c1 = poisoned(ctx, 4);
              const c2 = poisoned(ctx, 4);
              sp.encode(encoder, { input, flags: f, output: out1, count: data.length, falseCount: c1 });
              pk.encode(encoder, { input, flags: f, output: out2, count: data.length, packedCount: c2 });
              return [
                { buffer: out1, bytes: 4 * data.length },
                { buffer: c1, bytes: 4 },
                { buffer: out2, bytes: 4 * data.length },
                { buffer: c2, bytes: 4 },
              ];
            },
          })),
        );
        sp.destroy();
        pk.destroy();
        cases.forEach(({ data, flags }, i) => {
          const [o1, c1, o2, c2] = results[i]!;
          const want = cpu.split(data, flags);
          const label = `${type} n=${data.length}`;
          expectEqualArrays(asTyped(data, o1!), want.output, `split ${label}`);
          expect(new Uint32Array(c1!)[0], `split falseCount ${label}`).toBe(want.falseCount);
          const packed = cpu.pack(data, flags);
          expect(new Uint32Array(c2!)[0], `pack count ${label}`).toBe(packed.length);
          const got = asTyped(data, o2!);
          expectEqualArrays(got.subarray(0, packed.length), packed, `pack ${label}`);
          // Past the kept elements the output is untouched.
          expect(
            new Uint32Array(o2!).subarray(packed.length).every((w) => w === POISON_U32),
            `pack tail ${label}`,
          ).toBe(true);
        });
      }
    });
  });
}

describe('array-level primitives', () => {
  it('match the paper and the CPU reference', async () => {
    const ctx = await getTestContext();
    expect([...(await enumerate(ctx, new Uint8Array([1, 0, 0, 1, 0, 1, 1])))]).toEqual([0, 1, 1, 1, 2, 2, 3]);
    expect([...(await distribute(ctx, new Int32Array([5, 1, 2])))]).toEqual([5, 5, 5]);
    expect([...(await distribute(ctx, new Int32Array([5, 1, 2, 8, 9]), { backward: true }))]).toEqual([9, 9, 9, 9, 9]);
    expect(await split(ctx, new Uint32Array([10, 11, 12, 13]), new Uint32Array([1, 0, 1, 0]))).toEqual({
      output: new Uint32Array([11, 13, 10, 12]),
      falseCount: 2,
    });
    expect([...(await pack(ctx, new Float32Array([1.5, 2.5, 3.5]), new Uint8Array([1, 0, 1])))]).toEqual([1.5, 3.5]);
    expect(await reduce(ctx, new Float32Array([3, -1, 7]), { op: 'min' })).toBe(-1);
    expect(await reduce(ctx, new Int32Array(0), { op: 'max' })).toBe(-2147483648);
    expect(await reduce(ctx, new Uint32Array([0xffffffff, 2]))).toBe(1);
    const data = randomData('f32', 100_003, 9, 'random');
    expectCloseArrays([await reduce(ctx, data)], [cpu.reduce(data)], { rtol: 1e-4, atol: 1e-3, label: 'reduce f32 random' });
    const empty = await pack(ctx, new Int32Array(0), new Uint32Array(0));
    expect(empty).toBeInstanceOf(Int32Array);
    expect(empty.length).toBe(0);
  });
});
