import { caseText } from '../src/case-types.js';
import { metricValue, naturalUnit } from './metrics.js';
import type { LoadedReport, Row } from './model.js';
import { reportLabel, reportTitle } from './report-label.js';

// The table view's columns: what each shows and how it sorts. Kept apart from the DOM so the
// sorting can be tested in Node.

/** A column of a table of rows `R` (a report's rows, or rows that carry more, like the library pairs): its header, the cell's sort key and its text. */
export interface Column<R extends Row = Row> {
  readonly key: string;
  readonly header: string;
  /** Numbers sort numerically; undefined (no value) sorts last either way. */
  readonly value: (row: R) => string | number | undefined;
  readonly text: (row: R) => string;
  readonly numeric?: boolean;
  /** The cell's tooltip, where its text is short for something longer. */
  readonly title?: (row: R) => string;
  /** A name kept on one line (cut with an ellipsis; `title` has the whole). */
  readonly name?: boolean;
}

const fmt = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4 });
const int = new Intl.NumberFormat('en-US');

/**
 * A numeric column: sorts by the number, shows it with four significant digits (or `format`).
 *
 * @example
 * ```ts
 * numberColumn('n', 'n', (r) => r.result.case.n, new Intl.NumberFormat('en-US'));
 * ```
 */
export function numberColumn<R extends Row = Row>(
  key: string,
  header: string,
  value: (row: R) => number | undefined,
  format: Intl.NumberFormat = fmt,
): Column<R> {
  return {
    key,
    header,
    numeric: true,
    value,
    text: (row) => {
      const v = value(row);
      return v === undefined ? '' : format.format(v);
    },
  };
}

/**
 * A text column: sorts by the text (numbers inside it in numeric order), shows it as is.
 *
 * @example
 * ```ts
 * textColumn('status', 'status', (r) => r.result.status);
 * ```
 */
export function textColumn<R extends Row = Row>(key: string, header: string, value: (row: R) => string | undefined): Column<R> {
  return { key, header, value, text: (row) => value(row) ?? '' };
}

/**
 * What the verification column says: verified on the GPU (and against the CPU reference at small
 * sizes), or the number of wrong elements, or nothing when the case never ran far enough.
 *
 * @example
 * ```ts
 * verificationText(row); // 'GPU ✓ CPU ✓' (a luma.gl row: 'CPU ✓')
 * ```
 */
export function verificationText(row: Row): string {
  const v = row.result.verification;
  if (!v) return '—';
  // Another library's row (luma.gl): no GPU check kernel ran; every output word was compared on the CPU.
  if (v.gpuMismatches === undefined) {
    if (!v.cpuCompared) return '—';
    if (v.cpuMismatches) return `✗ CPU ${v.cpuMismatches} wrong`;
    return row.result.status === 'failed' ? '✗ CPU' : 'CPU ✓';
  }
  if (v.gpuMismatches !== 0) return `✗ ${v.gpuMismatches} wrong`;
  if (v.gpuMismatchesAfterTiming) return `✗ ${v.gpuMismatchesAfterTiming} wrong after timing`;
  if (v.cpuMismatches) return `✗ CPU ${v.cpuMismatches} wrong`;
  return v.cpuCompared ? 'GPU ✓ CPU ✓' : 'GPU ✓';
}

/**
 * A column naming the report(s) of a row on one line (`11-28 7dc0fa1 typed-boundary-before-2`),
 * the whole names in its tooltip; sorts by date. `sources` gives the row's reports (a library pair
 * has two).
 *
 * @example
 * ```ts
 * reportColumn('report', 'report', (r) => [r.source]);
 * ```
 */
export function reportColumn<R extends Row = Row>(
  key: string,
  header: string,
  sources: (row: R) => readonly (LoadedReport | undefined)[],
): Column<R> {
  const of = (row: R) => sources(row).filter((s): s is LoadedReport => s !== undefined);
  return {
    key,
    header,
    name: true,
    value: (row) =>
      of(row)
        .map((s) => `${s.report.date} ${s.name}`)
        .join(' · '),
    text: (row) => of(row).map(reportLabel).join(' · '),
    title: (row) => of(row).map(reportTitle).join('\n\n'),
  };
}

/**
 * The device column: a name on one line, like the report's, so a row is as tall as its text.
 *
 * @example
 * ```ts
 * deviceColumn<LibraryPair>();
 * ```
 */
export function deviceColumn<R extends Row = Row>(): Column<R> {
  return { ...textColumn<R>('device', 'device', (r) => r.source.device), name: true, title: (r) => r.source.device };
}

/** The table's columns, in order. */
export const COLUMNS: readonly Column[] = [
  textColumn('primitive', 'primitive', (r) => r.result.case.primitive),
  textColumn('algorithm', 'algorithm', (r) => r.result.matrix?.algorithm ?? caseText(r.result.case, 'algorithm')),
  textColumn('series', 'configuration', (r) => r.result.case.series),
  numberColumn('n', 'n', (r) => r.result.case.n, int),
  textColumn('status', 'status', (r) => r.result.status),
  textColumn('verified', 'verified', verificationText),
  numberColumn('ms', 'median ms', (r) => r.result.measurement?.medianMs),
  numberColumn('gbps', 'GB/s', (r) => metricValue(r.result, 'gbps')),
  numberColumn('gelems', 'G elem/s', (r) => metricValue(r.result, 'gelems')),
  numberColumn('gflops', 'GFLOPS', (r) =>
    naturalUnit(r.result.case.primitive) === 'gflops' ? metricValue(r.result, 'gflops') : undefined,
  ),
  numberColumn('ratioCopy', '× copy', (r) => r.result.ratioCopy),
  deviceColumn(),
  reportColumn('report', 'report', (r) => [r.source]),
  textColumn('message', 'note', (r) => r.result.message),
];

/**
 * The rows sorted by a column of `columns` (default the table view's; stable: equal cells keep
 * their order), empty cells last.
 *
 * @example
 * ```ts
 * sortRows(rows, 'gbps', 'descending');
 * sortRows(frameRows, 'encodeMs', 'ascending', FRAME_LOOP_COLUMNS);
 * ```
 */
export function sortRows<R extends Row = Row>(
  rows: readonly R[],
  key: string,
  direction: 'ascending' | 'descending',
  columns: readonly Column<R>[] = COLUMNS as readonly Column<R>[],
): R[] {
  const column = columns.find((c) => c.key === key);
  if (!column) throw new Error(`sortRows: no column "${key}"; expected one of ${columns.map((c) => c.key).join(', ')}`);
  const sign = direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, value: column.value(row) }))
    .sort((a, b) => {
      if (a.value === undefined || b.value === undefined) return a.value === b.value ? a.index - b.index : a.value === undefined ? 1 : -1;
      const order =
        typeof a.value === 'number' && typeof b.value === 'number'
          ? a.value - b.value
          : String(a.value).localeCompare(String(b.value), 'en', { numeric: true });
      return order * sign || a.index - b.index;
    })
    .map((e) => e.row);
}
