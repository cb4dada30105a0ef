import { expect, test } from 'vitest';
import { problemRows, seriesByPrimitive } from '../dashboard/series.js';
import type { CaseResult } from '../src/report.js';
import { measurement, sampleReport } from './fixtures.js';

test('the dashboard draws one line per series, points sorted by size, only verified cases', () => {
  const report = sampleReport();
  const scan = report.results[0]!;
  const bigger: CaseResult = {
    ...scan,
    case: { ...scan.case, n: 1 << 24, id: `${scan.case.series}@${1 << 24}` },
    measurement: measurement(0.1, 8 << 24, 1 << 24),
    ratioCopy: 0.9,
  };
  const withSizes = { ...report, results: [bigger, ...report.results] };
  const gbps = seriesByPrimitive(withSizes, 'gbps');
  expect([...gbps.keys()]).toEqual(['scan', 'copy']);
  expect(gbps.get('scan')).toEqual([
    {
      label: 'blelloch u32 add excl fwd',
      points: [
        { x: 20, y: scan.measurement!.gbps },
        { x: 24, y: bigger.measurement!.gbps },
      ],
    },
  ]);
  expect(
    seriesByPrimitive(withSizes, 'ratioCopy')
      .get('scan')![0]!
      .points.map((p) => p.y),
  ).toEqual([0.5, 0.9]);
  expect(problemRows(report).map((r) => r.status)).toEqual(['failed', 'crashed']);
});
