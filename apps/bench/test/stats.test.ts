import { expect, test } from 'vitest';
import { bytesMoved, throughput } from '../src/metrics.js';
import { median, percentile, summarize } from '../src/stats.js';

test('median of odd and even counts, unsorted input untouched', () => {
  const values = [5, 1, 4, 2, 3];
  expect(median(values)).toBe(3);
  expect(values).toEqual([5, 1, 4, 2, 3]);
  expect(median([4, 1, 3, 2])).toBe(2.5);
  expect(median([7])).toBe(7);
});

test('median of nothing throws instead of reporting NaN', () => {
  expect(() => median([])).toThrow(/empty/);
});

test('summarize is robust to one slow run', () => {
  const s = summarize([1, 1.1, 0.9, 1, 50]);
  expect(s).toMatchObject({ runs: 5, medianMs: 1, minMs: 0.9, maxMs: 50 });
  expect(s.meanMs).toBeCloseTo(10.8);
});

test('bytes moved per primitive', () => {
  const n = 1000;
  expect(bytesMoved('scan', n)).toBe(8000);
  expect(bytesMoved('copy', n)).toBe(8000);
  expect(bytesMoved('enumerate', n)).toBe(8000);
  expect(bytesMoved('reduce', n)).toBe(4000);
  expect(bytesMoved('read-only', n)).toBe(4000);
  expect(bytesMoved('distribute', n)).toBe(4004);
  expect(bytesMoved('split', n)).toBe(12000);
  expect(bytesMoved('pack', n, 250)).toBe(9000);
  // Head bits: ⌈n/32⌉ words = 32 words for 1000 elements, n/8 for multiples of 32.
  expect(bytesMoved('segmented-scan', n)).toBe(8000 + 128);
  expect(bytesMoved('segmented-scan', 1 << 20)).toBe(8 * 2 ** 20 + 2 ** 17);
  expect(bytesMoved('segmented-reduce', n, 60)).toBe(4000 + 128 + 240);
});

test('throughput in GB/s and G elements/s', () => {
  expect(throughput(8e6, 1e6, 1)).toEqual({ gbps: 8, gelemsPerS: 1 });
  expect(throughput(8e9, 1e9, 2)).toEqual({ gbps: 4000, gelemsPerS: 500 });
  expect(Number.isNaN(throughput(8, 1, 0).gbps)).toBe(true);
});

test('percentile by nearest rank: p90 of ten values is the ninth; an empty list or a bad p throws', () => {
  expect(percentile([10, 1, 9, 2, 8, 3, 7, 4, 6, 5], 90)).toBe(9);
  expect(percentile([10, 1, 9, 2, 8, 3, 7, 4, 6, 5], 100)).toBe(10);
  expect(percentile([3, 1, 2], 50)).toBe(2);
  expect(percentile([5], 90)).toBe(5);
  expect(() => percentile([], 90)).toThrow(/empty/);
  expect(() => percentile([1], 0)).toThrow(/0 < p/);
});
