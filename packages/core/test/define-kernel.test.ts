// The typed kernel boundary: a kernel definition writes its own declarations, derives its cache key
// from its specialization, binds by name through the recipe executor, and tests catch a key that
// does not name what its WGSL depends on.
import { getTestContext } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { bindGroupByName, paramsData } from '../src/kernels/bind-by-name.js';
import { defineKernel, read, readWrite, uniform } from '../src/kernels/define-kernel.js';
import { specializationKey } from '../src/kernels/specialization-key.js';
import { getPipeline } from '../src/pipeline-cache.js';
import { RecipeExecutor } from '../src/plans/executor.js';
import { RecipeBuilder } from '../src/plans/recipe.js';
import { bufferOf, poisoned, runBatch } from './harness.js';

/** out[i] = in[i] · scale + offset (as the element type), for i < count; optionally also counts into `hits`. */
const affine = defineKernel({
  name: 'test/affine',
  bindings: (spec: { type: 'u32' | 'i32' | 'f32'; counted: boolean }) => ({
    input: read(`array<${spec.type}>`),
    output: readWrite(`array<${spec.type}>`),
    hits: spec.counted ? readWrite('array<atomic<u32>>') : undefined,
  }),
  params: { count: 'u32', scale: 'f32', offset: 'i32' },
  wgsl: (spec) => `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  if (id.x >= params.count) { return; }
  output[id.x] = ${spec.type}(f32(input[id.x]) * params.scale) + ${spec.type}(params.offset);
  ${spec.counted ? 'atomicAdd(&hits[0], 1u);' : ''}
}`,
});

describe('specializationKey', () => {
  it('is the same for the same data in any field order, and leaves out undefined fields', () => {
    expect(specializationKey({ b: 1, a: 'x', c: undefined })).toBe(specializationKey({ a: 'x', b: 1 }));
    expect(specializationKey({ a: [1, 2], o: { y: true, x: 0 } })).toBe('a=[1,2],o={x=0,y=true}');
  });

  it('tells apart values that print alike', () => {
    expect(specializationKey({ a: '1' })).not.toBe(specializationKey({ a: 'a,b' }));
    expect(specializationKey({ a: 'a,b=2' })).not.toBe(specializationKey({ a: 'a', b: 2 }));
    expect(specializationKey({ a: [1, 2] })).not.toBe(specializationKey({ a: '[1,2]' }));
  });

  it('rejects what is not plain data', () => {
    expect(() => specializationKey({ f: (() => 1) as never })).toThrow(/not plain data/);
    expect(() => specializationKey({ n: Number.NaN })).toThrow(/NaN/);
    expect(() => specializationKey({ d: new Date(0) as never })).toThrow(/not plain data/);
  });
});

