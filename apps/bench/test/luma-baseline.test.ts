import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildLumaReport } from '../baselines/luma/build-report.js';
import { LUMA_CASES } from '../baselines/luma/cases/index.js';
import { cpuPack, cpuScan, cpuSortPairs, cpuSum } from '../baselines/luma/cpu.js';
import { compareWords, POISON, randomFlags } from '../baselines/luma/data.js';
import { createLumaDevice, type LumaDeviceContext } from '../baselines/luma/device.js';
import { createHeater, DEFAULT_HEAT_MS, resolveHeatMs } from '../baselines/luma/heat.js';
import { runUntimed } from '../baselines/luma/measure.js';
import { DEFAULT_LUMA_OPTIONS, parseLumaArgs } from '../baselines/luma/options.js';
import { checkLumaReport, LUMA_LIBRARY } from '../baselines/luma/report.js';
import { runLumaBaseline } from '../baselines/luma/run.js';
import { summarizeRuns } from '../baselines/luma/stats.js';
import { formatLumaTable } from '../baselines/luma/table.js';
import { LUMA_PRIMITIVES } from '../baselines/luma/workload.js';

// The luma.gl baseline harness (baselines/luma): its arguments, statistics, CPU references and
// report checks on the host, then luma.gl itself on the local adapter (SwiftShader here) at 2^10 —
// every primitive verified, and each check shown to catch unwritten outputs and one corrupted word.
// About 3 s on SwiftShader.

describe('arguments', () => {
  test('defaults: 2^10…2^16, every primitive, ≥ 20 runs after ≥ 5 warm-ups', () => {
    const o = parseLumaArgs([]);
    expect(o).toEqual(DEFAULT_LUMA_OPTIONS);
    expect(o.sizes).toEqual([10, 12, 14, 16]);
    expect(o.only).toEqual(['scan', 'reduce', 'pack', 'sort']);
    expect(o.runs).toBeGreaterThanOrEqual(20);
    expect(o.warmup).toBeGreaterThanOrEqual(5);
  });

  test('sizes as log2, 2^k or powers of two; --flag=value; primitives in report order', () => {
    const o = parseLumaArgs([
      '--sizes',
      '16,2^10,4096,16',
      '--only=sort,scan',
      '--runs',
      '3',
      '--warmup=0',
      '--out',
      'x.json',
      '--commit',
      'abc',
    ]);
    expect(o).toMatchObject({ sizes: [10, 12, 16], only: ['scan', 'sort'], runs: 3, warmup: 0, out: 'x.json', commit: 'abc' });
    expect(parseLumaArgs(['--help']).help).toBe(true);
    expect(parseLumaArgs(['--heat-ms', '0']).heatMs).toBe(0);
  });

  test('the heater is on by default on a GPU and off on a software adapter', () => {
    expect(resolveHeatMs(undefined, { vendor: 'google', architecture: 'swiftshader', description: 'SwiftShader driver 5.0.0' })).toBe(0);
    expect(resolveHeatMs(undefined, { vendor: 'nvidia', architecture: 'hopper', description: 'NVIDIA: 580' })).toBe(DEFAULT_HEAT_MS);
    expect(resolveHeatMs(50, { vendor: 'google', architecture: 'swiftshader', description: '' })).toBe(50);
  });

  test.each([
    [['--sizes', '1000'], /not a power of two/],
    [['--sizes', '27'], /outside/],
    [['--sizes', 'big'], /--sizes/],
    [['--only', 'scan,split'], /unknown primitive "split"/],
    [['--runs', '0'], /--runs: expected an integer ≥ 1/],
    [['--runs'], /--runs: missing value/],
    [['--iterations', '3'], /unknown flag --iterations/],
    [['scan'], /unexpected argument/],
  ])('%j is refused', (argv, message) => {
    expect(() => parseLumaArgs(argv)).toThrow(message);
  });
});

