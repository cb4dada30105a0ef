// tcuReduce / tcuScan / tcuCount on the emulated path (SwiftShader has no subgroup matrices)
// against the CPU references. Tolerance: the GPU sums the same f16-rounded values in f32 in a
// different order than the CPU, so each result may differ by sumErrorBound(terms, Σ|x|).
import { createRng, getTestContext, poisonBuffer } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { createTcuReducePlan, createTcuScanPlan, packHalves, prepareTcu, tcuCount, tcuReduce, tcuScan } from '../src/index.js';
import { expectClose, halfData } from './close.js';

const SIZES: [number, number | undefined][] = [
  [4096, 1],
  [4095, 15],
  [4096, 16],
  [4097, 17],
  [1 << 14, 255],
  [1 << 14, 256],
  [1 << 15, 4096],
  [1 << 18, 65536],
  [(1 << 18) - 5, undefined],
  [1000, undefined],
  [1, undefined],
];

describe('tcu on the emulated path', () => {
  it('tcuReduce: segment sizes 1 … 65536 and the whole array (pad where needed)', async () => {
    const ctx = await getTestContext();
    for (const [n, s] of SIZES) {
      const data = halfData(n, n + (s ?? 0));
      expectClose(await tcuReduce(ctx, data, { segmentSize: s, pad: true }), data, s, `reduce n=${n} s=${s}`);
    }
  });

  it('tcuScan: inclusive and exclusive, segment sizes 1 … 65536 and the whole array', async () => {
    const ctx = await getTestContext();
    for (const inclusive of [false, true]) {
      for (const [n, s] of SIZES) {
        const data = halfData(n, 3 * n + (s ?? 0));
        expectClose(await tcuScan(ctx, data, { segmentSize: s, pad: true, inclusive }), data, s, `scan n=${n} s=${s} incl=${inclusive}`, {
          inclusive,
        });
      }
    }
  });

  it('tcuCount: random 0/1 flags, exact', async () => {
    const ctx = await getTestContext();
    for (const [n, s] of SIZES) {
      const rng = createRng(n);
      const flags = new Uint8Array(n);
      for (let i = 0; i < n; i++) flags[i] = rng.float() < 0.3 ? 1 : 0;
      expect(await tcuCount(ctx, flags, { segmentSize: s, pad: true }), `count n=${n} s=${s}`).toEqual(
        cpu.tcuCount(flags, { segmentSize: s, pad: true }),
      );
    }
  });

  it('other emulated shapes (8×8×8, 16×8×16) give the same results', async () => {
    const ctx = await getTestContext();
    await prepareTcu(ctx);
    for (const shape of [
      { M: 8, N: 8, K: 8 },
      { M: 16, N: 8, K: 16 },
    ]) {
      for (const [n, s] of [
        [3000, 5],
        [4096, 8],
        [5000, 100],
        [20000, undefined],
      ] as const) {
        const data = halfData(n, n);
        const bits = cpu.toF16Array(data);
        const device = ctx.device;
        const input = device.createBuffer({ size: 4 * Math.ceil(n / 2), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
        device.queue.writeBuffer(input, 0, packHalves(bits));
        const nseg = Math.ceil(n / (s ?? n));
        for (const kind of ['reduce', 'scan'] as const) {
          const outLen = kind === 'reduce' ? nseg : n;
          const output = device.createBuffer({
            size: 4 * outLen,
            usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
          });
          poisonBuffer(ctx, output, 4 * outLen);
          const plan =
            kind === 'reduce'
              ? createTcuReducePlan(ctx, { path: 'emulated', emulatedShape: shape })
              : createTcuScanPlan(ctx, { path: 'emulated', emulatedShape: shape });
          await plan.ready;
          const staging = device.createBuffer({ size: 4 * outLen, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
          const encoder = device.createCommandEncoder();
          plan.encode(encoder, { input, output, count: n, segmentSize: s });
          encoder.copyBufferToBuffer(output, 0, staging, 0, 4 * outLen);
          device.queue.submit([encoder.finish()]);
          await staging.mapAsync(GPUMapMode.READ);
          const got = new Float32Array(staging.getMappedRange().slice(0));
          staging.destroy();
          output.destroy();
          plan.destroy();
          expectClose(got, data, s, `${kind} ${JSON.stringify(shape)} n=${n} s=${s}`, kind === 'scan' ? { inclusive: false } : undefined);
        }
        input.destroy();
      }
    }
  });
});
