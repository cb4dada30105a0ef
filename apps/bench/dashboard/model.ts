import { deviceName } from '../src/device-name.js';
import { type BaselineKind, type BenchReport, type CaseResult, validateReport } from '../src/report.js';

// What the dashboard holds: the reports it loaded (committed, from a file or URL, or a live run)
// and the rows its views draw. Pure functions only, so the views can be tested in Node.

/** Where a report came from. */
export type ReportOrigin = 'committed' | 'file' | 'url' | 'live';

/** A validated report with the names the views show. */
export interface LoadedReport {
  /** Unique among the loaded reports (the file name, URL or `live-<n>`). */
  readonly key: string;
  /** Short name for lists and tooltips. */
  readonly name: string;
  readonly origin: ReportOrigin;
  readonly report: BenchReport;
  /** The device's name, normalized so the bench and the baselines agree (`nvidia-h100-80gb-hbm3`). */
  readonly device: string;
  /** Other libraries' results, not the project's (`baselines/cuda.py`, `baselines/luma`). */
  readonly isBaseline: boolean;
  /** Which libraries, when `isBaseline`: `cuda` (CUB, cuSPARSE, torch) or `webgpu` (luma.gl). */
  readonly baseline?: BaselineKind;
}

/** One result and the report it came from. */
export interface Row {
  readonly source: LoadedReport;
  readonly result: CaseResult;
}

// The device name of a report is shared with the summary tool (src/device-name.ts).
export { deviceName };

/**
 * Validates parsed JSON as a bench report and names it; returns the problems instead when it is not
 * one (the dashboard shows them).
 *
 * @example
 * ```ts
 * const loaded = toLoadedReport('h100-2026-11-25-090d581-spmv.json', 'committed', JSON.parse(text));
 * if ('problems' in loaded) console.error(loaded.problems);
 * ```
 */
export function toLoadedReport(key: string, origin: ReportOrigin, data: unknown): LoadedReport | { problems: string[] } {
  const problems = validateReport(data);
  if (problems.length) return { problems };
  const report = data as BenchReport;
  const name = key.replace(/^.*\//, '').replace(/\.json$/, '');
  const baseline = report.baseline;
  return { key, name, origin, report, device: deviceName(report), isBaseline: baseline !== undefined, ...(baseline ? { baseline } : {}) };
}

/**
 * Newest first: by the report's date, then by key so the order is stable.
 *
 * @example
 * ```ts
 * const ordered = newestFirst(reports);
 * ```
 */
export function newestFirst(reports: readonly LoadedReport[]): LoadedReport[] {
  return [...reports].sort((a, b) => Date.parse(b.report.date) - Date.parse(a.report.date) || a.key.localeCompare(b.key));
}

/**
 * What makes two results the same measurement: device, case id and (for flag cases) density.
 *
 * @example
 * ```ts
 * caseKey(row.source.device, row.result.case); // 'nvidia-h100-80gb-hbm3|pack single-pass u32 u32 flags@1048576|0.01'
 * ```
 */
export function caseKey(device: string, c: { readonly id: string; readonly density?: unknown }): string {
  return `${device}|${c.id}|${typeof c.density === 'number' ? c.density : ''}`;
}

/**
 * The project's rows of the given reports (baselines left out): for each device, case and density
 * the newest report's result, so superseded runs of the same case do not draw twice.
 *
 * @example
 * ```ts
 * const rows = currentRows(selectedReports);
 * ```
 */
export function currentRows(reports: readonly LoadedReport[]): Row[] {
  return latest(reports.filter((r) => !r.isBaseline));
}

/**
 * The other libraries' rows of the given reports (of one kind, when `kind` is given), newest per
 * device and case.
 *
 * @example
 * ```ts
 * const all = baselineRows(selectedReports);
 * const webgpu = baselineRows(selectedReports, 'webgpu');
 * ```
 */
export function baselineRows(reports: readonly LoadedReport[], kind?: BaselineKind): Row[] {
  return latest(reports.filter((r) => r.isBaseline && (kind === undefined || r.baseline === kind)));
}

function latest(reports: readonly LoadedReport[]): Row[] {
  const seen = new Set<string>();
  const rows: Row[] = [];
  for (const source of newestFirst(reports)) {
    for (const result of source.report.results) {
      const row = { source, result };
      const id = caseKey(source.device, result.case);
      if (seen.has(id)) continue;
      seen.add(id);
      rows.push(row);
    }
  }
  return rows;
}