describe('host parts', () => {
  test('statistics: median, p10, p90, min, max', () => {
    const s = summarizeRuns([5, 1, 4, 2, 3, 10, 6, 7, 9, 8, 0]);
    expect(s).toMatchObject({ runs: 11, medianMs: 5, p10Ms: 1, p90Ms: 9, minMs: 0, maxMs: 10 });
    expect(s.samplesMs[0]).toBe(5);
  });

  test('CPU references wrap like u32 and keep equal keys in order', () => {
    expect([...cpuScan(new Uint32Array([0xffffffff, 2, 3]), false)]).toEqual([0, 0xffffffff, 1]);
    expect([...cpuScan(new Uint32Array([1, 2, 3]), true)]).toEqual([1, 3, 6]);
    expect(cpuSum(new Uint32Array([0xffffffff, 2]))).toBe(1);
    expect([...cpuPack(new Uint32Array([5, 6, 7]), new Uint32Array([1, 0, 9]))]).toEqual([5, 7]);
    const sorted = cpuSortPairs(new Uint32Array([2, 1, 2, 0xffffffff, 1]), new Uint32Array([0, 1, 2, 3, 4]));
    expect([...sorted.keys]).toEqual([1, 1, 2, 2, 0xffffffff]);
    expect([...sorted.values]).toEqual([1, 4, 0, 2, 3]);
  });

  test('flags have the requested density; word comparison names the first difference', () => {
    const flags = randomFlags(1 << 14, 1, 0.5);
    const ones = flags.reduce((a, b) => a + b, 0);
    expect(Math.abs(ones / flags.length - 0.5)).toBeLessThan(0.02);
    expect(compareWords('x', new Uint32Array([1, 2, 3]), new Uint32Array([1, 2, 3])).ok).toBe(true);
    expect(compareWords('x', new Uint32Array([1, 9, 3]), new Uint32Array([1, 2, 3])).detail).toMatch(
      /1 of 3 words differ, first at \[1\]: got 9/,
    );
  });

  test('the report check accepts a good record and names what is wrong with a bad one', () => {
    const good = {
      library: LUMA_LIBRARY,
      primitive: 'scan',
      n: 1024,
      log2n: 10,
      status: 'ok',
      verified: true,
      verification: 'equal',
      timing: 'timestamp',
      medianMs: 0.02,
      p10Ms: 0.01,
      p90Ms: 0.03,
      minMs: 0.01,
      maxMs: 0.04,
      runs: 2,
      samplesMs: [0.01, 0.03],
      copyMedianMs: 0.01,
      copy: { medianMs: 0.01 },
      copyTimeRatio: 0.5,
      compareWith: 'scan u32 add excl',
      luma: {},
    };
    const report = {
      schema: 'scan-luma-baseline/1',
      library: LUMA_LIBRARY,
      date: 'd',
      commit: null,
      device: { description: 'x' },
      results: [good],
    };
    expect(checkLumaReport(report)).toEqual([]);
    const bad = {
      ...report,
      results: [
        { ...good, status: 'failed' },
        { ...good, verified: false, samplesMs: [1] },
      ],
    };
    expect(checkLumaReport(bad)).toEqual([
      'results[0]: failed but timed',
      'results[1]: ok but not verified',
      'results[1].samplesMs: expected 2 samples',
    ]);
  });
});

describe('luma.gl on the local adapter', () => {
  let dev: LumaDeviceContext;
  beforeAll(async () => {
    dev = await createLumaDevice().catch((e: Error) => {
      throw new Error(`no WebGPU adapter: install Debian chromium for SwiftShader, or run on a GPU (${e.message})`);
    });
  });
  afterAll(() => dev?.destroy());

  test('every primitive at 2^10 is verified, then timed with timestamps, beside the copy kernel', async () => {
    const options = parseLumaArgs(['--sizes', '10', '--runs', '3', '--warmup', '1']);
    const records = await runLumaBaseline(dev, { ...options, heatMs: 0 });
    expect(records.map((r) => [r.primitive, r.status, r.message])).toEqual(LUMA_PRIMITIVES.map((p) => [p, 'ok', undefined]));
    for (const r of records) {
      expect(r).toMatchObject({ library: 'luma.gl 9.4.2', n: 1024, verified: true, runs: 3 });
      expect(r.timing).toBe(dev.ctx.caps.features.timestampQuery ? 'timestamp' : 'wall-clock');
      expect(r.copy?.verified).toBe(true);
      expect(r.luma['stagingUploads']).toBe(0);
    }
    expect(records.find((r) => r.primitive === 'sort')!.verification).toMatch(
      /stability \(8-bit keys\) values \(stable order\): 1024 words equal/,
    );
    const report = buildLumaReport(dev, { ...options, heatMs: 0 }, records);
    expect(report.options).toMatchObject({ sizes: [10], runs: 3, warmup: 1, heatMs: 0 });
    expect(checkLumaReport(JSON.parse(JSON.stringify(report)))).toEqual([]);
    expect(formatLumaTable(records).split('\n')).toHaveLength(1 + LUMA_PRIMITIVES.length);
  });

  test('the heater keeps the queue busy for the time asked', async () => {
    const heater = createHeater(dev.ctx.device, 1024);
    try {
      const t0 = performance.now();
      await heater.heat(30);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(30);
    } finally {
      heater.destroy();
    }
  });

  test.each(LUMA_PRIMITIVES)('%s: the check catches unwritten outputs and one corrupted word in each output', async (primitive) => {
    const w = LUMA_CASES[primitive].create(dev.luma, 1024, 5);
    try {
      w.poison();
      await dev.ctx.device.queue.onSubmittedWorkDone();
      expect((await w.verify()).ok).toBe(false);
      for (const output of w.outputs) {
        await runUntimed(dev.ctx, w);
        expect((await w.verify()).ok).toBe(true);
        dev.ctx.device.queue.writeBuffer(output, 0, new Uint32Array([POISON ^ 0x40000001]));
        const after = await w.verify();
        expect(after.ok, after.detail).toBe(false);
      }
    } finally {
      w.destroy();
    }
  });
});
