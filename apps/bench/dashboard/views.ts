import { caseText } from '../src/case-types.js';
import { PRIMITIVES } from '../src/cases.js';
import type { Primitive } from '../src/registry.js';
import type { CaseResult, Verification } from '../src/report.js';
import { lineage, lineageGroup, metricValue, naturalUnit, UNIT_SHORT, UNIT_TITLE, type Unit } from './metrics.js';
import { caseKey, type Row } from './model.js';

// The dashboard's views as data: each builds chart specifications from rows, and charts.ts draws
// them. Keeping them free of the DOM lets Node tests check what every view would draw.

/** One point; `tip` holds the exact figures its tooltip shows, a line each. */
export interface ChartPoint {
  readonly x: number;
  readonly y: number;
  readonly tip: readonly string[];
}

/** One line of a chart. Dashed lines are the paper's algorithms, or the second device. */
export interface ChartLine {
  readonly label: string;
  readonly dashed?: boolean;
  readonly points: readonly ChartPoint[];
}

/**
 * A chart: x is log2 of the size (elements; nonzeros for sparse products), or the case when
 * `categories` is set.
 */
export interface ChartSpec {
  /** Unique within a view; the page uses it as the canvas's test id. */
  readonly id: string;
  readonly title: string;
  /** A second line under the title, when the chart lacks something the reader expects (a device). */
  readonly note?: string;
  readonly yTitle: string;
  /** Log scale for throughput (it spans orders of magnitude), linear for ratios. */
  readonly yLog: boolean;
  /**
   * Points without lines: the sparse products' points are different matrices, not a size sweep, and
   * the cases of a by-case chart have no order.
   */
  readonly scatter: boolean;
  /** The x axis's title, where the chart's x is not the usual size (a by-case chart). */
  readonly xTitle?: string;
  /**
   * Set when every configuration ran at one size only (the tridiagonal solvers at 2^22, tcu at 2^28
   * in the first reports): a line of one point is a lone dot, so the chart is drawn by case instead,
   * x = index into `categories` (the configurations), a line per device.
   */
  readonly categories?: readonly string[];
  readonly lines: readonly ChartLine[];
}

/** How the throughput view picks its unit: each primitive's own, or one for all. */
export type UnitChoice = 'natural' | 'gbps' | 'gelems';

const fmt = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4 });
const int = new Intl.NumberFormat('en-US');

/** `1,048,576 (2^20)`, or the plain count when it is not a power of two. */
function sizeText(n: number): string {
  const log = Math.log2(n);
  return Number.isInteger(log) ? `${int.format(n)} (2^${log})` : int.format(n);
}

/**
 * The series name without its primitive (the chart's title says it), with the flag density when it
 * is not the default. A sparse product's line is its algorithm across the suite: the matrix is a
 * point of it (named in the tooltip), not a line of its own.
 */
export function lineName(result: CaseResult): string {
  const c = result.case;
  let base = c.series.startsWith(`${c.primitive} `) ? c.series.slice(c.primitive.length + 1) : c.series;
  const matrix = caseText(c, 'matrix');
  if (matrix !== undefined && base.endsWith(` ${matrix}`)) base = base.slice(0, -matrix.length - 1);
  return typeof c.density === 'number' && c.density !== 0.5 ? `${base} density ${c.density}` : base;
}

/** Charts in the order the bench lists its primitives (core first), whatever order the reports came in. */
function chartOrder(key: string): number {
  const at = PRIMITIVES.indexOf((key === 'tridiag' ? 'tridiag-cr' : key) as Primitive);
  return at < 0 ? PRIMITIVES.length : at;
}

/**
 * The exact figures of a result, a line each, for tooltips: size, times, throughput in every unit
 * that applies, ratio to copy, matrix, verification and the report it came from.
 *
 * @example
 * ```ts
 * resultFigures(row); // ['n = 1,048,576 (2^20)', 'median 0.0123 ms (min 0.012, max 0.013, 20 runs)', …]
 * ```
 */
