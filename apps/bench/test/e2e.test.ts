import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import { type BenchReport, validateReport } from '../src/report.js';

const app = fileURLToPath(new URL('..', import.meta.url));
const cli = join(app, 'dist', 'cli.js');

beforeAll(() => {
  // Test the bundle that ships (the GPU machine runs exactly this file), built from the current sources.
  execFileSync(process.execPath, [join(app, 'node_modules', 'tsup', 'dist', 'cli-default.js')], { cwd: app, stdio: 'pipe' });
});

test('the built CLI runs a copy case on the local adapter (SwiftShader here) and writes a valid report', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'scan-bench-e2e-')), 'report.json');
  const run = spawnSync(
    process.execPath,
    [cli, '--sizes', '4096', '--only', 'copy', '--runs', '10', '--warmup', '1', '--json', '--out', out],
    {
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  const hint = 'needs a WebGPU adapter: a GPU, or SwiftShader from Debian chromium (/usr/lib/chromium/vk_swiftshader_icd.json)';
  expect(run.status, `exit ${run.status}; ${hint}\n${run.stderr}`).toBe(0);
  const printed = JSON.parse(run.stdout) as BenchReport;
  const written = JSON.parse(readFileSync(out, 'utf8')) as BenchReport;
  expect(printed).toEqual(written);
  expect(validateReport(written)).toEqual([]);
  expect(written.device?.adapter.description, hint).toBeTruthy();
  expect(written.results).toHaveLength(1);
  const [copy] = written.results;
  expect(copy).toMatchObject({ status: 'ok', case: { primitive: 'copy', n: 4096 }, ratioCopy: 1 });
  expect(copy!.verification).toMatchObject({ gpuMismatches: 0, gpuMismatchesAfterTiming: 0 });
  expect(copy!.measurement!.samplesMs).toHaveLength(10);
  expect(copy!.measurement!.bytes).toBe(2 * 4 * 4096);
  expect(run.stderr).toMatch(/\[1\/1\] copy u32 n=2\^12: ok/);
});

test('the frame cases run through the CLI: one child each, their tables printed, their records in the report', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'scan-bench-e2e-')), 'frames.json');
  const run = spawnSync(
    process.execPath,
    [cli, '--only', 'frame-loop,first-call', '--types', 'u32', '--sizes', '2^10', '--runs', '10', '--warmup', '2', '--out', out],
    { encoding: 'utf8', timeout: 120_000 },
  );
  expect(run.status, run.stderr).toBe(0);
  const report = JSON.parse(readFileSync(out, 'utf8')) as BenchReport;
  expect(validateReport(report)).toEqual([]);
  // pack, scan and segmented scan (u32), each with a host and a GPU count, then waiting and not.
  expect(report.results.map((r) => r.case.series)).toEqual([
    'frame-loop pack u32 u32 flags host count',
    'frame-loop pack u32 u32 flags gpu count',
    'frame-loop scan u32 add excl host count',
    'frame-loop scan u32 add excl gpu count',
    'frame-loop segmented-scan u32 add excl mean 32 host count',
    'frame-loop segmented-scan u32 add excl mean 32 gpu count',
    'first-call pack u32 u32 flags wait',
    'first-call pack u32 u32 flags no-wait',
    'first-call scan u32 add excl wait',
    'first-call scan u32 add excl no-wait',
    'first-call segmented-scan u32 add excl mean 32 wait',
    'first-call segmented-scan u32 add excl mean 32 no-wait',
  ]);
  for (const r of report.results) {
    // Every plan takes a GPU count now: nothing is skipped.
    expect(r.status, r.message).toBe('ok');
    expect(r.copy).toBeUndefined();
  }
  const loop = report.results[0]!.frameLoop!;
  expect(loop.frames).toBe(10);
  expect(loop.encode.samplesMs).toHaveLength(10);
  expect(report.results[6]!.firstCall!.totalMs).toBeGreaterThan(0);
  expect(run.stdout).toMatch(/^frame-loop: a new count every frame/m);
  expect(run.stdout).toMatch(/^plan +variant +n +counts +frames +encode ms +encode p90 +GPU ms/m);
  expect(run.stdout).toMatch(/^first-call: wall-clock ms/m);
  expect(run.stderr).toMatch(/\[1\/12\] frame-loop pack u32 u32 flags host count n=2\^10: ok encode [\d.]+ ms/);
});

test('the GPU-call trace (trace/register.mjs through NODE_OPTIONS) records the shaders and the timed submits of each child', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scan-bench-trace-'));
  const register = join(app, 'trace', 'register.mjs');
  const run = spawnSync(
    process.execPath,
    [cli, '--sizes', '4096', '--only', 'copy', '--runs', '10', '--warmup', '1', '--out', join(dir, 'r.json')],
    {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, SCAN_TRACE_DIR: dir, NODE_OPTIONS: `--import=${register}` },
    },
  );
  expect(run.status, run.stderr).toBe(0);
  // The child's shader modules, each under its label.
  const labels = readdirSync(join(dir, 'shaders')).map((f) => readFileSync(join(dir, 'shaders', f), 'utf8').split('\n')[0]);
  expect(labels).toContain('// label: bench/copy-vec4|');
  // The copy case's timed submit, once per timed run, with its one dispatch of 2^10 vec4s.
  const summary = spawnSync(process.execPath, [join(app, 'trace', 'summarize.mjs'), dir, '--short'], { encoding: 'utf8' });
  expect(summary.status, summary.stderr).toBe(0);
  expect(summary.stdout).toContain(
    ['process 1: submitted 10 times, 1 dispatches', '  pass (timestamps)', '  pass', '  dispatch bench/copy-vec4 [4,1,1]'].join('\n'),
  );
});

test('bad options exit with code 2 and the help text', () => {
  const run = spawnSync(process.execPath, [cli, '--runs', '3'], { encoding: 'utf8' });
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/--runs 3: must be at least 10[\s\S]*Usage/);
});
