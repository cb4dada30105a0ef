import type { Chart } from 'chart.js';
import type { SeriesStyle } from './palette.js';

// A chart's legend as HTML above its canvas, not drawn by Chart.js inside it: Chart.js gives its
// legend at most half the canvas and draws the rows past that over the plot (after a live run
// added a device, the last rows covered the scan × copy chart). In the page's flow the legend takes
// the rows it needs and the plot keeps its own height below it.

const SVG = 'http://www.w3.org/2000/svg';

/** A small picture of a series: its line (dashed or solid) and its marker, in its colour. */
function swatch(style: SeriesStyle, dashed: boolean): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 28 12');
  svg.setAttribute('width', '28');
  svg.setAttribute('height', '12');
  svg.setAttribute('aria-hidden', 'true');
  const line = document.createElementNS(SVG, 'line');
  for (const [k, v] of Object.entries({ x1: '0', y1: '6', x2: '28', y2: '6', stroke: style.color, 'stroke-width': '2' }))
    line.setAttribute(k, v);
  if (dashed) line.setAttribute('stroke-dasharray', '5 3');
  svg.append(line, marker(style));
  return svg;
}

/** The marker's shape, centred at (14, 6). */
function marker(style: SeriesStyle): SVGElement {
  const shape = (tag: string, attributes: Record<string, string>) => {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries({ fill: style.color, stroke: style.color, ...attributes })) el.setAttribute(k, v);
    return el;
  };
  switch (style.marker) {
    case 'rect':
      return shape('rect', { x: '10.5', y: '2.5', width: '7', height: '7' });
    case 'triangle':
      return shape('polygon', { points: '14,1.5 18.5,10 9.5,10' });
    case 'rectRot':
      return shape('polygon', { points: '14,1 19,6 14,11 9,6' });
    case 'star':
    case 'crossRot':
      return shape('path', { d: 'M10.5 2.5 L17.5 9.5 M17.5 2.5 L10.5 9.5', fill: 'none', 'stroke-width': '2' });
    default:
      return shape('circle', { cx: '14', cy: '6', r: '3.5' });
  }
}

/**
 * The legend of `chart` as a list of buttons, a series each (its swatch and label); a click hides or
 * shows the series, as Chart.js's own legend does.
 *
 * @example
 * ```ts
 * figure.insertBefore(htmlLegend(chart, styles, spec.lines), plot);
 * ```
 */
export function htmlLegend(
  chart: Pick<Chart, 'isDatasetVisible' | 'setDatasetVisibility' | 'update'>,
  styles: readonly SeriesStyle[],
  lines: readonly { readonly label: string; readonly dashed?: boolean }[],
): HTMLUListElement {
  const list = document.createElement('ul');
  list.className = 'legend';
  for (const [i, line] of lines.entries()) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'series';
    button.setAttribute('aria-pressed', 'true');
    button.title = 'Hide or show this series';
    const style = styles[i];
    if (style) button.append(swatch(style, line.dashed === true));
    button.append(line.label);
    button.addEventListener('click', () => {
      const visible = !chart.isDatasetVisible(i);
      chart.setDatasetVisibility(i, visible);
      button.setAttribute('aria-pressed', String(visible));
      chart.update();
    });
    item.append(button);
    list.append(item);
  }
  return list;
}
