import { describe, expect, test } from 'vitest';
import { type LoadedReport, toLoadedReport } from '../dashboard/model.js';
import { reportLabel, reportTitle } from '../dashboard/report-label.js';
import { COLUMNS } from '../dashboard/table-model.js';
import type { BenchReport } from '../src/report.js';
import { sampleReport } from './fixtures.js';

// Issue 46: the table's report names (`h100-2026-11-28-7dc0fa1-typed-boundary-before-2`) wrapped into
// five lines; the cell now says the day, the commit and what the run was for, the whole name in its tooltip.

function load(key: string, extra: Partial<BenchReport>): LoadedReport {
  const loaded = toLoadedReport(key, 'committed', { ...sampleReport(), ...extra });
  if ('problems' in loaded) throw new Error(loaded.problems.join('\n'));
  return loaded;
}

const typed = load('h100-2026-11-28-7dc0fa1-typed-boundary-before-2.json', { date: '2026-11-28T05:54:55.266Z', commit: '7dc0fa1ffff' });

describe('report names in the tables', () => {
  test('the device prefix, the date and the commit of a file name are not repeated', () => {
    expect(reportLabel(typed)).toBe('11-28 7dc0fa1 typed-boundary-before-2');
    const cuda = load('h100-2026-11-25-cuda-baselines.json', { date: '2026-11-25T10:00:00Z', commit: '1234567890' });
    expect(reportLabel(cuda)).toBe('11-25 1234567 cuda-baselines');
    const plain = load('h100-2026-11-22-d661e54.json', { date: '2026-11-22T10:00:00Z', commit: 'd661e54aaaa' });
    expect(reportLabel(plain)).toBe('11-22 d661e54');
  });

  test('names of another shape (a live run, a file) keep their name; a dirty tree or no commit says so', () => {
    expect(reportLabel(load('live-1', { date: '2026-12-06T10:00:00Z', commit: 'abcdef0123', dirty: true }))).toBe('12-06 abcdef0+ live-1');
    expect(reportLabel(load('frames-report.json', { date: '2026-11-27T08:00:00Z', commit: null }))).toBe('11-27 no commit frames-report');
    // A date inside a longer prefix is not a file name's date: the name stays whole.
    expect(reportLabel(load('my-run-2026-11-22.json', { date: '2026-11-22T08:00:00Z' }))).toBe('11-22 abcdef0 my-run-2026-11-22');
  });

  test("every label is shorter than the name it stands for, and the table's report column keeps the whole name as a tooltip", () => {
    expect(reportLabel(typed).length).toBeLessThan(typed.name.length);
    const column = COLUMNS.find((c) => c.key === 'report')!;
    const row = { source: typed, result: typed.report.results[0]! };
    expect(column.text(row)).toBe(reportLabel(typed));
    expect(column.name).toBe(true);
    expect(column.title?.(row)).toBe(reportTitle(typed));
    expect(reportTitle(typed)).toContain(typed.name);
  });
});
