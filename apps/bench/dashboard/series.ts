import type { BenchReport, CaseResult } from '../src/report.js';

/** One line of a chart: a series (primitive + algorithm + variant) over sizes. */
export interface ChartSeries {
  readonly label: string;
  /** x = log2(n), y = the metric; only `ok` cases have points. */
  readonly points: readonly { x: number; y: number }[];
}

/** What a chart can plot. */
export type Metric = 'gbps' | 'ratioCopy';

function value(r: CaseResult, metric: Metric): number | undefined {
  return metric === 'gbps' ? r.measurement?.gbps : r.ratioCopy;
}

/**
 * Groups a report's verified results by primitive, then series, as chart lines of `metric` against
 * log2(n). The series label drops the primitive (it is the chart's title).
 *
 * @example
 * ```ts
 * const byPrimitive = seriesByPrimitive(report, 'gbps');
 * byPrimitive.get('scan'); // [{ label: 'decoupled-fallback u32 add excl fwd', points: [{ x: 16, y: 412 }, …] }, …]
 * ```
 */
export function seriesByPrimitive(report: BenchReport, metric: Metric): Map<string, ChartSeries[]> {
  const groups = new Map<string, Map<string, { x: number; y: number }[]>>();
  for (const r of report.results) {
    const y = value(r, metric);
    if (r.status !== 'ok' || y === undefined || !Number.isFinite(y)) continue;
    const primitive = r.case.primitive;
    const label = r.case.series.startsWith(`${primitive} `) ? r.case.series.slice(primitive.length + 1) : r.case.series;
    const byLabel = groups.get(primitive) ?? new Map<string, { x: number; y: number }[]>();
    groups.set(primitive, byLabel);
    const points = byLabel.get(label) ?? [];
    byLabel.set(label, points);
    points.push({ x: Math.log2(r.case.n), y });
  }
  const out = new Map<string, ChartSeries[]>();
  for (const [primitive, byLabel] of groups) {
    out.set(
      primitive,
      [...byLabel].map(([label, points]) => ({ label, points: points.sort((a, b) => a.x - b.x) })),
    );
  }
  return out;
}

/**
 * Results that did not produce a verified timing, for the dashboard's problem list.
 *
 * @example
 * ```ts
 * problemRows(report).map((r) => r.case.id);
 * ```
 */
export function problemRows(report: BenchReport): CaseResult[] {
  return report.results.filter((r) => r.status !== 'ok');
}
