import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { lumaCaseResult } from '../baselines/luma/build-report.js';
import { LUMA_CASES } from '../baselines/luma/cases/index.js';
import { convertLegacyLumaReport } from '../baselines/luma/legacy.js';
import type { LumaRecord } from '../baselines/luma/report.js';
import { untimedRecord } from '../baselines/luma/run.js';
import { LUMA_CASE_NAMES, LUMA_PRIMITIVES, type LumaCaseName } from '../baselines/luma/workload.js';
import { libraryPairs } from '../dashboard/library-views.js';
import { baselineRows, currentRows, type LoadedReport, toLoadedReport } from '../dashboard/model.js';
import { describeVariant, enumerateCases } from '../src/cases.js';
import { validateReport } from '../src/report.js';
import { sampleReport } from './fixtures.js';

// The luma.gl baseline's report in the bench's schema, field by field: a record as a row (case,
// measurements over the bench's bytes model, ×copy, verification), the conversion of the old
// schema, and the committed H100 reports, faithful to the runs they came from and paired with ours.

const settings = { seed: 1, runs: 3, warmup: 1 };

/** An ok record of the case `name` at 2^10 as the harness makes it: samples 3, 2, 4 µs·10, copy 1, 1, 2 µs·10. */
function okRecord(name: LumaCaseName, extra: Partial<LumaRecord> = {}): LumaRecord {
  return {
    primitive: LUMA_CASES[name].primitive,
    caseName: name,
    n: 1024,
    log2n: 10,
    status: 'ok',
    verified: true,
    verification: 'words equal',
    timing: 'timestamp',
    medianMs: 0.03,
    p10Ms: 0.022,
    p90Ms: 0.038,
    minMs: 0.02,
    maxMs: 0.04,
    runs: 3,
    samplesMs: [0.03, 0.02, 0.04],
    copyMedianMs: 0.01,
    copy: {
      runs: 3,
      medianMs: 0.01,
      p10Ms: 0.01,
      p90Ms: 0.018,
      minMs: 0.01,
      maxMs: 0.02,
      samplesMs: [0.01, 0.01, 0.02],
      method: 'timestamp',
      verified: true,
    },
    copyTimeRatio: 1 / 3,
    luma: { class: LUMA_CASES[name].call, computePasses: 1 },
    ...extra,
  };
}

