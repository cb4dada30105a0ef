import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import { libraryPairs } from '../dashboard/library-views.js';
import { baselineRows, currentRows, toLoadedReport } from '../dashboard/model.js';
import { type BenchReport, validateReport } from '../src/report.js';

// The luma.gl baseline as it ships (apps/bench/dist-luma/luma.js, the file the GPU machine runs),
// built from the current sources and run on the local adapter (SwiftShader here) at 2^10 for scan,
// reduce, the key–value sort and the histogram (both bin counts); its report loads in the dashboard's model. About 5 s.

const app = fileURLToPath(new URL('..', import.meta.url));
const cli = join(app, 'dist-luma', 'luma.js');

beforeAll(() => {
  execFileSync(
    process.execPath,
    [join(app, 'node_modules', 'tsup', 'dist', 'cli-default.js'), '--config', 'baselines/luma/tsup.config.ts'],
    {
      cwd: app,
      stdio: 'pipe',
    },
  );
});

test('the built runner measures scan, reduce, sort and histogram at 2^10, writes a bench report, and the dashboard loads it as a WebGPU library', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'scan-luma-')), 'luma.json');
  const run = spawnSync(
    process.execPath,
    [cli, '--sizes', '10', '--only', 'scan,reduce,sort,histogram', '--runs', '3', '--warmup', '1', '--commit', 'abc1234', '--out', out],
    { encoding: 'utf8', timeout: 120_000 },
  );
  expect(run.status, `exit ${run.status}\n${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.stdout).toMatch(/sort-pairs 2\^10: ok/);
  expect(run.stdout).toMatch(/histogram-65536 2\^10: ok/);
  const report = JSON.parse(readFileSync(out, 'utf8')) as BenchReport;
  expect(validateReport(report)).toEqual([]);
  expect(report).toMatchObject({
    schema: 'scan-bench/1',
    baseline: 'webgpu',
    commit: 'abc1234',
    options: { sizes: [1024], runs: 3, warmup: 1 },
  });
  expect(report.results.map((r) => [r.case.primitive, r.case.n, r.status, r.case['baseline'], r.measurement?.samplesMs.length])).toEqual([
    ['scan', 1024, 'ok', 'luma.gl 9.4.2', 3],
    ['reduce', 1024, 'ok', 'luma.gl 9.4.2', 3],
    ['sort-pairs', 1024, 'ok', 'luma.gl 9.4.2', 3],
    ['histogram', 1024, 'ok', 'luma.gl 9.4.2', 3],
    ['histogram', 1024, 'ok', 'luma.gl 9.4.2', 3],
  ]);
  expect(report.results.slice(3).map((r) => r.case['bins'])).toEqual([256, 65536]);
  const loaded = toLoadedReport('luma.json', 'file', report);
  if ('problems' in loaded) throw new Error(loaded.problems.join('\n'));
  expect(loaded).toMatchObject({ isBaseline: true, baseline: 'webgpu' });
  // Its rows are the library's, never ours; with no report of ours they pair with nothing.
  expect(currentRows([loaded])).toEqual([]);
  const pairs = libraryPairs([], baselineRows([loaded]), 'webgpu');
  expect(pairs.map((p) => [p.result.case.primitive, p.ours, p.ratio])).toEqual([
    ['scan', undefined, undefined],
    ['reduce', undefined, undefined],
    ['sort-pairs', undefined, undefined],
    ['histogram', undefined, undefined],
    ['histogram', undefined, undefined],
  ]);
});

test('bad arguments exit 2 with the usage', () => {
  const run = spawnSync(process.execPath, [cli, '--sizes', '29'], { encoding: 'utf8', timeout: 60_000 });
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/outside 2\^1…2\^28[\s\S]*--convert FILE/);
});
