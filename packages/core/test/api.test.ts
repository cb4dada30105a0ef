// The public contract around the kernels: validation, errors, plan reuse, caching, device loss.
import { freshTestContext, getTestContext, randomData } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { createStorageBuffer, uploadArray } from '../src/buffers.js';
import * as cpu from '../src/cpu/index.js';
import { ScanError } from '../src/errors.js';
import { histogram } from '../src/ops/histogram.js';
import { distribute, enumerate, pack, packIf, reduce, split } from '../src/ops/primitives.js';
import { scan } from '../src/ops/scan.js';
import { cachedPipelineCount } from '../src/pipeline-cache.js';
import { RecipeExecutor } from '../src/plans/executor.js';
import { createScanPlan } from '../src/plans/scan-plan.js';
import { checkArrayLength } from '../src/validate.js';
import { asTyped, bufferOf, poisoned, runBatch } from './harness.js';

async function rejectsWith(promise: Promise<unknown>, code: string, text: RegExp) {
  const e = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, `expected a ScanError ${code}`).toBeInstanceOf(ScanError);
  expect((e as ScanError).code).toBe(code);
  expect((e as ScanError).message).toMatch(text);
}

describe('bad input', () => {
  it('array-level functions name the argument and value', async () => {
    const ctx = await getTestContext();
    await rejectsWith(scan(ctx, [1, 2, 3] as unknown as Uint32Array), 'INVALID_ARGUMENT', /data = Array\(3\)/);
    await rejectsWith(scan(ctx, new Float32Array(4), { op: 'xor' }), 'INVALID_ARGUMENT', /options\.op = "xor".*f32/);
    await rejectsWith(scan(ctx, new Uint32Array(4), { op: 'sum' as 'add' }), 'INVALID_ARGUMENT', /options\.op = "sum"/);
    await rejectsWith(scan(ctx, new Uint32Array(4), { inclusve: true } as never), 'INVALID_ARGUMENT', /inclusve/);
    await rejectsWith(scan(ctx, new Uint32Array(4), { algorithm: 'fast' as 'auto' }), 'INVALID_ARGUMENT', /algorithm/);
    await rejectsWith(enumerate(ctx, new Uint32Array([0, 1, 2])), 'INVALID_ARGUMENT', /flags\[2\] = 2/);
    await rejectsWith(split(ctx, new Uint32Array(3), new Uint32Array(2)), 'INVALID_ARGUMENT', /flags.*length 2.*3/);
    await rejectsWith(pack(ctx, new Int32Array(3), new Float32Array(3) as unknown as Uint32Array), 'INVALID_ARGUMENT', /flags/);
    await rejectsWith(reduce(ctx, new Uint32Array(2), { op: 'and', backward: true } as never), 'INVALID_ARGUMENT', /backward/);
    await rejectsWith(distribute(ctx, new Uint32Array(2), { backward: 'yes' } as never), 'INVALID_ARGUMENT', /options\.backward = "yes"/);
    await rejectsWith(scan({} as never, new Uint32Array(2)), 'INVALID_ARGUMENT', /ctx/);
  });

  it('empty inputs give empty results of the same type', async () => {
    const ctx = await getTestContext();
    const out = await scan(ctx, new Int32Array(0), { op: 'min' });
    expect(out).toBeInstanceOf(Int32Array);
    expect(out.length).toBe(0);
    expect((await enumerate(ctx, new Uint32Array(0))).length).toBe(0);
    expect(await split(ctx, new Float32Array(0), new Uint8Array(0))).toEqual({ output: new Float32Array(0), falseCount: 0 });
  });

  it('plans reject wrong buffers, aliasing and missing usages', async () => {
    const ctx = await getTestContext();
    const plan = createScanPlan(ctx, { type: 'i32' });
    const small = ctx.device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    const big = ctx.device.createBuffer({ size: 64, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    // Exactly 5 elements: the partial last vec4 cannot be bound, so it goes through a copy.
    const noCopy = ctx.device.createBuffer({ size: 20, usage: GPUBufferUsage.STORAGE });
    const encoder = ctx.device.createCommandEncoder();
    expect(() => plan.encode(encoder, { input: big, output: small, count: 10 })).toThrow(/args\.output has 16 bytes, needs 40/);
    expect(() => plan.encode(encoder, { input: big, output: big, count: 4 })).toThrow(/same buffer/);
    expect(() => plan.encode(encoder, { input: big, output: noCopy, count: 5 })).toThrow(/COPY_DST/);
    expect(() => plan.encode(encoder, { input: big, output: small, count: -1 })).toThrow(/args\.count = -1/);
    expect(() => plan.encode(encoder, { input: big, output: {} as GPUBuffer, count: 1 })).toThrow(/args\.output/);
    expect(() => createScanPlan(ctx, { type: 'f64' as 'f32' })).toThrow(/options\.type = "f64"/);
    // The unstable tuning: one object, checked key by key; its keys are no top-level options.
    expect(() => createScanPlan(ctx, { tuning: { workgroupSize: 0 } })).toThrow(
      /^options\.tuning\.workgroupSize = 0: expected a positive integer$/,
    );
    expect(() => createScanPlan(ctx, { tuning: { tail: 'inline' as 'direct' } })).toThrow(
      /^options\.tuning\.tail = "inline": expected one of 'staged', 'direct'$/,
    );
    expect(() => createScanPlan(ctx, { tuning: { forcefallback: true } as never })).toThrow(
      /^options\.tuning\.forcefallback = true: unknown option/,
    );
    expect(() => createScanPlan(ctx, { forceFallback: true } as never)).toThrow(/^options\.forceFallback = true: unknown option/);
    plan.destroy();
    expect(() => plan.encode(encoder, { input: big, output: small, count: 1 })).toThrow(/destroyed/);
    for (const b of [small, big, noCopy]) b.destroy();
  });

  it('a size past the device limits is TOO_LARGE, not a GPU crash', async () => {
    const real = await getTestContext();
    // The same device, seen through limits of 1 KiB, so the checks trip without a 1 GiB array.
    const limits = { ...real.caps.limits, maxBufferSize: 1024, maxStorageBufferBindingSize: 1024 };
    const ctx = { ...real, lostReason: undefined, caps: { ...real.caps, limits } } as typeof real;
    await rejectsWith(scan(ctx, new Uint32Array(1000)), 'TOO_LARGE', /maxBufferSize/);
    await rejectsWith(reduce(ctx, new Float32Array(300)), 'TOO_LARGE', /maxBufferSize/);
    await rejectsWith(
      split(ctx, new Int32Array(300), new Uint32Array(300)),
      'TOO_LARGE',
      /^data = 300 elements \(1200 bytes\): more than the device binds at once \(maxStorageBufferBindingSize = 1024 bytes, at most 256 32-bit elements\)$/,
    );
    // Within maxBufferSize but past one binding: scans are chunked, split cannot be.
    const roomy = {
      ...ctx,
      caps: { ...ctx.caps, limits: { ...limits, maxBufferSize: 1 << 20, maxStorageBufferBindingSize: 1024 } },
    } as typeof real;
    const data = randomData('u32', 1000, 3, 'random');
    expect(await scan(roomy, data)).toEqual(cpu.scan(data));
    await rejectsWith(split(roomy, data, new Uint32Array(1000)), 'TOO_LARGE', /^data = 1000 elements .*maxStorageBufferBindingSize = 1024/);
  });

  it('a size past the device limits is rejected at once, naming the argument (issue 33: split of 2^28 + 16)', async () => {
    const real = await getTestContext();
    // The report's sizes against 1 GiB limits, without allocating them: arrays that only claim
    // their length (the check must come before the flags are read), and a device that throws when
    // touched (the check must come before any GPU work).
    const n = 2 ** 28 + 16;
    const long = <T extends object>(array: T): T => Object.defineProperty(array, 'length', { value: n });
    const device = new Proxy({} as GPUDevice, {
      get: (_, key) => {
        throw new Error(`device.${String(key)} used before the size was checked`);
      },
    });
    const limits = { ...real.caps.limits, maxBufferSize: 2 ** 30, maxStorageBufferBindingSize: 2 ** 30 };
    const ctx = { ...real, device, lostReason: undefined, caps: { ...real.caps, limits } } as typeof real;
    const caught = async (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (e: unknown) => e as ScanError,
      );
    const binding = `(maxStorageBufferBindingSize = ${2 ** 30} bytes, at most ${2 ** 28} 32-bit elements)`;
    const buffer = `(maxBufferSize = ${2 ** 30} bytes, at most ${2 ** 28} 32-bit elements)`;
    const cases: [string, () => Promise<unknown>, string, string][] = [
      ['split', () => split(ctx, long(new Int32Array(0)), long(new Uint8Array(0))), 'data', `the device binds at once ${binding}`],
      ['pack', () => pack(ctx, long(new Float32Array(0)), long(new Uint32Array(0))), 'data', `the device binds at once ${binding}`],
      ['packIf', () => packIf(ctx, long(new Uint32Array(0)), { op: 'ne', value: 0 }), 'data', `the device binds at once ${binding}`],
      [
        'histogram',
        () => histogram(ctx, long(new Float32Array(0)), { bins: 4, range: [0, 1] }),
        'samples',
        `the device binds at once ${binding}`,
      ],
      ['scan', () => scan(ctx, long(new Uint32Array(0))), 'data', `one device buffer holds ${buffer}`],
      ['reduce', () => reduce(ctx, long(new Float32Array(0))), 'data', `one device buffer holds ${buffer}`],
      ['distribute', () => distribute(ctx, long(new Int32Array(0))), 'data', `one device buffer holds ${buffer}`],
      ['enumerate', () => enumerate(ctx, long(new Uint8Array(0))), 'flags', `one device buffer holds ${buffer}`],
    ];
    for (const [label, call, argument, limit] of cases) {
      const e = await caught(call());
      expect(e, label).toBeInstanceOf(ScanError);
      expect(e, label).toMatchObject({ code: 'TOO_LARGE', argument });
      expect(e?.message, label).toBe(`${argument} = ${n} elements (${4 * n} bytes): more than ${limit}`);
    }
    // Exactly at the limit passes the check (what the real device then does is not this test's business).
    expect(() => checkArrayLength(ctx, 2 ** 28, 'data')).not.toThrow();
    expect(() => checkArrayLength(ctx, 2 ** 28 + 1, 'data', 'buffer')).toThrow(/^data = 268435457 elements/);
  });

  it('buffers and plan scratch past maxBufferSize name the argument the size came from, before touching the device', async () => {
    const real = await getTestContext();
    const device = new Proxy({} as GPUDevice, {
      get: (_, key) => {
        throw new Error(`device.${String(key)} used before the size was checked`);
      },
    });
    const limits = { ...real.caps.limits, maxBufferSize: 1024, maxStorageBufferBindingSize: 1024 };
    const ctx = { ...real, device, lostReason: undefined, caps: { ...real.caps, limits } } as typeof real;
    const thrown = (call: () => unknown) => {
      try {
        call();
      } catch (e) {
        return e as ScanError;
      }
      return undefined;
    };
    const cases: [string, () => unknown, string, string, RegExp][] = [
      [
        'createStorageBuffer',
        () => createStorageBuffer(ctx, 1025, 'out'),
        'TOO_LARGE',
        'byteLength',
        /^out: byteLength needs 1040 bytes, past the device's maxBufferSize \(1024\)$/,
      ],
      [
        'createStorageBuffer',
        () => createStorageBuffer(ctx, -4),
        'INVALID_ARGUMENT',
        'byteLength',
        /^byteLength = -4: expected a non-negative integer$/,
      ],
      ['createStorageBuffer', () => createStorageBuffer(ctx, Number.NaN), 'INVALID_ARGUMENT', 'byteLength', /^byteLength = NaN/],
      ['uploadArray', () => uploadArray(ctx, new Uint32Array(257), 'input'), 'TOO_LARGE', 'data', /^input: data needs 1040 bytes/],
      ['uploadArray', () => uploadArray(ctx, [1, 2] as never), 'INVALID_ARGUMENT', 'data', /^data = Array\(2\): expected a typed array/],
    ];
    for (const [label, call, code, argument, message] of cases) {
      const e = thrown(call);
      expect(e, label).toBeInstanceOf(ScanError);
      expect(e, label).toMatchObject({ code, argument });
      expect(e?.message, label).toMatch(message);
    }
    // Scratch: reserved at plan creation it comes from options.maxCount; grown by an encode, from args.count.
    const exec = new RecipeExecutor(ctx, 'test plan');
    const recipe = { steps: [], scratch: { partials: 2048 }, params: [] };
    expect(thrown(() => exec.reserve(recipe))).toMatchObject({
      code: 'TOO_LARGE',
      argument: 'options.maxCount',
      message: `test plan: options.maxCount needs 2048 bytes of scratch ("partials"), past the device's maxBufferSize (1024)`,
    });
    expect(thrown(() => exec.reserveFor(() => recipe))).toMatchObject({ code: 'TOO_LARGE', argument: 'args.count' });
  });
});

describe('plans', () => {
  it('reuse scratch across many encodes and counts into one encoder, and give the same results', async () => {
    const ctx = await getTestContext();
    const plan = createScanPlan(ctx, { type: 'u32', maxCount: 50_000 });
    const allocations = plan.allocations;
    const bytes = plan.scratchBytes;
    expect(allocations).toBeGreaterThan(0);
    const inputs = Array.from({ length: 40 }, (_, i) => randomData('u32', 1000 * (i + 1) + (i % 4), i, 'random'));
    const results = await runBatch(
      ctx,
      inputs.map((data) => ({
        record(encoder) {
          const input = bufferOf(ctx, data);
          const output = poisoned(ctx, 4 * data.length);
          plan.encode(encoder, { input, output, count: data.length });
          return [{ buffer: output, bytes: 4 * data.length }];
        },
      })),
    );
    inputs.forEach((data, i) => expect(asTyped(data, results[i]![0]!)).toEqual(cpu.scan(data)));
    // Scratch is reused; the only new buffers are the parameter ring and its doublings, since 40
    // encodes into one encoder need 40 parameter slots (4 → 8 → 16 → 32).
    expect(plan.scratchBytes).toBe(bytes);
    expect(plan.allocations).toBe(allocations + 4);
    plan.destroy();
  });

  it('compile each pipeline once per device', async () => {
    const ctx = await getTestContext();
    await scan(ctx, new Float32Array([1, 2, 3]), { op: 'max', backward: true });
    const before = cachedPipelineCount(ctx.device);
    await scan(ctx, new Float32Array([4, 5, 6, 7]), { op: 'max', backward: true });
    expect(cachedPipelineCount(ctx.device)).toBe(before);
  });
});

describe('device loss', () => {
  it('a destroyed device rejects calls with DEVICE_LOST', async () => {
    const ctx = await freshTestContext();
    expect([...(await scan(ctx, new Uint32Array([1, 2, 3])))]).toEqual([0, 1, 3]);
    ctx.device.destroy();
    await ctx.device.lost;
    await rejectsWith(scan(ctx, new Uint32Array([1, 2, 3])), 'DEVICE_LOST', /destroyed/);
    await rejectsWith(reduce(ctx, new Uint32Array([1])), 'DEVICE_LOST', /destroyed/);
    expect(() => createScanPlan(ctx)).toThrow(/destroyed/);
  });

  it('a call pending when the device is lost rejects instead of hanging', async () => {
    const ctx = await freshTestContext();
    const pending = scan(ctx, randomData('u32', 1 << 20, 1, 'random'));
    ctx.device.destroy();
    const outcome = await pending.then(
      (v) => ({ ok: true, v }),
      (e: unknown) => ({ ok: false, e }),
    );
    // Either it finished before the loss, or it was rejected with DEVICE_LOST; never pending.
    if (!outcome.ok) expect((outcome as { e: ScanError }).e.code).toBe('DEVICE_LOST');
  });
});
