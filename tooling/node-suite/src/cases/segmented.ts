// @scan/segmented's array-level functions on host data.
import {
  affineRecord,
  createRng,
  expectEqualArrays,
  hashRecord,
  matrix2x2,
  operatorData,
  randomData,
  randomFlags,
  randomSegmentFlags,
} from '@scan/gpu-testing';
import {
  headFlagsToOffsets,
  reduceByKey,
  runLengthEncode,
  scanByKey,
  segmentedDistribute,
  segmentedReduce,
  segmentedScan,
  splitAndSegment,
  unique,
  uniqueByKey,
} from '@scan/segmented';
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

/**
 * Keys in runs of mean `mean` (a new key at each head, a small step up or down from the last, so
 * keys recur but not consecutively); f32 keys have NaN runs (each NaN its own run) and -0 beside +0.
 */
function runKeys(type: 'u32' | 'i32' | 'f32', size: number, mean: number, seed: number): Uint32Array | Int32Array | Float32Array {
  const rng = createRng(seed + 31);
  const heads = randomSegmentFlags(size, mean, seed);
  const keys = type === 'u32' ? new Uint32Array(size) : type === 'i32' ? new Int32Array(size) : new Float32Array(size);
  let key = 100;
  for (let i = 0; i < size; i++) {
    if (i === 0 || heads[i]) key += rng.int(1, 3) * (rng.int(0, 1) ? 1 : -1);
    keys[i] = type === 'f32' && key % 7 === 0 ? Number.NaN : type === 'f32' && key % 5 === 0 ? (i % 2 ? -0 : 0) : key;
  }
  return keys;
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
  defineCase('segmented.reduceByKey', 'u32 keys, i32 max, runs of mean 16', (size, seed) => {
    const keys = runKeys('u32', size, 16, seed);
    const values = randomData('i32', size, seed + 1);
    return {
      call: (ctx) => reduceByKey(ctx, keys, values, { op: 'max' }),
      check: (got) => {
        const want = cpu.reduceByKey(keys, values, { op: 'max' });
        expectEqualArrays(got.keys, want.keys, 'reduceByKey keys');
        expectEqualArrays(got.values, want.values, 'reduceByKey values');
        if (got.count !== want.count) throw new Error(`reduceByKey count: ${got.count}, expected ${want.count}`);
      },
    };
  }),
  defineCase('segmented.reduceByKey:operator', 'f32 keys (NaN, ±0), hash records (not commutative), runs of mean 8', (size, seed) => {
    const keys = runKeys('f32', size, 8, seed);
    const values = operatorData(hashRecord, size, seed + 1) as Uint32Array;
    return {
      call: (ctx) => reduceByKey(ctx, keys, values, { op: hashRecord }),
      check: (got) => {
        const want = cpu.reduceByKey(keys, values, { op: hashRecord });
        expectEqualArrays(got.keys, want.keys, 'reduceByKey keys');
        expectEqualArrays(got.values, want.values, 'reduceByKey hash values');
      },
    };
  }),
  defineCase('segmented.scanByKey', 'i32 keys, u32 add, exclusive, runs of mean 100', (size, seed) => {
    const keys = runKeys('i32', size, 100, seed);
    const values = randomData('u32', size, seed + 1);
    return {
      call: (ctx) => scanByKey(ctx, keys, values),
      check: (got) => expectEqualArrays(got, cpu.scanByKey(keys, values), 'scanByKey'),
    };
  }),
  defineCase('segmented.unique', 'f32 keys (NaN, ±0), runs of mean 4', (size, seed) => {
    const keys = runKeys('f32', size, 4, seed);
    return {
      call: (ctx) => unique(ctx, keys),
      check: (got) => expectEqualArrays(got, cpu.unique(keys), 'unique'),
    };
  }),
  defineCase('segmented.uniqueByKey', 'u32 keys, f32 values, runs of mean 4', (size, seed) => {
    const keys = runKeys('u32', size, 4, seed);
    const values = randomData('f32', size, seed + 1);
    return {
      call: (ctx) => uniqueByKey(ctx, keys, values),
      check: (got) => {
        const want = cpu.uniqueByKey(keys, values);
        expectEqualArrays(got.keys, want.keys, 'uniqueByKey keys');
        expectEqualArrays(got.values, want.values, 'uniqueByKey values');
      },
    };
  }),
  defineCase('segmented.runLengthEncode', 'i32 data, runs of mean 32', (size, seed) => {
    const data = runKeys('i32', size, 32, seed);
    return {
      call: (ctx) => runLengthEncode(ctx, data),
      check: (got) => {
        const want = cpu.runLengthEncode(data);
        expectEqualArrays(got.values, want.values, 'runLengthEncode values');
        expectEqualArrays(got.lengths, want.lengths, 'runLengthEncode lengths');
        expectEqualArrays(got.offsets, want.offsets, 'runLengthEncode offsets');
      },
    };
  }),
];
