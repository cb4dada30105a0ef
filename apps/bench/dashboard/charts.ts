import {
  Chart,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  ScatterController,
  Tooltip,
  type TooltipItem,
} from 'chart.js';
import { htmlLegend } from './legend.js';
import { seriesStyles } from './palette.js';
import type { ChartPoint, ChartSpec } from './views.js';

// The legend is HTML (legend.ts), so Chart.js's own is not registered; the title is HTML too, above
// the legend, so the canvas holds the plot and its axes only.
Chart.register(LineController, ScatterController, LineElement, PointElement, LinearScale, LogarithmicScale, Tooltip);

/**
 * Draws a chart specification under `parent`: a figure with the title (and the note, when the spec
 * has one), the legend, and the plot, a Chart.js canvas (carrying `data-chart` = the spec's id, and
 * `data-plot` = the plot area's left, top, right, bottom in canvas pixels). x is log2 of the size,
 * labelled as powers of two, or the configuration in a by-case chart. Every series has a colour of
 * its own (palette.ts). Each tooltip lists the point's exact figures.
 *
 * @example
 * ```ts
 * for (const spec of throughputCharts(rows, 'natural')) charts.push(drawChart(section, spec));
 * ```
 */
export function drawChart(parent: HTMLElement, spec: ChartSpec): Chart {
  const canvas = document.createElement('canvas');
  canvas.dataset.chart = spec.id;
  // What a screen reader (and the end-to-end test) can know of a chart drawn in pixels.
  canvas.setAttribute('role', 'img');
  canvas.setAttribute(
    'aria-label',
    `${spec.title}${spec.note ? ` (${spec.note})` : ''}; y: ${spec.yTitle}; ${spec.lines.length} lines${spec.categories ? `; by case: ${spec.categories.join(', ')}` : ''}`,
  );
  const categories = spec.categories;
  const styles = seriesStyles(spec.lines.length);
  const figure = document.createElement('figure');
  figure.className = 'chart';
  const caption = document.createElement('figcaption');
  caption.append(Object.assign(document.createElement('strong'), { textContent: spec.title }));
  if (spec.note) caption.append(Object.assign(document.createElement('span'), { className: 'note', textContent: spec.note }));
  const plot = document.createElement('div');
  plot.className = 'plot';
  plot.append(canvas);
  figure.append(caption, plot);
  parent.append(figure);
  const chart: Chart = new Chart(canvas, {
    type: spec.scatter ? 'scatter' : 'line',
    data: {
      datasets: spec.lines.map((line, i) => ({
        label: line.label,
        data: line.points.map((p) => ({ ...p })),
        borderColor: styles[i]?.color,
        backgroundColor: styles[i]?.color,
        borderDash: line.dashed ? [6, 4] : [],
        showLine: !spec.scatter,
        pointStyle: styles[i]?.marker,
        pointRadius: spec.scatter ? 4 : 3,
        tension: 0,
      })),
    },
    // Where the plot is, in canvas pixels: the end-to-end test counts the lines' pixels there, away
    // from the legend's colour boxes.
    plugins: [
      {
        id: 'plot-area',
        afterLayout: (chart) => {
          const { left, top, right, bottom } = chart.chartArea;
          const ratio = canvas.width / (canvas.clientWidth || canvas.width);
          canvas.dataset.plot = [left, top, right, bottom].map((v) => Math.round(v * ratio)).join(',');
        },
      },
    ],
    options: {
      animation: false,
      maintainAspectRatio: false,
      plugins: {
        tooltip: {
          callbacks: {
            title: (items: TooltipItem<'line' | 'scatter'>[]) => items[0]?.dataset.label ?? '',
            label: (item: TooltipItem<'line' | 'scatter'>) => [...(item.raw as ChartPoint).tip],
          },
        },
      },
      scales: {
        x: categories
          ? {
              // A by-case chart: x is the index of the case, labelled with its name (the size is in the tooltip).
              type: 'linear',
              min: -0.5,
              max: categories.length - 0.5,
              title: { display: true, text: spec.xTitle ?? 'configuration' },
              // A tick on every case, none between (min and max leave half a step either side).
              afterBuildTicks: (axis) => {
                axis.ticks = categories.map((_, value) => ({ value }));
              },
              ticks: { autoSkip: false, callback: (v) => categories[Number(v)] ?? '' },
            }
          : {
              type: 'linear',
              title: { display: true, text: spec.scatter ? 'nonzeros (log2)' : 'n (elements, log2)' },
              ticks: { stepSize: 2, callback: (v) => `2^${v}` },
            },
        y: { type: spec.yLog ? 'logarithmic' : 'linear', title: { display: true, text: spec.yTitle }, beginAtZero: !spec.yLog },
      },
    },
  });
  figure.insertBefore(htmlLegend(chart, styles, spec.lines), plot);
  return chart;
}
