import { expect, test } from 'vitest';
import { validateReport } from '../src/report.js';
import { sampleReport } from './fixtures.js';

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
