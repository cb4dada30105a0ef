import { describe, expect, test } from 'vitest';
import { type CaseSelection, enumerateCases, SAMPLED_PRIMITIVES } from '../src/cases.js';
import { frameCountsOf } from '../src/child/frame/frame-counts.js';
import { parseCli } from '../src/options.js';
import { DEFAULT_FRAMES, DEFAULT_WARMUP_FRAMES } from '../src/primitives/frame-loop.js';
import { softwareOptions } from '../src/software-adapter.js';

const base: CaseSelection = { sizes: [1 << 16, 1 << 20], runs: 20, warmup: 3, seed: 1, density: 0.5 };

function options(argv: string[]) {
  const inv = parseCli(argv);
  if (inv.kind !== 'run') throw new Error(`expected a run, got ${inv.kind}`);
  return inv.options;
}

describe('the frame cases', () => {
  test('are in the default list, every configuration on a GPU, sampled in a software default run', () => {
    expect(SAMPLED_PRIMITIVES).toContain('frame-loop');
    expect(SAMPLED_PRIMITIVES).toContain('first-call');
    const all = enumerateCases(base);
    expect(all.filter((c) => c.primitive === 'frame-loop')).toHaveLength(8 * base.sizes.length);
    expect(all.filter((c) => c.primitive === 'first-call')).toHaveLength(8 * base.sizes.length);
  });

  test('frame-loop: each plan with a host and a GPU count, the series naming both', () => {
    const cases = enumerateCases({ ...base, sizes: [4096], only: ['frame-loop'] });
    expect(cases.map((c) => c.id)).toEqual([
      'frame-loop sort f32 u32 values desc host count@4096',
      'frame-loop sort f32 u32 values desc gpu count@4096',
      'frame-loop pack u32 u32 flags host count@4096',
      'frame-loop pack u32 u32 flags gpu count@4096',
      'frame-loop scan u32 add excl host count@4096',
      'frame-loop scan u32 add excl gpu count@4096',
      'frame-loop segmented-scan u32 add excl mean 32 host count@4096',
      'frame-loop segmented-scan u32 add excl mean 32 gpu count@4096',
    ]);
    expect(cases[1]).toMatchObject({
      frameWorkload: 'sort',
      type: 'f32',
      valueType: 'u32',
      descending: true,
      countSource: 'gpu',
      frames: DEFAULT_FRAMES,
      warmupFrames: DEFAULT_WARMUP_FRAMES,
    });
  });

  test('first-call: each plan awaiting ready and not', () => {
    const cases = enumerateCases({ ...base, sizes: [1 << 20], only: ['first-call'] });
    expect(cases.map((c) => c.series)).toEqual([
      'first-call sort f32 u32 values desc wait',
      'first-call sort f32 u32 values desc no-wait',
      'first-call pack u32 u32 flags wait',
      'first-call pack u32 u32 flags no-wait',
      'first-call scan u32 add excl wait',
      'first-call scan u32 add excl no-wait',
      'first-call segmented-scan u32 add excl mean 32 wait',
      'first-call segmented-scan u32 add excl mean 32 no-wait',
    ]);
  });

  test('sizes: their own defaults when --sizes is not given, --sizes when it is, the software sizes on a software adapter', () => {
    const sizesOf = (argv: string[]) => [...new Set(enumerateCases(options(argv)).map((c) => `${c.primitive}@${c.n}`))];
    expect(sizesOf(['--only', 'frame-loop,first-call'])).toEqual([
      `frame-loop@${2 ** 14}`,
      `frame-loop@${2 ** 18}`,
      `frame-loop@${2 ** 22}`,
      `first-call@${2 ** 20}`,
    ]);
    expect(sizesOf(['--only', 'frame-loop,first-call', '--sizes', '2^12'])).toEqual(['frame-loop@4096', 'first-call@4096']);
    // Other modules in the same run keep the run's default sizes.
    expect(sizesOf(['--only', 'frame-loop,copy'])).toEqual([
      `frame-loop@${2 ** 14}`,
      `frame-loop@${2 ** 18}`,
      `frame-loop@${2 ** 22}`,
      `copy@${2 ** 16}`,
      `copy@${2 ** 20}`,
    ]);
    expect([...new Set(enumerateCases(softwareOptions(options(['--only', 'frame-loop']))).map((c) => c.n))]).toEqual([4096]);
  });

  test('frames: 300 after 30 unless --runs / --warmup say otherwise, also on a software adapter', () => {
    const framesOf = (argv: string[], software = false) => {
      const o = options(['--only', 'frame-loop', ...argv]);
      const [c] = enumerateCases(software ? softwareOptions(o) : o);
      return [c!.frames, c!.warmupFrames];
    };
    expect(framesOf([])).toEqual([300, 30]);
    expect(framesOf([], true)).toEqual([300, 30]);
    expect(framesOf(['--runs', '20', '--warmup', '0'])).toEqual([20, 0]);
    expect(framesOf(['--runs', '50'], true)).toEqual([50, 30]);
  });
});

describe('frame counts', () => {
  test('seeded, in [n/2, n], never the same twice in a row', () => {
    const counts = frameCountsOf(1024, 500, 1);
    expect(counts).toHaveLength(500);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(512);
    expect(Math.max(...counts)).toBeLessThanOrEqual(1024);
    for (let k = 1; k < counts.length; k++) expect(counts[k]).not.toBe(counts[k - 1]);
    expect(new Set(counts).size).toBeGreaterThan(300);
    expect(frameCountsOf(1024, 500, 1)).toEqual(counts);
    expect(frameCountsOf(1024, 500, 2)).not.toEqual(counts);
    expect(frameCountsOf(3, 20, 1).every((c) => c >= 2 && c <= 3)).toBe(true);
  });
});
