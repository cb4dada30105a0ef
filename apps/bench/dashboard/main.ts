import type { Chart } from 'chart.js';
import { PRIMITIVES } from '../src/cases.js';
import type { Primitive } from '../src/registry.js';
import type { BaselineKind } from '../src/report.js';
import { ALL_DEVICES, cardOptions, currentCard, onCard } from './cards.js';
import { drawChart } from './charts.js';
import { loadCommittedReports } from './committed.js';
import { FIRST_CALL_COLUMNS, FRAME_LOOP_COLUMNS, frameRows } from './frame-model.js';
import { LIBRARY_COLUMNS, libraryCharts, libraryPairs } from './library-views.js';
import { defaultMatrixSuite, probeAdapter } from './live-adapter.js';
import { type LiveMatrixSuite, liveCaseCount } from './live-cases.js';
import { baselineRows, currentRows, type LoadedReport, newestFirst, type ReportOrigin, toLoadedReport } from './model.js';
import { drawTable } from './table.js';
import { COLUMNS } from './table-model.js';
import {
  type ChartSpec,
  defaultDevicePair,
  deviceCharts,
  paperCharts,
  ratioCopyCharts,
  throughputCharts,
  type UnitChoice,
} from './views.js';

// The page: the loaded reports (committed ones first, newest first), the views over them (one
// device at a time, the newest report's by default: cards.ts), and live runs.
// `window.scanDashboard` exposes the state the end-to-end test waits on.

type View = 'throughput' | 'ratio' | 'paper' | 'devices' | 'cuda' | 'webgpu' | 'table' | 'frames' | 'live';

interface DashboardState {
  ready: boolean;
  reports: number;
  skipped: string[];
  /** The device the views show (cards.ts), or `*` for all. */
  card: string;
  /** Whether the live run's matrix selector has been set for the adapter (live-adapter.ts). */
  adapterProbed: boolean;
  error?: string;
  live: { state: 'idle' | 'running' | 'done' | 'cancelled' | 'failed'; done: number; total: number; ok: number; notOk: string[] };
}

declare global {
  interface Window {
    scanDashboard: DashboardState;
  }
}

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const state: DashboardState = {
  ready: false,
  reports: 0,
  skipped: [],
  card: ALL_DEVICES,
  adapterProbed: false,
  live: { state: 'idle', done: 0, total: 0, ok: 0, notOk: [] },
};
window.scanDashboard = state;

const reports: LoadedReport[] = [];
const hidden = new Set<string>();
let charts: Chart[] = [];
let view: View = (new URLSearchParams(location.search).get('view') as View | null) ?? 'throughput';
let liveCount = 0;
// The views' own settings, kept here: render() rebuilds their controls from them.
let unit: UnitChoice = 'natural';
/** The device the visitor picked in the selector; until then the page follows the newest report's. */
let pickedCard: string | undefined;
const compared: { first?: string; second?: string } = {};

function element(tag: string, content: string, className?: string): HTMLElement {
  const el = document.createElement(tag);
  el.textContent = content;
  if (className) el.className = className;
  return el;
}

function showStatus(message: string, error = false): void {
  $('status').textContent = message;
  $('status').className = error ? 'error' : '';
}

/** The reports not hidden in the list, every device's. */
function visible(): LoadedReport[] {
  return newestFirst(reports.filter((r) => !hidden.has(r.key)));
}

/** The visible reports of the device shown. */
function shown(): LoadedReport[] {
  return onCard(visible(), state.card);
}

/** Fills the device selector: the devices of the visible reports, newest first, then all of them. */
function renderCardSelect(): void {
  const select = $<HTMLSelectElement>('card');
  const options = cardOptions(visible());
  select.replaceChildren(
    ...options.map(
      (o) =>
        new Option(
          `${o.device} (${o.reports} report${o.reports === 1 ? '' : 's'}, newest ${o.newest.slice(0, 10)})`,
          o.device,
          false,
          o.device === state.card,
        ),
    ),
    new Option(`all ${options.length} devices`, ALL_DEVICES, false, state.card === ALL_DEVICES),
  );
}

/** Adds a report (replacing one with the same key) and redraws. */
function addReport(key: string, origin: ReportOrigin, data: unknown): boolean {
  const loaded = toLoadedReport(key, origin, data);
  if ('problems' in loaded) {
    showStatus(`${key}: not a bench report:\n${loaded.problems.slice(0, 8).join('\n')}`, true);
    return false;
  }
  const at = reports.findIndex((r) => r.key === key);
  if (at >= 0) reports.splice(at, 1);
  reports.push(loaded);
  state.reports = reports.length;
  renderReportList();
  render();
  return true;
}

