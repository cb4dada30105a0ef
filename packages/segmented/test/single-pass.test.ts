// The single-pass segmented scan against the CPU reference: every op × type × direction ×
// inclusive (see FULL), both paths, segment-length distributions, chunking, forced fallback; outputs poisoned.

import { ELEMENT_TYPES, SCAN_OPS, type ScanContext, type ScanOp, type ScanTypedArray } from '@scan/core';
import { opFitsType } from '@scan/core/kit';
import { expectEqualArrays, getTestContext, POISON_U32, poisonBuffer, randomData, randomSegmentFlags } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { segmentedScan } from '../src/ops/segmented-scan.js';
import { createSegmentedScanPlan, type SegmentedScanPlanOptions } from '../src/plans/segmented-scan-plan.js';

const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

async function runPlan(
  ctx: ScanContext,
  options: SegmentedScanPlanOptions,
  cases: { data: ScanTypedArray; flags: Uint8Array }[],
): Promise<ScanTypedArray[]> {
  const device = ctx.device;
  const plan = createSegmentedScanPlan(ctx, options);
  const encoder = device.createCommandEncoder();
  const owned: GPUBuffer[] = [];
  const reads: { staging: GPUBuffer; like: ScanTypedArray }[] = [];
  device.pushErrorScope('validation');
  for (const { data, flags } of cases) {
    const n = data.length;
    const make = (bytes: number) => {
      const b = device.createBuffer({ size: Math.max(16, Math.ceil(bytes / 16) * 16), usage: USAGE });
      owned.push(b);
      return b;
    };
    const input = make(4 * n);
    device.queue.writeBuffer(input, 0, data.buffer, data.byteOffset, data.byteLength);
    const bits = cpu.packHeadFlags(flags);
    const headBits = make(4 * bits.length);
    device.queue.writeBuffer(headBits, 0, bits.buffer, bits.byteOffset, bits.byteLength);
    const output = make(4 * n);
    poisonBuffer(ctx, output, output.size);
    plan.encode(encoder, { input, headBits, output, count: n });
    const staging = device.createBuffer({ size: Math.max(4, 4 * n), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    if (n > 0) encoder.copyBufferToBuffer(output, 0, staging, 0, 4 * n);
    reads.push({ staging, like: data });
  }
  device.queue.submit([encoder.finish()]);
  const error = await device.popErrorScope();
  if (error) throw new Error(error.message);
  const out: ScanTypedArray[] = [];
  for (const { staging, like } of reads) {
    await staging.mapAsync(GPUMapMode.READ);
    out.push(new (like.constructor as new (b: ArrayBuffer) => ScanTypedArray)(staging.getMappedRange().slice(0, 4 * like.length)));
    staging.destroy();
  }
  plan.destroy();
  for (const b of owned) b.destroy();
  return out;
}

const kindFor = (op: ScanOp) => (op === 'add' ? ('small' as const) : op === 'mul' ? ('mul-safe' as const) : ('random' as const));
const SIZES = [1, 2, 3, 4, 5, 7, 31, 32, 33, 255, 1023, 1024, 1025, 4095, 4096, 4097, 3 * 4096 + 7];
const MEANS = [1, 3, 30, 3000, 1e9];

/**
 * Type/op pairs that get every direction × inclusive combination on both paths. The other pairs get
 * two combinations between them covering both directions, both modes and both paths (exclusive
 * forward with subgroups, inclusive backward without), as scan-multipass.test.ts in core: an
 * operator changes only `combine` and the identity, orthogonal to the direction and mode logic,
 * and every combination is a pipeline SwiftShader compiles anew.
 */
const FULL = new Set(['u32.add', 'i32.min', 'f32.add', 'f32.max']);

function combosFor(type: string, op: ScanOp, subgroups: boolean): { backward: boolean; inclusive: boolean }[] {
  if (!FULL.has(`${type}.${op}`)) return [{ backward: !subgroups, inclusive: !subgroups }];
  return [false, true].flatMap((backward) => [false, true].map((inclusive) => ({ backward, inclusive })));
}

for (const subgroups of [true, false]) {
  describe(`single-pass segmented scan (${subgroups ? 'subgroups' : 'workgroup memory'})`, () => {
    for (const type of ELEMENT_TYPES) {
      it(`${type}: every op, direction, inclusive; segment lengths 1, ~3, ~30, ~3000, one segment`, async () => {
        const ctx = await getTestContext({ subgroups });
        for (const op of SCAN_OPS.filter((o) => opFitsType(o, type))) {
          for (const { backward, inclusive } of combosFor(type, op, subgroups)) {
            const cases = SIZES.map((n, i) => ({
              data: randomData(type, n, i + n, kindFor(op)),
              flags: randomSegmentFlags(n, MEANS[i % MEANS.length]!, 7 * n + i),
            }));
            const got = await runPlan(ctx, { type, op, backward, inclusive, algorithm: 'single-pass' }, cases);
            cases.forEach(({ data, flags }, i) =>
              expectEqualArrays(
                got[i]!,
                cpu.segmentedScan(data, flags, { op, backward, inclusive }),
                `${type} ${op} ${backward ? 'bwd' : 'fwd'} ${inclusive ? 'inc' : 'exc'} n=${data.length} mean=${MEANS[i % MEANS.length]}`,
              ),
            );
          }
        }
      });
    }

    it('chunked (carry between chunks inside a segment), forced fallback, a size past 2^20, zero first flag', async () => {
      const ctx = await getTestContext({ subgroups });
      for (const backward of [false, true]) {
        for (const extra of [{ maxChunkElements: 4096 }, { forceFallback: true }] as const) {
          const cases = [20_003, 8192, 4097].flatMap((n) =>
            MEANS.map((m) => ({ data: randomData('u32', n, n + m, 'random'), flags: randomSegmentFlags(n, m, n * 3 + m) })),
          );
          cases[0]!.flags[0] = 0; // treated as a head
          const got = await runPlan(ctx, { type: 'u32', backward, ...extra } as SegmentedScanPlanOptions, cases);
          cases.forEach(({ data, flags }, i) =>
            expectEqualArrays(got[i]!, cpu.segmentedScan(data, flags, { backward }), `${JSON.stringify(extra)} bwd=${backward} case ${i}`),
          );
        }
      }
      // Past 2^20 (257 tiles): short segments forward, long ones (crossing tiles) backward.
      const n = (1 << 20) + 3;
      for (const [mean, backward] of [
        [16, false],
        [4096, true],
      ] as const) {
        const data = randomData('f32', n, mean, 'small');
        const flags = randomSegmentFlags(n, mean, mean);
        const [got] = await runPlan(ctx, { type: 'f32', backward, inclusive: true }, [{ data, flags }]);
        expectEqualArrays(got!, cpu.segmentedScan(data, flags, { backward, inclusive: true }), `2^20+3 mean ${mean} bwd=${backward}`);
      }
    });
  });
}

describe('segmentedScan (array level)', () => {
  it('matches the examples and validates', async () => {
    const ctx = await getTestContext();
    const data = new Uint32Array([1, 2, 3, 4, 5]);
    expect([...(await segmentedScan(ctx, data, new Uint8Array([1, 0, 0, 1, 0])))]).toEqual([0, 1, 3, 0, 4]);
    expect([...(await segmentedScan(ctx, data, new Uint8Array([1, 0, 0, 1, 0]), { inclusive: true, backward: true }))]).toEqual([
      6, 5, 3, 9, 5,
    ]);
    expect([...(await segmentedScan(ctx, data, new Uint32Array([0, 0, 0, 1, 0]), { op: 'max', inclusive: true }))]).toEqual([
      1, 2, 3, 4, 5,
    ]);
    await expect(segmentedScan(ctx, data, new Uint8Array(4))).rejects.toThrow(/headFlags/);
    await expect(segmentedScan(ctx, data, new Uint8Array([1, 2, 0, 0, 0]))).rejects.toThrow(/headFlags\[1\] = 2/);
    expect((await segmentedScan(ctx, new Float32Array(0), new Uint8Array(0))).length).toBe(0);
    expect(POISON_U32).toBe(0xdeadbeef);
  });
});