describe('defineKernel', () => {
  it('derives the key from the family and the specialization, and makes each kernel once', () => {
    const a = affine({ type: 'u32', counted: false });
    expect(a.key).toBe('test/affine|counted=false,type=u32');
    expect(affine({ counted: false, type: 'u32' })).toBe(a);
    expect(affine({ type: 'f32', counted: false }).key).not.toBe(a.key);
  });

  it('declares every binding by name in order, the parameter struct, and nothing the specialization leaves out', () => {
    const plain = affine({ type: 'f32', counted: false });
    expect(plain.layout.map((b) => [b.name, b.binding, b.access])).toEqual([
      ['input', 0, 'read'],
      ['output', 1, 'read_write'],
      ['params', 2, 'uniform'],
    ]);
    const code = plain.wgsl();
    expect(code).toContain('struct Params {\n  count: u32,\n  scale: f32,\n  offset: i32,\n}');
    expect(code).toContain('@group(0) @binding(0) var<storage, read> input: array<f32>;');
    expect(code).toContain('@group(0) @binding(2) var<uniform> params: Params;');
    expect(code).not.toContain('hits:');
    expect(affine({ type: 'u32', counted: true }).layout.map((b) => b.name)).toEqual(['input', 'output', 'hits', 'params']);
  });

  it('writes the struct of a uniform declared with fields, and a recipe fills it in struct order', () => {
    const RANGES = { steps: 'u32', scale: 'f32' } as const;
    const k = defineKernel({
      name: 'test/ranges',
      bindings: { out: readWrite('array<u32>'), ranges: uniform('Ranges', RANGES) },
      params: { count: 'u32' },
      wgsl: () => '@compute @workgroup_size(1) fn main() { out[0] = ranges.steps + params.count; }',
    })({});
    const code = k.wgsl();
    expect(code).toContain('struct Ranges {\n  steps: u32,\n  scale: f32,\n}');
    expect(code).toContain('@group(0) @binding(1) var<uniform> ranges: Ranges;');
    const b = new RecipeBuilder();
    expect(b.uniformBlock(RANGES, { scale: 2, steps: 5 })).toEqual({ params: 0 });
    expect(b.build().params[0]).toEqual([5, 0x40000000]);
  });

  it('writes parameters in struct order: f32 as its bits, negative i32 as two’s complement', () => {
    const k = affine({ type: 'i32', counted: false });
    expect(k.paramWords({ offset: -1, scale: 1, count: 5 })).toEqual([5, 0x3f800000, 0xffffffff]);
    expect(Array.from(paramsData(k, { count: 2, scale: 0.5, offset: 3 }))).toEqual([2, 0x3f000000, 3, 0, 0, 0, 0, 0]);
  });

  it('refuses more than 8 parameters, and parameter names a buffer ref uses', () => {
    const nine = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`p${i}`, 'u32' as const]));
    expect(() => defineKernel({ name: 'test/nine', bindings: {}, params: nine, wgsl: () => '' })).toThrow(/9 parameters/);
    expect(() => defineKernel({ name: 'test/role', bindings: {}, params: { role: 'u32' }, wgsl: () => '' })).toThrow(/"role"/);
  });

  it('enables extensions first, with the subgroup diagnostic', () => {
    const k = defineKernel({
      name: 'test/enable',
      bindings: {},
      enable: () => ['subgroups'],
      wgsl: () => '@compute @workgroup_size(1) fn main() {}',
    })({});
    expect(k.wgsl().startsWith('enable subgroups;\ndiagnostic(off, subgroup_uniformity);\n')).toBe(true);
  });
});