describe('a record as a row of the bench report', () => {
  test("scan: the case has the bench row's fields, the library and its class; times and GB/s over the bench's bytes", () => {
    const row = lumaCaseResult(okRecord('scan'), settings);
    expect(row.case).toEqual({
      id: 'scan/luma.gl 9.4.2 GPUScan/u32 add excl fwd@1024',
      series: 'scan/luma.gl 9.4.2 GPUScan/u32 add excl fwd',
      primitive: 'scan',
      n: 1024,
      seed: 1,
      runs: 3,
      warmup: 1,
      type: 'u32',
      op: 'add',
      inclusive: false,
      backward: false,
      baseline: 'luma.gl 9.4.2',
      call: 'GPUScan',
    });
    expect(row.status).toBe('ok');
    expect(row.timer).toBe('timestamp');
    const bytes = 2 * 4 * 1024;
    expect(row.measurement).toEqual({
      runs: 3,
      medianMs: 0.03,
      minMs: 0.02,
      maxMs: 0.04,
      meanMs: expect.closeTo(0.03, 12),
      samplesMs: [0.03, 0.02, 0.04],
      bytes,
      gbps: bytes / 0.03 / 1e6,
      gelemsPerS: 1024 / 0.03 / 1e6,
    });
    expect(row.copy).toMatchObject({ medianMs: 0.01, samplesMs: [0.01, 0.01, 0.02], bytes, gbps: bytes / 0.01 / 1e6 });
    // Scan moves what copy moves: ×copy is copy time ÷ scan time.
    expect(row.ratioCopy).toBeCloseTo(1 / 3, 12);
    expect(row.verification).toEqual({ cpuCompared: true, cpuMismatches: 0, detail: 'words equal' });
    expect(row.verification?.gpuMismatches).toBeUndefined();
    expect(row.baselineInfo).toEqual({ class: 'GPUScan', computePasses: 1 });
    expect(row.ones).toBeUndefined();
  });

  test('pack counts the kept elements in its bytes; sort-pairs moves keys and values in every pass; reduce reads once', () => {
    const pack = lumaCaseResult(okRecord('pack', { ones: 500 }), settings);
    expect(pack.ones).toBe(500);
    expect(pack.measurement?.bytes).toBe(1024 * 4 + 1024 * 4 + 500 * 4);
    expect(pack.case).toMatchObject({ primitive: 'pack', flagType: 'u32', density: 0.5, call: 'GPUCompaction' });
    const sort = lumaCaseResult(okRecord('sort-pairs'), settings);
    expect(sort.measurement?.bytes).toBe(17 * 4 * 1024);
    expect(sort.case).toMatchObject({ primitive: 'sort-pairs', type: 'u32', valueType: 'u32', call: 'GPUSort' });
    expect(sort.ratioCopy).toBeCloseTo(((17 * 4 * 1024) / 0.03 / ((8 * 1024) / 0.01)) * 1, 12);
    const reduce = lumaCaseResult(okRecord('reduce'), settings);
    expect(reduce.measurement?.bytes).toBe(4 * 1024);
    expect(reduce.case).toMatchObject({ primitive: 'reduce', type: 'u32', op: 'add', call: 'GPUReduction' });
  });

  test('a wrong result keeps its mismatches and no time; an error keeps its message and no verification', () => {
    // The records the runner writes for a case it did not time.
    const base = (name: LumaCaseName) => {
      const { primitive, n, log2n, luma } = okRecord(name);
      return { primitive, caseName: name, n, log2n, luma };
    };
    const failed = lumaCaseResult(
      untimedRecord(
        base('scan'),
        'failed',
        { ok: false, detail: 'scan: 3 of 1024 words differ', mismatches: 3 },
        'wrong result: not timed',
      ),
      settings,
    );
    expect(failed).toEqual({
      case: expect.objectContaining({ primitive: 'scan' }),
      status: 'failed',
      message: 'wrong result: not timed',
      verification: { cpuCompared: true, cpuMismatches: 3, detail: 'scan: 3 of 1024 words differ' },
      baselineInfo: { class: 'GPUScan', computePasses: 1 },
    });
    const error = lumaCaseResult(
      untimedRecord(base('sort-pairs'), 'error', { ok: false, detail: 'not verified' }, 'GPU validation error: x'),
      settings,
    );
    expect(error).toEqual({
      case: expect.objectContaining({ primitive: 'sort-pairs', n: 1024 }),
      status: 'error',
      message: 'GPU validation error: x',
      baselineInfo: { class: 'GPUSort', computePasses: 1 },
    });
  });

  test("each luma case is a case of the bench: same primitive and fields, and its variant in the bench's words", () => {
    const bench = enumerateCases({ sizes: [1024], runs: 3, warmup: 1, seed: 1, density: 0.5 });
    expect(new Set(LUMA_CASE_NAMES.map((name) => LUMA_CASES[name].primitive))).toEqual(new Set(LUMA_PRIMITIVES));
    for (const name of LUMA_CASE_NAMES) {
      const { primitive: p, shape, differs, variant } = LUMA_CASES[name];
      // The variant is the bench's words for what luma ran, then words for fields the bench has none for.
      expect(variant.startsWith(describeVariant({ primitive: p, ...shape, ...differs })), name).toBe(true);
      const same = bench.filter(
        (c) => c.primitive === p && Object.entries(shape).every(([k, v]) => (c as Record<string, unknown>)[k] === v),
      );
      expect(same.length, name).toBeGreaterThan(0);
    }
  });

  test('the toolbox rows: the bench bytes of the paired row, the fields where luma differs, the runs', () => {
    const row = (name: LumaCaseName, extra: Partial<LumaRecord>) => lumaCaseResult(okRecord(name, extra), settings);
    const h256 = row('histogram-256', { bytes: 4096 });
    expect(h256.case).toMatchObject({ primitive: 'histogram', type: 'u32', bins: 256, call: 'GPUHistogram' });
    expect(h256.case.series).toBe('histogram/luma.gl 9.4.2 GPUHistogram/u32 256 bins');
    expect(h256.measurement?.bytes).toBe(4096);
    expect(row('histogram-65536', { bytes: 4096 }).case).toMatchObject({ bins: 65536 });
    const search = row('lower-bound', { bytes: 3 * 4096 });
    expect(search.case).toMatchObject({ primitive: 'lower-bound', type: 'u32', needleOrder: 'sorted', call: 'GPUGallopingSearch' });
    expect(search.measurement?.bytes).toBe(3 * 4096);
    // luma's values are f32: the case says so (the bench's reduce-by-key reduces u32).
    const rbk = row('reduce-by-key', { bytes: 2 * 4096 + 2 * 4 * 64 + 4, segments: 64 });
    expect(rbk.case).toMatchObject({ primitive: 'reduce-by-key', type: 'f32', op: 'add', segmentMean: 16, keyForm: 'dense' });
    expect(rbk).toMatchObject({ segments: 64, measurement: { bytes: 2 * 4096 + 2 * 4 * 64 + 4 } });
    const sbk = row('scan-by-key', { bytes: 3 * 4096, segments: 64 });
    expect(sbk.case).toMatchObject({
      primitive: 'scan-by-key',
      type: 'u32',
      op: 'add',
      inclusive: false,
      segmentMean: 16,
      keyForm: 'head flags',
    });
    expect(sbk.case.series).toBe('scan-by-key/luma.gl 9.4.2 GPUScan/u32 add excl mean 16 head flags');
  });

  test('the toolbox rows pair with our rows of the same primitive, size and mean on the same device', () => {
    // Our rows as the bench writes them: every toolbox case the luma rows compare with, at 2^10,
    // and the by-key rows also at the other mean (which no luma row may pair with).
    const bench = enumerateCases({ sizes: [1024], runs: 3, warmup: 1, seed: 1, density: 0.5 }).filter((c) =>
      ['histogram', 'lower-bound', 'reduce-by-key', 'scan-by-key'].includes(c.primitive),
    );
    const ours = toLoadedReport('ours.json', 'file', {
      ...sampleReport(),
      results: bench.map((c) => ({
        case: c,
        status: 'ok' as const,
        timer: 'timestamp' as const,
        measurement: {
          runs: 3,
          medianMs: 0.01,
          minMs: 0.01,
          maxMs: 0.01,
          meanMs: 0.01,
          samplesMs: [0.01],
          bytes: 4096,
          gbps: 0.4,
          gelemsPerS: 0.1,
        },
        verification: { gpuMismatches: 0, cpuCompared: true },
      })),
    });
    const names: LumaCaseName[] = ['histogram-256', 'histogram-65536', 'lower-bound', 'reduce-by-key', 'scan-by-key'];
    const luma = toLoadedReport('luma.json', 'file', {
      ...sampleReport(),
      baseline: 'webgpu',
      results: names.map((name) => lumaCaseResult(okRecord(name, { bytes: 4096, segments: 64 }), settings)),
    });
    if ('problems' in ours) throw new Error(ours.problems.join('\n'));
    if ('problems' in luma) throw new Error(luma.problems.join('\n'));
    const pairs = libraryPairs(currentRows([ours, luma]), baselineRows([ours, luma]), 'webgpu');
    const pairedWith = (series: string) => pairs.filter((p) => p.result.case.series === series).map((p) => p.ours?.result.case.series);
    expect(pairedWith('lower-bound/luma.gl 9.4.2 GPUGallopingSearch/u32 sorted needles')).toEqual(['lower-bound u32']);
    expect(pairedWith('reduce-by-key/luma.gl 9.4.2 GPUGroupAggregation/f32 add mean 16 dense keys')).toEqual([
      'reduce-by-key u32 add mean 16',
    ]);
    expect(pairedWith('scan-by-key/luma.gl 9.4.2 GPUScan/u32 add excl mean 16 head flags')).toEqual(['scan-by-key u32 add excl mean 16']);
    // Each histogram row pairs with our row of its bin count. (The dashboard matches `bins` only if
    // it is among its matched fields; where it is not, each also pairs with our other bin count.)
    expect(pairedWith('histogram/luma.gl 9.4.2 GPUHistogram/u32 256 bins')).toContain('histogram u32 256 bins');
    expect(pairedWith('histogram/luma.gl 9.4.2 GPUHistogram/u32 65536 bins')).toContain('histogram u32 65536 bins');
    for (const p of pairs) expect(p.ratio).toBeCloseTo(0.03 / 0.01, 12);
  });
});

