import { describe, expect, test } from 'vitest';
import { FIRST_CALL_COLUMNS, FRAME_LOOP_COLUMNS, frameRows } from '../dashboard/frame-model.js';
import { LIBRARY_COLUMNS, libraryCharts, libraryPairs } from '../dashboard/library-views.js';
import { lineage, metricValue, naturalUnit } from '../dashboard/metrics.js';
import { baselineRows, currentRows, deviceName, type LoadedReport, newestFirst, toLoadedReport } from '../dashboard/model.js';
import { COLUMNS, sortRows, verificationText } from '../dashboard/table-model.js';
import { defaultDevicePair, deviceCharts, paperCharts, ratioCopyCharts, throughputCharts } from '../dashboard/views.js';
import type { CaseRecord } from '../src/case-types.js';
import type { BenchReport, CaseResult } from '../src/report.js';
import { frameReport, measurement, sampleReport } from './fixtures.js';

const verified = { gpuMismatches: 0, cpuCompared: true, gpuMismatchesAfterTiming: 0 };

function load(key: string, report: BenchReport): LoadedReport {
  const loaded = toLoadedReport(key, 'committed', report);
  if ('problems' in loaded) throw new Error(loaded.problems.join('\n'));
  return loaded;
}

/** An ok result of `shape` at n elements taking `ms`, with copy at `copyMs`. */
function ok(shape: Partial<CaseRecord> & Pick<CaseRecord, 'primitive' | 'series'>, n: number, ms: number, copyMs = ms / 2): CaseResult {
  const c = { type: 'u32', seed: 1, runs: 10, warmup: 2, ...shape, n, id: `${shape.series}@${n}` } as CaseRecord;
  const m = measurement(ms, 8 * n, n);
  const copy = measurement(copyMs, 8 * n, n);
  return { case: c, status: 'ok', timer: 'timestamp', measurement: m, copy, ratioCopy: m.gbps / copy.gbps, verification: verified };
}

/** A result as baselines/cuda.py writes it: the library in `case.baseline`. */
function asBaseline(result: CaseResult, baseline: string): CaseResult {
  return { ...result, case: { ...result.case, baseline } };
}

/** cuSPARSE csrgeam's row on biased-1M at 2^20, taking `ms`, as the CUDA baseline report holds it. */
function csrgeamBaseline(ms: number): CaseResult {
  const shape = {
    primitive: 'sparse-add' as CaseRecord['primitive'],
    series: 'sparse-add/cusparse.csrgeam/f32/matrix=biased-1M',
    matrix: 'biased-1M',
  };
  return asBaseline(ok(shape, 1 << 20, ms), 'cusparse.csrgeam');
}

function report(date: string, results: CaseResult[], device = 'nvidia-h100-80gb-hbm3', extra: object = {}): BenchReport {
  const base = sampleReport();
  return { ...base, date, device: { ...base.device!, adapter: { ...base.device!.adapter, device } }, results, ...extra };
}

const scanShape = {
  primitive: 'scan',
  algorithm: 'decoupled-fallback',
  series: 'scan decoupled-fallback u32 add excl fwd',
  inclusive: false,
} as const;
const blelloch = { primitive: 'scan', algorithm: 'blelloch', series: 'scan blelloch u32 add excl fwd', inclusive: false } as const;
const sortShape = { primitive: 'sort', algorithm: 'radix', series: 'sort radix u32' } as const;

describe('loading reports', () => {
  test('a report that is not one gives its problems; device names agree between the bench and the baselines', () => {
    expect(toLoadedReport('x.json', 'file', { schema: 'nope' })).toHaveProperty('problems');
    const ours = load('a.json', report('2026-11-22T00:00:00Z', []));
    expect(ours.device).toBe('nvidia-h100-80gb-hbm3');
    const cuda = report('2026-11-25T00:00:00Z', [], 'CUDA 13.0, torch 2.11', { baseline: 'cuda' });
    expect(deviceName(cuda)).toBe('nvidia-h100-80gb-hbm3');
    expect(load('b.json', cuda).isBaseline).toBe(true);
  });

  test('the newest report of a case wins; older cases that were not re-run stay; flag densities stay apart', () => {
    const old = load('old.json', report('2026-11-22T00:00:00Z', [ok(scanShape, 1 << 20, 1), ok(blelloch, 1 << 20, 3)]));
    const fresh = load('new.json', report('2026-11-24T00:00:00Z', [ok(scanShape, 1 << 20, 0.5)]));
    const packAt = (density: number) =>
      ok({ primitive: 'pack', algorithm: 'single-pass', series: 'pack single-pass u32 u32 flags', density }, 1 << 20, 1);
    const dense = load('d.json', report('2026-11-23T00:00:00Z', [packAt(0.5), packAt(0.01)]));
    expect(newestFirst([old, dense, fresh]).map((r) => r.key)).toEqual(['new.json', 'd.json', 'old.json']);
    const rows = currentRows([old, fresh, dense]);
    expect(rows.map((r) => `${r.source.key} ${r.result.case.id} ${r.result.case.density ?? ''}`)).toEqual([
      'new.json scan decoupled-fallback u32 add excl fwd@1048576 ',
      'd.json pack single-pass u32 u32 flags@1048576 0.5',
      'd.json pack single-pass u32 u32 flags@1048576 0.01',
      'old.json scan blelloch u32 add excl fwd@1048576 ',
    ]);
  });
});

