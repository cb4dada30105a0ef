import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumLaunchOptions } from '@scan/gpu-testing/vitest-browser';
import { type Browser, chromium, type Page } from 'playwright';
import { build, type PreviewServer, preview } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ALL_DEVICES, cardOptions, defaultCard, onCard } from '../dashboard/cards.js';
import { FIRST_CALL_COLUMNS, FRAME_LOOP_COLUMNS, frameRows } from '../dashboard/frame-model.js';
import { libraryPairs } from '../dashboard/library-views.js';
import { baselineRows, currentRows, type LoadedReport, toLoadedReport } from '../dashboard/model.js';
import { defaultDevicePair, deviceCharts, throughputCharts } from '../dashboard/views.js';
import { type BenchReport, validateReport } from '../src/report.js';
import { legendProblems, multiLineCells } from './dashboard-layout.js';
import { frameReport } from './fixtures.js';

// The dashboard as a user gets it: the static build, served as plain files, in headless Chromium
// (SwiftShader's WebGPU for the live run). What the page shows is checked against what the views
// compute in Node from the same committed reports.

const configFile = fileURLToPath(new URL('../dashboard/vite.config.ts', import.meta.url));
const benchmarks = fileURLToPath(new URL('../../../benchmarks/', import.meta.url));

let outDir: string;
let server: PreviewServer;
let browser: Browser;
let page: Page;
let committed: LoadedReport[];
/** The committed reports of the device the page opens on (the newest report's). */
let onDefaultCard: LoadedReport[];

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'scan-dashboard-'));
  await build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  server = await preview({ configFile, logLevel: 'warn', build: { outDir }, preview: { port: 0, host: '127.0.0.1', strictPort: false } });
  const address = server.httpServer.address() as AddressInfo;
  committed = readdirSync(benchmarks)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => {
      const loaded = toLoadedReport(f, 'committed', JSON.parse(readFileSync(join(benchmarks, f), 'utf8')));
      return 'problems' in loaded ? [] : [loaded];
    });
  onDefaultCard = onCard(committed, defaultCard(committed));
  browser = await chromium.launch(chromiumLaunchOptions());
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`http://127.0.0.1:${address.port}/`);
  await page.waitForFunction(() => window.scanDashboard?.ready, undefined, { timeout: 60_000 });
  expect(errors).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.httpServer.close(() => resolve()) : resolve()));
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

/** Pixels of the first line's colour (#0072B2) inside a chart's plot area (`data-plot`), legend and title left out. */
function canvasPixels(selector: string): Promise<{ lineColour: number; width: number }> {
  return page.$eval(selector, (canvas) => {
    const c = canvas as HTMLCanvasElement;
    const [left, top, right, bottom] = (c.dataset.plot ?? '').split(',').map(Number) as [number, number, number, number];
    const data = c.getContext('2d')!.getImageData(left, top, right - left, bottom - top).data;
    let lineColour = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i]! - 0x00) < 16 && Math.abs(data[i + 1]! - 0x72) < 16 && Math.abs(data[i + 2]! - 0xb2) < 16 && data[i + 3]! > 200)
        lineColour++;
    }
    return { lineColour, width: c.width };
  });
}

