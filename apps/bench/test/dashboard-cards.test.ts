import { describe, expect, test } from 'vitest';
import { ALL_DEVICES, cardOptions, currentCard, defaultCard, onCard } from '../dashboard/cards.js';
import { currentRows, type LoadedReport, toLoadedReport } from '../dashboard/model.js';
import { throughputCharts } from '../dashboard/views.js';
import type { BenchReport } from '../src/report.js';
import { sampleReport } from './fixtures.js';

// Issue 46: with every device at once a chart held a dozen or more series; the page opens on one
// device ("card"), the newest report's.

function load(key: string, date: string, device: string, extra: Partial<BenchReport> = {}): LoadedReport {
  const base = sampleReport();
  const report = { ...base, date, device: { ...base.device!, adapter: { ...base.device!.adapter, device } }, ...extra };
  const loaded = toLoadedReport(key, 'committed', report);
  if ('problems' in loaded) throw new Error(loaded.problems.join('\n'));
  return loaded;
}

const h100Old = load('h100-old.json', '2026-11-22T00:00:00Z', 'NVIDIA H100 80GB HBM3');
const h200 = load('h200.json', '2026-11-28T00:00:00Z', 'NVIDIA H200');
const h100New = load('h100-new.json', '2026-12-05T00:00:00Z', 'NVIDIA H100 80GB HBM3');
const reports = [h100Old, h200, h100New];

describe('one device at a time', () => {
  test("the page opens on the newest report's device, and shows only its reports", () => {
    expect(defaultCard(reports)).toBe('nvidia-h100-80gb-hbm3');
    expect(onCard(reports, defaultCard(reports)).map((r) => r.key)).toEqual(['h100-old.json', 'h100-new.json']);
    expect(defaultCard([])).toBe(ALL_DEVICES);
  });

  test('the selector lists every device, newest first, with its report count; "all" shows everything', () => {
    expect(cardOptions(reports)).toEqual([
      { device: 'nvidia-h100-80gb-hbm3', reports: 2, newest: '2026-12-05T00:00:00Z' },
      { device: 'nvidia-h200', reports: 1, newest: '2026-11-28T00:00:00Z' },
    ]);
    expect(onCard(reports, ALL_DEVICES)).toHaveLength(3);
    expect(onCard(reports, 'nvidia-h200').map((r) => r.key)).toEqual(['h200.json']);
  });

  test('a device picked stays picked while it has reports; until then a newer report (a live run) takes the page to its device', () => {
    const live = load('live-1', '2026-12-06T00:00:00Z', 'SwiftShader Device (Subzero)');
    expect(currentCard([...reports, live], undefined)).toBe('swiftshader-device-subzero');
    expect(currentCard([...reports, live], 'nvidia-h200')).toBe('nvidia-h200');
    expect(currentCard([...reports, live], ALL_DEVICES)).toBe(ALL_DEVICES);
    // The picked device's reports were hidden: back to the default.
    expect(currentCard([h100New], 'nvidia-h200')).toBe('nvidia-h100-80gb-hbm3');
  });

  test('a chart of one device has fewer series: one device, not two', () => {
    const all = throughputCharts(currentRows(reports), 'natural').find((c) => c.id === 'throughput-scan')!;
    const one = throughputCharts(currentRows(onCard(reports, defaultCard(reports))), 'natural').find((c) => c.id === 'throughput-scan')!;
    expect(all.lines).toHaveLength(2);
    expect(one.lines).toHaveLength(1);
    // The fixture ran one size, so the chart is by case: a series per device.
    expect(one.lines.map((l) => l.label)).toEqual(['nvidia-h100-80gb-hbm3']);
  });
});