describe('views', () => {
  const sizes = [1 << 16, 1 << 20, 1 << 24];
  const rows = currentRows([
    load(
      'a.json',
      report('2026-11-24T00:00:00Z', [
        ...sizes.map((n, i) => ok(scanShape, n, 2 ** i)),
        ...sizes.map((n) => ok(blelloch, n, 4)),
        ok(sortShape, 1 << 20, 0.1),
        { case: { ...ok(sortShape, 1 << 24, 1).case }, status: 'failed', message: 'GPU check: 3 mismatches' },
      ]),
    ),
  ]);

  test('throughput: a chart per primitive in its own unit, a line per configuration, points by size; failed cases are not drawn', () => {
    const charts = throughputCharts(rows, 'natural');
    expect(charts.map((c) => [c.id, c.yTitle.split(' ')[0], c.yLog])).toEqual([
      ['throughput-scan', 'GB/s', true],
      ['throughput-sort', 'G', true],
    ]);
    const [scan, sort] = charts;
    expect(scan!.lines.map((l) => l.label)).toEqual(['decoupled-fallback u32 add excl fwd', 'blelloch u32 add excl fwd']);
    expect(scan!.lines[0]!.points.map((p) => p.x)).toEqual([16, 20, 24]);
    expect(scan!.lines[0]!.points[1]!.y).toBeCloseTo((8 * (1 << 20)) / 2 / 1e6);
    expect(sort!.lines[0]!.points).toHaveLength(1);
    expect(sort!.lines[0]!.points[0]!.y).toBeCloseTo((1 << 20) / 0.1 / 1e6);
    expect(sort!.lines[0]!.points[0]!.tip.join('\n')).toMatch(/G keys\/s/);
    // One unit for all: sorts in GB/s too.
    expect(throughputCharts(rows, 'gbps')[1]!.lines[0]!.points[0]!.y).toBeCloseTo((8 * (1 << 20)) / 0.1 / 1e6);
  });

  test('tooltips carry the exact figures', () => {
    const tip = throughputCharts(rows, 'natural')[0]!.lines[0]!.points[0]!.tip;
    expect(tip[0]).toBe('n = 65,536 (2^16)');
    expect(tip[1]).toMatch(/^median 1 ms \(min 0.9, max 1.5, 10 runs\)$/);
    expect(tip.join('\n')).toMatch(/× copy 0.5\n/);
    expect(tip.join('\n')).toMatch(/verified on the GPU and against the CPU reference/);
    expect(tip.at(-1)).toBe('a · nvidia-h100-80gb-hbm3 · abcdef0 · 2026-11-24');
  });

  test('× copy: linear axis, the copy kernel itself left out', () => {
    const charts = ratioCopyCharts(rows);
    expect(charts.map((c) => c.id)).toEqual(['ratio-scan', 'ratio-sort']);
    expect(charts[0]!.yLog).toBe(false);
    expect(charts[0]!.lines[0]!.points.map((p) => p.y)).toEqual([0.5, 0.5, 0.5]);
  });

  test("paper vs modern: only primitives with both, the paper's algorithms dashed", () => {
    const charts = paperCharts(rows);
    expect(charts.map((c) => c.id)).toEqual(['paper-scan']);
    expect(charts[0]!.lines.map((l) => [l.label, l.dashed ?? false])).toEqual([
      ['modern · decoupled-fallback u32 add excl fwd', false],
      ['paper · blelloch u32 add excl fwd', true],
    ]);
    expect(lineage('tridiag-cr', undefined)).toBe('paper');
    expect(lineage('tridiag-partition', undefined)).toBe('modern');
    expect(lineage('spmv', 'auto')).toBeUndefined();
  });

  test('devices: both devices on one chart, the second dashed, the ratio where both ran the case', () => {
    const other = load('b.json', report('2026-11-25T00:00:00Z', [ok(scanShape, 1 << 16, 10)], 'swiftshader-device'));
    const both = currentRows([
      load(
        'a.json',
        report(
          '2026-11-24T00:00:00Z',
          sizes.map((n, i) => ok(scanShape, n, 2 ** i)),
        ),
      ),
      other,
    ]);
    const [chart] = deviceCharts(both, 'nvidia-h100-80gb-hbm3', 'swiftshader-device');
    expect(chart!.lines.map((l) => [l.label, l.dashed ?? false, l.points.length])).toEqual([
      ['swiftshader-device: decoupled-fallback u32 add excl fwd', true, 1],
      ['nvidia-h100-80gb-hbm3: decoupled-fallback u32 add excl fwd', false, 3],
    ]);
    expect(chart!.lines[0]!.points[0]!.tip.at(-1)).toBe('0.1× the other device on this case');
  });

  test('CUDA libraries: library time ÷ ours on the same device and size, same element type preferred, unmatched ones named', () => {
    const cumsum = asBaseline(
      ok({ primitive: 'scan', series: 'scan/torch.cumsum/u32/inclusive=True', inclusive: true }, 1 << 20, 3),
      'torch.cumsum',
    );
    const geam = csrgeamBaseline(1);
    const f32 = ok({ ...scanShape, type: 'f32', series: 'scan decoupled-fallback f32 add excl fwd' }, 1 << 20, 1);
    const cuda = load('cuda.json', report('2026-11-25T00:00:00Z', [cumsum, geam], 'CUDA 13', { baseline: 'cuda' }));
    const ours = load('ours.json', report('2026-11-24T00:00:00Z', [...sizes.map((n, i) => ok(scanShape, n, 2 ** i)), f32]));
    // The baseline names its GPU in the description, as the committed report does.
    expect(cuda.device).toBe(ours.device);
    const view = libraryCharts(libraryPairs(currentRows([ours]), baselineRows([cuda]), 'cuda'), 'cuda');
    expect(view.charts).toHaveLength(1);
    expect(view.charts[0]!.lines.map((l) => l.label)).toEqual(['decoupled-fallback u32 add excl fwd vs torch.cumsum/u32/inclusive=True']);
    expect(view.charts[0]!.lines[0]!.points).toEqual([expect.objectContaining({ x: 20, y: 1.5 })]);
    expect(view.unmatched).toEqual(['sparse-add (cusparse.csrgeam)']);
  });

  test('CUDA libraries: hisparse-add is paired with csrgeam on the same matrix, a line per node size, in GFLOPS', () => {
    const geam = csrgeamBaseline(2);
    const add = (d: number, matrix: string) =>
      ok({ primitive: 'hisparse-add', type: 'f32', nodeSize: d, matrix, series: `hisparse-add f32 d ${d} ${matrix}` }, 1 << 20, 1);
    const cuda = load('cuda.json', report('2026-11-25T00:00:00Z', [geam], 'CUDA 13', { baseline: 'cuda' }));
    const ours = load('ours.json', report('2026-11-24T00:00:00Z', [add(16, 'biased-1M'), add(32, 'biased-1M'), add(16, 'uniform-4M')]));
    const view = libraryCharts(libraryPairs(currentRows([ours]), baselineRows([cuda]), 'cuda'), 'cuda');
    expect(view.unmatched).toEqual([]);
    expect(view.charts.map((c) => c.id)).toHaveLength(1);
    expect(view.charts[0]!.lines.map((l) => l.label)).toEqual(['f32 d 16 vs cusparse.csrgeam/f32', 'f32 d 32 vs cusparse.csrgeam/f32']);
    expect(view.charts[0]!.lines[0]!.points).toEqual([expect.objectContaining({ x: 20, y: 2 })]);
    expect(naturalUnit('hisparse-add')).toBe(naturalUnit('sparse-add'));
    expect(naturalUnit('hisparse-add')).toBe('gflops');
  });

  test('CUDA libraries: csrgeam pairs with the hisparse-add of the same operands (add; none is A + 2A)', () => {
    const geam = (add: string | undefined, transposition?: string) =>
      asBaseline(
        ok(
          {
            primitive: 'sparse-add' as CaseRecord['primitive'],
            series: `sparse-add/cusparse.csrgeam/f32/${add ? `add=${add}/` : ''}matrix=biased-1M${transposition ? `/transposition=${transposition}` : ''}`,
            matrix: 'biased-1M',
            ...(add ? { add } : {}),
            ...(transposition ? { transposition } : {}),
          } as Partial<CaseRecord> & Pick<CaseRecord, 'series' | 'primitive'>,
          1 << 20,
          2,
        ),
        'cusparse.csrgeam',
      );
    const ours = (add: string) =>
      ok(
        {
          primitive: 'hisparse-add',
          type: 'f32',
          nodeSize: 64,
          add,
          matrix: 'biased-1M',
          series: `hisparse-add f32 d 64 ${add} biased-1M`,
        } as Partial<CaseRecord> & Pick<CaseRecord, 'series' | 'primitive'>,
        1 << 20,
        1,
      );
    const cuda = load(
      'cuda.json',
      report('2026-11-25T00:00:00Z', [geam('a+b'), geam('at+bt', 'timed'), geam('at+bt', 'untimed'), geam(undefined)], 'CUDA 13', {
        baseline: 'cuda',
      }),
    );
    const mine = load('ours.json', report('2026-11-24T00:00:00Z', [ours('a+2a'), ours('a+b'), ours('at+bt')]));
    const view = libraryCharts(libraryPairs(currentRows([mine]), baselineRows([cuda]), 'cuda'), 'cuda');
    expect(view.unmatched).toEqual([]);
    const labels = view.charts.flatMap((c) => c.lines.map((l) => l.label));
    expect(labels).toHaveLength(4);
    expect(labels.filter((l) => l.startsWith('f32 d 64 at+bt'))).toHaveLength(2);
    expect(labels.filter((l) => l.startsWith('f32 d 64 a+b '))).toEqual([expect.stringContaining('add=a+b')]);
    expect(labels.filter((l) => l.startsWith('f32 d 64 a+2a'))).toEqual([expect.not.stringContaining('add=')]);
  });

  test('CUDA libraries: an inclusive library scan is paired with our inclusive scan where we have one', () => {
    const cumsum = asBaseline(
      ok({ primitive: 'scan', series: 'scan/torch.cumsum/u32/inclusive=True', inclusive: true }, 1 << 20, 3),
      'torch.cumsum',
    );
    const incl = { ...scanShape, inclusive: true, series: 'scan decoupled-fallback u32 add incl fwd' };
    const cuda = load('cuda.json', report('2026-11-25T00:00:00Z', [cumsum], 'CUDA 13', { baseline: 'cuda' }));
    const ours = load('ours.json', report('2026-11-24T00:00:00Z', [ok(scanShape, 1 << 20, 1), ok(incl, 1 << 20, 2)]));
    const pairs = libraryPairs(currentRows([ours]), baselineRows([cuda]), 'cuda');
    expect(pairs.map((p) => [p.ours?.result.case.series, p.ratio])).toEqual([['scan decoupled-fallback u32 add incl fwd', 1.5]]);
  });
});

