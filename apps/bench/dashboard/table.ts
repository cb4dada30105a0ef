import type { Row } from './model.js';
import { COLUMNS, sortRows } from './table-model.js';

/**
 * Renders every row as a table under `parent`; clicking a header sorts by that column, a second
 * click reverses the order. Failed and skipped cases are listed too, with their status and note.
 *
 * @example
 * ```ts
 * drawTable(document.getElementById('table')!, currentRows(reports));
 * ```
 */
export function drawTable(parent: HTMLElement, rows: readonly Row[]): void {
  let key = 'primitive';
  let direction: 'ascending' | 'descending' = 'ascending';
  const table = document.createElement('table');
  table.dataset.rows = String(rows.length);
  const head = table.createTHead().insertRow();
  const body = table.createTBody();
  for (const column of COLUMNS) {
    const th = document.createElement('th');
    th.textContent = column.header;
    th.dataset.column = column.key;
    th.className = column.numeric ? 'num' : '';
    th.addEventListener('click', () => {
      direction = key === column.key && direction === 'ascending' ? 'descending' : 'ascending';
      key = column.key;
      fill();
    });
    head.append(th);
  }
  const fill = () => {
    for (const th of head.cells) th.setAttribute('aria-sort', th.dataset.column === key ? direction : 'none');
    body.replaceChildren();
    for (const row of sortRows(rows, key, direction)) {
      const tr = body.insertRow();
      tr.className = row.result.status === 'ok' ? '' : 'bad';
      for (const column of COLUMNS) {
        const td = tr.insertCell();
        td.textContent = column.text(row);
        if (column.numeric) td.className = 'num';
      }
    }
  };
  fill();
  parent.replaceChildren(table);
}
