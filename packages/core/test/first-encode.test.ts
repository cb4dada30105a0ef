// A plan encoded before its `ready` settles compiles, synchronously, only the kernels that encode
// runs: the first encode makes the bind groups of every structure a count may take (so that no
// later count makes any), from the kernels' bind group layouts, without compiling their pipelines.
// When it looked the variants' pipelines up, the first frame of a plan whose `ready` was not
// awaited compiled every tier's kernels on the spot (a scan: 4 kernels instead of 1 on the H100).
import { freshTestContext } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { createScanPlan } from '../src/index.js';

const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

describe('a plan encoded before ready', () => {
  it('compiles synchronously only the kernels of the structure it encodes', async () => {
    const ctx = await freshTestContext();
    const device = ctx.device;
    const compiled: string[] = [];
    const createComputePipeline = device.createComputePipeline.bind(device);
    device.createComputePipeline = (descriptor) => {
      compiled.push(descriptor.label ?? '?');
      return createComputePipeline(descriptor);
    };
    // No asynchronous compilation either, so that every kernel this encode needs is compiled here.
    device.createComputePipelineAsync = () => new Promise<GPUComputePipeline>(() => {});
    const n = 1 << 16;
    const input = device.createBuffer({ size: 4 * n, usage: USAGE });
    const output = device.createBuffer({ size: 4 * n, usage: USAGE });
    try {
      const plan = createScanPlan(ctx, { maxCount: n });
      const encoder = device.createCommandEncoder();
      plan.encode(encoder, { input, output, count: n });
      encoder.finish();
      const large = compiled.length;
      expect(large).toBeGreaterThan(0);
      // Every kernel compiled is one this count's structure dispatches: a one-workgroup count
      // afterwards compiles its own kernel then (and makes no bind group: those exist already).
      const again = device.createCommandEncoder();
      plan.encode(again, { input, output, count: 3 });
      again.finish();
      expect(compiled.length).toBeGreaterThan(large);
      expect(new Set(compiled).size).toBe(compiled.length);
      plan.destroy();
    } finally {
      input.destroy();
      output.destroy();
      device.destroy();
    }
  });
});
