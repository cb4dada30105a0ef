// @scan/segmented's array-level functions on host data.
import { expectEqualArrays, randomData, randomFlags, randomSegmentFlags } from '@scan/gpu-testing';
import { headFlagsToOffsets, segmentedDistribute, segmentedReduce, segmentedScan, splitAndSegment } from '@scan/segmented';
import * as cpu from '@scan/segmented/cpu';
import { defineCase, type NodeCase } from '../case.js';

export const segmentedCases: readonly NodeCase[] = [
  defineCase('segmented.segmentedScan', 'u32 add, exclusive, u8 head flags, segments of mean 1000', (size, seed) => {
    const data = randomData('u32', size, seed);
    const heads = randomSegmentFlags(size, 1000, seed + 1);
    return {
      call: (ctx) => segmentedScan(ctx, data, heads),
      check: (got) => expectEqualArrays(got, cpu.segmentedScan(data, heads), 'segmentedScan'),
    };
  }),
  defineCase('segmented.segmentedReduce', 'f32 max over offsets, segments of mean 64', (size, seed) => {
    const data = randomData('f32', size, seed);
    const segments = { offsets: cpu.headFlagsToOffsets(randomSegmentFlags(size, 64, seed + 1)) };
    return {
      call: (ctx) => segmentedReduce(ctx, data, segments, { op: 'max' }),
      check: (got) => expectEqualArrays(got, cpu.segmentedReduce(data, segments, { op: 'max' }), 'segmentedReduce'),
    };
  }),
  defineCase('segmented.segmentedDistribute', 'i32, u32 head flags, segments of mean 16, backward', (size, seed) => {
    const data = randomData('i32', size, seed);
    const heads = Uint32Array.from(randomSegmentFlags(size, 16, seed + 1));
    return {
      call: (ctx) => segmentedDistribute(ctx, data, heads, { backward: true }),
      check: (got) => expectEqualArrays(got, cpu.segmentedDistribute(data, heads, { backward: true }), 'segmentedDistribute'),
    };
  }),
  defineCase('segmented.splitAndSegment', 'u32 data, u8 flags of density 0.5, segments of mean 256', (size, seed) => {
    const data = randomData('u32', size, seed);
    const flags = Uint8Array.from(randomFlags(size, seed + 1, 0.5));
    const heads = randomSegmentFlags(size, 256, seed + 2);
    return {
      call: (ctx) => splitAndSegment(ctx, data, flags, heads),
      check: (got) => {
        const want = cpu.splitAndSegment(data, flags, heads);
        expectEqualArrays(got.output, want.output, 'splitAndSegment output');
        expectEqualArrays(got.headFlags, want.headFlags, 'splitAndSegment headFlags');
      },
    };
  }),
  defineCase('segmented.headFlagsToOffsets', 'u8 head flags, segments of mean 8', (size, seed) => {
    const heads = randomSegmentFlags(size, 8, seed);
    return {
      call: (ctx) => headFlagsToOffsets(ctx, heads),
      check: (got) => expectEqualArrays(got, cpu.headFlagsToOffsets(heads), 'headFlagsToOffsets'),
    };
  }),
];
