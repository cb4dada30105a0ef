import { describe, expect, test } from 'vitest';
import { describeVariant, enumerateCases, PRIMITIVES, seriesName } from '../src/cases.js';
import { measure } from '../src/child/measure.js';
import type { Workload } from '../src/child/workload.js';
import { bytesMoved, RADIX_DIGIT_BITS, radixPasses } from '../src/metrics.js';
import { parseCli } from '../src/options.js';
import { SEGMENTED_SORT, SORT_SEGMENT_MEAN } from '../src/primitives/segmented-sort.js';
import { SORT_ALGORITHM_NAMES } from '../src/primitives/shared/sort-data.js';
import { SORT } from '../src/primitives/sort.js';
import { SORT_PAIRS } from '../src/primitives/sort-pairs.js';

const base = { sizes: [4096, 1 << 16], runs: 10, warmup: 2, seed: 7, density: 0.5 };
const sortShapes = () => [...SORT.shapes(base), ...SORT_PAIRS.shapes(base), ...SEGMENTED_SORT.shapes(base)];

describe('sort cases', () => {
  test('the shapes: keys with radix and split-radix, i32, f32, u64, u16, f16; pairs with both and wide values; the segmented sort; all ascending', () => {
    expect(sortShapes()).toEqual([
      { primitive: 'sort', algorithm: 'radix', type: 'u32' },
      { primitive: 'sort', algorithm: 'split-radix', type: 'u32' },
      { primitive: 'sort', algorithm: 'radix', type: 'i32' },
      { primitive: 'sort', algorithm: 'radix', type: 'f32' },
      { primitive: 'sort', algorithm: 'radix', type: 'u64' },
      { primitive: 'sort', algorithm: 'radix', type: 'u16' },
      { primitive: 'sort', algorithm: 'radix', type: 'f16' },
      { primitive: 'sort-pairs', algorithm: 'radix', type: 'u32', valueType: 'u32' },
      { primitive: 'sort-pairs', algorithm: 'split-radix', type: 'u32', valueType: 'u32' },
      { primitive: 'sort-pairs', algorithm: 'radix', type: 'u32', valueType: 'u32', valueWidth: 8 },
      { primitive: 'sort-pairs', algorithm: 'radix', type: 'u32', valueType: 'u32', valueWidth: 12 },
      { primitive: 'sort-pairs', algorithm: 'radix', type: 'u32', valueType: 'u32', valueWidth: 16 },
      { primitive: 'segmented-sort', type: 'u32', segmentMean: 1024 },
    ]);
    expect(SORT_SEGMENT_MEAN).toBe(1024);
  });

  test('--tuning reaches the sort shapes (their series names stay those of an untuned run)', () => {
    const tuning = { elementsPerThread: 16, padLast: false };
    const tuned = [...SORT.shapes({ ...base, tuning }), ...SORT_PAIRS.shapes({ ...base, tuning })];
    expect(tuned.map((s) => s.tuning)).toEqual(tuned.map(() => tuning));
    expect(tuned.map(seriesName)).toEqual([...SORT.shapes(base), ...SORT_PAIRS.shapes(base)].map(seriesName));
  });

  test('--only sort,sort-pairs,segmented-sort: every shape at every size, in the default list, without density', () => {
    expect(PRIMITIVES).toEqual(expect.arrayContaining(['sort', 'sort-pairs', 'segmented-sort']));
    const cases = enumerateCases({ ...base, only: ['sort', 'sort-pairs', 'segmented-sort'] });
    expect(cases.map((c) => c.id)).toEqual([
      'sort radix u32@4096',
      'sort radix u32@65536',
      'sort split-radix u32@4096',
      'sort split-radix u32@65536',
      'sort radix i32@4096',
      'sort radix i32@65536',
      'sort radix f32@4096',
      'sort radix f32@65536',
      'sort radix u64@4096',
      'sort radix u64@65536',
      'sort radix u16@4096',
      'sort radix u16@65536',
      'sort radix f16@4096',
      'sort radix f16@65536',
      'sort-pairs radix u32 u32 values@4096',
      'sort-pairs radix u32 u32 values@65536',
      'sort-pairs split-radix u32 u32 values@4096',
      'sort-pairs split-radix u32 u32 values@65536',
      'sort-pairs radix u32 8-byte values@4096',
      'sort-pairs radix u32 8-byte values@65536',
      'sort-pairs radix u32 12-byte values@4096',
      'sort-pairs radix u32 12-byte values@65536',
      'sort-pairs radix u32 16-byte values@4096',
      'sort-pairs radix u32 16-byte values@65536',
      'segmented-sort u32 mean 1024@4096',
      'segmented-sort u32 mean 1024@65536',
    ]);
    for (const c of cases) {
      expect(c).toMatchObject({ n: expect.any(Number), runs: 10, warmup: 2, seed: 7 });
      expect(c.density).toBeUndefined();
    }
    const defaults = enumerateCases(base).filter((c) => c.primitive.includes('sort'));
    expect(defaults).toEqual(cases);
  });

  test('the segmented sort keeps mean 1024 whatever --segment-means says; --types filters the key type', () => {
    const segmented = enumerateCases({ ...base, sizes: [4096], only: ['segmented-sort'], segmentMeans: [4] });
    expect(segmented.map((c) => c.segmentMean)).toEqual([1024]);
    expect(segmented[0]!.algorithm).toBeUndefined();
    const i32 = enumerateCases({ ...base, sizes: [4096], only: ['sort', 'sort-pairs'], types: ['i32'] });
    expect(i32.map((c) => c.series)).toEqual(['sort radix i32']);
  });

  test('variants and series name the key type, the values, descending and the mean', () => {
    expect(describeVariant({ primitive: 'sort', algorithm: 'radix', type: 'u32' })).toBe('u32');
    expect(describeVariant({ primitive: 'sort', algorithm: 'radix', type: 'f32', descending: true })).toBe('f32 desc');
    expect(describeVariant({ primitive: 'sort', algorithm: 'radix', type: 'i32', descending: false })).toBe('i32');
    expect(seriesName({ primitive: 'sort-pairs', algorithm: 'split-radix', type: 'u32', valueType: 'u32' })).toBe(
      'sort-pairs split-radix u32 u32 values',
    );
    expect(seriesName({ primitive: 'segmented-sort', type: 'i32', segmentMean: 1024, descending: true })).toBe(
      'segmented-sort i32 desc mean 1024',
    );
  });

  test('the CLI accepts the sort primitives', () => {
    const inv = parseCli(['--only', 'sort,segmented-sort', '--sizes', '2^12']);
    expect(inv.kind === 'run' && inv.options.only).toEqual(['sort', 'segmented-sort']);
  });

  test('every sort and sort-pairs case names its algorithm, radix or split-radix; the segmented sort none', () => {
    const cases = enumerateCases({ ...base, only: ['sort', 'sort-pairs', 'segmented-sort'] });
    for (const c of cases) {
      if (c.primitive === 'segmented-sort') expect('algorithm' in c).toBe(false);
      else expect(SORT_ALGORITHM_NAMES).toContain(c.algorithm);
    }
  });
});

