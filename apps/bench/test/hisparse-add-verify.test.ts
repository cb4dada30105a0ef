import type { ScanContext } from '@scan/core';
import { createNodeContext } from '@scan/core/node';
import { HiSparseMatrix } from '@scan/hisparse';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { enumerateCases } from '../src/cases.js';
import { runOnce } from '../src/child/measure.js';
import { bytesMoved } from '../src/metrics.js';
import { NNZ_MISMATCH } from '../src/primitives/hisparse-add.js';
import { workloadOf } from '../src/registry.js';
import { parseMatrixList } from '../src/spmv-suite.js';

// The hisparse-add workload on tiny matrices (generated on the GPU like the suite's; powerlaw has
// duplicate positions, summed by the build): every run makes a C = A + 2A that passes the GPU checks
// and the CPU `hisparseAdd`, and every C but the last is destroyed before the next run. HiSparse's
// workload (A + B with B the perturbed A, and Aᵀ + Bᵀ) on a host-made matrix (stencil27) and a
// GPU-made one read back (powerlaw): C passes the checks against `addCsr` and a wrong C fails them.
let ctx: ScanContext;

beforeAll(async () => {
  ctx = await createNodeContext().catch((e: Error) => {
    throw new Error(`no WebGPU adapter: install Debian chromium for SwiftShader, or run on a GPU (${e.message})`);
  });
});
afterAll(() => ctx?.destroy());
afterEach(() => vi.restoreAllMocks());

const cases = enumerateCases({
  sizes: [1],
  runs: 10,
  warmup: 0,
  seed: 5,
  density: 0.5,
  only: ['hisparse-add'],
  matrices: parseMatrixList('poisson2d-8,powerlaw-128'),
}).filter((c) => c.nodeSize === 16 && c.add === 'a+2a');

describe.each(cases.map((c) => [c.series, c] as const))('%s', (_series, c) => {
  test('each run makes a verified C; the previous one is destroyed before the next run', async () => {
    const destroyed = vi.spyOn(HiSparseMatrix.prototype, 'destroy');
    const w = await workloadOf('hisparse-add')(ctx, c);
    let calls = 0;
    try {
      expect(w.run).toBeTypeOf('function');
      expect(w.encode).toBeUndefined();
      expect(w.bytes).toBe(bytesMoved('hisparse-add', c.n));
      expect(w.matrix).toMatchObject({ name: c.matrix, nnz: c.n, algorithm: 'hisparse d 16 add a+2a' });
      await expect(w.verify()).rejects.toThrow(/no run/);
      const before = destroyed.mock.calls.length;
      for (let i = 0; i < 3; i++) await runOnce(ctx, w);
      // Runs 2 and 3 each destroyed the C of the run before.
      expect(destroyed.mock.calls.length - before).toBe(2);
      expect(await w.verify()).toEqual({ mismatches: 0 });
      expect(await w.compareWithCpu!()).toBe(0);
    } finally {
      calls = destroyed.mock.calls.length;
      w.destroy();
    }
    // The last C, B = 2A and A.
    expect(destroyed.mock.instances.slice(calls).map((m) => (m as HiSparseMatrix).scaleFactor)).toEqual([1, 2, 1]);
  });

  test('the checks catch a wrong C: wrong values (2.5A), wrong nonzero count', async () => {
    const w = await workloadOf('hisparse-add')(ctx, c);
    try {
      const add = vi.spyOn(HiSparseMatrix.prototype, 'add').mockImplementation(async function (this: HiSparseMatrix) {
        return this.scale(2.5);
      });
      await runOnce(ctx, w);
      const wrongValues = await w.verify();
      expect(wrongValues.mismatches).toBeGreaterThan(0);
      expect(wrongValues.first).not.toBe(NNZ_MISMATCH);
      expect(await w.compareWithCpu!()).toBeGreaterThan(0);
      const other = await HiSparseMatrix.fromCsr(ctx, {
        rows: 2,
        cols: 2,
        rowPtr: Uint32Array.of(0, 1, 1),
        colIdx: Uint32Array.of(1),
        values: Float32Array.of(1),
      });
      add.mockResolvedValueOnce(other);
      await runOnce(ctx, w);
      expect((await w.verify()).first).toBe(NNZ_MISMATCH);
    } finally {
      w.destroy();
    }
  });
});

const paperCases = enumerateCases({
  sizes: [1],
  runs: 10,
  warmup: 0,
  seed: 5,
  density: 0.5,
  only: ['hisparse-add'],
  matrices: parseMatrixList('stencil27-5,powerlaw-128'),
}).filter((c) => c.nodeSize === 16 && c.add !== 'a+2a');

describe.each(paperCases.map((c) => [c.series, c] as const))('%s', (_series, c) => {
  test('C = A + B (or Aᵀ + Bᵀ) passes the GPU checks and equals addCsr; a wrong C fails them', async () => {
    const w = await workloadOf('hisparse-add')(ctx, c);
    try {
      expect(w.matrix).toMatchObject({ name: c.matrix, algorithm: `hisparse d 16 add ${c.add}` });
      for (let i = 0; i < 2; i++) await runOnce(ctx, w);
      expect(await w.verify()).toEqual({ mismatches: 0 });
      expect(await w.compareWithCpu!()).toBe(0);
      vi.spyOn(HiSparseMatrix.prototype, 'add').mockImplementation(async function (this: HiSparseMatrix) {
        return this.scale(2);
      });
      await runOnce(ctx, w);
      expect((await w.verify()).mismatches).toBeGreaterThan(0);
      expect(await w.compareWithCpu!()).toBeGreaterThan(0);
    } finally {
      w.destroy();
    }
  });
});