describe('the dashboard (static build)', () => {
  test('opens on every committed report, newest first, and names the files that are not reports', async () => {
    const state = await page.evaluate(() => window.scanDashboard);
    expect(state.error).toBeUndefined();
    expect(state.reports).toBe(committed.length);
    expect(committed.length).toBeGreaterThan(10);
    const stress = readdirSync(benchmarks).filter(
      (f) => f.endsWith('.json') && validateReport(JSON.parse(readFileSync(join(benchmarks, f), 'utf8'))).length > 0,
    );
    expect(state.skipped).toEqual(stress.sort());
    const listed = await page.$$eval('#report-list label', (labels) => labels.map((l) => l.textContent ?? ''));
    expect(listed).toHaveLength(committed.length);
    const dates = listed.map((l) => /(\d{4}-\d\d-\d\d \d\d:\d\d)/.exec(l)?.[1] ?? '');
    expect(dates).toEqual([...dates].sort().reverse());
  });

  test("shows one device, the newest report's, with a selector of every device and all of them (issue 46)", async () => {
    const card = defaultCard(committed);
    expect(await page.$eval('#card', (s) => (s as HTMLSelectElement).value)).toBe(card);
    expect(await page.evaluate(() => window.scanDashboard.card)).toBe(card);
    const offered = await page.$$eval('#card option', (o) => o.map((x) => (x as HTMLOptionElement).value));
    expect(offered).toEqual([...cardOptions(committed).map((o) => o.device), ALL_DEVICES]);
    expect(offered.length).toBeGreaterThan(2);
    // Fewer series per chart than with every device.
    const most = (reports: LoadedReport[]) => Math.max(...throughputCharts(currentRows(reports), 'natural').map((c) => c.lines.length));
    expect(most(onDefaultCard)).toBeLessThan(most(committed));
    const drawn = await page.$$eval('canvas[data-chart]', (c) =>
      c.map((x) => Number(/(\d+) lines/.exec(x.getAttribute('aria-label') ?? '')?.[1])),
    );
    expect(Math.max(...drawn)).toBe(most(onDefaultCard));
  });

  test('draws a throughput chart per primitive, with lines in its pixels', async () => {
    const expected = throughputCharts(currentRows(onDefaultCard), 'natural');
    const ids = await page.$$eval('canvas[data-chart]', (canvases) => canvases.map((c) => (c as HTMLElement).dataset.chart));
    expect(ids).toEqual(expected.map((c) => c.id));
    // A line across the plot is thousands of pixels; the six points of a sparse product's scatter
    // a few hundred; axes and grid have none of this colour.
    for (const [id, least] of [
      ['throughput-reduce', 500],
      ['throughput-scan', 300],
      ['throughput-sort', 300],
      ['throughput-spmv', 150],
    ] as const) {
      const pixels = await canvasPixels(`canvas[data-chart="${id}"]`);
      expect(pixels.width, id).toBeGreaterThan(300);
      expect(pixels.lineColour, id).toBeGreaterThan(least);
    }
  });

  test('the unit picker redraws every chart in the unit picked, and stays on it', async () => {
    const label = (id: string) => page.$eval(`canvas[data-chart="${id}"]`, (c) => c.getAttribute('aria-label') ?? '');
    expect(await label('throughput-sort')).toMatch(/y: G keys\/s/);
    await page.selectOption('#unit', 'gbps');
    expect(await page.$eval('#unit', (s) => (s as HTMLSelectElement).value)).toBe('gbps');
    expect(await label('throughput-sort')).toMatch(/y: GB\/s/);
    expect(await label('throughput-spmv')).toMatch(/y: GB\/s/);
    await page.selectOption('#unit', 'natural');
    expect(await label('throughput-spmv')).toMatch(/y: GFLOPS/);
    // HiSparse's products as spmv's: GFLOPS (issue 33).
    expect(await label('throughput-hisparse-spmv')).toMatch(/y: GFLOPS/);
  });

  test('the devices view opens on the pair with the most primitives in common, charts with both devices first', async () => {
    await page.click('#tabs button[data-view="devices"]');
    const rows = currentRows(committed);
    const pair = defaultDevicePair(rows)!;
    const picked = await page.$$eval('#device-a, #device-b', (s) => s.map((x) => (x as HTMLSelectElement).value));
    expect(picked).toEqual(pair);
    const labels = await page.$$eval('canvas[data-chart]', (c) => c.map((x) => x.getAttribute('aria-label') ?? ''));
    const expected = deviceCharts(rows, ...pair);
    expect(labels).toHaveLength(expected.length);
    // The first chart compares the two; a chart with one device says so.
    expect(labels[0]).not.toMatch(/only /);
    for (const [i, spec] of expected.entries()) if (spec.note) expect(labels[i]).toContain(spec.note);
  });

  test('every view draws charts from the committed reports', async () => {
    for (const [view, prefix] of [
      ['ratio', 'ratio-'],
      ['paper', 'paper-'],
      ['cuda', 'cuda-'],
      ['webgpu', 'webgpu-'],
    ] as const) {
      await page.click(`#tabs button[data-view="${view}"]`);
      const ids = await page.$$eval('canvas[data-chart]', (canvases) => canvases.map((c) => (c as HTMLElement).dataset.chart ?? ''));
      expect(ids.length, view).toBeGreaterThan(0);
      expect(
        ids.every((id) => id.startsWith(prefix)),
        view,
      ).toBe(true);
      expect((await canvasPixels(`canvas[data-chart="${ids[0]}"]`)).lineColour, view).toBeGreaterThan(150);
    }
    for (const id of ['paper-scan', 'paper-sort', 'cuda-scan', 'cuda-sort', 'cuda-spmv', 'webgpu-scan', 'webgpu-sort-pairs']) {
      await page.click(`#tabs button[data-view="${id.split('-')[0]}"]`);
      expect(await page.$(`canvas[data-chart="${id}"]`), id).not.toBeNull();
    }
  });

  test('the WebGPU libraries tab lists every pair of a luma.gl case with ours, and the cases without one', async () => {
    await page.click('#tabs button[data-view="webgpu"]');
    const pairs = libraryPairs(currentRows(onDefaultCard), baselineRows(onDefaultCard), 'webgpu');
    expect(pairs.length).toBeGreaterThan(0);
    expect(await page.$$eval('#webgpu-table tbody tr', (trs) => trs.length)).toBe(pairs.length);
    expect(await page.textContent('#view')).toMatch(/Only results from devices of the same name are paired/);
  });

  test('the table lists every case and sorts by a column', async () => {
    await page.click('#tabs button[data-view="table"]');
    const rows = currentRows(onDefaultCard).length + baselineRows(onDefaultCard).length;
    expect(await page.$$eval('#table tbody tr', (trs) => trs.length)).toBe(rows);
    const gbps = async () =>
      page.$$eval('#table tbody tr', (trs) =>
        trs
          .map((tr) => tr.children[7]!.textContent ?? '')
          .filter(Boolean)
          .map((t) => Number(t.replaceAll(',', ''))),
      );
    await page.click('#table th[data-column="gbps"]');
    const ascending = await gbps();
    expect(ascending.length).toBeGreaterThan(100);
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    await page.click('#table th[data-column="gbps"]');
    const descending = await gbps();
    expect(descending).toEqual([...ascending].reverse());
    // The table fits a 1400 px window: no page-level horizontal scroll (issue 33).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1400);
    // Report names take one line each, the whole name in the tooltip (issue 46).
    const names = await multiLineCells(page, '#table table', 'report');
    expect(names.cells).toBe(rows);
    expect(names.wrapped).toEqual([]);
    const title = await page.$eval('#table td.name', (td) => (td as HTMLElement).title);
    expect(onDefaultCard.some((r) => title.startsWith(`${r.name}\n`))).toBe(true);
  });

  test('after a run from another device, no legend overlaps its plot and no two series of a chart look alike (issue 46)', async () => {
    // A live run's report, simulated: a committed run that has scan × copy, from SwiftShader, newer than every report.
    const source = committed.find((r) => !r.isBaseline && r.report.results.some((x) => x.case.primitive === 'scan' && x.ratioCopy))!;
    const newest = Math.max(...committed.map((r) => Date.parse(r.report.date)));
    const adapter = {
      vendor: 'google',
      architecture: 'swiftshader',
      description: 'SwiftShader driver 5.0.0',
      device: 'SwiftShader Device (Subzero)',
    };
    const simulated: BenchReport = {
      ...source.report,
      date: new Date(newest + 86_400_000).toISOString(),
      device: { ...source.report.device!, adapter },
    };
    const file = join(outDir, 'simulated-live.json');
    writeFileSync(file, JSON.stringify(simulated));
    await page.setInputFiles('#file', file);
    await page.waitForFunction(() => window.scanDashboard.reports > 0 && window.scanDashboard.card === 'swiftshader-device-subzero');
    await page.click('#tabs button[data-view="ratio"]');
    for (const card of ['swiftshader-device-subzero', ALL_DEVICES, defaultCard(committed)]) {
      await page.selectOption('#card', card);
      let charts = 0;
      for (const view of ['ratio', 'throughput', 'paper', 'cuda']) {
        await page.click(`#tabs button[data-view="${view}"]`);
        charts += await page.locator('canvas[data-chart]').count();
        expect(await legendProblems(page), `${card} ${view}`).toEqual([]);
      }
      expect(charts, card).toBeGreaterThan(4);
    }
    // Every device: scan × copy has the simulated device's lines and more than the old palette's 8 colours.
    await page.selectOption('#card', ALL_DEVICES);
    await page.click('#tabs button[data-view="ratio"]');
    const scan = await page.$eval('canvas[data-chart="ratio-scan"]', (c) => c.getAttribute('aria-label') ?? '');
    expect(Number(/(\d+) lines/.exec(scan)?.[1])).toBeGreaterThan(8);
    // Clicking a legend entry hides its series, as Chart.js's legend did.
    const entry = page.locator('.chart:has(canvas[data-chart="ratio-scan"]) .legend button').first();
    await entry.click();
    expect(await entry.getAttribute('aria-pressed')).toBe('false');
    // Leave the page as the later tests expect it: the simulated report hidden, the newest committed device shown.
    await page.$$eval('#report-list label', (labels) => {
      const box = labels.find((l) => l.textContent?.includes('simulated-live'))?.querySelector('input');
      if (!box) throw new Error('the simulated report is not listed');
      box.checked = false;
      box.dispatchEvent(new Event('change'));
    });
    await page.click('#tabs button[data-view="throughput"]');
    await page.selectOption('#card', defaultCard(committed));
  });

  test('a live run on SwiftShader verifies every case, can be cancelled, and downloads a report of the schema', async () => {
    await page.click('#tabs button[data-view="live"]');
    const pick = async (primitives: string[], sizes: string[]) => {
      await page.$$eval(
        'input[name=live-primitive], input[name=live-size]',
        (boxes, [p, s]) => {
          for (const b of boxes as HTMLInputElement[]) b.checked = (b.name === 'live-primitive' ? p : s)!.includes(b.value);
          boxes[0]!.dispatchEvent(new Event('change'));
        },
        [primitives, sizes] as const,
      );
    };
    await page.fill('#live-runs', '3');
    // Cancel: three scan algorithms and copy at two sizes; cancelled after the first case.
    await pick(['scan', 'copy'], ['10', '12']);
    await page.click('#live-start');
    await page.waitForFunction(() => window.scanDashboard.live.done >= 1, undefined, { timeout: 120_000 });
    await page.click('#live-cancel');
    await page.waitForFunction(() => window.scanDashboard.live.state !== 'running', undefined, { timeout: 120_000 });
    const cancelled = await page.evaluate(() => window.scanDashboard.live);
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.done).toBeLessThan(cancelled.total);

    // A whole small run: every case verified and timed, the sparse products on the small suite,
    // which the selector starts on for SwiftShader (issue 46).
    await page.waitForFunction(() => window.scanDashboard.adapterProbed);
    expect(await page.$eval('#live-matrices', (s) => (s as HTMLSelectElement).value)).toBe('small');
    await pick(['scan', 'sort', 'spmv', 'copy'], ['12']);
    await page.click('#live-start');
    await page.waitForFunction(() => window.scanDashboard.live.state !== 'running', undefined, { timeout: 170_000 });
    const live = await page.evaluate(() => window.scanDashboard.live);
    expect(live.notOk).toEqual([]);
    expect(live.state).toBe('done');
    expect(live.ok).toBe(live.total);
    expect(live.total).toBeGreaterThanOrEqual(5);
    expect(await page.$eval('#live-progress', (p) => (p as HTMLProgressElement).value)).toBe(live.total);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#live-download')]);
    const report = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(validateReport(report)).toEqual([]);
    expect(report.results).toHaveLength(live.total);
    expect(report.options.matrices).toEqual(['poisson2d-16', 'biased-1K']);
    expect(report.results.filter((r: { case: { primitive: string } }) => r.case.primitive === 'spmv')).toHaveLength(10);
    expect(report.device.adapter.architecture).toMatch(/swiftshader/i);
    expect(await page.textContent('#live-device')).toMatch(/a software adapter: its numbers say nothing about GPUs/);

    // The run joins the shown reports: the devices view now has two devices.
    await page.click('#tabs button[data-view="devices"]');
    const devices = await page.$$eval('#device-a option', (o) => o.map((x) => (x as HTMLOptionElement).value));
    expect(devices.length).toBeGreaterThanOrEqual(2);
    const software = devices.find((d) => /swiftshader/.test(d))!;
    expect(await page.$eval('#device-b', (s) => (s as HTMLSelectElement).value)).toBe(software);
    expect(await page.$('canvas[data-chart="device-scan"]')).not.toBeNull();
    // The pair picked stays picked when the view redraws.
    await page.selectOption('#device-a', software);
    await page.selectOption('#device-b', devices.find((d) => d !== software)!);
    expect(await page.$eval('#device-a', (s) => (s as HTMLSelectElement).value)).toBe(software);
    expect(await page.$('canvas[data-chart="device-scan"]')).not.toBeNull();
    // With the run, on every device: the legends stay off the plots (issue 46).
    await page.click('#tabs button[data-view="ratio"]');
    await page.selectOption('#card', ALL_DEVICES);
    expect(await page.$('canvas[data-chart="ratio-scan"]')).not.toBeNull();
    expect(await legendProblems(page)).toEqual([]);
  });

  test('the frame view lists the frame-loop and first-call rows of a loaded report, with their columns', async () => {
    await page.click('#tabs button[data-view="frames"]');
    await page.selectOption('#card', ALL_DEVICES);
    // The committed reports' frame cases are listed (issue 29's runs before and after the change).
    const committedRows = frameRows(committed, 'frame-loop').length;
    expect(committedRows).toBeGreaterThan(0);
    const rowCount = () => page.$$eval('#frame-loop-table tbody tr', (trs) => trs.length);
    expect(await rowCount()).toBe(committedRows);
    const file = join(outDir, 'frames-report.json');
    writeFileSync(file, JSON.stringify(frameReport()));
    await page.setInputFiles('#file', file);
    await page.waitForFunction((n) => document.querySelectorAll('#frame-loop-table tbody tr').length > n, committedRows);
    const headers = await page.$$eval('#frame-loop-table th', (ths) => ths.map((th) => th.textContent));
    expect(headers).toEqual(FRAME_LOOP_COLUMNS.map((c) => c.header));
    // The loaded report's rows: the report column names the file (without .json) and its commit.
    const rowsOf = async (table: string, columns: readonly { key: string }[]) => {
      const report = columns.findIndex((c) => c.key === 'report');
      const all = await page.$$eval(`${table} tbody tr`, (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent ?? '')));
      return all.filter((cells) => cells[report]!.endsWith(' frames-report'));
    };
    const cells = await rowsOf('#frame-loop-table', FRAME_LOOP_COLUMNS);
    expect(cells).toHaveLength(2);
    const col = (key: string) => FRAME_LOOP_COLUMNS.findIndex((c) => c.key === key);
    expect(cells[0]![col('encodeMs')]).toBe('0.05');
    expect(cells[0]![col('bindGroups')]).toBe('1');
    expect(cells[1]![col('status')]).toBe('skipped');
    const first = await rowsOf('#first-call-table', FIRST_CALL_COLUMNS);
    expect(first.map((r) => r[FIRST_CALL_COLUMNS.findIndex((c) => c.key === 'readyMs')])).toEqual(['n/a', '']);
    // Sorting works as in the table view.
    await page.click('#first-call-table th[data-column="totalMs"]');
    const total = FIRST_CALL_COLUMNS.findIndex((c) => c.key === 'totalMs');
    expect((await rowsOf('#first-call-table', FIRST_CALL_COLUMNS)).map((r) => r[total])).toEqual(['32.2', '42.6']);
  });
});