function renderReportList(): void {
  const list = $('report-list');
  list.replaceChildren();
  for (const r of newestFirst(reports)) {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = !hidden.has(r.key);
    box.addEventListener('change', () => {
      if (box.checked) hidden.delete(r.key);
      else hidden.add(r.key);
      render();
    });
    const ok = r.report.results.filter((x) => x.status === 'ok').length;
    const kind = r.baseline === 'cuda' ? 'CUDA libraries' : r.baseline === 'webgpu' ? 'WebGPU libraries' : r.origin;
    label.append(
      box,
      ` ${r.name}`,
      element(
        'span',
        ` ${r.report.date.slice(0, 16).replace('T', ' ')} · ${r.device} · ${ok}/${r.report.results.length} ok · ${kind}`,
        'meta',
      ),
    );
    list.append(label);
  }
}

function chartSection(title: string, specs: readonly ChartSpec[], note?: string): void {
  const root = $('view');
  root.append(element('h2', title));
  if (note) root.append(element('p', note, 'note'));
  if (specs.length === 0) root.append(element('p', 'Nothing to draw: no shown report has cases for this view.', 'note'));
  const grid = document.createElement('div');
  grid.className = 'grid';
  root.append(grid);
  for (const spec of specs) charts.push(drawChart(grid, spec));
}

function deviceSelect(id: string, which: 'first' | 'second', devices: readonly string[], selected: string): HTMLSelectElement {
  const select = document.createElement('select');
  select.id = id;
  for (const d of devices) select.append(new Option(d, d, false, d === selected));
  select.addEventListener('change', () => {
    compared[which] = select.value;
    render();
  });
  return select;
}

/** A table's columns without the device, when one device is shown (the selector names it): the table then fits a 1400 px window. */
function onePerCard<C extends { readonly key: string }>(columns: readonly C[]): readonly C[] {
  return state.card === ALL_DEVICES ? columns : columns.filter((c) => c.key !== 'device');
}

/** Redraws the current view from the shown reports. */
function render(): void {
  for (const c of charts) c.destroy();
  charts = [];
  const root = $('view');
  root.replaceChildren();
  for (const tab of document.querySelectorAll<HTMLButtonElement>('#tabs button'))
    tab.setAttribute('aria-pressed', String(tab.dataset.view === view));
  $('live').hidden = view !== 'live';
  state.card = currentCard(visible(), pickedCard);
  renderCardSelect();
  // The Devices view picks its own two devices from every visible report.
  $('card-line').hidden = view === 'devices' || view === 'live';
  const selected = view === 'devices' ? visible() : shown();
  const rows = currentRows(selected);
  showStatus(
    `${selected.length} of ${reports.length} reports shown (${view === 'devices' || state.card === ALL_DEVICES ? 'every device' : state.card}) · ${rows.length} cases (${rows.filter((r) => r.result.status === 'ok').length} verified and timed)` +
      (state.skipped.length ? ` · not bench reports: ${state.skipped.join(', ')}` : ''),
  );
  if (view === 'throughput') {
    const picker = document.createElement('select');
    picker.id = 'unit';
    for (const [value, text] of [
      ['natural', "each primitive's own unit"],
      ['gbps', 'GB/s'],
      ['gelems', 'elements (keys) per second'],
    ]) {
      picker.append(new Option(text, value, false, value === unit));
    }
    picker.addEventListener('change', () => {
      unit = picker.value as UnitChoice;
      render();
    });
    const line = element('p', 'Unit: ');
    line.append(picker);
    root.append(line);
    chartSection(
      'Throughput against size',
      throughputCharts(rows, unit),
      'Sorts in G keys/s, sparse products in GFLOPS, the rest in GB/s of the bytes the primitive must move. Hover a point for its exact figures.',
    );
  } else if (view === 'ratio') {
    chartSection(
      'Ratio to copy',
      ratioCopyCharts(rows),
      'GB/s of the primitive ÷ GB/s of a vec4 copy kernel at the same size in the same process: 1 is the memory-bandwidth bound.',
    );
  } else if (view === 'paper') {
    chartSection(
      'The papers beside the modern algorithms',
      paperCharts(rows),
      "Dashed: the seed papers' algorithms (Sengupta et al. 2007; the branchless SpMV). Solid: decoupled look-back, one-sweep radix, merge path, the partition method.",
    );
  } else if (view === 'devices') {
    const devices = [...new Set(rows.map((r) => r.source.device))];
    if (devices.length < 2) {
      chartSection(
        'One device against another',
        [],
        `Only ${devices[0] ?? 'no device'} is in the shown reports: load a report from another GPU, or make one in the Live run tab.`,
      );
    } else {
      // Defaults: the pair with the most primitives in common (the newest live run's device second,
      // when there is one), so the view opens on charts with two series; a device picked stays picked.
      const live = newestFirst(selected).find((r) => r.origin === 'live')?.device;
      const [a, b] = defaultDevicePair(rows, live) ?? (devices as [string, string]);
      const pick = (d: string | undefined, fallback: string) => (d !== undefined && devices.includes(d) ? d : fallback);
      const firstDevice = pick(compared.first, a);
      const secondDevice = pick(compared.second, b !== firstDevice ? b : a);
      const first = deviceSelect('device-a', 'first', devices, firstDevice);
      const second = deviceSelect('device-b', 'second', devices, secondDevice);
      const line = element('p', 'Compare ');
      line.append(first, ' with ', second, ' (dashed)');
      root.append(line);
      const specs = deviceCharts(rows, first.value, second.value);
      const alone = specs.filter((s) => s.note !== undefined).length;
      chartSection(
        'One device against another',
        specs,
        `${specs.length - alone} of ${specs.length} charts have both devices` +
          (alone ? '; the others (last) have one device, as their titles say.' : '.'),
      );
    }
  } else if (view === 'cuda' || view === 'webgpu') {
    renderLibraries(view, rows, selected);
  } else if (view === 'table') {
    root.append(element('h2', 'Every case'));
    root.append(element('p', 'Click a header to sort. Rows that are not ok say why in the last column.', 'note'));
    const box = document.createElement('div');
    box.id = 'table';
    box.className = 'table-box';
    root.append(box);
    drawTable(box, [...rows, ...baselineRows(selected)], onePerCard(COLUMNS));
  } else if (view === 'frames') {
    renderFrames(selected);
  }
}

