import { deviceName } from '../device-name.js';
import type { BenchReport, CaseResult } from '../report.js';
import { isVerified } from '../report.js';
import { formatSize } from '../sizes.js';
import { type CaseMatcher, SUMMARY_ROWS, type SummaryRow } from './rows.js';

/** Another library's time for the same case, and ours divided into it. */
export interface Comparison {
  /** The library call (`cupy.sort`) or, for WebGPU, the library and its class (`luma.gl 9.4.2 GPUScan`). */
  readonly library: string;
  readonly medianMs: number;
  /** Their median ÷ ours: above 1 we are faster. */
  readonly speedup: number;
}

/** One size of one summary line. */
export interface SummaryCell {
  readonly n: number;
  /** Our median time, when the reports hold a verified one. */
  readonly medianMs?: number;
  /** Ours against the copy kernel of the same process (GB/s ÷ copy GB/s). */
  readonly ratioCopy?: number;
  /** The fastest verified CUDA library case at this size. */
  readonly cuda?: Comparison;
  /** The fastest verified WebGPU library case at this size. */
  readonly webgpu?: Comparison;
}

/** A summary line: the row and one cell per size asked for. */
export interface SummaryLine {
  readonly row: SummaryRow;
  readonly cells: readonly SummaryCell[];
}

/** One case of a suite line: ours and the others' of the same size (and matrix). */
export interface SuitePair {
  /** The matrix, or the size when the case has none. */
  readonly key: string;
  readonly medianMs: number;
  readonly cuda?: Comparison;
  readonly webgpu?: Comparison;
}

/** A suite line: each of our cases set against the others'. */
export interface SuiteLine {
  readonly row: SummaryRow;
  readonly pairs: readonly SuitePair[];
}

/** The summary of a set of reports from one device call. */
export interface Summary {
  /** The device all reports ran on, as the dashboard names it (`nvidia-h100-80gb-hbm3`). */
  readonly device: string;
  readonly sizes: readonly number[];
  /** The rows of kind `sizes`. */
  readonly lines: readonly SummaryLine[];
  /** The rows of kind `suite`. */
  readonly suites: readonly SuiteLine[];
  /** Each report used: its role, date and commit. */
  readonly sources: readonly { role: 'ours' | 'cuda' | 'webgpu'; date: string; commit: string | null }[];
}

function matches(result: CaseResult, m: CaseMatcher): boolean {
  const c = result.case;
  if (c.primitive !== m.primitive) return false;
  if (m.series !== undefined && c.series !== m.series) return false;
  if (m.baseline !== undefined && c['baseline'] !== m.baseline) return false;
  for (const [field, value] of Object.entries(m.fields ?? {})) if (c[field] !== value) return false;
  return true;
}

/** Verified rows with a time, of `reports`, that one of `matchers` picks and `also` accepts. */
function timed(reports: readonly BenchReport[], matchers: readonly CaseMatcher[], also: (r: CaseResult) => boolean): CaseResult[] {
  return reports.flatMap((r) =>
    r.results.filter(
      (x) =>
        x.status === 'ok' && x.measurement !== undefined && isVerified(x.verification) && matchers.some((m) => matches(x, m)) && also(x),
    ),
  );
}

const medianOf = (r: CaseResult) => r.measurement?.medianMs ?? Number.POSITIVE_INFINITY;

function fastest(rows: readonly CaseResult[]): CaseResult | undefined {
  let best: CaseResult | undefined;
  for (const r of rows) if (!best || medianOf(r) < medianOf(best)) best = r;
  return best;
}

/** The library's name as a reader knows it: the call (`cupy.sort`), or library and class (`luma.gl 9.4.2 GPUScan`). */
function libraryOf(r: CaseResult): string {
  return [r.case['baseline'], r.case['call']].filter((part): part is string => typeof part === 'string').join(' ');
}

function comparison(theirs: CaseResult | undefined, oursMs: number | undefined): Comparison | undefined {
  const ms = theirs?.measurement?.medianMs;
  if (theirs === undefined || ms === undefined || oursMs === undefined || oursMs <= 0) return undefined;
  return { library: libraryOf(theirs), medianMs: ms, speedup: ms / oursMs };
}

