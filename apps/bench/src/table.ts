import { describeVariant } from './cases.js';
import { formatNumber } from './format-number.js';
import { FIRST_CALL_HEADERS, FRAME_LOOP_HEADERS, FRAME_RIGHT, firstCallCells, frameLoopCells } from './frame-table.js';
import { isThroughputPrimitive } from './registry.js';
import type { BenchReport, CaseResult } from './report.js';
import { formatSize } from './sizes.js';
import { softwareNote } from './software-adapter.js';

export { formatNumber } from './format-number.js';

/**
 * The status cell: `ok`, or the status in capitals with the start of the reason.
 *
 * @example
 * ```ts
 * statusCell({ case: c, status: 'skipped', message: 'GPU count not supported by this plan: …' }); // 'SKIPPED: GPU count not supported by this plan: …'
 * ```
 */
export function statusCell(r: CaseResult): string {
  if (r.status === 'ok') return 'ok';
  const why = (r.message ?? '').split('\n')[0]!.trim();
  const short = why.length > 70 ? `${why.slice(0, 69)}…` : why;
  return short ? `${r.status.toUpperCase()}: ${short}` : r.status.toUpperCase();
}

// ×copy and ×read are bandwidth ratios (higher is better); ×scan is a time ratio (lower is better),
// because the segmented-scan targets are stated as "≤ 1.15× the time of the unsegmented scan".
const HEADERS = ['primitive', 'algorithm', 'variant', 'n', 'ms', 'min ms', 'GB/s', 'Gelem/s', '×copy', '×read', '×scan', 'status'];
/** Columns aligned right (numbers). */
const RIGHT = new Set(['n', 'ms', 'min ms', 'GB/s', 'Gelem/s', '×copy', '×read', '×scan']);

/**
 * The cells of one result row, in {@link HEADERS} order.
 *
 * @example
 * ```ts
 * rowCells(result); // ['scan', 'decoupled-fallback', 'u32 add excl fwd', '2^20', '0.0412', …, 'ok']
 * ```
 */
export function rowCells(r: CaseResult): string[] {
  const c = r.case;
  const m = r.measurement;
  return [
    c.primitive,
    // What 'auto' chose, for the SpMV cases (`auto→merge`).
    c.algorithm === 'auto' && r.matrix ? `auto→${r.matrix.algorithm}` : typeof c.algorithm === 'string' ? c.algorithm : '',
    describeVariant(c),
    formatSize(c.n),
    formatNumber(m?.medianMs),
    formatNumber(m?.minMs),
    formatNumber(m?.gbps),
    formatNumber(m?.gelemsPerS),
    formatNumber(r.ratioCopy),
    formatNumber(r.ratioReadOnly),
    formatNumber(r.ratioScanTime),
    statusCell(r),
  ];
}

/**
 * Lays out a plain-text table: a header, a rule, the rows; columns padded to their widest cell.
 *
 * @example
 * ```ts
 * formatGrid(['a', 'n'], [['x', '1']], new Set(['n']));
 * ```
 */
export function formatGrid(headers: readonly string[], rows: readonly (readonly string[])[], right: ReadonlySet<string>): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (right.has(headers[i]!) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/**
 * The report header: device, date, commit and how time was measured.
 *
 * @example
 * ```ts
 * formatHeader(report); // 'device: NVIDIA H100 …\ndate: 2026-11-22T…\n…'
 * ```
 */
export function formatHeader(report: BenchReport): string {
  const d = report.device;
  const adapter = d
    ? [d.adapter.device, d.adapter.description, d.adapter.vendor, d.adapter.architecture].filter(Boolean).join(' / ')
    : 'none (no child created a device)';
  const timed = report.results.filter((r) => isThroughputPrimitive(r.case.primitive));
  const timers = [...new Set(timed.map((r) => r.timer).filter(Boolean))].join(', ') || '-';
  // A run of frame cases only has no runs to speak of: their tables say how they were timed.
  const timing = timed.length
    ? `timing: ${timers}, median of ${report.options.runs} runs after ${report.options.warmup} warm-up`
    : 'timing: per frame and per first call (see the tables below)';
  const subgroups = d?.features.subgroups ? `subgroups ${d.subgroupMinSize ?? '?'}–${d.subgroupMaxSize ?? '?'}` : 'no subgroups';
  return [
    `device: ${adapter}${d ? ` (${subgroups})` : ''}`,
    `date:   ${report.date}`,
    `commit: ${report.commit ?? 'unknown'}${report.dirty ? ' (dirty)' : ''}`,
    timing,
  ].join('\n');
}

/** The frame-loop and first-call tables (each preceded by an empty line and its title), or nothing. */
function frameSections(results: readonly CaseResult[]): string[] {
  const loops = results.filter((r) => r.case.primitive === 'frame-loop' || r.case.primitive === 'splat-frame');
  const first = results.filter((r) => r.case.primitive === 'first-call');
  const sections: string[] = [];
  if (loops.length) {
    const f = loops.find((r) => r.frameLoop)?.frameLoop;
    const how = f ? `, ${f.frames} frames after ${f.warmupFrames} warm-up, ${f.inFlight} in flight` : '';
    sections.push(
      '',
      `frame-loop: a new count every frame; medians and 90th percentiles per frame; objects created per frame (/f)${how}`,
      formatGrid(
        FRAME_LOOP_HEADERS,
        loops.map((r) => frameLoopCells(r, statusCell(r))),
        FRAME_RIGHT,
      ),
    );
  }
  if (first.length) {
    sections.push(
      '',
      'first-call: wall-clock ms of the first use of a plan in a fresh process (ready n/a: the plan has no ready)',
      formatGrid(
        FIRST_CALL_HEADERS,
        first.map((r) => firstCallCells(r, statusCell(r))),
        FRAME_RIGHT,
      ),
    );
  }
  return sections;
}

/**
 * The whole text report: header, table, the frame-loop and first-call tables when the run had
 * such cases, a count of cases by status, and on a software adapter a line saying that its
 * numbers say nothing about GPUs.
 *
 * @example
 * ```ts
 * console.log(formatTable(report));
 * ```
 */
export function formatTable(report: BenchReport): string {
  const counts = new Map<string, number>();
  for (const r of report.results) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  const summary = [...counts].map(([s, k]) => `${k} ${s}`).join(', ');
  const note = softwareNote(report.device);
  const timed = report.results.filter((r) => isThroughputPrimitive(r.case.primitive));
  const frames = frameSections(report.results);
  return [
    formatHeader(report),
    ...(timed.length || frames.length === 0 ? ['', formatGrid(HEADERS, timed.map(rowCells), RIGHT)] : []),
    ...frames,
    '',
    `${report.results.length} cases: ${summary || 'none'}`,
    ...(note ? [note] : []),
  ].join('\n');
}
