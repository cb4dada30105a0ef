import { formatSize } from '../sizes.js';
import type { Comparison, SuiteLine, Summary, SummaryCell } from './summarize.js';

const DASH = '—';

function ms(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toPrecision(3);
}

function times(x: number): string {
  return `${x.toFixed(2)}×`;
}

function oursCell(c: SummaryCell): string {
  if (c.medianMs === undefined) return DASH;
  return c.ratioCopy === undefined ? `${ms(c.medianMs)} ms` : `${ms(c.medianMs)} ms · ${times(c.ratioCopy)} copy`;
}

/** "1.62× · 1.31× · —" and the libraries that gave them, in size order. */
function versus(cells: readonly SummaryCell[], pick: (c: SummaryCell) => Comparison | undefined): string {
  const comparisons = cells.map(pick);
  if (comparisons.every((c) => c === undefined)) return DASH;
  const libraries = [...new Set(comparisons.flatMap((c) => (c ? [c.library] : [])))];
  return `${comparisons.map((c) => (c ? times(c.speedup) : DASH)).join(' · ')} (${libraries.join(', ')})`;
}

function geomean(xs: readonly number[]): number {
  return Math.exp(xs.reduce((sum, x) => sum + Math.log(x), 0) / xs.length);
}

/** "1.21× (0.82–2.10×, 6 cases; cusparse)": the geometric mean of the pairs that have a comparison. */
function suiteVersus(line: SuiteLine, pick: (p: SuiteLine['pairs'][number]) => Comparison | undefined): string {
  const comparisons = line.pairs.flatMap((p) => {
    const c = pick(p);
    return c ? [c] : [];
  });
  if (comparisons.length === 0) return DASH;
  const speedups = comparisons.map((c) => c.speedup);
  const libraries = [...new Set(comparisons.map((c) => c.library))].join(', ');
  if (speedups.length === 1) return `${times(speedups[0] as number)} (${libraries})`;
  const range = `${times(Math.min(...speedups))}–${times(Math.max(...speedups))}`;
  return `${times(geomean(speedups))} (${range}, ${speedups.length} cases; ${libraries})`;
}

/** "0.0419–0.664", or one value. */
function range(values: readonly number[]): string {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? ms(low) : `${ms(low)}–${ms(high)}`;
}

function suiteRow(line: SuiteLine): string {
  const times = line.pairs.map((p) => p.medianMs);
  const cases = line.pairs.map((p) => p.key).join(', ');
  const ours = times.length === 0 ? DASH : `${range(times)} ms`;
  const values = [line.row.label, cases || DASH, ours, suiteVersus(line, (p) => p.cuda), suiteVersus(line, (p) => p.webgpu)];
  return `| ${values.join(' | ')} |`;
}

/**
 * The summary as Markdown: a table of the size rows, one of the suite rows (SpMV matrices, the
 * solver), the notes of the rows and the reports it came from.
 * A ratio is the other library's median time ÷ ours: above 1 we are faster.
 *
 * @example
 * ```ts
 * console.log(summaryMarkdown(summarize(reports, [2 ** 20, 2 ** 24, 2 ** 28])));
 * ```
 */
export function summaryMarkdown(summary: Summary): string {
  const sizes = summary.sizes.map((n) => formatSize(n));
  const head = [
    'primitive',
    ...sizes.map((s) => `${s}: ours`),
    `× CUDA library (${sizes.join(' · ')})`,
    `× best WebGPU library (${sizes.join(' · ')})`,
  ];
  const lines = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  for (const { row, cells } of summary.lines) {
    const values = [row.label, ...cells.map(oursCell), versus(cells, (c) => c.cuda), versus(cells, (c) => c.webgpu)];
    lines.push(`| ${values.join(' | ')} |`);
  }
  const suite = summary.suites.length
    ? [
        '',
        '| primitive | cases | ours | × CUDA library (geometric mean) | × best WebGPU library (geometric mean) |',
        '| --- | --- | --- | --- | --- |',
        ...summary.suites.map(suiteRow),
      ]
    : [];
  const notes = [...summary.lines, ...summary.suites].flatMap(({ row }) => (row.note ? [`- ${row.label}: ${row.note}`] : []));
  const sources = summary.sources.map((s) => `- ${s.role}: ${s.date}, commit ${s.commit ?? 'unknown'}`);
  return [
    `Device: ${summary.device}. × = the other library's median time ÷ ours (above 1: ours is faster).`,
    '',
    ...lines,
    ...suite,
    '',
    ...notes,
    '',
    'Reports:',
    ...sources,
    '',
  ].join('\n');
}