/** luma.gl's row of `primitive` at n taking `ms`, as baselines/luma writes it (the bench row's fields, the library, its class). */
function lumaRow(primitive: 'scan' | 'sort-pairs', n: number, ms: number, status: CaseResult['status'] = 'ok'): CaseResult {
  const fields =
    primitive === 'scan'
      ? { op: 'add', inclusive: false, backward: false, call: 'GPUScan', series: 'scan/luma.gl 9.4.2 GPUScan/u32 add excl fwd' }
      : { valueType: 'u32', call: 'GPUSort', series: 'sort-pairs/luma.gl 9.4.2 GPUSort/u32 u32 values' };
  const row = ok({ primitive, ...fields, baseline: 'luma.gl 9.4.2' }, n, ms);
  const verification = { cpuCompared: true, cpuMismatches: 0, detail: 'words equal' };
  if (status === 'ok') return { ...row, verification };
  return { case: row.case, status, message: 'GPU validation error: too many workgroups' };
}

describe('WebGPU libraries (baselines/luma) beside ours', () => {
  const h100 = 'nvidia-h100-80gb-hbm3';
  const pairsKey = { primitive: 'sort-pairs', algorithm: 'radix', valueType: 'u32', series: 'sort-pairs radix u32 u32 values' } as const;
  const webgpu = (results: CaseResult[], device = h100) =>
    load(`luma-${device}.json`, report('2026-11-27T23:17:00Z', results, device, { baseline: 'webgpu' }));

  test('sorts pair by key width and value width (issue 50): gridwise u64 with our u64, torch i64 too, 16-byte values only with ours', () => {
    const n = 1 << 20;
    const gw = (type: string, ms: number) =>
      asBaseline(
        ok(
          {
            primitive: 'sort',
            type: type as CaseRecord['type'],
            call: 'OneSweepSort',
            series: `sort/gridwise 0.1.0 a5fdd8d OneSweepSort/${type} keys`,
          },
          n,
          ms,
        ),
        'gridwise 0.1.0 a5fdd8d',
      );
    const grid = webgpu(
      [gw('u32', 3), gw('u64', 8)].map((r) => ({ ...r, verification: { cpuCompared: true, cpuMismatches: 0, detail: 'ascending' } })),
    );
    const sortOf = (type: string) =>
      ({ primitive: 'sort', algorithm: 'radix', type: type as CaseRecord['type'], series: `sort radix ${type}` }) as const;
    const wide = { ...pairsKey, valueWidth: 16, series: 'sort-pairs radix u32 16-byte values' };
    const ours = load(
      'ours.json',
      report('2026-11-27T23:15:00Z', [
        ok(sortOf('u32'), n, 1),
        ok(sortOf('u64'), n, 2),
        ok(sortOf('u16'), n, 0.5),
        ok(pairsKey, n, 3),
        ok(wide, n, 4),
      ]),
    );
    const pairs = libraryPairs(currentRows([ours, grid]), baselineRows([ours, grid]), 'webgpu');
    expect(pairs.map((p) => [p.result.case.type, p.ours?.result.case.series, p.ratio])).toEqual([
      ['u32', 'sort radix u32', 3],
      ['u64', 'sort radix u64', 4],
    ]);
    const cuda = load(
      'cuda.json',
      report(
        '2026-11-27T23:16:00Z',
        [
          asBaseline(ok({ primitive: 'sort', type: 'i64' as CaseRecord['type'], series: 'sort/torch.sort/i64' }, n, 6), 'torch.sort'),
          asBaseline(
            ok({ primitive: 'sort-pairs', type: 'i32', valueType: 'i64', series: 'sort-pairs/torch.sort(stable)/i32/valueType=i64' }, n, 6),
            'torch.sort(stable)',
          ),
          asBaseline(
            ok(
              {
                primitive: 'sort-pairs',
                type: 'i32',
                valueWidth: 16,
                series: 'sort-pairs/torch.sort(stable)+index_select/i32/valueType=i32x4/valueWidth=16',
              },
              n,
              2,
            ),
            'torch.sort(stable)+index_select',
          ),
        ],
        h100,
        { baseline: 'cuda' },
      ),
    );
    const cudaPairs = libraryPairs(currentRows([ours]), baselineRows([cuda]), 'cuda');
    expect(cudaPairs.map((p) => [p.result.case.baseline, p.ours?.result.case.series, p.ratio])).toEqual([
      ['torch.sort', 'sort radix u64', 3],
      ['torch.sort(stable)', 'sort-pairs radix u32 u32 values', 2],
      ['torch.sort(stable)+index_select', 'sort-pairs radix u32 16-byte values', 0.5],
    ]);
  });

  test('a WebGPU-library report is named by its adapter like ours (not like a CUDA report) and kept apart from the CUDA rows', () => {
    const luma = webgpu([lumaRow('scan', 1024, 2)]);
    expect(luma).toMatchObject({ isBaseline: true, baseline: 'webgpu', device: h100 });
    const cuda = load('cuda.json', report('2026-11-25T00:00:00Z', [], 'CUDA 13', { baseline: 'cuda' }));
    expect(baselineRows([luma, cuda], 'webgpu').map((r) => r.source.key)).toEqual([luma.key]);
    expect(baselineRows([luma, cuda], 'cuda')).toEqual([]);
    expect(libraryPairs([], baselineRows([luma, cuda]), 'cuda')).toEqual([]);
    expect(currentRows([luma])).toEqual([]);
  });

  test('per primitive and size: the library time ÷ ours, with our closest configuration, in a chart a line per pair', () => {
    const luma = webgpu([lumaRow('scan', 1024, 0.014), lumaRow('scan', 4096, 0.016), lumaRow('sort-pairs', 1024, 0.07)]);
    const bwd = { ...scanShape, backward: true, series: 'scan decoupled-fallback u32 add excl bwd' };
    const ours = load(
      'ours.json',
      report('2026-11-27T23:15:00Z', [
        ok(scanShape, 1024, 0.01),
        ok(bwd, 1024, 0.011),
        ok(scanShape, 4096, 0.008),
        ok(pairsKey, 1024, 0.02),
      ]),
    );
    const pairs = libraryPairs(currentRows([ours, luma]), baselineRows([ours, luma]), 'webgpu');
    expect(pairs.map((p) => [p.result.case.primitive, p.result.case.n, p.ours?.result.case.series, p.ratio])).toEqual([
      ['scan', 1024, 'scan decoupled-fallback u32 add excl fwd', expect.closeTo(1.4, 12)],
      ['scan', 4096, 'scan decoupled-fallback u32 add excl fwd', expect.closeTo(2, 12)],
      ['sort-pairs', 1024, 'sort-pairs radix u32 u32 values', expect.closeTo(3.5, 12)],
    ]);
    const view = libraryCharts(pairs, 'webgpu');
    expect(view.unmatched).toEqual([]);
    expect(view.charts.map((c) => [c.id, c.title, c.yTitle])).toEqual([
      ['webgpu-scan', 'scan: WebGPU library time ÷ ours (above 1: ours is faster)', 'WebGPU library time ÷ our time'],
      ['webgpu-sort-pairs', 'sort-pairs: WebGPU library time ÷ ours (above 1: ours is faster)', 'WebGPU library time ÷ our time'],
    ]);
    const [scan] = view.charts;
    expect(scan!.lines.map((l) => l.label)).toEqual(['decoupled-fallback u32 add excl fwd vs luma.gl 9.4.2 GPUScan/u32 add excl fwd']);
    expect(scan!.lines[0]!.points.map((p) => [p.x, p.y])).toEqual([
      [10, expect.closeTo(1.4, 12)],
      [12, expect.closeTo(2, 12)],
    ]);
    expect(scan!.lines[0]!.points[0]!.tip[0]).toBe('luma.gl 9.4.2 GPUScan/u32 add excl fwd: 0.014 ms');
  });

  test("a library's histogram of one bin count is divided by ours of the same bins only (and top-k by the same k)", () => {
    const hist = (bins: number) => ({ primitive: 'histogram', bins, series: `histogram u32 ${bins} bins` }) as const;
    const lumaHist = (bins: number, ms: number) =>
      ok(
        { ...hist(bins), call: 'GPUHistogram', baseline: 'luma.gl 9.4.2', series: `histogram/luma.gl 9.4.2 GPUHistogram/u32 ${bins} bins` },
        1024,
        ms,
      );
    const luma = webgpu([lumaHist(256, 0.02), lumaHist(65536, 0.09)]);
    const ours = load('ours.json', report('2026-11-27T23:15:00Z', [ok(hist(256), 1024, 0.01), ok(hist(65536), 1024, 0.03)]));
    const pairs = libraryPairs(currentRows([ours, luma]), baselineRows([ours, luma]), 'webgpu');
    expect(pairs.map((p) => [p.result.case.bins, p.ours?.result.case.bins, p.ratio])).toEqual([
      [256, 256, expect.closeTo(2, 12)],
      [65536, 65536, expect.closeTo(3, 12)],
    ]);
  });

  test('only pairs on the same device: a library run on one GPU is never divided by ours on another', () => {
    const onH200 = webgpu([lumaRow('scan', 1024, 0.014)], 'nvidia-h200');
    const ours = load('ours.json', report('2026-11-27T23:15:00Z', [ok(scanShape, 1024, 0.01)], h100));
    const pairs = libraryPairs(currentRows([ours, onH200]), baselineRows([ours, onH200]), 'webgpu');
    expect(pairs).toHaveLength(1);
    expect(pairs[0]).toMatchObject({ source: { device: 'nvidia-h200' } });
    expect(pairs[0]!.ours).toBeUndefined();
    expect(pairs[0]!.ratio).toBeUndefined();
    const view = libraryCharts(pairs, 'webgpu');
    expect(view.charts).toEqual([]);
    expect(view.unmatched).toEqual(['scan (luma.gl 9.4.2)']);
    const note = LIBRARY_COLUMNS.find((c) => c.key === 'message')!;
    expect(note.text(pairs[0]!)).toBe('no result of ours for this case on nvidia-h200');
  });

  test('missing cases: a size we did not run, and a library row that is an error, stay in the table without a ratio and draw nothing', () => {
    const luma = webgpu([lumaRow('scan', 1024, 0.014), lumaRow('scan', 1 << 18, 0.02), lumaRow('sort-pairs', 1 << 28, 0, 'error')]);
    const ours = load('ours.json', report('2026-11-27T23:15:00Z', [ok(scanShape, 1024, 0.01), ok(pairsKey, 1 << 28, 12)]));
    const pairs = libraryPairs(currentRows([ours, luma]), baselineRows([ours, luma]), 'webgpu');
    expect(
      pairs.map((p) => [p.result.case.primitive, p.result.case.n, p.result.status, p.ours !== undefined, p.ratio !== undefined]),
    ).toEqual([
      ['scan', 1024, 'ok', true, true],
      ['scan', 1 << 18, 'ok', false, false],
      ['sort-pairs', 1 << 28, 'error', false, false],
    ]);
    const view = libraryCharts(pairs, 'webgpu');
    expect(view.charts.map((c) => c.id)).toEqual(['webgpu-scan']);
    expect(view.charts[0]!.lines[0]!.points.map((p) => p.x)).toEqual([10]);
    const text = (key: string) => LIBRARY_COLUMNS.find((c) => c.key === key)!;
    expect(pairs.map((p) => text('message').text(p))).toEqual([
      '',
      'no result of ours for this case on nvidia-h100-80gb-hbm3',
      'GPU validation error: too many workgroups',
    ]);
    expect(text('ratio').text(pairs[0]!)).toBe('1.4');
    // The case table says how a library row was checked: on the CPU, every word.
    expect(verificationText({ source: luma, result: luma.report.results[0]! })).toBe('CPU ✓');
    // Sorted by ratio, the pairs without one come last.
    expect(sortRows(pairs, 'ratio', 'ascending', LIBRARY_COLUMNS)[0]).toBe(pairs[0]);
  });
});

