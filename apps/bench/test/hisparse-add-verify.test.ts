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
// duplicate positions, summed by the build): every run records the add plan, and the C = A + 2A it
// leaves in the plan's pool passes the GPU checks and the CPU `hisparseAdd`. HiSparse's
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

/** Makes `HiSparseMatrix.fromParts` (which the add plan's `toMatrix` copies C into) return `wrong(C)` instead. */
function mockResult(wrong: (C: HiSparseMatrix) => Promise<HiSparseMatrix> | HiSparseMatrix) {
  const original = HiSparseMatrix.fromParts.bind(HiSparseMatrix);
  return vi.spyOn(HiSparseMatrix, 'fromParts').mockImplementation(async (...args: Parameters<typeof HiSparseMatrix.fromParts>) => {
    const C = await original(...args);
    const W = await wrong(C);
    if (W !== C) C.destroy();
    return W;
  });
}

describe.each(cases.map((c) => [c.series, c] as const))('%s', (_series, c) => {
  test('each run records the add plan (GPU-timed, no run()); the C it leaves passes the GPU checks and the CPU hisparseAdd', async () => {
    const w = await workloadOf('hisparse-add')(ctx, c);
    try {
      expect(w.encode).toBeTypeOf('function');
      expect(w.run).toBeUndefined();
      expect(w.bytes).toBe(bytesMoved('hisparse-add', c.n));
      expect(w.matrix).toMatchObject({ name: c.matrix, nnz: c.n, algorithm: 'hisparse d 16 add a+2a' });
      for (let i = 0; i < 3; i++) await runOnce(ctx, w);
      expect(await w.verify()).toEqual({ mismatches: 0 });
      expect(await w.compareWithCpu!()).toBe(0);
    } finally {
      w.destroy();
    }
  });

  test('the checks catch a wrong C: wrong values (2.5A), wrong nonzero count', async () => {
    const w = await workloadOf('hisparse-add')(ctx, c);
    try {
      await runOnce(ctx, w);
      const wrong = mockResult((C) => C.scale(2.5 / 3));
      const wrongValues = await w.verify();
      expect(wrongValues.mismatches).toBeGreaterThan(0);
      expect(wrongValues.first).not.toBe(NNZ_MISMATCH);
      expect(await w.compareWithCpu!()).toBeGreaterThan(0);
      wrong.mockRestore();
      // Made before the mock: its build goes through fromParts too.
      const other = await HiSparseMatrix.fromCsr(ctx, {
        rows: 2,
        cols: 2,
        rowPtr: Uint32Array.of(0, 1, 1),
        colIdx: Uint32Array.of(1),
        values: Float32Array.of(1),
      });
      mockResult(() => other);
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
      mockResult((C) => C.scale(2));
      expect((await w.verify()).mismatches).toBeGreaterThan(0);
      expect(await w.compareWithCpu!()).toBeGreaterThan(0);
    } finally {
      w.destroy();
    }
  });
});
