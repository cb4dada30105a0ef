import { expect, test } from 'vitest';
import { formatGrid, formatNumber, formatTable } from '../src/table.js';
import { sampleReport } from './fixtures.js';

test('numbers keep about three significant digits without exponents', () => {
  expect(formatNumber(2970.4)).toBe('2970');
  expect(formatNumber(42.25)).toBe('42.3');
  expect(formatNumber(1.234)).toBe('1.23');
  expect(formatNumber(0.012345)).toBe('0.0123');
  expect(formatNumber(0)).toBe('0');
  expect(formatNumber(undefined)).toBe('-');
  expect(formatNumber(Number.NaN)).toBe('-');
});

test('grid pads columns, numbers to the right', () => {
  expect(
    formatGrid(
      ['name', 'n'],
      [
        ['a', '1'],
        ['bbb', '100'],
      ],
      new Set(['n']),
    ),
  ).toBe(['name    n', '----  ---', 'a       1', 'bbb   100'].join('\n'));
});

test('the table shows device, date, commit, every row, and the non-ok statuses in capitals', () => {
  const text = formatTable(sampleReport());
  const lines = text.split('\n');
  expect(lines[0]).toBe('device: NVIDIA H100 80GB HBM3 / nvidia / hopper (subgroups 32–32)');
  expect(lines[1]).toBe('date:   2026-11-22T08:00:00.000Z');
  expect(lines[2]).toBe('commit: abcdef0123456789');
  const header = lines.find((l) => l.startsWith('primitive'))!;
  for (const column of ['algorithm', 'variant', 'n', 'ms', 'GB/s', 'Gelem/s', '×copy', 'status']) expect(header).toContain(column);
  const scan = lines.find((l) => l.startsWith('scan'))!;
  expect(scan).toMatch(/blelloch\s+u32 add excl fwd\s+2\^20\s+0\.0200\s+0\.0180\s+419\s+52\.4\s+0\.500\s+-\s+ok$/);
  expect(lines.find((l) => l.startsWith('split'))).toMatch(/FAILED: GPU check: 3 mismatches \(first at index 17\)$/);
  expect(lines.find((l) => l.startsWith('pack'))).toMatch(/CRASHED: no result: the process was ended by SIGSEGV$/);
  expect(lines.at(-1)).toBe('4 cases: 2 ok, 1 failed, 1 crashed');
  // Every row has the header's width for the aligned columns: the status column starts at the same place.
  const statusAt = header.indexOf('status');
  for (const l of lines.filter((l) => /^(scan|copy|split|pack) /.test(l))) expect(l.slice(statusAt - 2, statusAt)).toBe('  ');
});