/** Two records of the old schema (from the H100 run of 2026-11-27, samples cut to three). */
function legacyReport() {
  const record = (primitive: string, medianMs: number, verification: string) => ({
    library: 'luma.gl 9.4.2',
    primitive,
    n: 1024,
    log2n: 10,
    compareWith: 'old text',
    luma: { class: 'X', kernels: 'GPUScan/subgroups ×2, GPUScan' },
    status: 'ok',
    verified: true,
    verification,
    timing: 'timestamp',
    medianMs,
    p10Ms: medianMs,
    p90Ms: medianMs,
    minMs: medianMs,
    maxMs: medianMs,
    runs: 3,
    samplesMs: [medianMs, medianMs, medianMs],
    copyMedianMs: 0.008448,
    copy: {
      runs: 3,
      medianMs: 0.008448,
      p10Ms: 0.008,
      p90Ms: 0.009,
      minMs: 0.008,
      maxMs: 0.009,
      samplesMs: [0.008, 0.008448, 0.009],
      method: 'timestamp',
      verified: true,
    },
    copyTimeRatio: 0.6,
  });
  return {
    schema: 'scan-luma-baseline/1',
    library: 'luma.gl 9.4.2',
    date: '2026-11-27T21:22:21.943Z',
    commit: 'e163dd5-dirty',
    host: { node: 'v20.20.2', platform: 'linux', arch: 'x64' },
    device: {
      vendor: 'nvidia',
      architecture: '',
      description: 'NVIDIA: 580.159.04 580.159.4.0',
      features: ['core-features-and-limits', 'subgroups', 'timestamp-query'],
      subgroupMinSize: 32,
      subgroupMaxSize: 32,
    },
    toggles: ['enable-dawn-features=allow_unsafe_apis', 'disable-dawn-features=timestamp_quantization'],
    options: { sizes: [10], only: ['scan', 'pack', 'sort'], runs: 3, warmup: 10, heatMs: 500, seed: 1 },
    results: [
      record('scan', 0.013856, 'exclusive scan: 1024 words equal'),
      record('pack', 0.016736, 'pack (count 547): 547 words equal'),
      record('sort', 0.068816, 'sort keys: 1024 words equal'),
    ],
  };
}