/** A HiSparse product on `matrix` with `nnz` nonzeros, taking `ms`, as the bench reports it (matrix info, GFLOPS). */
function hisparse(primitive: 'hisparse-spmv' | 'hisparse-spmv-t', d: number, matrix: string, nnz: number, ms: number): CaseResult {
  const shape = { primitive, type: 'f32', nodeSize: d, matrix, series: `${primitive} f32 d ${d} ${matrix}` } as const;
  const r = ok(shape as unknown as Parameters<typeof ok>[0], nnz, ms);
  const info = { name: matrix, rows: nnz / 4, cols: nnz / 4, nnz, k: 1, algorithm: `hisparse d ${d}`, maxRowLength: 4, meanRowLength: 4 };
  return { ...r, matrix: info, gflops: (2 * nnz) / ms / 1e6 };
}

describe('issue 33: the charts the user test found wrong', () => {
  const h100 = 'nvidia-h100-80gb-hbm3';
  const h200 = 'nvidia-h200';

  test('hisparse-spmv and -t are drawn as spmv is: GFLOPS, a point per matrix on nonzeros, no line between matrices', () => {
    const results = [
      hisparse('hisparse-spmv', 16, 'biased-1M', 1 << 22, 0.1),
      hisparse('hisparse-spmv', 16, 'uniform-4M', 1 << 24, 0.8),
      hisparse('hisparse-spmv-t', 16, 'biased-1M', 1 << 22, 0.2),
    ];
    const rows = currentRows([load('h.json', report('2026-11-26T00:00:00Z', results))]);
    const charts = throughputCharts(rows, 'natural');
    expect(charts.map((c) => [c.id, c.title, c.scatter, c.yTitle])).toEqual([
      ['throughput-hisparse-spmv', 'hisparse-spmv: GFLOPS', true, 'GFLOPS (2·nnz·k per product)'],
      ['throughput-hisparse-spmv-t', 'hisparse-spmv-t: GFLOPS', true, 'GFLOPS (2·nnz·k per product)'],
    ]);
    expect(charts[0]!.lines.map((l) => l.label)).toEqual(['f32 d 16']);
    // 2·nnz / time: 2·2^22 / 0.1 ms and 2·2^24 / 0.8 ms, at log2 of the nonzeros.
    expect(charts[0]!.lines[0]!.points.map((p) => [p.x, Number(p.y.toFixed(1))])).toEqual([
      [22, 83.9],
      [24, 41.9],
    ]);
    expect(naturalUnit('hisparse-spmv-t')).toBe('gflops');
    const gflops = COLUMNS.find((c) => c.key === 'gflops')!;
    expect(gflops.text(rows[0]!)).toBe('83.89');
  });

  test('throughput: a line never joins two devices; each device has its own line, named', () => {
    const rows = currentRows([
      load('a.json', report('2026-11-24T00:00:00Z', [ok(scanShape, 1 << 16, 1), ok(scanShape, 1 << 28, 2)], h100)),
      load('b.json', report('2026-11-28T00:00:00Z', [ok(scanShape, 1 << 24, 1), ok(scanShape, 1 << 28, 1)], h200)),
    ]);
    const [scan] = throughputCharts(rows, 'natural');
    expect(scan!.lines.map((l) => [l.label, l.points.map((p) => p.x)])).toEqual([
      [`${h200}: decoupled-fallback u32 add excl fwd`, [24, 28]],
      [`${h100}: decoupled-fallback u32 add excl fwd`, [16, 28]],
    ]);
    expect(ratioCopyCharts(rows)[0]!.lines).toHaveLength(2);
  });

  test('configurations that ran at one size only are drawn by case: x is the configuration, a line per device', () => {
    const tcu = (algorithm: string, seg: number, ms: number) =>
      ok(
        {
          primitive: 'tcu-scan',
          algorithm,
          inputType: 'f16',
          segmentSize: seg,
          series: `tcu-scan ${algorithm} f16 seg ${seg}`,
        } as Parameters<typeof ok>[0],
        1 << 28,
        ms,
      );
    const tridiag = ok({ primitive: 'tridiag-cr', type: 'f32', series: 'tridiag-cr f32' } as Parameters<typeof ok>[0], 1 << 22, 0.05);
    const pcr = ok({ primitive: 'tridiag-pcr', type: 'f32', series: 'tridiag-pcr f32' } as Parameters<typeof ok>[0], 1 << 22, 0.08);
    const rows = currentRows([
      load(
        'a.json',
        report('2026-11-22T00:00:00Z', [
          tcu('subgroup-matrix', 16, 1),
          tcu('emulated', 16, 4),
          tcu('subgroup-matrix', 256, 2),
          tridiag,
          pcr,
        ]),
      ),
    ]);
    const charts = throughputCharts(rows, 'natural');
    const scan = charts.find((c) => c.id === 'throughput-tcu-scan')!;
    expect(scan.categories).toEqual(['subgroup-matrix f16 seg 16', 'emulated f16 seg 16', 'subgroup-matrix f16 seg 256']);
    expect(scan.scatter).toBe(true);
    expect(scan.lines.map((l) => l.label)).toEqual([h100]);
    const gbps = (ms: number) => (8 * (1 << 28)) / ms / 1e6;
    expect(scan.lines[0]!.points.map((p) => [p.x, p.y])).toEqual([
      [0, gbps(1)],
      [1, gbps(4)],
      [2, gbps(2)],
    ]);
    // The tooltip names the configuration, then the figures (the size among them).
    expect(scan.lines[0]!.points[1]!.tip.slice(0, 2)).toEqual(['emulated f16 seg 16', 'n = 268,435,456 (2^28)']);
    expect(scan.xTitle).toBe('configuration (all at n = 2^28)');
    // The tridiagonal solvers share one chart, a configuration each.
    const solvers = charts.find((c) => c.id === 'throughput-tridiag')!;
    expect([solvers.categories, solvers.lines.map((l) => l.points.length)]).toEqual([['tridiag-cr f32', 'tridiag-pcr f32'], [2]]);
    // A second size makes it a size sweep again, a line per solver.
    const swept = currentRows([
      load('b.json', report('2026-11-22T00:00:00Z', [tridiag, { ...tridiag, case: { ...tridiag.case, n: 1 << 20, id: 'x@1048576' } }])),
    ]);
    expect(throughputCharts(swept, 'natural')[0]!.categories).toBeUndefined();
  });

  test('devices: the default pair shares the most primitives; charts with one device say so and come last', () => {
    const add = hisparse('hisparse-spmv', 16, 'biased-1M', 1 << 22, 0.1);
    const sort = ok(sortShape, 1 << 20, 0.1);
    const rows = currentRows([
      // The newest report is the H200's, with one primitive the H100 also ran: the user test's default pair.
      load('h200.json', report('2026-11-28T00:00:00Z', [add], h200)),
      load('h100.json', report('2026-11-24T00:00:00Z', [ok(scanShape, 1 << 20, 1), sort, add], h100)),
      load('b200.json', report('2026-11-25T00:00:00Z', [ok(scanShape, 1 << 24, 1), sort], 'nvidia-b200')),
      // A device with rows but nothing drawn (a failed case) is never picked.
      load('sw.json', report('2026-11-27T00:00:00Z', [{ case: sort.case, status: 'failed', message: 'x' }], 'swiftshader')),
    ]);
    expect(defaultDevicePair(rows)).toEqual([h100, 'nvidia-b200']);
    // A live run's device is in the pair, second, with the device it shares the most with.
    expect(defaultDevicePair(rows, h200)).toEqual([h100, h200]);
    // A live device with nothing drawn does not restrict the pair.
    expect(defaultDevicePair(rows, 'swiftshader')).toEqual([h100, 'nvidia-b200']);
    expect(defaultDevicePair(currentRows([load('h100.json', report('2026-11-24T00:00:00Z', [sort], h100))]))).toBeUndefined();

    const charts = deviceCharts(rows, h100, h200);
    expect(charts.map((c) => [c.id, c.note])).toEqual([
      ['device-hisparse-spmv', undefined],
      ['device-scan', `only ${h100} ran these cases: no ${h200} results to compare`],
      ['device-sort', `only ${h100} ran these cases: no ${h200} results to compare`],
    ]);
    // The product: a point per device on the matrix's nonzeros, the second device dashed.
    expect(charts[0]!.scatter).toBe(true);
    expect(charts[0]!.lines.map((l) => [l.label, l.dashed ?? false, l.points.length])).toEqual([
      [`${h200}: f32 d 16`, true, 1],
      [`${h100}: f32 d 16`, false, 1],
    ]);
    // scan at one size on the H100: by case, a line per device.
    expect(charts[1]!.categories).toEqual(['decoupled-fallback u32 add excl fwd']);
    expect(charts[1]!.lines.map((l) => [l.label, l.points.length])).toEqual([[h100, 1]]);
  });
});

