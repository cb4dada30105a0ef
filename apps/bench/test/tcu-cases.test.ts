import type { ScanContext } from '@scan/core';
import { createNodeContext } from '@scan/core/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { enumerateCases } from '../src/cases.js';
import { readWords } from '../src/child/gpu.js';
import { runOnce as runWorkloadOnce } from '../src/child/measure.js';
import { UnsupportedCaseError, type Workload } from '../src/child/workload.js';
import { bytesMoved } from '../src/metrics.js';
import { halfToNumber, TCU_SEGMENT_SIZES, tcuErrorFactor, tcuSegments, tcuShapes } from '../src/primitives/tcu.js';
import { workloadOf } from '../src/registry.js';

describe('tcu helpers', () => {
  test('shapes: each primitive, each segment size, both paths side by side', () => {
    const shapes = tcuShapes();
    expect(shapes).toHaveLength(2 * TCU_SEGMENT_SIZES.length * 2);
    expect(TCU_SEGMENT_SIZES).toEqual([16, 256, 4096, 65536]);
    expect(shapes.slice(0, 2)).toEqual([
      { primitive: 'tcu-reduce', algorithm: 'subgroup-matrix', type: 'f32', inputType: 'f16', segmentSize: 16 },
      { primitive: 'tcu-reduce', algorithm: 'emulated', type: 'f32', inputType: 'f16', segmentSize: 16 },
    ]);
    expect(shapes.at(-1)).toEqual({ primitive: 'tcu-scan', algorithm: 'emulated', type: 'f32', inputType: 'f16', segmentSize: 65536 });
  });

  test('segments and bytes: f16 input (2 bytes), f32 output per segment (reduce) or per element (scan)', () => {
    expect(tcuSegments(2 ** 16, 256)).toBe(256);
    expect(tcuSegments(1001, 16)).toBe(63);
    expect(bytesMoved('tcu-reduce', 2 ** 28, tcuSegments(2 ** 28, 16))).toBe(2 * 2 ** 28 + 4 * 2 ** 24);
    expect(bytesMoved('tcu-reduce', 1024, 4)).toBe(2064);
    expect(bytesMoved('tcu-scan', 1000)).toBe(6000);
  });

  test('error bound factor and f16 decoding', () => {
    expect(tcuErrorFactor(16) * 2 ** 24).toBe(40);
    expect(halfToNumber(0x3c00)).toBe(1);
    expect(halfToNumber(0xc400)).toBe(-4);
    expect(halfToNumber(0x3bff)).toBe(1 - 2 ** -11);
    expect(halfToNumber(0x0001)).toBe(2 ** -24);
    expect(halfToNumber(0x7c00)).toBe(Number.POSITIVE_INFINITY);
    expect(halfToNumber(0x7e00)).toBeNaN();
  });
});

// The checks on a device, at a tiny odd size (the last word holds one value, the last segment is short).
describe('tcu checks on a device', () => {
  const N = 1001;
  let ctx: ScanContext;
  beforeAll(async () => {
    ctx = await createNodeContext().catch((e: Error) => {
      throw new Error(`no WebGPU adapter: install Debian chromium for SwiftShader, or run on a GPU (${e.message})`);
    });
  });
  afterAll(() => ctx?.destroy());

  const cases = enumerateCases({ sizes: [N], only: ['tcu-reduce', 'tcu-scan'], runs: 10, warmup: 0, seed: 3, density: 0.5 });

  async function runOnce(w: Workload): Promise<void> {
    await runWorkloadOnce(ctx, w);
  }

  test.each(cases.map((c) => [c.series, c] as const))('%s: passes the plan output, catches one wrong value', async (_s, c) => {
    const factory = workloadOf(c.primitive)(ctx, c);
    if (c.algorithm === 'subgroup-matrix' && !ctx.caps.features.subgroupMatrix) {
      await expect(factory).rejects.toThrow(UnsupportedCaseError);
      await expect(factory).rejects.toThrow(/^unsupported on this device/);
      return;
    }
    const w = await factory;
    try {
      await runOnce(w);
      expect(await w.verify()).toEqual({ mismatches: 0 });
      expect(await w.compareWithCpu!()).toBe(0);
      const index = c.primitive === 'tcu-reduce' ? 1 : 100;
      const [word] = await readWords(ctx, w.output, 1, 4 * index);
      // One f32 off by 1 (far past the bound of a sum of ≤ 256 values in [−4, 4)).
      const wrong = new Float32Array(new Uint32Array([word!]).buffer)[0]! + 1;
      ctx.device.queue.writeBuffer(w.output, 4 * index, new Float32Array([wrong]));
      expect(await w.verify()).toEqual({ mismatches: 1, first: index });
      expect(await w.compareWithCpu!()).toBe(1);
    } finally {
      w.destroy();
    }
  });
});