describe('binding by name (GPU)', () => {
  it('runs a kernel through a recipe with named buffers and a parameter object, in every element type', async () => {
    const ctx = await getTestContext();
    const n = 1000;
    const exec = new RecipeExecutor(ctx, 'test affine');
    const cases = [
      { type: 'u32' as const, input: new Uint32Array(n).map((_, i) => i * 3), scale: 2, offset: 7 },
      { type: 'i32' as const, input: new Int32Array(n).map((_, i) => i - 500), scale: 3, offset: -11 },
      { type: 'f32' as const, input: new Float32Array(n).map((_, i) => i / 8), scale: 0.5, offset: 2 },
    ];
    const jobs = cases.map((c) => {
      const input = bufferOf(ctx, c.input);
      const output = poisoned(ctx, 4 * n);
      return {
        record: (encoder: GPUCommandEncoder) => {
          exec.encode(
            encoder,
            () => {
              const b = new RecipeBuilder();
              const kernel = affine({ type: c.type, counted: false });
              b.dispatch(kernel, { input: { role: 'input', offset: 0 }, output: { role: 'output', offset: 0 } }, Math.ceil(n / 64), {
                count: n,
                scale: c.scale,
                offset: c.offset,
              });
              return b.build();
            },
            { input, output },
          );
          return [{ buffer: output, bytes: 4 * n }];
        },
      };
    });
    const results = await runBatch(ctx, jobs, [exec]);
    cases.forEach((c, i) => {
      const got = new (c.input.constructor as Uint32ArrayConstructor)(results[i]![0]!);
      const want = c.input.map((x) => (c.type === 'f32' ? x * c.scale + c.offset : Math.trunc(x * c.scale) + c.offset));
      expect(Array.from(got)).toEqual(Array.from(want));
    });
  });

  it('names the binding a recipe left out, or gave a kernel that does not declare it', async () => {
    const ctx = await getTestContext();
    const exec = new RecipeExecutor(ctx, 'test affine');
    const input = bufferOf(ctx, new Uint32Array(4));
    const encodeWith = (bindings: Record<string, { role: string; offset: number }>) => () => {
      const encoder = ctx.device.createCommandEncoder();
      exec.encode(
        encoder,
        () => {
          const b = new RecipeBuilder();
          b.dispatch(affine({ type: 'u32', counted: false }), bindings, 1, { count: 4, scale: 1, offset: 0 });
          return b.build();
        },
        { input },
      );
    };
    expect(encodeWith({ input: { role: 'input', offset: 0 } })).toThrow(/declares "output"/);
    expect(
      encodeWith({ input: { role: 'input', offset: 0 }, output: { role: 'input', offset: 0 }, hits: { role: 'input', offset: 0 } }),
    ).toThrow(/binds "hits"/);
    exec.destroy();
    input.destroy();
  });

  it('binds a declared binding the entry point never reads (the layout is the declared one, not inferred)', async () => {
    const ctx = await getTestContext();
    const exec = new RecipeExecutor(ctx, 'test unused');
    const kernel = defineKernel({
      name: 'test/unused-binding',
      bindings: { unused: read('array<u32>'), out: readWrite('array<u32>') },
      params: { value: 'u32' },
      wgsl: () => '@compute @workgroup_size(1) fn main() { out[0] = params.value; }',
    })({});
    const unused = bufferOf(ctx, new Uint32Array(4));
    const out = poisoned(ctx, 16);
    const results = await runBatch(
      ctx,
      [
        {
          record: (encoder) => {
            exec.encode(
              encoder,
              () => {
                const b = new RecipeBuilder();
                b.dispatch(kernel, { unused: { role: 'unused', offset: 0 }, out: { role: 'out', offset: 0 } }, 1, { value: 42 });
                return b.build();
              },
              { unused, out },
            );
            return [{ buffer: out, bytes: 4 }];
          },
        },
      ],
      [exec, unused],
    );
    expect(new Uint32Array(results[0]![0]!)[0]).toBe(42);
  });

  it('binds outside a recipe by name, and refuses an undeclared name', async () => {
    const ctx = await getTestContext();
    const kernel = affine({ type: 'u32', counted: false });
    const pipeline = getPipeline(ctx, kernel);
    const buffer = bufferOf(ctx, new Uint32Array(8));
    const params = ctx.device.createBuffer({ size: 32, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    expect(bindGroupByName(ctx.device, kernel, pipeline, { input: buffer, output: buffer, params })).toBeDefined();
    expect(() => bindGroupByName(ctx.device, kernel, pipeline, { input: buffer, params })).toThrow(/"output"/);
    expect(() => bindGroupByName(ctx.device, kernel, pipeline, { input: buffer, output: buffer, params, hits: buffer } as never)).toThrow(
      /"hits"/,
    );
    buffer.destroy();
    params.destroy();
  });

  it('fails a cache hit whose key names other WGSL than was compiled under it (tests verify keys)', async () => {
    const ctx = await getTestContext();
    let variant = 0;
    // A generator reading state its key does not name: the defect the verification exists to catch.
    const leaky = defineKernel({
      name: 'test/leaky',
      bindings: { out: readWrite('array<u32>') },
      wgsl: () => `@compute @workgroup_size(1) fn main() { out[0] = ${variant}u; }`,
    })({});
    getPipeline(ctx, leaky);
    expect(() => getPipeline(ctx, leaky)).not.toThrow();
    variant = 1;
    expect(() => getPipeline(ctx, leaky)).toThrow(/names two different WGSL sources/);
  });

  it('refuses, while tests verify kernels, WGSL that Firefox rejects although Chrome compiles it', async () => {
    const ctx = await getTestContext();
    const pointer = defineKernel({
      name: 'test/workgroup-pointer',
      bindings: { out: readWrite('array<u32>') },
      wgsl: () => `var<workgroup> shared_word: u32;
fn bump(p: ptr<workgroup, u32>) { *p = *p + 1u; }
@compute @workgroup_size(1) fn main() { bump(&shared_word); out[0] = shared_word; }`,
    })({});
    expect(() => getPipeline(ctx, pointer)).toThrow(
      /"test\/workgroup-pointer\|" is not portable: function bump takes a pointer to workgroup memory/,
    );
  });
});
