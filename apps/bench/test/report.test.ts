import { readFileSync } from 'node:fs';
import { describe, expect, it, test } from 'vitest';
import { type BenchReport, validateReport } from '../src/report.js';
import { frameReport, sampleReport } from './fixtures.js';

test('a complete report is valid and survives JSON', () => {
  expect(validateReport(JSON.parse(JSON.stringify(sampleReport())))).toEqual([]);
});

test('problems are named', () => {
  expect(validateReport(null)).toEqual(['report: not an object']);
  expect(validateReport({ ...sampleReport(), schema: 'other' })[0]).toMatch(/schema/);
  expect(validateReport({ ...sampleReport(), date: 'yesterday' })).toEqual(['date: expected an ISO date string']);
  expect(validateReport({ ...sampleReport(), results: 3 })).toContain('results: expected an array');
  const report = sampleReport();
  const [scan, ...rest] = report.results;
  expect(validateReport({ ...report, results: [{ ...scan, status: 'great' }, ...rest] })[0]).toMatch(/results\[0\]\.status/);
  expect(validateReport({ ...report, results: [{ ...scan, measurement: undefined }] })[0]).toMatch(
    /an ok case needs medianMs and samplesMs/,
  );
  expect(validateReport({ ...report, results: [{ ...scan, verification: { gpuMismatches: 2, cpuCompared: false } }] })[0]).toMatch(
    /must be verified/,
  );
});

describe('the committed CUDA baseline report (baselines/cuda.py)', () => {
  const url = new URL('../../../benchmarks/h100-2026-11-25-cuda-baselines.json', import.meta.url);
  const report = JSON.parse(readFileSync(url, 'utf8')) as BenchReport & { baseline?: string };

  it('has the bench schema, so the dashboard can load it beside the bench reports', () => {
    expect(validateReport(report)).toEqual([]);
    expect(report.baseline).toBe('cuda');
    expect(report.device?.adapter.description).toMatch(/H100/);
  });

  it('names the library of every row, and gives ×copy against a copy of the same size', () => {
    const primitives = new Set(report.results.map((r) => r.case.primitive as string));
    for (const p of ['scan', 'reduce', 'sort', 'sort-pairs', 'segmented-reduce', 'pack', 'spmv', 'spmv-t', 'sparse-add', 'tridiag']) {
      expect(primitives.has(p), p).toBe(true);
    }
    for (const row of report.results) {
      expect(typeof (row.case as { baseline?: unknown }).baseline, row.case.id).toBe('string');
      if (row.status !== 'ok' || row.case.primitive === 'copy') continue;
      expect(row.copy?.bytes, row.case.id).toBeGreaterThan(0);
      expect(row.ratioCopy, row.case.id).toBeCloseTo((row.measurement?.gbps ?? 0) / (row.copy?.gbps ?? 1), 6);
    }
  });
});

describe('frame records (frame-loop, first-call)', () => {
  it('an ok frame case needs its record instead of a measurement, and survives JSON', () => {
    const report = frameReport();
    const round = JSON.parse(JSON.stringify(report)) as BenchReport;
    expect(validateReport(round)).toEqual([]);
    expect(round).toEqual(report);
    const loop = round.results[0]!;
    expect(loop.measurement).toBeUndefined();
    expect(loop.frameLoop?.createdPerFrame.bindGroups).toBe(1);
    expect(loop.frameLoop?.encode.samplesMs).toHaveLength(300);
    expect(round.results[2]?.firstCall?.hasReady).toBe(false);
  });

  it('names a frame record with missing figures', () => {
    const report = frameReport();
    const [loop, skipped, wait, ...rest] = report.results;
    const broken = { ...loop!, frameLoop: { ...loop!.frameLoop!, encode: undefined, createdPerFrame: { buffers: 0 } } };
    const problems = validateReport({
      ...report,
      results: [broken, skipped, { ...wait!, firstCall: { ...wait!.firstCall!, totalMs: 'x' } }, ...rest],
    });
    expect(problems).toEqual([
      'results[0].frameLoop: an ok frame-loop case needs frames and encode.medianMs and samplesMs',
      'results[0].frameLoop.createdPerFrame: expected buffers, bindGroups, pipelines, asyncPipelines',
      'results[2].firstCall: an ok first-call case needs createMs, encodeMs, frameMs and totalMs',
    ]);
  });
});
