import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { checkSorted, keyChecksum, randomKeys, sortBytes } from '../baselines/gridwise/check.js';
import { toLoadedReport } from '../dashboard/model.js';
import { bytesMoved } from '../src/metrics.js';
import { type BenchReport, validateReport } from '../src/report.js';

// The gridwise baseline (baselines/gridwise): its check and bytes model here; the build's refusal
// without GRIDWISE_SRC; and, where the bundle was built (GRIDWISE_SRC set: not in CI), a run of it on
// the local adapter, where gridwise sorts wrongly (subgroups of 4 lanes on SwiftShader) and every row
// must be recorded as failed, never timed. About 2 s, 15 s with the built runner.

const app = fileURLToPath(new URL('..', import.meta.url));
const tsup = join(app, 'node_modules', 'tsup', 'dist', 'cli-default.js');
const bundle = join(app, 'dist-gridwise', 'gridwise.js');

describe('gridwise check and bytes', () => {
  test('u32: sorted keys pass; a descent or a lost key fails with a count', () => {
    const input = randomKeys('u32', 1000, 3);
    const sorted = new Uint32Array(input).sort();
    expect(checkSorted(input, sorted, 'u32')).toEqual({ ok: true, detail: '1000 u32 keys ascending, checksum equal', mismatches: 0 });
    const swapped = new Uint32Array(sorted);
    [swapped[10], swapped[11]] = [swapped[11]!, swapped[10]!];
    expect(checkSorted(input, swapped, 'u32')).toMatchObject({ ok: false, mismatches: 1 });
    const lost = new Uint32Array(sorted);
    lost[500] = lost[499]!; // still ascending, one key duplicated and one lost
    expect(checkSorted(input, lost, 'u32')).toMatchObject({
      ok: false,
      mismatches: 1,
      detail: expect.stringMatching(/0 descents, checksum differs/),
    });
    expect(checkSorted(input, input, 'u32').ok).toBe(false);
  });

  test('u64: keys compare as 64-bit numbers (high word second), low word first in memory', () => {
    const input = randomKeys('u64', 500, 4);
    const keys = new BigUint64Array(input.buffer.slice(0)).sort();
    const sorted = new Uint32Array(keys.buffer);
    expect(checkSorted(input, sorted, 'u64').ok).toBe(true);
    // Sorting by the low words only (u32 order of the pairs) is not a u64 sort.
    const byLow = new BigUint64Array(input.buffer.slice(0)).sort((a, b) => Number((a & 0xffffffffn) - (b & 0xffffffffn)));
    expect(checkSorted(input, new Uint32Array(byLow.buffer), 'u64')).toMatchObject({ ok: false });
    expect(keyChecksum(sorted, 2)).toEqual(keyChecksum(input, 2));
  });

  test("the bench's one-sweep bytes at the key's width: 36·n for u32 (the bench's sort), 136·n for u64", () => {
    expect(sortBytes('u32', 1024)).toBe(bytesMoved('sort', 1024));
    expect(sortBytes('u64', 1024)).toBe(136 * 1024);
  });
});

test('build:gridwise without GRIDWISE_SRC stops and says what to set', () => {
  const env = { ...process.env };
  delete env['GRIDWISE_SRC'];
  const run = spawnSync(process.execPath, [tsup, '--config', 'baselines/gridwise/tsup.config.ts'], {
    cwd: app,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.status).not.toBe(0);
  expect(`${run.stdout}${run.stderr}`).toMatch(/GRIDWISE_SRC is not set/);
  const missing = spawnSync(process.execPath, [tsup, '--config', 'baselines/gridwise/tsup.config.ts'], {
    cwd: app,
    env: { ...env, GRIDWISE_SRC: join(tmpdir(), 'no-such-gridwise') },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(`${missing.stdout}${missing.stderr}`).toMatch(/has no onesweep\.mjs: not a checkout of gridwise/);
});

test.skipIf(!existsSync(bundle))('the built runner on the local adapter records every case with its check, and the report loads', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'scan-gridwise-')), 'gridwise.json');
  const run = spawnSync(process.execPath, [bundle, '--sizes', '10', '--runs', '3', '--warmup', '1', '--commit', 'abc1234', '--out', out], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  const report = JSON.parse(readFileSync(out, 'utf8')) as BenchReport;
  expect(validateReport(report)).toEqual([]);
  expect(report.baseline).toBe('webgpu');
  expect(report.results.map((r) => [r.case.primitive, r.case['type'], r.case['call']])).toEqual([
    ['sort', 'u32', 'OneSweepSort'],
    ['sort', 'u64', 'OneSweepSort'],
  ]);
  for (const r of report.results) {
    if (r.status === 'ok') expect(r.verification).toMatchObject({ cpuCompared: true, cpuMismatches: 0 });
    else expect(r).toMatchObject({ status: 'failed', verification: { cpuCompared: true, cpuMismatches: expect.any(Number) } });
    expect(r.measurement !== undefined).toBe(r.status === 'ok');
  }
  expect(run.status).toBe(report.results.every((r) => r.status === 'ok') ? 0 : 1);
  expect('problems' in toLoadedReport('gridwise.json', 'committed', report)).toBe(false);
});
