import type { Row } from './model.js';
import { COLUMNS, type Column, sortRows } from './table-model.js';

/**
 * Renders every row as a table under `parent` with `columns` (default the table view's, for report
 * rows; rows that carry more, like the library pairs, bring columns of their own); clicking
 * a header sorts by that column, a second click reverses the order. Failed and skipped cases are
 * listed too, with their status and note. Until a header is clicked the rows keep their order.
 *
 * @example
 * ```ts
 * drawTable(document.getElementById('table')!, currentRows(reports));
 * drawTable(box, frameLoopRows(reports), FRAME_LOOP_COLUMNS);
 * ```
 */
export function drawTable<R extends Row = Row>(
  parent: HTMLElement,
  rows: readonly R[],
  columns: readonly Column<R>[] = COLUMNS as readonly Column<R>[],
): void {
  // The case table (its columns, the device's perhaps left out) opens sorted by primitive.
  let key = columns.every((c) => (COLUMNS as readonly Column<R>[]).includes(c)) ? 'primitive' : '';
  let direction: 'ascending' | 'descending' = 'ascending';
  const table = document.createElement('table');
  table.dataset.rows = String(rows.length);
  const head = table.createTHead().insertRow();
  const body = table.createTBody();
  for (const column of columns) {
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
    for (const row of key ? sortRows(rows, key, direction, columns) : rows) {
      const tr = body.insertRow();
      tr.className = row.result.status === 'ok' ? '' : 'bad';
      for (const column of columns) {
        const td = tr.insertCell();
        td.textContent = column.text(row);
        if (column.numeric) td.className = 'num';
        if (column.name) td.className = 'name';
        if (column.title) td.title = column.title(row);
      }
    }
  };
  fill();
  parent.replaceChildren(table);
}