describe('bytes model of the sorts (one-sweep LSD radix sort, 8-bit digits)', () => {
  test('4 passes over 32-bit keys', () => {
    expect(RADIX_DIGIT_BITS).toBe(8);
    expect(radixPasses()).toBe(4);
    expect(radixPasses(16)).toBe(2);
    expect(radixPasses(31)).toBe(4);
  });

  test('keys: the histogram read plus a read and a write per pass; pairs move the values too; segments add the head bits', () => {
    const n = 1 << 20;
    expect(bytesMoved('sort', n)).toBe(n * 4 + 4 * 2 * n * 4); // 36 bytes per key
    expect(bytesMoved('sort', n)).toBe(9 * n * 4);
    expect(bytesMoved('sort-pairs', n)).toBe(17 * n * 4); // 68 bytes per pair
    expect(bytesMoved('segmented-sort', n)).toBe(9 * n * 4 + n / 8);
    expect(bytesMoved('segmented-sort', 1001)).toBe(9 * 1001 * 4 + 4 * 32);
    // ×copy = 1 means 4.5 copies' time (copy moves 2·n·4 bytes).
    expect(bytesMoved('sort', n) / bytesMoved('copy', n)).toBe(4.5);
  });
});

test('measure runs the untimed prepare step (its own submission) before every run, outside the timer marks', async () => {
  const log: string[] = [];
  const encoder = (name: string) => ({ name, finish: () => ({ name }) });
  let encoders = 0;
  const ctx = {
    device: {
      createCommandEncoder: () => encoder(`e${encoders++}`),
      queue: {
        submit: (buffers: { name: string }[]) => log.push(`submit ${buffers.map((b) => b.name).join(',')}`),
        onSubmittedWorkDone: async () => {},
      },
    },
  };
  const timer = {
    method: 'timestamp' as const,
    begin: (e: { name: string }) => log.push(`begin ${e.name}`),
    end: (e: { name: string }) => log.push(`end ${e.name}`),
    submitAndMeasure: async (buffers: { name: string }[]) => {
      log.push(`measure ${buffers.map((b) => b.name).join(',')}`);
      return 1;
    },
    destroy() {},
  };
  const workload = {
    bytes: 8,
    output: {} as GPUBuffer,
    prepare: (e: GPUCommandEncoder) => log.push(`prepare ${(e as unknown as { name: string }).name}`),
    encode: (e: GPUCommandEncoder) => log.push(`encode ${(e as unknown as { name: string }).name}`),
    verify: async () => ({ mismatches: 0 }),
    destroy() {},
  } satisfies Workload;
  const m = await measure(ctx as never, timer as never, workload, 2, { warmup: 1, runs: 2 });
  expect(m.samplesMs).toEqual([1, 1]);
  expect(log).toEqual([
    'prepare e0',
    'submit e0',
    'encode e1',
    'submit e1',
    'prepare e2',
    'submit e2',
    'begin e3',
    'encode e3',
    'end e3',
    'measure e3',
    'prepare e4',
    'submit e4',
    'begin e5',
    'encode e5',
    'end e5',
    'measure e5',
  ]);
});