/** What the two library views say above their charts. */
const LIBRARY_SECTIONS: Readonly<Record<BaselineKind, { title: string; note: string }>> = {
  cuda: {
    title: 'CUDA libraries on the same GPU',
    note: 'CUB (through torch and CuPy), cuSPARSE and torch timed on the same GPU by apps/bench/baselines/cuda.py; each point is the library time ÷ ours on the same case (above 1: ours is faster).',
  },
  webgpu: {
    title: 'WebGPU libraries on the same GPU',
    note: "luma.gl's GPUScan, GPUReduction, GPUCompaction and GPUSort (key–value) timed by apps/bench/baselines/luma with the bench's rules (timestamps around the recorded work, the same device setup, verified against the CPU before and after timing); each point is the library time ÷ ours on the same case (above 1: ours is faster). Only results from devices of the same name are paired: a library run on one GPU is never divided by ours on another. gridwise and other libraries that are not on npm are quoted in BENCHMARKS.md, not drawn here.",
  },
};

/** A library view (CUDA or WebGPU libraries): the ratio charts, then a table of every pair, including the library's cases without one. */
function renderLibraries(kind: BaselineKind, rows: ReturnType<typeof currentRows>, selected: readonly LoadedReport[]): void {
  const pairs = libraryPairs(rows, baselineRows(selected, kind), kind);
  const { charts: specs, unmatched } = libraryCharts(pairs, kind);
  const section = LIBRARY_SECTIONS[kind];
  chartSection(
    section.title,
    specs,
    section.note + (unmatched.length ? ` Not yet matched by a project case: ${unmatched.join(', ')}.` : ''),
  );
  const root = $('view');
  root.append(element('h2', 'Every pair'));
  root.append(
    element(
      'p',
      'A row per library case and each of our configurations paired with it; the note says why a case has no ratio. Click a header to sort.',
      'note',
    ),
  );
  const box = document.createElement('div');
  box.id = `${kind}-table`;
  box.className = 'table-box';
  root.append(box);
  if (pairs.length) drawTable(box, pairs, onePerCard(LIBRARY_COLUMNS));
  else box.append(element('p', 'No shown report has results of these libraries.', 'note'));
}

