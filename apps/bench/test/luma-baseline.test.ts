import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildLumaReport } from '../baselines/luma/build-report.js';
import { HISTOGRAM_DOMAIN } from '../baselines/luma/cases/histogram.js';
import { LUMA_CASES, type LumaCase } from '../baselines/luma/cases/index.js';
import { sortedPairKeys } from '../baselines/luma/cases/lower-bound.js';
import { runKeys } from '../baselines/luma/cases/reduce-by-key.js';
import { headFlags } from '../baselines/luma/cases/scan-by-key.js';
import {
  cpuGroupSums,
  cpuLowerBoundSorted,
  cpuLumaHistogram,
  cpuPack,
  cpuScan,
  cpuSegmentedScan,
  cpuSortPairs,
  cpuSortWords,
  cpuSum,
} from '../baselines/luma/cpu.js';
import { compareWords, POISON, randomFlags, randomWords } from '../baselines/luma/data.js';
import { createLumaDevice, type LumaDeviceContext } from '../baselines/luma/device.js';
import { createHeater, DEFAULT_HEAT_MS, resolveHeatMs } from '../baselines/luma/heat.js';
import { DEFAULT_LUMA_OPTIONS, parseLumaArgs } from '../baselines/luma/options.js';
import { LUMA_LIBRARY } from '../baselines/luma/report.js';
import { runLumaBaseline } from '../baselines/luma/run.js';
import { summarizeRuns } from '../baselines/luma/stats.js';
import { formatLumaTable } from '../baselines/luma/table.js';
import { LUMA_CASE_NAMES, LUMA_PRIMITIVES, type LumaCaseName, type LumaPrimitive, type Workload } from '../baselines/luma/workload.js';
import { runUntimed } from '../baselines/shared/measure.js';
import { libraryPairs } from '../dashboard/library-views.js';
import { baselineRows, currentRows, toLoadedReport } from '../dashboard/model.js';
import { deviceInfo } from '../src/child/device-info.js';
import { type CaseResult, validateReport } from '../src/report.js';
import { measurement, sampleReport } from './fixtures.js';

// The luma.gl baseline harness (baselines/luma): its arguments, statistics and CPU references on
// the host, then luma.gl itself on the local adapter (SwiftShader here) at 2^10 — every primitive
// verified, its report loaded by the dashboard and paired with our row of the same device, each
// check shown to catch unwritten outputs and one corrupted word, and a GPU error (a dispatch past
// the workgroup-count limit) recorded as an error while the run goes on. About 3 s on SwiftShader.
// The report's rows field by field: luma-report.test.ts.

