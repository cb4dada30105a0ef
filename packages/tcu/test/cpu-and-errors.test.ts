// f16 rounding, CPU references, bad input, Uint16Array input, plan reuse.
import { ScanError } from '@scan/core';
import { getTestContext, poisonBuffer } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { createTcuReducePlan, packHalves, tcuCount, tcuReduce, tcuScan } from '../src/index.js';

describe('f16 rounding', () => {
  it('round to nearest even, subnormals, overflow, NaN, and agreement with every f16 value', () => {
    expect(cpu.toF16Bits(1)).toBe(0x3c00);
    expect(cpu.toF16Bits(1 + 2 ** -11)).toBe(0x3c00); // tie → even
    expect(cpu.toF16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02); // tie → even (up)
    expect(cpu.toF16Bits(65504)).toBe(0x7bff);
    expect(cpu.toF16Bits(65519)).toBe(0x7bff);
    expect(cpu.toF16Bits(65520)).toBe(0x7c00);
    expect(cpu.toF16Bits(-0)).toBe(0x8000);
    expect(cpu.toF16Bits(2 ** -24)).toBe(0x0001);
    expect(cpu.toF16Bits(2 ** -25)).toBe(0x0000); // tie → even (zero)
    expect(cpu.toF16Bits(3 * 2 ** -25)).toBe(0x0002);
    expect(cpu.toF16Bits(Number.NaN) & 0x7c00).toBe(0x7c00);
    expect(cpu.toF16Bits(Number.POSITIVE_INFINITY)).toBe(0x7c00);
    // Every finite f16 round-trips, and midpoints between neighbours round to the even one.
    for (let h = 0; h < 0x7c00; h++) {
      const x = cpu.fromF16Bits(h);
      expect(cpu.toF16Bits(x)).toBe(h);
      expect(cpu.toF16Bits(-x)).toBe(h | 0x8000);
      if (h < 0x7bff) {
        const mid = (x + cpu.fromF16Bits(h + 1)) / 2;
        expect(cpu.toF16Bits(mid)).toBe(h % 2 === 0 ? h : h + 1);
      }
    }
  });

  it('out-of-range values are reported with index and value, or saturated on request', () => {
    const data = new Float32Array([1, 2, 70000, -1e6]);
    expect(() => cpu.toF16Array(data)).toThrow(/data\[2\] = 70000: outside the f16 range/);
    expect([...cpu.toF16Array(data, { saturate: true })]).toEqual([0x3c00, 0x4000, 0x7bff, 0xfbff]);
    expect(cpu.tcuReduce(data, { saturate: true })[0]).toBe(3);
  });
});

describe('CPU references', () => {
  it('reduce, scan, count and the f64 versions', () => {
    const d = new Float32Array([1, 2, 3, 4, 5]);
    expect([...cpu.tcuReduce(d, { segmentSize: 2, pad: true })]).toEqual([3, 7, 5]);
    expect([...cpu.tcuScan(d, { segmentSize: 2, pad: true })]).toEqual([0, 1, 0, 3, 0]);
    expect([...cpu.tcuScan(d, { inclusive: true })]).toEqual([1, 3, 6, 10, 15]);
    expect([...cpu.tcuReduceF64(new Float32Array([0.1, 0.2]))]).toEqual([cpu.fromF16Bits(0x2e66) + cpu.fromF16Bits(0x3266)]);
    expect([...cpu.tcuCount(new Uint8Array([1, 0, 1, 1]), { segmentSize: 2 })]).toEqual([1, 2]);
    expect([...cpu.tcuReduce(new Float32Array(0))]).toEqual([0]);
  });
});

