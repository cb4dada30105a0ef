// @scan/segmented's array-level functions on host data.
import {
  affineRecord,
  createRng,
  expectEqualArrays,
  matrix2x2,
  operatorData,
  randomData,
  randomFlags,
  randomSegmentFlags,
} from '@scan/gpu-testing';
import { headFlagsToOffsets, segmentedDistribute, segmentedReduce, segmentedScan, splitAndSegment } from '@scan/segmented';
import * as cpu from '@scan/segmented/cpu';
import { defineCase, type NodeCase } from '../case.js';

/**
 * Offsets over `size` records with empty segments: those of head flags of mean `mean`, each offset
 * repeated 0 to 2 more times (so the first and last segments may be empty too).
 */
function offsetsWithEmpty(size: number, mean: number, seed: number): Uint32Array {
  const rng = createRng(seed + 7919);
  const offsets: number[] = [];
  for (const offset of cpu.headFlagsToOffsets(randomSegmentFlags(size, mean, seed))) {
    for (let k = rng.float() < 0.25 ? rng.int(1, 2) : 0; k >= 0; k--) offsets.push(offset);
  }
  return Uint32Array.from(offsets);
}

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
  // User-defined operators (issue 48): `size` counts records, each of `op.words` 32-bit words in
  // the host array; their data is exact, so the results compare bit for bit.
  defineCase(
    'segmented.segmentedScan:operator',
    'affineRecord ({a,b} f32), exclusive, u8 head flags, segments of mean 100',
    (size, seed) => {
      const data = operatorData(affineRecord, size, seed);
      const heads = randomSegmentFlags(size, 100, seed + 1);
      return {
        call: (ctx) => segmentedScan(ctx, data, heads, { op: affineRecord }),
        check: (got) => expectEqualArrays(got, cpu.segmentedScan(data, heads, { op: affineRecord }), 'segmentedScan affineRecord'),
      };
    },
  ),
  defineCase('segmented.segmentedReduce:operator', 'matrix2x2 records over offsets with empty segments, mean 16', (size, seed) => {
    const data = operatorData(matrix2x2, size, seed);
    const segments = { offsets: offsetsWithEmpty(size, 16, seed + 1) };
    return {
      call: (ctx) => segmentedReduce(ctx, data, segments, { op: matrix2x2 }),
      check: (got) => expectEqualArrays(got, cpu.segmentedReduce(data, segments, { op: matrix2x2 }), 'segmentedReduce matrix2x2'),
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