describe('arguments', () => {
  test("defaults: 2^10…2^16, every primitive but the toolbox's under the bench's names, ≥ 20 runs after ≥ 5 warm-ups", () => {
    const o = parseLumaArgs([]);
    expect(o).toEqual(DEFAULT_LUMA_OPTIONS);
    expect(o.sizes).toEqual([10, 12, 14, 16]);
    // The toolbox's primitives run when named (summary-call.sh and gpu-run.sh time the default four in their budgets).
    expect(o.only).toEqual(['scan', 'reduce', 'pack', 'sort-pairs']);
    expect(parseLumaArgs(['--only', 'toolbox']).only).toEqual(['histogram', 'lower-bound', 'reduce-by-key', 'scan-by-key']);
    expect(parseLumaArgs(['--only', 'reduce-by-key,histogram']).only).toEqual(['histogram', 'reduce-by-key']);
    expect(parseLumaArgs(['--only', 'all']).only).toEqual(LUMA_PRIMITIVES);
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
    // `sort`, the harness's earlier name of the key–value sort, is `sort-pairs`.
    expect(o).toMatchObject({ sizes: [10, 12, 16], only: ['scan', 'sort-pairs'], runs: 3, warmup: 0, out: 'x.json', commit: 'abc' });
    expect(parseLumaArgs(['--help']).help).toBe(true);
    expect(parseLumaArgs(['--heat-ms', '0']).heatMs).toBe(0);
  });

  test("the issue's large sizes are accepted: --sizes 20,24,28 and 2^28", () => {
    expect(parseLumaArgs(['--sizes', '20,24,28']).sizes).toEqual([20, 24, 28]);
    expect(parseLumaArgs(['--sizes', '2^28,268435456']).sizes).toEqual([28]);
  });

  test('--convert takes an old report, the device name and a note, and needs --out', () => {
    const o = parseLumaArgs(['--convert', 'old.json', '--device-name', 'nvidia-h100-80gb-hbm3', '--note', 'why', '--out', 'new.json']);
    expect(o).toMatchObject({ convert: 'old.json', deviceName: 'nvidia-h100-80gb-hbm3', note: 'why', out: 'new.json' });
  });

  test('the heater is on by default on a GPU and off on a software adapter', () => {
    expect(resolveHeatMs(undefined, { vendor: 'google', architecture: 'swiftshader', description: 'SwiftShader driver 5.0.0' })).toBe(0);
    expect(resolveHeatMs(undefined, { vendor: 'nvidia', architecture: 'hopper', description: 'NVIDIA: 580' })).toBe(DEFAULT_HEAT_MS);
    expect(resolveHeatMs(50, { vendor: 'google', architecture: 'swiftshader', description: '' })).toBe(50);
  });

  test.each([
    [['--sizes', '1000'], /not a power of two/],
    [['--sizes', '29'], /outside 2\^1…2\^28/],
    [['--convert', 'old.json'], /--out is needed/],
    [['--device-name', 'x'], /go with --convert/],
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

  test('the CPU radix sort equals a comparison sort, stable, on keys with many duplicates and high bits set', () => {
    const keys = randomWords(5000, 3, 0xc000_00ff);
    const values = Uint32Array.from(keys, (_, i) => i);
    const order = Array.from(keys.keys()).sort((a, b) => keys[a]! - keys[b]! || a - b);
    const sorted = cpuSortPairs(keys, values);
    expect([...sorted.keys]).toEqual(order.map((i) => keys[i]));
    expect([...sorted.values]).toEqual(order);
    // The inputs are left as they were.
    expect(values[0]).toBe(0);
  });

  test("luma's histogram binning over [0, 2^32 − 1] is the bench's over [0, 2^32), at every bin edge", () => {
    const [min, max] = HISTOGRAM_DOMAIN;
    for (const bins of [1, 2, 256, 65536]) {
      const shift = 32 - Math.log2(bins);
      // Every bin's first and last sample, both ends of the range, and random samples.
      const edges: number[] = [0, 0xffffffff, 0xfffffffe];
      for (let k = 1; k < bins; k += Math.max(1, bins >> 8)) edges.push(k * 2 ** shift, k * 2 ** shift - 1);
      const samples = Uint32Array.from([...edges, ...randomWords(4096, bins)]);
      const ours = new Uint32Array(bins);
      for (const v of samples) ours[shift === 32 ? 0 : v >>> shift]!++;
      expect([...cpuLumaHistogram(samples, bins, min, max)], `${bins} bins`).toEqual([...ours]);
    }
    // luma's own rule elsewhere: outside the domain ignored, max in the last bin, floor((v − min)·B/(max − min)): 10, 14 | 15, 19, 20.
    expect([...cpuLumaHistogram(new Uint32Array([9, 10, 14, 15, 19, 20, 21]), 2, 10, 20)]).toEqual([2, 3]);
    expect([...cpuLumaHistogram(new Uint32Array([4, 5, 6]), 3, 5, 5)]).toEqual([0, 0, 1]);
  });

  test('sorted search, group sums, segmented scan and the toolbox inputs', () => {
    const keys = sortedPairKeys(1001, 3);
    expect(keys[1000]).toBeGreaterThanOrEqual(keys[999]!);
    for (let i = 0; i + 1 < keys.length; i++) expect(keys[i]! <= keys[i + 1]!).toBe(true);
    expect(keys[0]).toBe(keys[1]);
    const needles = cpuSortWords(Uint32Array.from([...randomWords(2000, 4), 0, 0xffffffff, keys[10]!, keys[11]! + 1]));
    expect([...needles]).toEqual([...needles].sort((a, b) => a - b));
    const got = cpuLowerBoundSorted(keys, needles);
    needles.forEach((q, i) => {
      const r = got[i]!;
      expect(r === 0 || keys[r - 1]! < q).toBe(true);
      expect(r === keys.length || keys[r]! >= q).toBe(true);
    });
    expect(() => cpuLowerBoundSorted(keys, new Uint32Array([2, 1]))).toThrow(/decrease at \[1\]/);
    const { keys: runKeyWords, runs } = runKeys(1 << 14, 5, 16);
    expect(runKeyWords[0]).toBe(0);
    expect(runKeyWords[runKeyWords.length - 1]).toBe(runs - 1);
    expect(Math.abs(runKeyWords.length / runs - 16)).toBeLessThan(2);
    expect([...cpuGroupSums(new Uint32Array([0, 0, 1, 5]), new Float32Array([1, -2, 3, 7]), 2)]).toEqual([-1, 3]);
    expect([...headFlags(new Uint32Array([0, 0, 1, 1, 2]))]).toEqual([1, 0, 1, 0, 1]);
    expect([...cpuSegmentedScan(new Uint32Array([1, 2, 0xffffffff, 4, 5]), new Uint32Array([0, 0, 1, 0, 1]))]).toEqual([
      0, 1, 0, 0xffffffff, 0,
    ]);
  });

  test('flags have the requested density; word comparison names the first difference', () => {
    const flags = randomFlags(1 << 14, 1, 0.5);
    const ones = flags.reduce((a, b) => a + b, 0);
    expect(Math.abs(ones / flags.length - 0.5)).toBeLessThan(0.02);
    expect(compareWords('x', new Uint32Array([1, 2, 3]), new Uint32Array([1, 2, 3])).ok).toBe(true);
    const differ = compareWords('x', new Uint32Array([1, 9, 3]), new Uint32Array([1, 2, 3]));
    expect(differ.detail).toMatch(/1 of 3 words differ, first at \[1\]: got 9/);
    expect(differ.mismatches).toBe(1);
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

  test('every primitive at 2^10 is verified, then timed, beside the copy kernel; the report loads in the dashboard and pairs with ours', async () => {
    const options = parseLumaArgs(['--sizes', '10', '--only', 'all', '--runs', '3', '--warmup', '1']);
    const records = await runLumaBaseline(dev, { ...options, heatMs: 0 });
    expect(records.map((r) => [r.caseName, r.status, r.message])).toEqual(LUMA_CASE_NAMES.map((p) => [p, 'ok', undefined]));
    for (const r of records) {
      expect(r).toMatchObject({ n: 1024, verified: true, runs: 3 });
      expect(r.timing).toBe(dev.ctx.caps.features.timestampQuery ? 'timestamp' : 'wall-clock');
      expect(r.copy?.verified).toBe(true);
      expect(r.luma['stagingUploads']).toBe(0);
    }
    expect(records.find((r) => r.primitive === 'sort-pairs')!.verification).toMatch(
      /stability \(8-bit keys\) values \(stable order\): 1024 words equal/,
    );
    expect(records.find((r) => r.primitive === 'pack')!.ones).toBeGreaterThan(0);
    expect(records.find((r) => r.caseName === 'reduce-by-key')!.segments).toBeGreaterThan(0);
    expect(records.find((r) => r.caseName === 'lower-bound')!.verification).toMatch(
      /lower bounds of 1024 sorted needles: 1024 words equal/,
    );
    expect(formatLumaTable(records).split('\n')).toHaveLength(1 + LUMA_CASE_NAMES.length);

    // The bench's schema, as the dashboard loads it: a WebGPU-library report on this device, named
    // as the bench names it (the same deviceInfo), so it pairs with our row of the same case.
    const report = JSON.parse(JSON.stringify(buildLumaReport(dev, { ...options, heatMs: 0 }, records, new Date())));
    expect(validateReport(report)).toEqual([]);
    expect(report.results.map((r: CaseResult) => r.case['baseline'])).toEqual(LUMA_CASE_NAMES.map(() => LUMA_LIBRARY));
    expect(report).toMatchObject({ baseline: 'webgpu', options: { sizes: [1024], runs: 3, warmup: 1, heatMs: 0, only: LUMA_PRIMITIVES } });
    const luma = toLoadedReport('luma.json', 'file', report);
    if ('problems' in luma) throw new Error(luma.problems.join('\n'));
    const ourScan: CaseResult = {
      case: {
        id: 'scan decoupled-fallback u32 add excl fwd@1024',
        series: 'scan decoupled-fallback u32 add excl fwd',
        primitive: 'scan',
        algorithm: 'decoupled-fallback',
        type: 'u32',
        op: 'add',
        inclusive: false,
        backward: false,
        n: 1024,
        seed: 1,
        runs: 3,
        warmup: 1,
      },
      status: 'ok',
      measurement: measurement(0.5, 8192, 1024),
      verification: { gpuMismatches: 0, cpuCompared: true },
    };
    const ours = toLoadedReport('ours.json', 'file', { ...sampleReport(), device: deviceInfo(dev.ctx), results: [ourScan] });
    if ('problems' in ours) throw new Error(ours.problems.join('\n'));
    expect(luma).toMatchObject({ isBaseline: true, baseline: 'webgpu', device: ours.device });
    const pairs = libraryPairs(currentRows([ours, luma]), baselineRows([ours, luma]), 'webgpu');
    expect(pairs.map((p) => [p.result.case.primitive, p.ours?.result.case.series])).toEqual([
      ['scan', 'scan decoupled-fallback u32 add excl fwd'],
      ...LUMA_CASE_NAMES.slice(1).map((name) => [LUMA_CASES[name].primitive, undefined]),
    ]);
    expect(pairs[0]!.ratio).toBeCloseTo(records[0]!.medianMs! / 0.5, 12);
  });

  test('a GPU error (a dispatch past the workgroup-count limit) is an error record, and the run goes on', async () => {
    const limit = dev.ctx.device.limits.maxComputeWorkgroupsPerDimension;
    // A stand-in for luma past a device limit: one dispatch of limit + 1 workgroups in x.
    const tooWide: LumaCase = {
      ...LUMA_CASES.scan,
      create: (luma): Workload => {
        const device = luma.handle;
        const module = device.createShaderModule({ code: '@compute @workgroup_size(1) fn main() {}' });
        const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
        return {
          describe: { class: 'too wide' },
          outputs: [],
          encode(encoder) {
            const pass = encoder.beginComputePass();
            pass.setPipeline(pipeline);
            pass.dispatchWorkgroups(limit + 1);
            pass.end();
          },
          poison() {},
          verify: async () => ({ ok: true, detail: 'nothing to compare' }),
          destroy() {},
        };
      },
    };
    const cases: Record<LumaCaseName, LumaCase> = { ...LUMA_CASES, scan: tooWide };
    const plan = { sizes: [10], only: ['scan', 'reduce'] as LumaPrimitive[], runs: 3, warmup: 1, heatMs: 0, seed: 1 };
    const records = await runLumaBaseline(dev, plan, undefined, cases);
    expect(records.map((r) => [r.primitive, r.status])).toEqual([
      ['scan', 'error'],
      ['reduce', 'ok'],
    ]);
    expect(records[0]).toMatchObject({ verified: false, medianMs: null, samplesMs: [], copy: null });
    expect(records[0]!.message).toMatch(/GPU validation error/);
    expect(formatLumaTable(records)).toMatch(/not timed:\n {2}scan 2\^10: GPU validation error/);
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

  test.each(LUMA_CASE_NAMES)('%s: the check catches unwritten outputs and one corrupted word in each output', async (name) => {
    const w = LUMA_CASES[name].create(dev.luma, 1024, 5);
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
