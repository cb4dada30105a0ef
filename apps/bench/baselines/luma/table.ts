import { caseNameOf, type LumaRecord } from './report.js';

/** A time in ms as µs with three significant digits, or '—'. */
function us(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  const v = ms * 1000;
  return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
}

/**
 * The stdout table: one line per record (times in µs; `copy/prim` is the copy kernel's median
 * divided by the primitive's, 1 = as fast as copying n u32), then why each record that is not ok
 * was not timed.
 *
 * @example
 * ```ts
 * console.log(formatLumaTable(records));
 * ```
 */
export function formatLumaTable(records: readonly LumaRecord[]): string {
  const header = ['case', 'n', 'status', 'median µs', 'p10', 'p90', 'copy µs', 'copy/prim', 'timing', 'passes', 'luma kernels'];
  const rows = records.map((r) => [
    caseNameOf(r),
    `2^${r.log2n}`,
    r.status,
    us(r.medianMs),
    us(r.p10Ms),
    us(r.p90Ms),
    us(r.copyMedianMs),
    r.copyTimeRatio === null ? '—' : r.copyTimeRatio.toFixed(2),
    r.timing ?? '—',
    String(r.luma['computePasses'] ?? '—'),
    String(r.luma['kernels'] ?? r.luma['class'] ?? ''),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i < 3 || i > 7 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const failures = records
    .filter((r) => r.status !== 'ok')
    // A wrong result says what differed; an error was never checked, its message is all there is.
    .map(
      (r) =>
        `  ${caseNameOf(r)} 2^${r.log2n}: ${[r.message, r.status === 'failed' ? r.verification : undefined].filter(Boolean).join(': ')}`,
    );
  return [line(header), ...rows.map(line), ...(failures.length ? ['', 'not timed:', ...failures] : [])].join('\n').trimEnd();
}