describe('units and the table', () => {
  test('natural units and values; no value for a case that was not timed', () => {
    expect([naturalUnit('sort'), naturalUnit('spmm'), naturalUnit('scan')]).toEqual(['gkeys', 'gflops', 'gbps']);
    const r = ok(sortShape, 1000, 0.001);
    expect(metricValue(r, 'gkeys')).toBeCloseTo(1);
    expect(metricValue({ ...r, status: 'failed' }, 'gkeys')).toBeUndefined();
    expect(
      metricValue(
        { ...r, matrix: { name: 'm', rows: 10, cols: 10, nnz: 500, k: 2, algorithm: 'row', maxRowLength: 1, meanRowLength: 1 } },
        'gflops',
      ),
    ).toBeCloseTo(2);
  });

  test('sorting by a numeric column puts empty cells last both ways; ties keep their order; text sorts naturally', () => {
    const a = load(
      'a.json',
      report('2026-11-24T00:00:00Z', [
        ok(scanShape, 1 << 20, 2),
        ok(blelloch, 1 << 20, 1),
        { case: ok(sortShape, 1 << 20, 1).case, status: 'skipped', message: 'too large' },
      ]),
    );
    const rows = currentRows([a]);
    expect(sortRows(rows, 'ms', 'ascending').map((r) => r.result.case.algorithm)).toEqual(['blelloch', 'decoupled-fallback', 'radix']);
    expect(sortRows(rows, 'ms', 'descending').map((r) => r.result.case.algorithm)).toEqual(['decoupled-fallback', 'blelloch', 'radix']);
    expect(sortRows(rows, 'status', 'ascending').map((r) => r.result.status)).toEqual(['ok', 'ok', 'skipped']);
    expect(sortRows(rows, 'n', 'ascending').map((r) => r.result.case.algorithm)).toEqual(['decoupled-fallback', 'blelloch', 'radix']);
    expect(() => sortRows(rows, 'nope', 'ascending')).toThrow(/no column "nope"/);
    expect(rows.map(verificationText)).toEqual(['GPU ✓ CPU ✓', 'GPU ✓ CPU ✓', '—']);
  });
});

