import type { ScanContext } from '@scan/core';
import { createNodeContext } from '@scan/core/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { describeVariant, enumerateCases } from '../src/cases.js';
import { runCase } from '../src/child/run.js';

// The splat-frame cases: enumerated at 1, 4 and 8 M splats by default, and run end to end in this
// process on the local adapter (SwiftShader here) at a tiny size and few frames. No timing asserted.
const base = { runs: 10, warmup: 1, seed: 5, density: 0.5 };

describe('splat-frame', () => {
  test('two key widths at 1, 4 and 8 M splats unless --sizes says otherwise', () => {
    const cases = enumerateCases({ ...base, sizes: [2 ** 20], defaulted: ['sizes'], only: ['splat-frame'] });
    expect(cases.map((c) => c.id)).toEqual([
      'splat-frame splats f32 32-bit keys@1000000',
      'splat-frame splats f32 32-bit keys@4000000',
      'splat-frame splats f32 32-bit keys@8000000',
      'splat-frame splats u32 16-bit keys@1000000',
      'splat-frame splats u32 16-bit keys@4000000',
      'splat-frame splats u32 16-bit keys@8000000',
    ]);
    expect(describeVariant(cases[0]!)).toBe('splats f32 32-bit keys');
    expect(enumerateCases({ ...base, sizes: [5000], only: ['splat-frame'] }).map((c) => c.n)).toEqual([5000, 5000]);
  });

  describe('runs and verifies', () => {
    let ctx: ScanContext;
    beforeAll(async () => {
      ctx = await createNodeContext();
    });
    afterAll(() => ctx?.destroy());
    for (const c of enumerateCases({ ...base, sizes: [3000], frames: 12, warmupFrames: 3, only: ['splat-frame'] })) {
      test(c.series, async () => {
        const r = await runCase(ctx, c);
        expect(r.status, r.message).toBe('ok');
        expect(r.verification).toMatchObject({ cpuCompared: true, cpuMismatches: 0 });
        const f = r.frameLoop!;
        expect(f.encode.samplesMs).toHaveLength(12);
        expect(f.gpu?.samplesMs).toHaveLength(12);
        expect(f.createdPerFrame).toEqual({ buffers: 0, bindGroups: 0, pipelines: 0, asyncPipelines: 0 });
      });
    }
  });
});