describe('bad input (GPU functions reject like the CPU ones)', () => {
  it('segment size 0, non-dividing without pad, non-0/1 flags, f16 overflow, unknown options, wrong types', async () => {
    const ctx = await getTestContext();
    const d = new Float32Array(10);
    const cases: [() => Promise<unknown>, RegExp][] = [
      [() => tcuReduce(ctx, d, { segmentSize: 0 }), /options.segmentSize = 0/],
      [() => tcuReduce(ctx, d, { segmentSize: 3 }), /does not divide the length 10/],
      [() => tcuScan(ctx, d, { segmentSize: 2.5 }), /options.segmentSize = 2.5/],
      [() => tcuCount(ctx, new Uint8Array([0, 1, 2])), /flags\[2\] = 2: expected 0 or 1/],
      [() => tcuReduce(ctx, new Float32Array([0, 1e5])), /data\[1\] = 100000: outside the f16 range/],
      [() => tcuScan(ctx, d, { inclusve: true } as never), /options.inclusve/],
      [() => tcuReduce(ctx, [1, 2] as never), /expected a Float32Array/],
      [() => tcuReduce(ctx, d, { path: 'tensor' as never }), /options.path/],
    ];
    for (const [call, message] of cases) {
      const error = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ScanError);
      expect((error as ScanError).code).toBe('INVALID_ARGUMENT');
      expect((error as ScanError).message).toMatch(message);
    }
    expect(() => cpu.tcuReduce(d, { segmentSize: 3 })).toThrow(/does not divide/);
    // The subgroup-matrix path is refused with a reason on a device without it.
    if (!ctx.caps.features.subgroupMatrix)
      await expect(tcuReduce(ctx, d, { path: 'subgroup-matrix' })).rejects.toThrow(/UNSUPPORTED|subgroup/);
  });

  it('Uint16Array input is taken as f16 bits; results equal the Float32Array path', async () => {
    const ctx = await getTestContext();
    const data = new Float32Array(3000).map((_, i) => Math.sin(i) * 100);
    const bits = cpu.toF16Array(data);
    expect([...(await tcuReduce(ctx, bits, { segmentSize: 300 }))]).toEqual([...(await tcuReduce(ctx, data, { segmentSize: 300 }))]);
    expect([...(await tcuScan(ctx, bits, { segmentSize: 1000 }))]).toEqual([...(await tcuScan(ctx, data, { segmentSize: 1000 }))]);
    expect(await tcuReduce(ctx, new Float32Array(0))).toEqual(new Float32Array([0]));
    expect(await tcuScan(ctx, new Float32Array(0))).toEqual(new Float32Array(0));
  });

  it('plan reuse: one plan, several counts and segment sizes, one encoder, poisoned outputs, scratch allocated once per shape', async () => {
    const ctx = await getTestContext();
    const device = ctx.device;
    const plan = createTcuReducePlan(ctx, { path: 'emulated' });
    const rounds: { staging: GPUBuffer; want: Float32Array; len: number }[] = [];
    const encoder = device.createCommandEncoder();
    for (const [n, s] of [
      [70000, 70000],
      [5000, 7],
      [70000, 70000],
      [8192, 512],
    ] as const) {
      const data = new Float32Array(n).map((_, i) => ((i * 7) % 13) - 6);
      const input = device.createBuffer({ size: 4 * Math.ceil(n / 2), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
      device.queue.writeBuffer(input, 0, packHalves(cpu.toF16Array(data)));
      const len = Math.ceil(n / s);
      const output = device.createBuffer({
        size: 4 * len,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
      });
      poisonBuffer(ctx, output, 4 * len);
      plan.encode(encoder, { input, output, count: n, segmentSize: s });
      const staging = device.createBuffer({ size: 4 * len, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      encoder.copyBufferToBuffer(output, 0, staging, 0, 4 * len);
      rounds.push({ staging, want: cpu.tcuReduce(data, { segmentSize: s, pad: true }), len });
    }
    const allocations = plan.allocations;
    device.queue.submit([encoder.finish()]);
    for (const { staging, want } of rounds) {
      await staging.mapAsync(GPUMapMode.READ);
      expect([...new Float32Array(staging.getMappedRange().slice(0))]).toEqual([...want]); // small integers: exact
      staging.destroy();
    }
    expect(allocations).toBeLessThanOrEqual(2);
    plan.destroy();
  });
});
