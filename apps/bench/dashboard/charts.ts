import {
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  Title,
  Tooltip,
} from 'chart.js';
import type { ChartSeries, Metric } from './series.js';

Chart.register(LineController, LineElement, PointElement, LinearScale, LogarithmicScale, CategoryScale, Legend, Title, Tooltip);

/** Distinct, colour-blind-friendly line colours (Okabe–Ito). */
const COLORS = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#000000'];

const AXIS_TITLE: Record<Metric, string> = { gbps: 'GB/s', ratioCopy: '× copy (GB/s ÷ copy GB/s)' };

/**
 * Draws one chart of `metric` against size into a new canvas under `parent`. GB/s is drawn on a
 * log scale (it spans orders of magnitude across sizes); × copy on a linear one.
 *
 * @example
 * ```ts
 * drawChart(section, 'scan — GB/s', 'gbps', seriesByPrimitive(report, 'gbps').get('scan')!);
 * ```
 */
export function drawChart(parent: HTMLElement, title: string, metric: Metric, series: readonly ChartSeries[]): Chart {
  const canvas = document.createElement('canvas');
  const box = document.createElement('div');
  box.className = 'chart';
  box.append(canvas);
  parent.append(box);
  return new Chart(canvas, {
    type: 'line',
    data: {
      datasets: series.map((s, i) => ({
        label: s.label,
        data: s.points.map((p) => ({ x: p.x, y: p.y })),
        borderColor: COLORS[i % COLORS.length],
        backgroundColor: COLORS[i % COLORS.length],
        tension: 0,
      })),
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      plugins: {
        title: { display: true, text: title },
        tooltip: { callbacks: { title: (items) => `n = 2^${items[0]?.parsed.x ?? '?'}` } },
      },
      scales: {
        x: { type: 'linear', title: { display: true, text: 'n (elements)' }, ticks: { stepSize: 2, callback: (v) => `2^${v}` } },
        y: {
          type: metric === 'gbps' ? 'logarithmic' : 'linear',
          title: { display: true, text: AXIS_TITLE[metric] },
          beginAtZero: metric !== 'gbps',
        },
      },
    },
  });
}