/** The frame view: the frame-loop and first-call rows of every shown report, each report's own (before and after a change side by side). */
function renderFrames(selected: readonly LoadedReport[]): void {
  const root = $('view');
  const sections = [
    {
      id: 'frame-loop-table',
      title: 'Frame loop',
      rows: frameRows(selected, 'frame-loop'),
      columns: FRAME_LOOP_COLUMNS,
      note: 'A plan recorded into the frame’s own encoder every frame, with a new count each frame (host or GPU count). encode ms: JavaScript time of plan.encode alone; GPU ms: timestamps around the plan’s commands (on a software adapter only the JavaScript and creation columns mean anything); per frame: GPU objects the plan created over the measured frames ÷ frames (0 once warm is the contract); allocations and memory: the plan’s before → after the measured frames. Medians and 90th percentiles.',
    },
    {
      id: 'first-call-table',
      title: 'First call',
      rows: frameRows(selected, 'first-call'),
      columns: FIRST_CALL_COLUMNS,
      note: 'The first use of a plan in a fresh process, wall clock: create, ready (wait variant; n/a where the plan has no ready), the first encode (JavaScript; compiles what is not compiled yet), the first frame from submit to done, and the total.',
    },
  ];
  for (const s of sections) {
    root.append(element('h2', s.title));
    root.append(element('p', s.note, 'note'));
    const box = document.createElement('div');
    box.id = s.id;
    box.className = 'table-box';
    root.append(box);
    if (s.rows.length) drawTable(box, s.rows, onePerCard(s.columns));
    else
      box.append(
        element(
          'p',
          `No shown report has ${s.id.replace('-table', '')} cases: run node apps/bench/dist/cli.js --only frame-loop,first-call and load its report.`,
          'note',
        ),
      );
  }
}

// --- loading from a file or a URL ---

async function loadUrl(url: string): Promise<void> {
  try {
    const response = await fetch(url);
    if (!response.ok) return showStatus(`${url}: HTTP ${response.status}`, true);
    addReport(url, 'url', JSON.parse(await response.text()));
  } catch (e) {
    showStatus(`${url}: ${(e as Error).message}`, true);
  }
}

$<HTMLInputElement>('file').addEventListener('change', async (event) => {
  for (const file of (event.target as HTMLInputElement).files ?? []) {
    try {
      addReport(file.name, 'file', JSON.parse(await file.text()));
    } catch (e) {
      showStatus(`${file.name}: not JSON (${(e as Error).message})`, true);
    }
  }
});
$('load-url').addEventListener('click', () => void loadUrl($<HTMLInputElement>('url').value.trim()));

$<HTMLSelectElement>('card').addEventListener('change', (event) => {
  pickedCard = (event.target as HTMLSelectElement).value;
  render();
});

for (const tab of document.querySelectorAll<HTMLButtonElement>('#tabs button')) {
  tab.addEventListener('click', () => {
    view = tab.dataset.view as View;
    render();
  });
}

// --- live runs ---

const LIVE_DEFAULT: readonly Primitive[] = ['scan', 'reduce', 'sort', 'copy'];
const LIVE_SIZES = [10, 12, 14, 16, 18, 20, 22, 24, 26];

function checkboxes(
  parent: HTMLElement,
  name: string,
  values: readonly (string | number)[],
  checked: (v: string) => boolean,
  label: (v: string) => string,
): void {
  for (const v of values.map(String)) {
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.name = name;
    box.value = v;
    box.checked = checked(v);
    box.addEventListener('change', updateLiveCount);
    const l = document.createElement('label');
    l.append(box, ` ${label(v)}`);
    parent.append(l);
  }
}

function liveSelection() {
  const values = (name: string) => [...document.querySelectorAll<HTMLInputElement>(`input[name=${name}]:checked`)].map((b) => b.value);
  return {
    primitives: values('live-primitive') as Primitive[],
    sizes: values('live-size').map((k) => 2 ** Number(k)),
    runs: Math.max(1, Math.min(100, Number($<HTMLInputElement>('live-runs').value) || 10)),
    warmup: 2,
    matrices: $<HTMLSelectElement>('live-matrices').value as LiveMatrixSuite,
  };
}

function updateLiveCount(): void {
  const count = liveCaseCount(liveSelection());
  $('live-count').textContent = `${count} cases`;
  $<HTMLButtonElement>('live-start').disabled = count === 0 || state.live.state === 'running';
}

let controller: AbortController | undefined;
/** The last live run's report, as a blob URL and the file name it downloads under. */
let download: { url: string; name: string } | undefined;

function saveDownload(): void {
  if (!download) return;
  const a = document.createElement('a');
  a.href = download.url;
  a.download = download.name;
  a.click();
}

