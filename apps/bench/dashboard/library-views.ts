import type { BaselineKind, CaseResult } from '../src/report.js';
import { lineageGroup } from './metrics.js';
import type { Row } from './model.js';
import { type Column, deviceColumn, numberColumn, reportColumn, textColumn } from './table-model.js';
import { build, type ChartSpec, type Entry, lineName, resultFigures, xOf } from './views.js';

// The other libraries beside ours: CUDA libraries (baselines/cuda.py: CUB, cuSPARSE, torch) and
// WebGPU libraries (baselines/luma: luma.gl), one model for both. A library's row is paired with
// our rows of the same work on the same device, and each pair is the library's time ÷ ours.

const fmt = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4 });
const int = new Intl.NumberFormat('en-US');

/** Titles of the two kinds, as the tabs and charts name them. */
export const LIBRARY_KIND_NAME: Readonly<Record<BaselineKind, string>> = { cuda: 'CUDA library', webgpu: 'WebGPU library' };

/** Case fields that must agree between a library's case and ours when both have them. */
const MATCHED_FIELDS = ['segmentMean', 'density', 'bins', 'k'] as const;

/**
 * Case fields that make our configuration closer to the library's when they agree: where some of
 * ours agree on more of them than others (an inclusive library scan, our inclusive scan), only
 * those are paired; where none is closer than the others (CUB's bool mask against our u32 and u8
 * flags), all are.
 */
const CLOSER_FIELDS = ['type', 'op', 'inclusive', 'backward', 'flagType', 'valueType'] as const;

/** Whether our result measures what the library's result measures (configuration aside). */
function sameWork(ours: CaseResult, library: CaseResult): boolean {
  const o = ours.case;
  const b = library.case;
  const primitive =
    b.primitive === o.primitive ||
    ((b.primitive as string) === 'tridiag' && o.primitive.startsWith('tridiag-')) ||
    // cuSPARSE csrgeam's A + 2A is what hisparse-add times (one line per node size).
    ((b.primitive as string) === 'sparse-add' && o.primitive === 'hisparse-add');
  if (!primitive || ours.status !== 'ok') return false;
  // csrgeam's rows pair with our add of the same operands (`add`; reports before issue 51 have none: A + 2A).
  if ((b.primitive as string) === 'sparse-add' && (o['add'] ?? 'a+2a') !== (b['add'] ?? 'a+2a')) return false;
  // The sparse products have one 'auto' line each: the algorithm a user gets.
  if (b.matrix !== undefined) return o.matrix === b.matrix && (o.algorithm === 'auto' || o.algorithm === undefined);
  if (o.n !== b.n) return false;
  if (SORT_PRIMITIVES.has(o.primitive) && !sameSortShape(o, b)) return false;
  return MATCHED_FIELDS.every((f) => o[f] === undefined || b[f] === undefined || o[f] === b[f]);
}

/** The sorts, whose key width and value width set the work (issue 50: 16- and 64-bit keys, wide values). */
const SORT_PRIMITIVES: ReadonlySet<string> = new Set(['sort', 'sort-pairs', 'segmented-sort']);

/** Bits of a sort key by the case's `type`: signedness and float aside, the width is the work (CUB's u32 ↔ our i32 pair, u64 ↔ torch's i64). */
const KEY_BITS: Readonly<Record<string, number>> = { u16: 16, i16: 16, f16: 16, u32: 32, i32: 32, f32: 32, u64: 64, i64: 64, f64: 64 };

/**
 * Whether two sort cases sort keys of the same width with values of the same width: a library's u64
 * sort is not paired with our u32 sort, nor its 16-byte values with our 4-byte ones. `valueWidth`
 * absent means 4 bytes (every sort-pairs row before issue 50: u32 values; torch.sort(stable)'s
 * indices stand for them as before).
 *
 * @example
 * ```ts
 * sameSortShape({ primitive: 'sort', type: 'u64' }, { primitive: 'sort', type: 'i64' }); // true
 * ```
 */
export function sameSortShape(ours: CaseResult['case'], library: CaseResult['case']): boolean {
  const ob = typeof ours.type === 'string' ? KEY_BITS[ours.type] : undefined;
  const lb = typeof library.type === 'string' ? KEY_BITS[library.type] : undefined;
  if (ob !== undefined && lb !== undefined && ob !== lb) return false;
  const width = (c: CaseResult['case']) => (typeof c['valueWidth'] === 'number' ? c['valueWidth'] : 4);
  return ours.primitive === 'sort' || width(ours) === width(library);
}

/**
 * Of our rows of the same work, those closest to the library's case: each of {@link CLOSER_FIELDS}
 * that both state counts +1 when equal and −1 when not; the best score wins (all of them on a tie).
 */
function closest(candidates: readonly Row[], library: CaseResult): Row[] {
  const b = library.case;
  const score = (o: Row) =>
    CLOSER_FIELDS.reduce((sum, f) => {
      const theirs = b[f];
      const mine = o.result.case[f];
      return theirs === undefined || mine === undefined ? sum : sum + (theirs === mine ? 1 : -1);
    }, 0);
  const scores = candidates.map(score);
  const best = Math.max(...scores);
  return candidates.filter((_, i) => scores[i] === best);
}

/**
 * The library and what sets its case apart, from its series without the primitive (which the
 * chart's title gives) or the matrix (which is the point): `torch.cumsum/u32/inclusive=True`,
 * `luma.gl 9.4.2 GPUScan/u32 add excl fwd`.
 */
export function libraryLabel(library: CaseResult): string {
  return library.case.series
    .split('/')
    .slice(1)
    .filter((part) => !part.startsWith('matrix='))
    .join('/');
}

