import { expect, test } from 'vitest';
import { enumerateCases } from '../src/cases.js';
import { formatGrid, formatNumber, formatTable, rowCells } from '../src/table.js';
import { frameReport, measurement, sampleReport } from './fixtures.js';

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
  for (const column of ['algorithm', 'variant', 'n', 'ms', 'GB/s', 'Gelem/s', '×copy', '×scan', 'status']) expect(header).toContain(column);
  const scan = lines.find((l) => l.startsWith('scan'))!;
  expect(scan).toMatch(/blelloch\s+u32 add excl fwd\s+2\^20\s+0\.0200\s+0\.0180\s+419\s+52\.4\s+0\.500\s+-\s+-\s+ok$/);
  expect(lines.find((l) => l.startsWith('split'))).toMatch(/FAILED: GPU check: 3 mismatches \(first at index 17\)$/);
  expect(lines.find((l) => l.startsWith('pack'))).toMatch(/CRASHED: no result: the process was ended by SIGSEGV$/);
  expect(lines.at(-1)).toBe('4 cases: 2 ok, 1 failed, 1 crashed');
  // Every row has the header's width for the aligned columns: the status column starts at the same place.
  const statusAt = header.indexOf('status');
  for (const l of lines.filter((l) => /^(scan|copy|split|pack) /.test(l))) expect(l.slice(statusAt - 2, statusAt)).toBe('  ');
});

test('a segmented-scan row shows its mean and its time ratio to the unsegmented scan', () => {
  const c = enumerateCases({ sizes: [1 << 20], only: ['segmented-scan'], runs: 10, warmup: 3, seed: 1, density: 0.5 })[0]!;
  const n = 1 << 20;
  const m = measurement(0.023, 8 * n + n / 8, n);
  const cells = rowCells({ case: c, status: 'ok', measurement: m, copy: m, ratioCopy: 0.8, ratioScanTime: 1.234, scan: m });
  expect(cells.slice(0, 4)).toEqual(['segmented-scan', 'single-pass', 'u32 add excl fwd mean 16', '2^20']);
  expect(cells.slice(-4)).toEqual(['0.800', '-', '1.23', 'ok']);
});

test('frame cases get tables of their own: JavaScript and GPU medians, creations per frame, first-call steps', () => {
  const text = formatTable(frameReport());
  const lines = text.split('\n');
  expect(lines[3]).toBe('timing: per frame and per first call (see the tables below)');
  // No throughput table when the run has only frame cases.
  expect(lines.some((l) => l.startsWith('primitive'))).toBe(false);
  expect(text).toContain(
    'frame-loop: a new count every frame; medians and 90th percentiles per frame; objects created per frame (/f), 300 frames after 30 warm-up, 3 in flight',
  );
  const loopHeader = lines.find((l) => l.startsWith('plan') && l.includes('encode p90'))!;
  for (const column of [
    'counts',
    'frames',
    'encode ms',
    'GPU ms',
    'GPU p90',
    'buffers/f',
    'bind groups/f',
    'pipelines/f',
    'allocations',
    'memory',
  ]) {
    expect(loopHeader).toContain(column);
  }
  expect(lines.find((l) => /^sort +f32 u32 values desc host count/.test(l))).toMatch(
    /2\^18\s+131075–262143\s+300\s+0\.0500\s+0\.0500\s+0\.200\s+0\.200\s+0\s+1\.00\s+0\s+2→3\s+8\.00 KiB→12\.0 KiB\s+ok$/,
  );
  expect(lines.find((l) => /^sort +f32 u32 values desc gpu count/.test(l))).toMatch(
    /2\^18\s+SKIPPED: GPU count not supported by this plan/,
  );
  const firstHeader = lines.find((l) => l.startsWith('plan') && l.includes('create ms'))!;
  for (const column of ['ready ms', 'encode ms', 'frame ms', 'total ms', 'pipelines']) expect(firstHeader).toContain(column);
  expect(lines.find((l) => /^scan +u32 add excl wait/.test(l))).toMatch(/2\^18\s+0\.500\s+n\/a\s+40\.0\s+2\.00\s+42\.6\s+3\s+ok$/);
  expect(lines.find((l) => /^scan +u32 add excl no-wait/.test(l))).toMatch(/2\^18\s+0\.600\s+1\.50\s+30\.0\s+32\.2\s+1\+3 async\s+ok$/);
  expect(lines.at(-1)).toBe('4 cases: 3 ok, 1 skipped');
});
