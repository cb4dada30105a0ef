// Every package's array-level functions in Node, on host data up to 2^22 elements, against the CPU
// references (SwiftShader in CI, the GPU where there is one). Sizes are chosen for CI's two cores:
// every function runs at a small odd size, and at 2^22 unless SwiftShader needs more than ~5 s for
// it there (the sorts, most SpMV shapes, the emulated tensor-core reduce: 2^20, the 64-bit sorts
// 2^18; each package keeps functions at 2^22). scripts/node-stress runs the same cases at 2^26 and
// beyond on a GPU.
import type { ScanContext } from '@scan/core';
import { createNodeContext } from '@scan/core/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NODE_CASES } from '../src/cases/index.js';
import { runCase } from '../src/run.js';

/**
 * The largest size of the cases that do not run at 2^22 in CI (log2; seconds each on SwiftShader at
 * the larger size they had before, measured 2026-11-25 to 2026-12-07).
 */
const SMALLER: ReadonlyMap<string, number> = new Map([
  ['sort.sort:f32', 20], // 14 s at 2^22
  ['sort.argsort', 20], // 16 s
  ['sort.segmentedSort', 20], // 24 s
  ['sort.topK', 20], // 11 s (2026-12-06)
  ['sort.sort:u16', 20], // 26 s at 2^22 (2026-12-07)
  ['sort.sort:values16', 20], // 7.5 s at 2^22
  // Eight digit passes: 15–19 s each at 2^20.
  ['sort.sort:u64', 18],
  ['sort.argsort:i64', 18],
  ['sort.segmentedSort:i64', 18],
  ['spmv.spmv:biased', 20], // 8 s
  ['spmv.spmv:transposed', 20], // 20 s
  ['spmv.spmm', 20], // 13 s
  ['spmv.transposeCsr', 20], // 13 s
  ['tcu.tcuReduce', 20], // 7 s
  // User-defined operators (records of 2–4 words, checked by the CPU reference record by record).
  ['core.scan:operator', 20], // 15 s
  ['core.scan:vec4', 20], // 12 s
  ['segmented.segmentedScan:operator', 20], // 9 s
  ['segmented.segmentedReduce:operator', 20], // 19 s
  ['segmented.reduceByKey:operator', 20], // 14 s at 2^22 (2026-12-07)
  // The toolbox (issue 49): a binary search per needle, 2^22 needles into 2^22 keys.
  ['core.lowerBound', 20], // 32 s
  ['core.upperBound:f32', 20], // 22 s
]);

describe('array-level functions on host data in Node', () => {
  let ctx: ScanContext;
  beforeAll(async () => {
    ctx = await createNodeContext();
  });
  afterAll(() => ctx?.destroy());

  test('every package is covered', () => {
    const packages = new Set(NODE_CASES.map((c) => c.name.split('.')[0]));
    expect([...packages].sort()).toEqual(['core', 'segmented', 'sort', 'spmv', 'tcu', 'tridiag']);
    for (const name of SMALLER.keys())
      expect(
        NODE_CASES.some((c) => c.name === name),
        name,
      ).toBe(true);
    // Every package keeps a function at 2^22 (past the sizes where one tile level is enough).
    const full = new Set(NODE_CASES.filter((c) => !SMALLER.has(c.name)).map((c) => c.name.split('.')[0]));
    expect([...full].sort()).toEqual([...packages].sort());
  });

  for (const c of NODE_CASES) {
    const large = 2 ** (SMALLER.get(c.name) ?? 22);
    test(`${c.name} (${c.what}): 1, 4097 and 2^${Math.log2(large)} elements`, async () => {
      for (const size of [1, 4097, large]) {
        // Garbage collected between calls (execArgv has --expose-gc): Dawn must survive it.
        globalThis.gc?.();
        const run = await runCase(ctx, c, size, size);
        expect(run.error, `${c.name} at ${size}`).toBeUndefined();
      }
    });
  }
});
