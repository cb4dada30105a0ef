// Segmented reduce (ranges walked by groups, segment ends written at their index, look-backs over
// the ranges' head counts and across range boundaries) against the CPU reference; the tunings force
// one range, many ranges, multi-step ranges split over chunks, small groups, and fallbacks for every
// look-back (also across chunks, where an earlier chunk's status stands in for its data).
import { ELEMENT_TYPES, type Plan, SCAN_OPS, type ScanContext, type ScanOp, type ScanTypedArray } from '@scan/core';
import { opFitsType } from '@scan/core/kit';
import { expectEqualArrays, getTestContext, poisonBuffer, randomData, randomSegmentFlags } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { segmentedReduce } from '../src/ops/segmented-reduce.js';
import { createSegmentedReducePlan, type SegmentedReduceEncodeArgs } from '../src/plans/segmented-reduce-plan.js';

const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
const kindFor = (op: ScanOp) => (op === 'add' ? ('small' as const) : op === 'mul' ? ('mul-safe' as const) : ('random' as const));

interface ReduceCase {
  data: ScanTypedArray;
  flags: Uint8Array;
}

/**
 * Runs `plan` on every case in one submission, outputs poisoned, and checks each against the CPU
 * reference and that nothing past its segments was written.
 */
async function expectPlanMatches(
  ctx: ScanContext,
  plan: Plan<SegmentedReduceEncodeArgs>,
  op: ScanOp,
  cases: readonly ReduceCase[],
  label: string,
) {
  const device = ctx.device;
  device.pushErrorScope('validation');
  const encoder = device.createCommandEncoder();
  const reads = cases.map(({ data, flags }) => {
    const n = data.length;
    const want = cpu.segmentedReduce(data, flags, { op });
    const input = device.createBuffer({ size: Math.ceil((4 * n) / 16) * 16, usage: USAGE });
    device.queue.writeBuffer(input, 0, data.buffer, data.byteOffset, data.byteLength);
    const bits = cpu.packHeadFlags(flags);
    const headBits = device.createBuffer({ size: Math.max(16, 4 * bits.length), usage: USAGE });
    device.queue.writeBuffer(headBits, 0, bits.buffer, bits.byteOffset, bits.byteLength);
    const output = device.createBuffer({ size: 4 * (want.length + 4), usage: USAGE });
    poisonBuffer(ctx, output, output.size);
    plan.encode(encoder, { input, headBits, output, count: n, segments: want.length });
    const staging = device.createBuffer({ size: output.size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    encoder.copyBufferToBuffer(output, 0, staging, 0, output.size);
    return { staging, want, data, buffers: [input, headBits, output] };
  });
  device.queue.submit([encoder.finish()]);
  const error = await device.popErrorScope();
  expect(error?.message).toBeUndefined();
  for (const [i, { staging, want, data, buffers }] of reads.entries()) {
    await staging.mapAsync(GPUMapMode.READ);
    const words = new Uint32Array(staging.getMappedRange().slice(0));
    staging.destroy();
    for (const buffer of buffers) buffer.destroy();
    const got = new (data.constructor as new (b: ArrayBuffer) => ScanTypedArray)(words.buffer.slice(0, 4 * want.length));
    expectEqualArrays(got, want, `${label} case ${i} n=${data.length}`);
    expect(
      [...words.subarray(want.length)].every((w) => w === 0xdeadbeef),
      `nothing past the segments, ${label} case ${i}`,
    ).toBe(true);
  }
}

/** Tunings that change the structure on the host (chunks, one range): the default kernel. */
const HOST_SIDE = [{ maxChunkElements: 4096 }, { ranges: 1 }, { maxChunkElements: 8192, ranges: 1 }];
/** Tunings that change the kernel's shape: multi-step ranges, small groups. */
const SHAPES = [
  { workgroupSize: 64, slotsPerRow: 1, ranges: 3 },
  { workgroupSize: 32, slotsPerRow: 8, ranges: 2 },
];
/** Every look-back falls back; the second also with small groups, a range per tile and chunks. */
const FALLBACK = { forceFallback: true };
const FALLBACK_ALL = { forceFallback: true, workgroupSize: 32, slotsPerRow: 1, ranges: 1e9, maxChunkElements: 4096 };

/** Type/op pairs that run every tuning on both paths. */
const FULL = new Set(['u32.add', 'i32.min', 'f32.add', 'f32.max']);
const PAIRS = ELEMENT_TYPES.flatMap((type) => SCAN_OPS.filter((op) => opFitsType(op, type)).map((op) => `${type}.${op}`));

/**
 * The tunings of a type/op pair on one path. FULL pairs get all of them on both paths. The others
 * get, on both paths, the default and the forced fallback with every structural change (the
 * operator's combine in the fallback, across ranges and chunks); with subgroups a host-side tuning
 * (rotating), without the 64 × 1 shape with multi-step ranges. An operator changes only `combine`
 * and the identity, orthogonal to the structure, and every operator × kernel shape is a pipeline
 * SwiftShader compiles anew (about a second each for the 256-wide ones).
 */
function tuningsFor(type: string, op: string, subgroups: boolean): object[] {
  if (FULL.has(`${type}.${op}`)) return [{}, ...HOST_SIDE, ...SHAPES, FALLBACK, FALLBACK_ALL];
  const k = PAIRS.indexOf(`${type}.${op}`);
  return subgroups ? [{}, HOST_SIDE[k % 3]!, FALLBACK_ALL] : [{}, SHAPES[0]!, FALLBACK_ALL];
}

for (const subgroups of [true, false]) {
  describe(`segmented reduce (${subgroups ? 'subgroups' : 'workgroup memory'})`, () => {
    it('every op × type, sizes and segment lengths, chunked and not; outputs poisoned, nothing written past the segments', async () => {
      const ctx = await getTestContext({ subgroups });
      for (const type of ELEMENT_TYPES) {
        for (const op of SCAN_OPS.filter((o) => opFitsType(o, type))) {
          for (const tuning of tuningsFor(type, op, subgroups)) {
            const plan = createSegmentedReducePlan(ctx, { type, op, ...tuning } as never);
            const sizes = [1, 2, 3, 5, 33, 255, 256, 257, 1025, 4097, 20_003];
            const means = [1, 3, 30, 3000, 1e9];
            const cases = sizes.map((n, i) => {
              const flags = randomSegmentFlags(n, means[i % means.length]!, n + i);
              if (i % 3 === 0) flags[0] = 0; // a zero first flag still starts a segment
              return { data: randomData(type, n, n + 11 * i, kindFor(op)) as ScanTypedArray, flags };
            });
            await expectPlanMatches(ctx, plan, op, cases, `${type} ${op} ${JSON.stringify(tuning)}`);
            plan.destroy();
          }
        }
      }
    });

    it('thousands of ranges: look-backs over long runs of ranges without a head', async () => {
      const ctx = await getTestContext({ subgroups });
      // Tiles of 128 elements, one per range: 2^18 + 3 elements make 2049 ranges, where segments of
      // mean length 4096 leave runs of ~32 ranges without a head; one segment over 2^20 + 3
      // elements (8193 ranges) makes the longest run.
      const plan = createSegmentedReducePlan(ctx, { type: 'i32', op: 'max', workgroupSize: 32, slotsPerRow: 1, ranges: 1e9 } as never);
      const cases = [1, 16, 200, 4096, 1e9].map((mean) => {
        const n = mean === 1e9 ? (1 << 20) + 3 : (1 << 18) + 3;
        return { data: randomData('i32', n, mean, 'random') as ScanTypedArray, flags: randomSegmentFlags(n, mean, mean + 5) };
      });
      await expectPlanMatches(ctx, plan, 'max', cases, 'i32 max, 2049 and 8193 ranges');
      plan.destroy();
    });

    it('a size past 2^20 with segment lengths ~16 and ~4096 (array level)', async () => {
      const ctx = await getTestContext({ subgroups });
      const n = (1 << 20) + 3;
      for (const mean of [16, 4096]) {
        const data = randomData('u32', n, mean, 'random');
        const flags = randomSegmentFlags(n, mean, mean + 1);
        expectEqualArrays(await segmentedReduce(ctx, data, flags), cpu.segmentedReduce(data, flags), `2^20+3 mean ${mean}`);
      }
    });
  });
}

describe('segmentedReduce (array level)', () => {
  it('head flags and offsets with empty segments', async () => {
    const ctx = await getTestContext();
    expect([...(await segmentedReduce(ctx, new Uint32Array([1, 2, 3, 4, 5]), new Uint8Array([1, 0, 0, 1, 0])))]).toEqual([6, 9]);
    const offsets = { offsets: new Uint32Array([0, 2, 2, 3, 3]) };
    expect([...(await segmentedReduce(ctx, new Int32Array([1, 2, 3]), offsets, { op: 'max' }))]).toEqual([2, -2147483648, 3, -2147483648]);
    expect([...(await segmentedReduce(ctx, new Float32Array(0), { offsets: new Uint32Array([0, 0]) }))]).toEqual([0]);
    await expect(segmentedReduce(ctx, new Uint32Array(3), { offsets: new Uint32Array([0, 2, 1, 3]) })).rejects.toThrow(/offsets\[2\]/);
    await expect(segmentedReduce(ctx, new Float32Array(3), new Uint8Array(3), { op: 'xor' })).rejects.toThrow(/xor/);
  });
});