export function resultFigures(row: Row): string[] {
  const r = row.result;
  const m = r.measurement;
  const lines = [
    r.matrix
      ? `${r.matrix.name}: ${int.format(r.matrix.rows)} rows, nnz ${int.format(r.matrix.nnz)}, k ${r.matrix.k}`
      : `n = ${sizeText(r.case.n)}`,
  ];
  if (m) {
    lines.push(`median ${fmt.format(m.medianMs)} ms (min ${fmt.format(m.minMs)}, max ${fmt.format(m.maxMs)}, ${m.samplesMs.length} runs)`);
    const units = (['gbps', 'gelems', 'gflops'] as const)
      .map((u) => [u, metricValue(r, u)] as const)
      .filter(([, v]) => v !== undefined)
      .map(
        ([u, v]) =>
          `${fmt.format(v as number)} ${u === 'gelems' && naturalUnit(r.case.primitive) === 'gkeys' ? UNIT_SHORT.gkeys : UNIT_SHORT[u]}`,
      );
    if (units.length) lines.push(units.join(' · '));
  }
  if (r.ratioCopy !== undefined) lines.push(`× copy ${fmt.format(r.ratioCopy)}`);
  if (r.matrix) lines.push(`algorithm chosen: ${r.matrix.algorithm}`);
  const v = r.verification;
  if (v) lines.push(verificationLine(v));
  const s = row.source;
  lines.push(`${s.name} · ${s.device} · ${s.report.commit?.slice(0, 7) ?? 'no commit'} · ${s.report.date.slice(0, 10)}`);
  return lines;
}

/** The tooltip's verification line: the bench's GPU check, or (another library's row) the CPU comparison. */
function verificationLine(v: Verification): string {
  if (v.gpuMismatches === undefined) {
    if (!v.cpuCompared) return 'not verified';
    return v.cpuMismatches ? `${v.cpuMismatches} words differ from the CPU reference` : 'every output word equal to the CPU reference';
  }
  if (v.gpuMismatches !== 0) return `${v.gpuMismatches} mismatches`;
  return `verified on the GPU${v.cpuCompared ? ' and against the CPU reference' : ''}`;
}

/** A point of a view, before it is grouped into charts and lines. */
export interface Entry {
  readonly chart: string;
  readonly title: string;
  /** The configuration, without the device. */
  readonly line: string;
  /** The device of the row: a line never joins two devices' points. */
  readonly device: string;
  readonly dashed?: boolean;
  readonly point: ChartPoint;
}

/**
 * Groups points into charts and lines, in first-seen order; lines' points sorted by x. A line is a
 * configuration on one device: its label names the device when the chart has several (or
 * `nameDevices`), so a size sweep never zig-zags between two GPUs. With `byCase`, a size sweep whose
 * lines all have one point is drawn by case (see `ChartSpec.categories`); the sparse products' charts
 * keep nonzeros on x, which means something even for one matrix.
 */
export function build(
  entries: Iterable<Entry>,
  axis: (chart: string) => { yTitle: string; yLog: boolean },
  idPrefix: string,
  { nameDevices = false, byCase = true } = {},
): ChartSpec[] {
  const charts = new Map<string, { title: string; entries: Entry[] }>();
  for (const e of entries) {
    const chart = charts.get(e.chart) ?? { title: e.title, entries: [] };
    charts.set(e.chart, chart);
    chart.entries.push(e);
  }
  return [...charts]
    .sort(([a], [b]) => chartOrder(a) - chartOrder(b))
    .map(([key, c]) => {
      const named = nameDevices || new Set(c.entries.map((e) => e.device)).size > 1;
      const lines = linesOf(c.entries, (e) => (named ? `${e.device}: ${e.line}` : e.line));
      const spec = { id: `${idPrefix}-${key}`, title: c.title, ...axis(key), scatter: naturalUnit(key) === 'gflops' };
      if (!byCase || spec.scatter || lines.some((l) => l.points.length > 1)) return { ...spec, lines };
      // Every configuration at one size: x is the configuration, a line per device.
      const categories = [...new Set(c.entries.map((e) => e.line))];
      const sizes = new Set(c.entries.map((e) => e.point.x));
      const xTitle = sizes.size === 1 ? `configuration (all at n = 2^${[...sizes][0]})` : 'configuration (one size each: hover for n)';
      // The tooltip's title is the line (the device), so its first line names the configuration.
      const cases = c.entries.map((e) => ({ ...e, point: { x: categories.indexOf(e.line), y: e.point.y, tip: [e.line, ...e.point.tip] } }));
      return { ...spec, scatter: true, xTitle, categories, lines: linesOf(cases, (e) => e.device) };
    });
}