describe('the frame view', () => {
  const cell = (columns: typeof FRAME_LOOP_COLUMNS, key: string, row: Parameters<(typeof FRAME_LOOP_COLUMNS)[number]['text']>[0]) =>
    columns.find((c) => c.key === key)!.text(row);

  test('lists the frame rows of every shown report, newest first, before and after a change side by side', () => {
    const after = load('frames-after.json', frameReport());
    const before = load('frames-before.json', { ...frameReport(), date: '2026-11-20T08:00:00.000Z', commit: '0123456789abcdef' });
    const other = load('throughput.json', sampleReport());
    const loops = frameRows([before, other, after], 'frame-loop');
    expect(loops.map((r) => `${r.source.name} ${r.result.case.series}`)).toEqual([
      'frames-after frame-loop sort f32 u32 values desc host count',
      'frames-after frame-loop sort f32 u32 values desc gpu count',
      'frames-before frame-loop sort f32 u32 values desc host count',
      'frames-before frame-loop sort f32 u32 values desc gpu count',
    ]);
    expect(frameRows([before, other, after], 'first-call')).toHaveLength(4);
    // The throughput views draw nothing of them.
    expect(throughputCharts(currentRows([after]), 'natural')).toEqual([]);
  });

  test('frame-loop columns: per-frame medians, creations per frame, allocations and memory before → after, the report with its commit', () => {
    const [ok, skipped] = frameRows([load('frames.json', frameReport())], 'frame-loop');
    const text = (key: string) => cell(FRAME_LOOP_COLUMNS, key, ok!);
    expect(text('plan')).toBe('sort');
    expect(text('variant')).toBe('f32 u32 values desc host count');
    expect(text('counts')).toBe('131075–262143');
    expect([text('encodeMs'), text('encodeP90'), text('gpuMs'), text('gpuP90')]).toEqual(['0.05', '0.05', '0.2', '0.2']);
    expect([text('buffers'), text('bindGroups'), text('pipelines')]).toEqual(['0', '1', '0']);
    expect([text('allocations'), text('memory')]).toEqual(['2→3', '8.00 KiB→12.0 KiB']);
    expect(text('verified')).toBe('GPU ✓');
    // Day, commit, name (issue 46: one line in the table; report-label.ts).
    expect(text('report')).toBe('11-27 abcdef0 frames');
    expect(cell(FRAME_LOOP_COLUMNS, 'encodeMs', skipped!)).toBe('');
    expect(cell(FRAME_LOOP_COLUMNS, 'message', skipped!)).toMatch(/GPU count not supported/);
    expect(sortRows([ok!, skipped!], 'bindGroups', 'descending', FRAME_LOOP_COLUMNS)).toEqual([ok, skipped]);
  });

  test('first-call columns: ready n/a where the plan has none, empty when not awaited', () => {
    const [wait, noWait] = frameRows([load('frames.json', frameReport())], 'first-call');
    const text = (key: string, row: typeof wait) => cell(FIRST_CALL_COLUMNS, key, row!);
    expect([text('createMs', wait), text('readyMs', wait), text('encodeMs', wait), text('frameMs', wait), text('totalMs', wait)]).toEqual([
      '0.5',
      'n/a',
      '40',
      '2',
      '42.6',
    ]);
    expect(text('readyMs', noWait)).toBe('');
    expect(text('pipelines', noWait)).toBe('1 + 3');
    expect(sortRows([wait!, noWait!], 'totalMs', 'ascending', FIRST_CALL_COLUMNS)).toEqual([noWait, wait]);
  });
});
