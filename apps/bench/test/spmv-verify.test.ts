import type { ScanContext } from '@scan/core';
import { createNodeContext } from '@scan/core/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { enumerateCases } from '../src/cases.js';
import { readWords } from '../src/child/gpu.js';
import { runOnce } from '../src/child/measure.js';
import { workloadOf } from '../src/registry.js';
import { parseMatrixList } from '../src/spmv-suite.js';

// The SpMV checks on tiny matrices of every family (generated on the GPU like the suite's, or on the
// host for stencil27, geometric and rmat): each
// must pass the library's output, agree with `@scan/spmv/cpu`, and catch one corrupted word of y.
// The row algorithm only: the checks are under test here, not the package's algorithms (its own
// tests cover those), and every more algorithm costs pipeline compilations on SwiftShader.
let ctx: ScanContext;

beforeAll(async () => {
  ctx = await createNodeContext().catch((e: Error) => {
    throw new Error(`no WebGPU adapter: install Debian chromium for SwiftShader, or run on a GPU (${e.message})`);
  });
});
afterAll(() => ctx?.destroy());

const matrices = parseMatrixList('poisson2d-8,biased-100,powerlaw-128,uniform-100,banded-64,stencil27-4,geometric-200,rmat-128');
/** Families whose `n` is nominal (the generated matrix has a little fewer nonzeros). */
const NOMINAL = ['geometric-200', 'rmat-128'];
const cases = enumerateCases({ sizes: [1], runs: 10, warmup: 0, seed: 5, density: 0.5, only: ['spmv', 'spmv-t', 'spmm'], matrices }).filter(
  (c) => c.algorithm === 'row' || (c.primitive === 'spmm' && c.algorithm === 'auto' && c.matrix === 'poisson2d-8'),
);

describe.each(cases.map((c) => [c.series, c] as const))('%s', (_series, c) => {
  test('verified and compared with the CPU; one corrupted output is caught', async () => {
    const w = await workloadOf(c.primitive)(ctx, c);
    try {
      await runOnce(ctx, w);
      expect(await w.verify()).toEqual({ mismatches: 0 });
      expect(await w.compareWithCpu!()).toBe(0);
      expect(w.matrix).toMatchObject({ name: c.matrix, ...(NOMINAL.includes(String(c.matrix)) ? {} : { nnz: c.n }), algorithm: 'row' });
      const [word] = await readWords(ctx, w.output, 1, 4 * 5);
      ctx.device.queue.writeBuffer(w.output, 4 * 5, new Uint32Array([(word! ^ 0x40000001) >>> 0]));
      expect((await w.verify()).mismatches).toBeGreaterThan(0);
      expect(await w.compareWithCpu!()).toBeGreaterThan(0);
    } finally {
      w.destroy();
    }
  });
});
