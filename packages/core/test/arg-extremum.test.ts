// argMin / argMax: the indexed operator reduction against the CPU reference (types, ties, NaN, ±0,
// extremes, edge sizes, chunk carries, long runs of tiles, a count the GPU wrote), and the errors.
import { bufferOf, type DataKind, getTestContext, POISON_U32, poisoned, randomData, runBatch } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { ELEMENT_TYPES, type ElementType } from '../src/element-types.js';
import { argMax, argMin } from '../src/ops/arg-extremum.js';
import { createArgMaxPlan, createArgMinPlan } from '../src/plans/arg-extremum-plan.js';

type Data = Uint32Array | Int32Array | Float32Array;
const WHICH = ['min', 'max'] as const;
/** A tile is 256 invocations × 16 elements. */
const TILE = 4096;
const SIZES = [1, 2, 3, 5, 17, TILE - 1, TILE, TILE + 1, 3 * TILE + 7, 65537];

/** Every kind of contents up to a tile and one past; beyond, ties (small values) and NaNs or random values (SwiftShader time). */
function contentsOf(type: ElementType, n: number, seed: number): Data[] {
  const kinds: DataKind[] =
    n <= TILE + 1
      ? ['random', 'small', 'equal', 'extreme', ...(type === 'f32' ? (['nan'] as const) : [])]
      : [type === 'f32' ? 'nan' : 'random', 'small'];
  return kinds.map((kind, k) => randomData(type, n, seed + k, kind));
}

/** Arrays that pin the rules down: ties, ±0, NaN everywhere or nowhere, the extremes of the type. */
function special(type: ElementType): Data[] {
  const make = (values: number[]) =>
    type === 'u32' ? Uint32Array.from(values) : type === 'i32' ? Int32Array.from(values) : Float32Array.from(values);
  const out: Data[] = [make([5, 5, 5]), make([1, 9, 9, 1]), make([7])];
  if (type === 'u32') out.push(make([0xffffffff, 0, 0xffffffff, 0]));
  if (type === 'i32') out.push(make([-0x80000000, 0x7fffffff, -0x80000000, 0x7fffffff, 0, -1]));
  if (type === 'f32') {
    out.push(make([0, -0, 0, -0]), make([-0, 0]), make([Number.NaN, Number.NaN]), make([1, Number.NaN, -Infinity, Number.NaN, Infinity]));
    out.push(make([Number.NaN, 3, -2, 3, -2]), make([Infinity, -Infinity, 3.4028234663852886e38, -3.4028234663852886e38, 1e-45, -1e-45]));
    const negNaN = new Float32Array(3);
    new Uint32Array(negNaN.buffer).set([0xffc00001, 0x7f800001, 0x00000000]);
    out.push(negNaN);
  }
  return out;
}

function bitsOfValue(data: Data, value: number): number {
  const one = new (data.constructor as new (n: number) => Data)(1);
  one[0] = value;
  return new Uint32Array(one.buffer)[0] as number;
}

function expectSame(got: { value: number; index: number }, want: { value: number; index: number }, label: string) {
  expect({
    label,
    index: got.index,
    value: Object.is(got.value, want.value) || (Number.isNaN(got.value) && Number.isNaN(want.value)),
  }).toEqual({
    label,
    index: want.index,
    value: true,
  });
}

