import { expect, test } from 'vitest';
import { enumerateCases } from '../src/cases.js';
import { headThreshold } from '../src/child/kernels/head-bits.js';
import { SEGMENTED_REDUCE } from '../src/primitives/segmented-reduce.js';
import {
  DEFAULT_SEGMENT_MEANS,
  parseSegmentMeans,
  type SegmentedScanCase,
  segmentedScanShapes,
  unsegmentedScanCase,
} from '../src/primitives/segmented-scan.js';

test('parseSegmentMeans: whole numbers or 2^k, sorted, without duplicates', () => {
  expect(parseSegmentMeans('4096, 16,2^4')).toEqual([16, 4096]);
  expect(parseSegmentMeans('1')).toEqual([1]);
  expect(parseSegmentMeans('2^31')).toEqual([2 ** 31]);
});

test('parseSegmentMeans names the bad entry', () => {
  for (const bad of ['0', '1.5', 'x', '2^32', '-4', '1e3']) expect(() => parseSegmentMeans(bad), bad).toThrow(/--segment-means/);
  expect(() => parseSegmentMeans('16,abc')).toThrow(/"abc"/);
  expect(() => parseSegmentMeans(' , ')).toThrow(/comma-separated/);
});

test('the segmented shapes: per mean, forward and backward with each algorithm, then the reduces', () => {
  expect(DEFAULT_SEGMENT_MEANS).toEqual([16, 4096]);
  const selection = { sizes: [4096], runs: 10, warmup: 1, seed: 1, density: 0.5, segmentMeans: [16, 4096] };
  const shapes = [...segmentedScanShapes([16, 4096]), ...SEGMENTED_REDUCE.shapes(selection)];
  expect(shapes).toHaveLength(10);
  expect(shapes.slice(0, 4)).toEqual([
    { primitive: 'segmented-scan', algorithm: 'single-pass', type: 'u32', op: 'add', inclusive: false, backward: false, segmentMean: 16 },
    { primitive: 'segmented-scan', algorithm: 'single-pass', type: 'u32', op: 'add', inclusive: false, backward: true, segmentMean: 16 },
    { primitive: 'segmented-scan', algorithm: 'tree', type: 'u32', op: 'add', inclusive: false, backward: false, segmentMean: 16 },
    { primitive: 'segmented-scan', algorithm: 'tree', type: 'u32', op: 'add', inclusive: false, backward: true, segmentMean: 16 },
  ]);
  expect(shapes.slice(8)).toEqual([
    { primitive: 'segmented-reduce', type: 'u32', op: 'add', segmentMean: 16 },
    { primitive: 'segmented-reduce', type: 'u32', op: 'add', segmentMean: 4096 },
  ]);
});

test('the unsegmented comparison scan: decoupled-fallback u32 add exclusive forward, same size, seed and runs', () => {
  const c = enumerateCases({ sizes: [4096], only: ['segmented-scan'], runs: 12, warmup: 2, seed: 5, density: 0.5 }).find(
    (x) => x.backward && x.algorithm === 'tree',
  ) as SegmentedScanCase;
  const scan = unsegmentedScanCase(c);
  expect(scan).toMatchObject({
    primitive: 'scan',
    algorithm: 'decoupled-fallback',
    type: 'u32',
    op: 'add',
    inclusive: false,
    backward: false,
    n: 4096,
    seed: 5,
    runs: 12,
    warmup: 2,
  });
  expect('segmentMean' in scan).toBe(false);
});

test('head threshold: a 32-bit hash at most this has probability 1/mean; mean 1 makes every element a head', () => {
  expect(headThreshold(16)).toBe(2 ** 28 - 1);
  expect(headThreshold(4096)).toBe(2 ** 20 - 1);
  expect(headThreshold(1)).toBe(0xffffffff);
  expect(headThreshold(2 ** 31)).toBe(1);
});