/** Entries as lines labelled by `label`, points sorted by x; a line is dashed when all its entries are. */
function linesOf(entries: readonly Entry[], label: (e: Entry) => string): ChartLine[] {
  const lines = new Map<string, { dashed: boolean; points: ChartPoint[] }>();
  for (const e of entries) {
    const line = lines.get(label(e)) ?? { dashed: true, points: [] };
    lines.set(label(e), line);
    line.dashed &&= e.dashed === true;
    line.points.push(e.point);
  }
  return [...lines].map(([name, l]) => ({
    label: name,
    ...(l.dashed ? { dashed: true } : {}),
    points: l.points.sort((a, b) => a.x - b.x),
  }));
}

/** x of a result: log2 of its size (of the nonzeros for the sparse products). */
export function xOf(result: CaseResult): number {
  return Math.log2(result.matrix?.nnz ?? result.case.n);
}

function unitFor(primitive: string, choice: UnitChoice): Unit {
  if (choice === 'natural') return naturalUnit(primitive);
  return choice === 'gelems' && naturalUnit(primitive) === 'gkeys' ? 'gkeys' : choice;
}

/**
 * Throughput against size, a chart per primitive and a line per configuration, in each
 * primitive's own unit (G keys/s for sorts, GFLOPS for sparse products, GB/s otherwise) or in one
 * unit for all.
 *
 * @example
 * ```ts
 * const charts = throughputCharts(currentRows(reports), 'natural');
 * ```
 */
export function throughputCharts(rows: readonly Row[], choice: UnitChoice): ChartSpec[] {
  const units = new Map<string, Unit>();
  return build(
    (function* () {
      for (const row of rows) {
        const p = row.result.case.primitive;
        const unit = unitFor(p, choice);
        const y = metricValue(row.result, unit);
        if (y === undefined) continue;
        // The four tridiagonal solvers share a chart, a line each, as in the paper view: each has
        // one configuration, so charts of their own would hold one line (one dot at one size).
        const chart = lineageGroup(p);
        units.set(chart, unit);
        yield {
          chart,
          title: `${chart}: ${UNIT_SHORT[unit]}`,
          line: chart === p ? lineName(row.result) : row.result.case.series,
          device: row.source.device,
          point: { x: xOf(row.result), y, tip: resultFigures(row) },
        };
      }
    })(),
    (p) => ({ yTitle: UNIT_TITLE[units.get(p) ?? 'gbps'], yLog: true }),
    'throughput',
  );
}

/**
 * The primitive's GB/s over the copy kernel's at the same size, timed in the same process: how
 * close to the memory-bandwidth bound a primitive runs (1 = as fast as copying its data).
 *
 * @example
 * ```ts
 * const charts = ratioCopyCharts(currentRows(reports));
 * ```
 */
export function ratioCopyCharts(rows: readonly Row[]): ChartSpec[] {
  return build(
    (function* () {
      for (const row of rows) {
        const r = row.result;
        if (r.status !== 'ok' || r.ratioCopy === undefined || r.case.primitive === 'copy') continue;
        yield {
          chart: r.case.primitive,
          title: `${r.case.primitive}: × copy`,
          line: lineName(r),
          device: row.source.device,
          point: { x: xOf(r), y: r.ratioCopy, tip: resultFigures(row) },
        };
      }
    })(),
    () => ({ yTitle: '× copy (GB/s ÷ copy GB/s, same size)', yLog: false }),
    'ratio',
  );
}

/**
 * The seed papers' algorithms (dashed) beside the modern ones (solid), for every primitive that has
 * both, in the primitive's own unit.
 *
 * @example
 * ```ts
 * const charts = paperCharts(currentRows(reports));
 * ```
 */
export function paperCharts(rows: readonly Row[]): ChartSpec[] {
  const kinds = new Map<string, Set<string>>();
  const entries: Entry[] = [];
  for (const row of rows) {
    const c = row.result.case;
    const kind = lineage(c.primitive, caseText(c, 'algorithm'));
    const y = metricValue(row.result, naturalUnit(c.primitive));
    if (!kind || y === undefined) continue;
    const group = lineageGroup(c.primitive);
    kinds.set(group, (kinds.get(group) ?? new Set()).add(kind));
    const label = group === c.primitive ? lineName(row.result) : c.series;
    entries.push({
      chart: group,
      title: `${group}: the paper's algorithms (dashed) and modern ones`,
      line: `${kind} · ${label}`,
      device: row.source.device,
      dashed: kind === 'paper',
      point: { x: xOf(row.result), y, tip: resultFigures(row) },
    });
  }
  const both = entries.filter((e) => kinds.get(e.chart)?.size === 2);
  return build(both, (group) => ({ yTitle: UNIT_TITLE[naturalUnit(group === 'tridiag' ? 'tridiag-cr' : group)], yLog: true }), 'paper');
}

