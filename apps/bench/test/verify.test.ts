import type { ScanContext } from '@scan/core';
import { createNodeContext } from '@scan/core/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { enumerateCases, PRIMITIVES } from '../src/cases.js';
import { readWords } from '../src/child/gpu.js';
import { runOnce as runWorkloadOnce } from '../src/child/measure.js';
import type { Workload } from '../src/child/workload.js';
import { workloadOf } from '../src/registry.js';

// The checks are what makes a timing trustworthy: each must pass the library's correct output and
// catch a single corrupted word. Sizes stay tiny (DESIGN.md: megabytes through Dawn in Node crash);
// 1001 is not a multiple of 4, so the vec4 tail paths of plans and baselines are covered.
const N = 1001;
let ctx: ScanContext;

beforeAll(async () => {
  ctx = await createNodeContext().catch((e: Error) => {
    throw new Error(`no WebGPU adapter: install Debian chromium for SwiftShader, or run on a GPU (${e.message})`);
  });
});
afterAll(() => ctx?.destroy());

/**
 * Modules whose checks have tests of their own, left out here: the tcu cases (f16 data, and a
 * subgroup-matrix path SwiftShader lacks: tcu-cases.test.ts), HiSparse's addition
 * (hisparse-add-verify.test.ts) and the frame cases, which run their own way rather than through a
 * throughput workload (frame-cases.test.ts, frame-run.test.ts). They joined the default list in 0.1.1.
 */
const CHECKED_ELSEWHERE = new Set(['tcu-reduce', 'tcu-scan', 'hisparse-add', 'frame-loop', 'first-call', 'splat-frame']);

// Segment means 4 (many segments, a few of length 1) and 4096 (one or two segments at N = 1001).
const cases = enumerateCases({
  only: PRIMITIVES.filter((p) => !CHECKED_ELSEWHERE.has(p)),
  sizes: [N],
  runs: 10,
  warmup: 0,
  seed: 3,
  density: 0.5,
  algorithms: ['decoupled-fallback', 'blelloch'],
  segmentMeans: [4, 4096],
  // The SpMV cases are in the default list too, over a suite of up to 64M nonzeros: no matrices here,
  // their checks have a test of their own (spmv-verify.test.ts, a tiny matrix of each family).
  matrices: [],
});
/** Primitives whose output has too few words for index 100: corrupt their word 0. */
const FEW_OUTPUTS = new Set([
  'reduce',
  'read-only',
  'segmented-reduce',
  'reduce-by-key',
  'unique',
  'unique-by-key',
  'run-length-encode',
  'arg-max',
  'top-k',
]);

async function corrupt(w: Workload, index: number): Promise<void> {
  const [word] = await readWords(ctx, w.output, 1, 4 * index);
  ctx.device.queue.writeBuffer(w.output, 4 * index, new Uint32Array([(word! ^ 0x40000001) >>> 0]));
}

async function runOnce(w: Workload): Promise<void> {
  await runWorkloadOnce(ctx, w);
}

describe.each(cases.map((c) => [c.series, c] as const))('%s', (_series, c) => {
  test('the check passes the library output and catches one corrupted word', async () => {
    const w = await workloadOf(c.primitive)(ctx, c);
    try {
      await runOnce(w);
      expect(await w.verify()).toEqual({ mismatches: 0 });
      if (w.compareWithCpu) expect(await w.compareWithCpu()).toBe(0);
      // Reductions have one (or a few) output words; the others a word early enough to lie inside pack's output.
      const index = FEW_OUTPUTS.has(c.primitive) ? 0 : 100;
      await corrupt(w, index);
      const after = await w.verify();
      expect(after.mismatches).toBeGreaterThan(0);
      if (w.compareWithCpu) expect(await w.compareWithCpu()).toBeGreaterThan(0);
    } finally {
      w.destroy();
    }
  });
});

test('the segmented-reduce check locates a wrong middle segment and a wrong last segment', async () => {
  const c = cases.find((x) => x.primitive === 'segmented-reduce' && x.segmentMean === 4)!;
  const w = await workloadOf(c.primitive)(ctx, c);
  try {
    await runOnce(w);
    const segments = w.segments!;
    expect(segments).toBeGreaterThan(100);
    const middle = segments >> 1;
    await corrupt(w, middle);
    // A wrong result shifts every later prefix R[k]: all later segments fail, the first is the culprit.
    expect(await w.verify()).toEqual({ mismatches: segments - middle, first: middle });
    await runOnce(w);
    await corrupt(w, segments - 1);
    expect(await w.verify()).toEqual({ mismatches: 1, first: segments - 1 });
  } finally {
    w.destroy();
  }
});