/**
 * A library's row (`source`, `result`: the library's) and our row of the same work on the same
 * device it is compared with, if any, and the ratio of their median times.
 */
export interface LibraryPair extends Row {
  /** Our row of the same work on the same device; absent when we have none (or the library's row is not ok). */
  readonly ours?: Row;
  /** The library's median time ÷ ours (above 1: ours is faster). */
  readonly ratio?: number;
}

/**
 * Every row of the `kind` libraries paired with our rows of the same work (primitive, size, matched
 * fields) **on the same device** (by name; nothing is paired across devices): one pair per our
 * configuration closest to the library's (see {@link CLOSER_FIELDS}). A library row that is not ok,
 * or that no row of ours matches, is a pair without `ours`, so the table can say so.
 *
 * @example
 * ```ts
 * const pairs = libraryPairs(currentRows(reports), baselineRows(reports), 'webgpu');
 * ```
 */
export function libraryPairs(ours: readonly Row[], baselines: readonly Row[], kind: BaselineKind): LibraryPair[] {
  const pairs: LibraryPair[] = [];
  for (const b of baselines) {
    if (b.source.baseline !== kind) continue;
    const libraryMs = b.result.status === 'ok' ? b.result.measurement?.medianMs : undefined;
    const candidates =
      libraryMs === undefined ? [] : ours.filter((o) => o.source.device === b.source.device && sameWork(o.result, b.result));
    const paired = closest(candidates, b.result);
    if (paired.length === 0) pairs.push({ source: b.source, result: b.result });
    for (const o of paired) {
      // sameWork takes ok rows only, and an ok row has its measurement (validateReport).
      const oursMs = o.result.measurement?.medianMs ?? Number.NaN;
      pairs.push({ source: b.source, result: b.result, ours: o, ...(oursMs > 0 ? { ratio: (libraryMs as number) / oursMs } : {}) });
    }
  }
  return pairs;
}

/** A library view: the charts, and the libraries' cases nothing of ours measures (`sparse-add (cusparse.csrgeam)`). */
export interface LibraryView {
  readonly charts: ChartSpec[];
  readonly unmatched: string[];
}

/**
 * The library's time ÷ ours on the same case and device (above 1: ours is faster), a chart per
 * primitive (the tridiagonal solvers share one) and a line per pair of configurations, x the size.
 * Chart ids start with the kind (`webgpu-scan`).
 *
 * @example
 * ```ts
 * const { charts, unmatched } = libraryCharts(libraryPairs(currentRows(reports), baselineRows(reports), 'cuda'), 'cuda');
 * ```
 */
export function libraryCharts(pairs: readonly LibraryPair[], kind: BaselineKind): LibraryView {
  const entries: Entry[] = [];
  const all = new Set<string>();
  const matched = new Set<string>();
  for (const pair of pairs) {
    const b = pair.result;
    if (b.status !== 'ok' || !b.measurement) continue;
    const library = libraryLabel(b);
    const family = `${b.case.primitive} (${typeof b.case.baseline === 'string' ? b.case.baseline : library})`;
    all.add(family);
    const o = pair.ours;
    if (!o || pair.ratio === undefined || !Number.isFinite(pair.ratio)) continue;
    matched.add(family);
    const p = o.result.case.primitive;
    entries.push({
      chart: lineageGroup(p),
      title: `${lineageGroup(p)}: ${LIBRARY_KIND_NAME[kind]} time ÷ ours (above 1: ours is faster)`,
      line: `${lineageGroup(p) === p ? lineName(o.result) : o.result.case.series} vs ${library}`,
      device: o.source.device,
      point: {
        x: xOf(o.result),
        y: pair.ratio,
        tip: [`${library}${b.case.matrix ? ` on ${b.case.matrix}` : ''}: ${fmt.format(b.measurement.medianMs)} ms`, ...resultFigures(o)],
      },
    });
  }
  return {
    // Not by case: a line pairs one of our configurations with a library, which a category would not name.
    charts: build(entries, () => ({ yTitle: `${LIBRARY_KIND_NAME[kind]} time ÷ our time`, yLog: true }), kind, { byCase: false }),
    unmatched: [...all].filter((f) => !matched.has(f)),
  };
}

/** Why a pair has no ratio, for the table's note. */
function pairNote(pair: LibraryPair): string | undefined {
  if (pair.result.status !== 'ok') return pair.result.message ?? pair.result.status;
  if (!pair.ours) return `no result of ours for this case on ${pair.source.device}`;
  return undefined;
}

/**
 * The columns of a library view's table: a row per pair, with the library's figures, ours and the
 * ratio; sortable like the case table.
 */
export const LIBRARY_COLUMNS: readonly Column<LibraryPair>[] = [
  textColumn<LibraryPair>('primitive', 'primitive', (r) => r.result.case.primitive),
  numberColumn<LibraryPair>('n', 'n', (r) => r.result.case.n, int),
  textColumn<LibraryPair>('library', 'library', (r) => libraryLabel(r.result)),
  textColumn<LibraryPair>('status', 'status', (r) => r.result.status),
  numberColumn<LibraryPair>('libraryMs', 'library ms', (r) => r.result.measurement?.medianMs),
  textColumn<LibraryPair>('ours', 'ours', (r) => (r.ours ? lineName(r.ours.result) : undefined)),
  numberColumn<LibraryPair>('oursMs', 'our ms', (r) => r.ours?.result.measurement?.medianMs),
  numberColumn<LibraryPair>('ratio', 'library ÷ ours', (r) => r.ratio),
  deviceColumn<LibraryPair>(),
  reportColumn<LibraryPair>('report', 'reports', (r) => [r.source, r.ours?.source]),
  textColumn<LibraryPair>('message', 'note', pairNote),
];
