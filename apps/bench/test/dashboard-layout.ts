import type { Page } from 'playwright';

// Layout checks of the dashboard's end-to-end test, measured in the page (issue 46).

/**
 * For every chart of the view, what is wrong with its legend: missing, a series short, two series
 * of the same look (colour and marker), or a box that overlaps the plot area (`data-plot`, canvas
 * pixels, scaled to CSS pixels). Empty when every legend is readable.
 */
export function legendProblems(page: Page): Promise<string[]> {
  return page.$$eval('#view .chart', (charts) =>
    charts.flatMap((chart) => {
      const canvas = chart.querySelector<HTMLCanvasElement>('canvas[data-chart]');
      const id = canvas?.dataset.chart ?? '?';
      const legend = chart.querySelector('.legend');
      if (!canvas || !legend) return [`${id}: no legend element`];
      const problems: string[] = [];
      const lines = Number(/(\d+) lines/.exec(canvas.getAttribute('aria-label') ?? '')?.[1]);
      const looks = [...legend.querySelectorAll('li svg')].map((svg) =>
        [...svg.children].map((c) => `${c.tagName}:${c.getAttribute('stroke')}`).join(' '),
      );
      if (looks.length !== lines) problems.push(`${id}: ${looks.length} legend entries for ${lines} lines`);
      if (new Set(looks).size !== looks.length) problems.push(`${id}: two series look alike`);
      const box = canvas.getBoundingClientRect();
      const scale = box.width / canvas.width;
      const [left, top, right, bottom] = (canvas.dataset.plot ?? '').split(',').map((v) => Number(v) * scale) as [
        number,
        number,
        number,
        number,
      ];
      const plot = { left: box.left + left, top: box.top + top, right: box.left + right, bottom: box.top + bottom };
      const g = legend.getBoundingClientRect();
      if (g.left < plot.right && g.right > plot.left && g.top < plot.bottom && g.bottom > plot.top)
        problems.push(
          `${id}: the legend (${Math.round(g.top)}–${Math.round(g.bottom)}) overlaps the plot (${Math.round(plot.top)}–${Math.round(plot.bottom)})`,
        );
      return problems;
    }),
  );
}

/**
 * The cells of a table's column (by its header's `data-column`) that take more than one line, as
 * `text (n lines)`, with the column's cell count.
 */
export function multiLineCells(page: Page, table: string, column: string): Promise<{ cells: number; wrapped: string[] }> {
  return page.$eval(
    table,
    (t, key) => {
      const at = [...t.querySelectorAll('thead th')].findIndex((th) => (th as HTMLElement).dataset.column === key);
      const cells = [...t.querySelectorAll('tbody tr')].map((tr) => tr.children[at] as HTMLElement);
      const wrapped = cells.flatMap((td) => {
        const range = document.createRange();
        range.selectNodeContents(td);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        return lines > 1 ? [`${td.textContent} (${lines} lines)`] : [];
      });
      return { cells: cells.length, wrapped };
    },
    column,
  );
}