for (const subgroups of [true, false]) {
  describe(`argMin / argMax plans (${subgroups ? 'subgroups' : 'workgroup memory'})`, () => {
    it('every type, edge sizes and contents, chunked, long runs of tiles', async () => {
      const ctx = await getTestContext({ subgroups });
      // Default shape; chunks of 1024 elements (the carry between chunks and the index base of
      // each); 2 partials, so each workgroup folds a run of many tiles.
      const shapes = [{}, { maxChunkElements: 1024 }, { maxPartials: 2 }];
      const jobs: { type: ElementType; which: 'min' | 'max'; shape: object; data: Data }[] = [];
      for (const type of ELEMENT_TYPES) {
        const arrays = [...special(type), ...SIZES.flatMap((n) => contentsOf(type, n, n * 31 + 3))];
        for (const which of WHICH) {
          for (const [s, shape] of shapes.entries()) {
            // The unusual shapes on the larger arrays only (every size at the default shape).
            for (const data of s === 0 ? arrays : arrays.filter((d) => d.length > TILE + 1)) jobs.push({ type, which, shape, data });
          }
        }
      }
      const plans = new Map<string, ReturnType<typeof createArgMinPlan>>();
      const planOf = (type: ElementType, which: 'min' | 'max', shape: object) => {
        const key = `${type}/${which}/${JSON.stringify(shape)}`;
        let plan = plans.get(key);
        if (!plan) {
          plan = (which === 'min' ? createArgMinPlan : createArgMaxPlan)(ctx, { type, ...shape } as never);
          plans.set(key, plan);
        }
        return plan;
      };
      const results = await runBatch(
        ctx,
        jobs.map(({ type, which, shape, data }) => ({
          record(encoder) {
            const input = bufferOf(ctx, data);
            const output = poisoned(ctx, 8);
            planOf(type, which, shape).encode(encoder, { input, output, count: data.length });
            return [{ buffer: output, bytes: 8 }];
          },
        })),
      );
      for (const plan of plans.values()) plan.destroy();
      jobs.forEach(({ type, which, shape, data }, i) => {
        const [bits, index] = new Uint32Array(results[i]![0]!);
        const want = (which === 'min' ? cpu.argMin : cpu.argMax)(data);
        const label = `arg${which} ${type} n=${data.length} ${JSON.stringify(shape)}`;
        // The element's own bits: a NaN's payload and −0 come back as they were.
        expect({ label, bits, index }).toEqual({
          label,
          bits: new Uint32Array(data.buffer, data.byteOffset, data.length)[want.index],
          index: want.index,
        });
      });
    });

    it('no elements writes index 0xffffffff; a count the GPU wrote takes the first n', async () => {
      const ctx = await getTestContext({ subgroups });
      const data = randomData('f32', 70000, 5, 'small');
      const maxCount = data.length;
      const counts = [0, 1, 4097, 65537, maxCount];
      const plan = createArgMaxPlan(ctx, { type: 'f32', maxCount });
      const host = createArgMinPlan(ctx, { type: 'f32' });
      const results = await runBatch(ctx, [
        ...counts.map((n) => ({
          record(encoder: GPUCommandEncoder) {
            const output = poisoned(ctx, 8);
            plan.encode(encoder, {
              input: bufferOf(ctx, data),
              output,
              countBuffer: bufferOf(ctx, new Uint32Array([7, n])),
              countOffset: 4,
            });
            return [{ buffer: output, bytes: 8 }];
          },
        })),
        {
          record(encoder: GPUCommandEncoder) {
            const output = poisoned(ctx, 8);
            host.encode(encoder, { input: bufferOf(ctx, data), output, count: 0 });
            return [{ buffer: output, bytes: 8 }];
          },
        },
      ]);
      plan.destroy();
      host.destroy();
      counts.forEach((n, i) => {
        const [bits, index] = new Uint32Array(results[i]![0]!);
        if (n === 0) expect(index).toBe(0xffffffff);
        else {
          const want = cpu.argMax(data.subarray(0, n));
          expect({ n, bits, index }).toEqual({ n, bits: bitsOfValue(data, want.value), index: want.index });
        }
      });
      expect(new Uint32Array(results[counts.length]![0]!)[1]).toBe(0xffffffff);
      expect(new Uint32Array(results[counts.length]![0]!)[0]).not.toBe(POISON_U32);
    });
  });
}

describe('argMin / argMax (array level)', () => {
  it('agree with the CPU reference, keep ±0 and NaN, and leave the input alone', async () => {
    const ctx = await getTestContext();
    for (const type of ELEMENT_TYPES) {
      for (const data of [...special(type), randomData(type, 5000, 9), randomData(type, 3, 1, 'equal')]) {
        const copy = data.slice();
        for (const which of WHICH) {
          const got = await (which === 'min' ? argMin : argMax)(ctx, data);
          expectSame(got, (which === 'min' ? cpu.argMin : cpu.argMax)(data), `arg${which} ${type} [${Array.from(data.subarray(0, 6))}]`);
        }
        expect(data).toEqual(copy);
      }
    }
    expect(await argMin(ctx, new Float32Array([0, -0, 1]))).toEqual({ value: -0, index: 1 });
    expect(await argMax(ctx, new Float32Array([1, Number.NaN, 2]))).toEqual({ value: Number.NaN, index: 1 });
    expect(await argMin(ctx, new Float32Array([Number.NaN, 2, Number.NaN]))).toEqual({ value: 2, index: 1 });
    expect(await argMax(ctx, new Int32Array([-5, 7, 7]))).toEqual({ value: 7, index: 1 });
  });

  it('rejects what has no answer or is no typed array, naming the argument', async () => {
    const ctx = await getTestContext();
    for (const f of [argMin, argMax]) {
      await expect(f(ctx, new Uint32Array(0))).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/^data = Uint32Array\(0\).*empty/),
      });
      await expect(f(ctx, [1, 2] as unknown as Uint32Array)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/^data = Array\(2\)/),
      });
    }
    expect(() => cpu.argMin(new Float32Array(0))).toThrow(/data = Float32Array\(0\).*empty/);
    expect(() => cpu.argMax(new Uint8Array(2) as unknown as Uint32Array)).toThrow(/data = Uint8Array/);
    expect(() => createArgMinPlan(ctx, { type: 'f16' as 'f32' })).toThrow(/options\.type/);
    expect(() => createArgMaxPlan(ctx, { op: 'max' } as never)).toThrow(/options/);
    const plan = createArgMinPlan(ctx, { type: 'u32' });
    const encoder = ctx.device.createCommandEncoder();
    expect(() => plan.encode(encoder, { input: bufferOf(ctx, new Uint32Array(4)), output: poisoned(ctx, 8), count: 5 })).toThrow(
      /argmin plan: args\.input/,
    );
    const small = ctx.device.createBuffer({ size: 4, usage: GPUBufferUsage.STORAGE });
    expect(() => plan.encode(encoder, { input: bufferOf(ctx, new Uint32Array(4)), output: small, count: 4 })).toThrow(
      /args\.output has 4 bytes/,
    );
    small.destroy();
    plan.destroy();
  });
});