describe('the old schema (scan-luma-baseline/1) converted', () => {
  test('the same date, commit, host, device, options and times; sort is sort-pairs; pack keeps its count; the notes say what was added', () => {
    const old = legacyReport();
    const report = convertLegacyLumaReport(old, { source: 'old.json', deviceName: 'nvidia-h100-80gb-hbm3', note: 'same driver' });
    expect(validateReport(JSON.parse(JSON.stringify(report)))).toEqual([]);
    expect(report).toMatchObject({ schema: 'scan-bench/1', baseline: 'webgpu', date: old.date, commit: old.commit, host: old.host });
    expect(report.device).toEqual({
      adapter: { vendor: 'nvidia', architecture: '', description: 'NVIDIA: 580.159.04 580.159.4.0', device: 'nvidia-h100-80gb-hbm3' },
      features: { subgroups: true, shaderF16: false, timestampQuery: true, subgroupMatrix: false },
      subgroupMinSize: 32,
      subgroupMaxSize: 32,
      limits: {},
    });
    expect(report.options).toEqual({
      sizes: [1024],
      runs: 3,
      warmup: 10,
      seed: 1,
      density: 0.5,
      timeoutS: 0,
      only: ['scan', 'pack', 'sort-pairs'],
      dawnToggles: 'enable-dawn-features=allow_unsafe_apis disable-dawn-features=timestamp_quantization',
      heatMs: 500,
    });
    expect(report.notes).toEqual([
      expect.stringMatching(/^converted from old\.json \(scan-luma-baseline\/1\)/),
      'adapter.device "nvidia-h100-80gb-hbm3" added at conversion: same driver',
    ]);
    expect(report.results.map((r) => [r.case.primitive, r.case.n, r.measurement?.medianMs, r.copy?.medianMs, r.ones])).toEqual([
      ['scan', 1024, 0.013856, 0.008448, undefined],
      ['pack', 1024, 0.016736, 0.008448, 547],
      ['sort-pairs', 1024, 0.068816, 0.008448, undefined],
    ]);
    expect(report.results[0]!.measurement?.samplesMs).toEqual(old.results[0]!.samplesMs);
    expect(report.results[0]!.copy?.samplesMs).toEqual(old.results[0]!.copy.samplesMs);
    expect(report.results[2]!.verification?.detail).toBe('sort keys: 1024 words equal');
    expect(report.results[0]!.baselineInfo).toEqual(old.results[0]!.luma);
  });

  test('a file of another schema, or a pack record without its count, is refused', () => {
    expect(() => convertLegacyLumaReport({ schema: 'scan-bench/1' }, { source: 'x.json' })).toThrow(
      /x\.json: not a scan-luma-baseline\/1 report/,
    );
    const old = legacyReport();
    const noCount = { ...old, results: [{ ...old.results[1]!, verification: 'pack: 547 words equal' }] };
    expect(() => convertLegacyLumaReport(noCount, { source: 'x.json' })).toThrow(/pack 2\^10 does not state its count/);
  });
});