async function startLive(): Promise<void> {
  const selection = liveSelection();
  controller = new AbortController();
  const progress = $<HTMLProgressElement>('live-progress');
  const log = $('live-log');
  log.replaceChildren();
  state.live = { state: 'running', done: 0, total: liveCaseCount(selection), ok: 0, notOk: [] };
  progress.max = state.live.total;
  progress.value = 0;
  $<HTMLButtonElement>('live-start').disabled = true;
  $<HTMLButtonElement>('live-cancel').disabled = false;
  $<HTMLButtonElement>('live-download').disabled = true;
  try {
    $('live-device').textContent = 'Loading the kernels and creating a device…';
    // The packages' kernels load only now: the charts do not need them.
    const { createPageContext } = await import('./gpu.js');
    const { describeDevice, runLive } = await import('./live.js');
    const ctx = await createPageContext();
    const { text, software } = describeDevice(ctx);
    $('live-device').textContent = `Device: ${text}${software ? ' — a software adapter: its numbers say nothing about GPUs.' : ''}`;
    const report = await runLive(ctx, selection, {
      signal: controller.signal,
      commit: __SCAN_COMMIT__,
      onProgress: ({ done, total, result }) => {
        progress.value = done;
        state.live.done = done;
        if (result.status === 'ok') state.live.ok++;
        else state.live.notOk.push(`${result.case.id}: ${result.status} ${result.message ?? ''}`);
        const m = result.measurement;
        log.prepend(
          element(
            'div',
            `[${done}/${total}] ${result.case.id}: ${result.status}${m ? ` ${m.medianMs.toPrecision(3)} ms, ${m.gbps?.toPrecision(3) ?? '—'} GB/s` : ` ${result.message ?? ''}`}`,
            result.status === 'ok' ? '' : 'problem',
          ),
        );
      },
    });
    ctx.device.destroy();
    liveCount++;
    const key = `live-${liveCount}`;
    addReport(key, 'live', report);
    const blob = new Blob([`${JSON.stringify(report, null, 2)}\n`], { type: 'application/json' });
    if (download) URL.revokeObjectURL(download.url);
    download = { url: URL.createObjectURL(blob), name: `scan-bench-live-${report.date.replace(/[:.]/g, '-')}.json` };
    $<HTMLButtonElement>('live-download').disabled = false;
    state.live.state = controller.signal.aborted ? 'cancelled' : 'done';
    $('live-summary').textContent =
      `${state.live.state === 'cancelled' ? 'Cancelled' : 'Done'}: ${state.live.ok} of ${report.results.length} cases verified and timed. The run is now one of the shown reports (“${key}”); compare it in the Devices tab.`;
  } catch (e) {
    state.live.state = 'failed';
    state.error = (e as Error).message;
    $('live-summary').textContent = `The live run failed: ${(e as Error).message}`;
  } finally {
    $<HTMLButtonElement>('live-cancel').disabled = true;
    updateLiveCount();
  }
}

// A first call in the page would not be one: the page's pipeline cache outlives its cases.
checkboxes(
  $('live-primitives'),
  'live-primitive',
  PRIMITIVES.filter((p) => p !== 'first-call'),
  (v) => LIVE_DEFAULT.includes(v as Primitive),
  (v) => v,
);
checkboxes(
  $('live-sizes'),
  'live-size',
  LIVE_SIZES,
  (v) => v === '16',
  (v) => `2^${v}`,
);
$('live-runs').addEventListener('change', updateLiveCount);
let matricesPicked = false;
$('live-matrices').addEventListener('change', () => {
  matricesPicked = true;
  updateLiveCount();
});
$('live-start').addEventListener('click', () => void startLive());
$('live-cancel').addEventListener('click', () => controller?.abort());
$('live-download').addEventListener('click', saveDownload);
updateLiveCount();

/** Sets the matrix suite for this browser's adapter (small on a software adapter), unless the visitor picked one. */
async function setMatricesForAdapter(): Promise<void> {
  const adapter = await probeAdapter();
  const suite = defaultMatrixSuite(adapter);
  if (!matricesPicked) {
    $<HTMLSelectElement>('live-matrices').value = suite;
    $('live-matrices-note').textContent =
      suite === 'small' ? (adapter ? '(picked for a software adapter)' : '(no WebGPU adapter found)') : '(picked for a GPU)';
    updateLiveCount();
  }
  state.adapterProbed = true;
}
void setMatricesForAdapter();

// --- start: the committed reports, then ?report=URL ---

async function start(): Promise<void> {
  try {
    const { reports: committed, skipped } = await loadCommittedReports();
    state.skipped = skipped;
    reports.push(...committed);
    state.reports = reports.length;
    renderReportList();
    render();
    const requested = new URLSearchParams(location.search).get('report');
    if (requested) await loadUrl(requested);
  } catch (e) {
    state.error = (e as Error).message;
    showStatus(`Could not load the committed reports: ${(e as Error).message}`, true);
  }
  state.ready = true;
}
void start();
