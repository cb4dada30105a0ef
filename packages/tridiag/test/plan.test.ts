// Plan reuse: scratch allocated at creation, never per encode (the parameter ring is made at the
// first encode); repeated solves give the same x.
import { getTestContext, poisonBuffer } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { createTridiagonalPlan } from '../src/index.js';
import { randomSystems, read, upload } from './helpers.js';

const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

describe('createTridiagonalPlan', () => {
  it("reports the algorithm that runs: 'auto' is the partition method where it applies, else the hybrid", async () => {
    const ctx = await getTestContext();
    expect(createTridiagonalPlan(ctx, { n: 1024, batch: 2 }).algorithm).toBe('partition');
    expect(createTridiagonalPlan(ctx, { n: 1024, batch: 2, stride: 'interleaved' }).algorithm).toBe('cr-pcr');
    expect(createTridiagonalPlan(ctx, { n: 1001, batch: 2, algorithm: 'partition' }).algorithm).toBe('cr-pcr');
    expect(createTridiagonalPlan(ctx, { n: 1 << 17, batch: 1 }).algorithm).toBe('cr-pcr');
    expect(createTridiagonalPlan(ctx, { n: 1024, batch: 2, algorithm: 'pcr' }).algorithm).toBe('pcr');
  });

  it('reuses its scratch across encodes, with and without status; several solves in one encoder', async () => {
    const ctx = await getTestContext();
    for (const [n, maxWorkgroupSystem] of [
      [100, undefined],
      [1000, 32],
    ] as const) {
      const batch = 4;
      const plan = createTridiagonalPlan(ctx, {
        n,
        batch,
        algorithm: 'cr',
        ...(maxWorkgroupSystem ? { maxWorkgroupSystem } : {}),
      } as never);
      expect(plan.algorithm).toBe('cr');
      expect(plan.n).toBe(n);
      expect(plan.batch).toBe(batch);
      expect(plan.stride).toBe('contiguous');
      const scratchBytes = plan.scratchBytes;
      const allocations = plan.allocations;
      if (maxWorkgroupSystem) expect(scratchBytes).toBeGreaterThanOrEqual(16 * batch * (500 + 250 + 125 + 62 + 31));
      const systems = randomSystems(n, batch, 3);
      const inputs = { a: upload(ctx, systems.a), b: upload(ctx, systems.b), c: upload(ctx, systems.c), d: upload(ctx, systems.d) };
      const outputs = [0, 1, 2].map(() => ctx.device.createBuffer({ size: 4 * n * batch, usage: USAGE }));
      const status = upload(ctx, new Uint32Array([0xffffffff]));
      ctx.device.pushErrorScope('validation');
      const encoder = ctx.device.createCommandEncoder();
      for (const [i, x] of outputs.entries()) {
        poisonBuffer(ctx, x, 4 * n * batch);
        plan.encode(encoder, { ...inputs, x, ...(i === 1 ? { status } : {}) });
      }
      ctx.device.queue.submit([encoder.finish()]);
      const results = await Promise.all(outputs.map((x) => read(ctx, x, 4 * n * batch)));
      expect(await ctx.device.popErrorScope()).toBeNull();
      expect(plan.scratchBytes).toBe(scratchBytes);
      // One more buffer: the parameter ring, made at the first encode and reused by the others.
      expect(plan.allocations).toBe(allocations + 1);
      const first = new Uint32Array(results[0] as ArrayBuffer);
      for (const r of results) expect(new Uint32Array(r)).toEqual(first);
      expect(first.includes(0xdeadbeef)).toBe(false);
      expect(new Uint32Array(await read(ctx, status, 4))[0]).toBe(0xffffffff);
      plan.destroy();
      expect(() => plan.encode(ctx.device.createCommandEncoder(), { ...inputs, x: outputs[0] as GPUBuffer })).toThrow(/destroyed/);
      for (const b of [...Object.values(inputs), ...outputs, status]) b.destroy();
    }
  });
});