/** A committed report, loaded as the dashboard loads it. */
function committed(name: string): LoadedReport {
  const loaded = toLoadedReport(
    name,
    'committed',
    JSON.parse(readFileSync(new URL(`../../../benchmarks/${name}`, import.meta.url), 'utf8')),
  );
  if ('problems' in loaded) throw new Error(`${name}: ${loaded.problems.join('\n')}`);
  return loaded;
}

describe('the committed luma.gl reports (H100, 2026-11-27)', () => {
  const full = committed('h100-2026-11-27-luma-9.4.2.json');
  const small = committed('h100-2026-11-27-luma-9.4.2-small.json');
  const median = (r: LoadedReport, primitive: string, n: number) =>
    r.report.results.find((x) => x.case.primitive === primitive && x.case.n === n)?.measurement?.medianMs;

  test("load as WebGPU-library reports of the H100 the bench names, with the runs' own dates and commits", () => {
    for (const r of [full, small]) expect(r).toMatchObject({ isBaseline: true, baseline: 'webgpu', device: 'nvidia-h100-80gb-hbm3' });
    expect([full.report.date, full.report.commit, full.report.results.length]).toEqual(['2026-11-27T21:22:21.943Z', 'e163dd5-dirty', 24]);
    expect([small.report.date, small.report.commit, small.report.results.length]).toEqual(['2026-11-27T23:17:13.213Z', 'luma-9.4.2', 16]);
    expect(full.report.results.every((r) => r.status === 'ok' && r.measurement?.samplesMs.length === 50)).toBe(true);
  });

  test("the medians quoted from them: the luma README's table (full run) and BENCHMARKS.md's (small run)", () => {
    expect(median(full, 'scan', 1024)).toBe(0.013856);
    expect(median(full, 'sort-pairs', 2 ** 16)).toBe(0.119104);
    expect(median(full, 'reduce', 2 ** 20)).toBe(0.019712);
    expect(median(full, 'pack', 2 ** 20)).toBe(0.032752);
    expect(median(small, 'scan', 1024)).toBe(0.013792);
    expect(median(small, 'sort-pairs', 2 ** 16)).toBeCloseTo(0.119248, 12);
  });

  test('pair with our rows of the same evening on the same H100: luma time ÷ ours', () => {
    const ours = committed('h100-2026-11-27-fdea7a0-small.json');
    const shown = [ours, small];
    const pairs = libraryPairs(currentRows(shown), baselineRows(shown), 'webgpu');
    const scan = pairs.find((p) => p.result.case.primitive === 'scan' && p.result.case.n === 1024)!;
    expect(scan.ours?.result.case.series).toBe('scan decoupled-fallback u32 add excl fwd');
    expect(scan.ratio).toBeCloseTo(0.013792 / (median(ours, 'scan', 1024) as number), 12);
    // Our key–value sorts (radix and the paper's split radix) each get a pair; the key-only sort none.
    const sorts = pairs
      .filter((p) => p.result.case.primitive === 'sort-pairs' && p.result.case.n === 1024)
      .map((p) => p.ours?.result.case.series);
    expect(sorts).toEqual(['sort-pairs radix u32 u32 values', 'sort-pairs split-radix u32 u32 values']);
    expect(pairs.every((p) => p.ours !== undefined)).toBe(true);
  });
});
