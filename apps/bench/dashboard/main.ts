import type { Chart } from 'chart.js';
import { type BenchReport, validateReport } from '../src/report.js';
import { drawChart } from './charts.js';
import { problemRows, seriesByPrimitive } from './series.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
let charts: Chart[] = [];

function text(tag: string, content: string, className?: string): HTMLElement {
  const el = document.createElement(tag);
  el.textContent = content;
  if (className) el.className = className;
  return el;
}

function showError(message: string): void {
  $('status').textContent = message;
  $('status').className = 'error';
}

/** Parses, validates and draws a report; a wrong file shows what is wrong with it. */
function render(json: string, source: string): void {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (e) {
    showError(`${source}: not JSON (${(e as Error).message})`);
    return;
  }
  const problems = validateReport(data);
  if (problems.length) {
    showError(`${source}: not a bench report:\n${problems.slice(0, 8).join('\n')}`);
    return;
  }
  const report = data as BenchReport;
  for (const c of charts) c.destroy();
  charts = [];
  const d = report.device;
  $('status').className = '';
  $('status').textContent = [
    `${source}`,
    `device: ${d ? [d.adapter.device, d.adapter.description, d.adapter.vendor, d.adapter.architecture].filter(Boolean).join(' / ') : 'unknown'}`,
    `date: ${report.date}   commit: ${report.commit ?? 'unknown'}${report.dirty ? ' (dirty)' : ''}`,
    `median of ${report.options.runs} runs; ${report.results.filter((r) => r.status === 'ok').length}/${report.results.length} cases ok`,
  ].join('\n');

  const root = $('charts');
  root.replaceChildren();
  const gbps = seriesByPrimitive(report, 'gbps');
  const ratio = seriesByPrimitive(report, 'ratioCopy');
  for (const [primitive, series] of gbps) {
    const section = document.createElement('section');
    section.append(text('h2', primitive));
    const row = document.createElement('div');
    row.className = 'row';
    section.append(row);
    root.append(section);
    charts.push(drawChart(row, `${primitive}: GB/s`, 'gbps', series));
    charts.push(drawChart(row, `${primitive}: × copy`, 'ratioCopy', ratio.get(primitive) ?? []));
  }

  const failed = problemRows(report);
  const list = $('problems');
  list.replaceChildren();
  if (failed.length) list.append(text('h2', `Not timed (${failed.length})`));
  for (const r of failed) list.append(text('p', `${r.case.id}: ${r.status.toUpperCase()} ${r.message ?? ''}`, 'problem'));
}

async function load(url: string): Promise<void> {
  try {
    const response = await fetch(url);
    if (!response.ok) return showError(`${url}: HTTP ${response.status}`);
    render(await response.text(), url);
  } catch (e) {
    showError(`${url}: ${(e as Error).message}`);
  }
}

/** Lists the reports in bench-results/ (served by the dashboard's dev server) as links. */
async function listReports(): Promise<void> {
  try {
    const response = await fetch('/reports.json');
    if (!response.ok) return;
    const names = (await response.json()) as string[];
    const list = $('reports');
    for (const name of names) {
      const a = document.createElement('a');
      a.href = `?report=${encodeURIComponent(`/${name}`)}`;
      a.textContent = name;
      list.append(a, document.createElement('br'));
    }
  } catch {
    // Opened without the dev server: the file picker still works.
  }
}

$<HTMLInputElement>('file').addEventListener('change', async (event) => {
  const file = (event.target as HTMLInputElement).files?.[0];
  if (file) render(await file.text(), file.name);
});

const requested = new URLSearchParams(location.search).get('report');
if (requested) void load(requested);
void listReports();