/**
 * Two devices on the same charts: a line per device and configuration (the second device dashed),
 * in each primitive's own unit. Where both ran the same case, the tooltip gives their ratio. A chart
 * only one of the two devices ran says so in its `note`, and comes after the charts with both, so the
 * view does not open on charts that compare nothing.
 *
 * @example
 * ```ts
 * const charts = deviceCharts(currentRows(reports), 'nvidia-h100-80gb-hbm3', 'swiftshader-device-subzero');
 * ```
 */
export function deviceCharts(rows: readonly Row[], first: string, second: string): ChartSpec[] {
  const byCase = new Map<string, Row>();
  for (const row of rows) byCase.set(caseKey(row.source.device, row.result.case), row);
  const entries: Entry[] = [];
  const devicesOf = new Map<string, Set<string>>();
  for (const row of rows) {
    const device = row.source.device;
    if (device !== first && device !== second) continue;
    const p = row.result.case.primitive;
    const unit = naturalUnit(p);
    const y = metricValue(row.result, unit);
    if (y === undefined) continue;
    devicesOf.set(`device-${p}`, (devicesOf.get(`device-${p}`) ?? new Set()).add(device));
    const other = byCase.get(caseKey(device === first ? second : first, row.result.case));
    const otherY = other ? metricValue(other.result, unit) : undefined;
    const tip = [...resultFigures(row), ...(otherY ? [`${fmt.format(y / otherY)}× the other device on this case`] : [])];
    entries.push({
      chart: p,
      title: `${p}: ${first} and ${second} (dashed)`,
      line: lineName(row.result),
      device,
      dashed: device === second,
      point: { x: xOf(row.result), y, tip },
    });
  }
  const axis = (p: string) => ({ yTitle: UNIT_TITLE[naturalUnit(p)], yLog: true });
  const charts = build(entries, axis, 'device', { nameDevices: true }).map((spec): ChartSpec => {
    const [only, ...others] = devicesOf.get(spec.id) ?? [];
    if (only === undefined || others.length) return spec;
    return { ...spec, note: `only ${only} ran these cases: no ${only === first ? second : first} results to compare` };
  });
  // Stable: the primitive order holds within the charts with both devices and within the others.
  return charts.sort((a, b) => Number(a.note !== undefined) - Number(b.note !== undefined));
}

/**
 * The pair the Devices view opens on: the two devices with the most primitives that both have a
 * value for (charts with two series), then the most cases both ran; the device with more results
 * first (solid), the other second (dashed). With `live` (the newest live run's device, when it has
 * results) the pair includes it, second. Undefined when fewer than two devices have results.
 *
 * @example
 * ```ts
 * defaultDevicePair(currentRows(reports)); // ['nvidia-h100-80gb-hbm3', 'nvidia-h200']
 * ```
 */
export function defaultDevicePair(rows: readonly Row[], live?: string): [string, string] | undefined {
  // Per device, the cases it has a value for (case key without the device → primitive).
  const cases = new Map<string, Map<string, string>>();
  for (const row of rows) {
    const c = row.result.case;
    if (metricValue(row.result, naturalUnit(c.primitive)) === undefined) continue;
    const device = row.source.device;
    cases.set(device, (cases.get(device) ?? new Map()).set(caseKey('', c), c.primitive));
  }
  const devices = [...cases.keys()];
  let best: { pair: [string, string]; score: [number, number] } | undefined;
  for (const [i, a] of devices.entries()) {
    for (const b of devices.slice(i + 1)) {
      if (live !== undefined && cases.has(live) && a !== live && b !== live) continue;
      const ofA = cases.get(a) as Map<string, string>;
      const ofB = cases.get(b) as Map<string, string>;
      const primitivesOfB = new Set(ofB.values());
      const primitives = new Set([...ofA.values()].filter((p) => primitivesOfB.has(p))).size;
      const shared = [...ofA.keys()].filter((k) => ofB.has(k)).length;
      if (best && (primitives < best.score[0] || (primitives === best.score[0] && shared <= best.score[1]))) continue;
      // The live device second; otherwise the device with more results first.
      const aFirst = live !== undefined && (a === live || b === live) ? b === live : ofA.size >= ofB.size;
      best = { pair: aFirst ? [a, b] : [b, a], score: [primitives, shared] };
    }
  }
  return best?.pair;
}