/** A suite case's key: its matrix, else its size. */
function suiteKey(r: CaseResult): string {
  const matrix = r.case['matrix'];
  return typeof matrix === 'string' ? matrix : formatSize(r.case.n);
}

/** Whether `other` is the same problem as `ours`: the same size and, where ours names one, matrix. */
function sameProblem(ours: CaseResult): (other: CaseResult) => boolean {
  const matrix = ours.case['matrix'];
  return (other) => other.case.n === ours.case.n && (matrix === undefined || other.case['matrix'] === matrix);
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

interface Sides {
  readonly ours: readonly BenchReport[];
  readonly cuda: readonly BenchReport[];
  readonly webgpu: readonly BenchReport[];
}

function sizesLine(row: SummaryRow, sides: Sides, sizes: readonly number[]): SummaryLine {
  return {
    row,
    cells: sizes.map((n): SummaryCell => {
      const atSize = (r: CaseResult) => r.case.n === n;
      const mine = fastest(timed(sides.ours, [row.ours], atSize));
      const oursMs = mine?.measurement?.medianMs;
      return {
        n,
        ...optional('medianMs', oursMs),
        ...optional('ratioCopy', mine?.ratioCopy),
        ...optional('cuda', comparison(fastest(timed(sides.cuda, row.cuda, atSize)), oursMs)),
        ...optional('webgpu', comparison(fastest(timed(sides.webgpu, row.webgpu, atSize)), oursMs)),
      };
    }),
  };
}

function suiteLine(row: SummaryRow, sides: Sides): SuiteLine {
  // Ours per key: the fastest of the reports (a call writes one report, so normally the only one).
  const byKey = new Map<string, CaseResult>();
  for (const r of timed(sides.ours, [row.ours], () => true)) {
    const known = byKey.get(suiteKey(r));
    if (!known || medianOf(r) < medianOf(known)) byKey.set(suiteKey(r), r);
  }
  const pairs = [...byKey.entries()].map(([key, mine]): SuitePair => {
    const oursMs = medianOf(mine);
    return {
      key,
      medianMs: oursMs,
      ...optional('cuda', comparison(fastest(timed(sides.cuda, row.cuda, sameProblem(mine))), oursMs)),
      ...optional('webgpu', comparison(fastest(timed(sides.webgpu, row.webgpu, sameProblem(mine))), oursMs)),
    };
  });
  return { row, pairs };
}

/**
 * Builds the summary table's model from the reports of one device call: our bench report(s), the
 * CUDA baseline report and the WebGPU library reports. Refuses reports of different devices, since
 * a ratio between two cards says nothing.
 *
 * @example
 * ```ts
 * const summary = summarize([ours, cuda, luma], [2 ** 20, 2 ** 24, 2 ** 28]);
 * summary.lines[0]?.cells[2]?.cuda?.speedup; // CUB's scan time ÷ ours at 2^28
 * ```
 */
export function summarize(reports: readonly BenchReport[], sizes: readonly number[], rows: readonly SummaryRow[] = SUMMARY_ROWS): Summary {
  if (reports.length === 0) throw new Error('summarize: no reports given');
  const devices = [...new Set(reports.map(deviceName))];
  if (devices.length > 1) throw new Error(`summarize: the reports come from different devices (${devices.join(', ')})`);
  const sides: Sides = {
    ours: reports.filter((r) => r.baseline === undefined),
    cuda: reports.filter((r) => r.baseline === 'cuda'),
    webgpu: reports.filter((r) => r.baseline === 'webgpu'),
  };
  return {
    device: devices[0] as string,
    sizes,
    lines: rows.filter((row) => row.kind !== 'suite').map((row) => sizesLine(row, sides, sizes)),
    suites: rows.filter((row) => row.kind === 'suite').map((row) => suiteLine(row, sides)),
    sources: reports.map((r) => ({ role: r.baseline ?? 'ours', date: r.date, commit: r.commit })),
  };
}
