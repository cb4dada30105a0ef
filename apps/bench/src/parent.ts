import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { probeAdapter } from './adapter-probe.js';
import { enumerateCases } from './cases.js';
import { defaultReportPath, gitInfo, repoRoot } from './env.js';
import type { BenchOptions } from './options.js';
import { type BenchReport, type CaseResult, type DeviceInfo, REPORT_SCHEMA, type ReportOptions } from './report.js';
import { runCaseInChild } from './run-case.js';
import { formatSize } from './sizes.js';
import { adapterText, isSoftwareAdapter, softwareOptions } from './software-adapter.js';
import { formatNumber, formatTable } from './table.js';

/** Where a run's report went and what it holds. */
export interface RunOutcome {
  readonly report: BenchReport;
  readonly path: string;
}

function reportOptions(o: BenchOptions, dawnToggles: string | undefined): ReportOptions {
  return {
    sizes: o.sizes,
    runs: o.runs,
    warmup: o.warmup,
    seed: o.seed,
    density: o.density,
    segmentMeans: o.segmentMeans,
    timeoutS: o.timeoutS,
    ...(o.only ? { only: o.only } : {}),
    ...(o.types ? { types: o.types } : {}),
    ...(o.algorithms ? { algorithms: o.algorithms } : {}),
    ...(dawnToggles ? { dawnToggles } : {}),
    ...(o.tuning ? { tuning: o.tuning } : {}),
    ...(o.nodeSizes ? { nodeSizes: o.nodeSizes } : {}),
    ...(o.regionLeaves ? { regionLeaves: true } : {}),
    ...(o.matrices ? { matrices: o.matrices.map((m) => m.path ?? m.name) } : {}),
  };
}

/** What a run on a software adapter changed, for stderr before the first case. */
function softwareLine(device: DeviceInfo, requested: BenchOptions, options: BenchOptions): string {
  const changed = [
    options.sizes !== requested.sizes ? `sizes ${options.sizes.map(formatSize).join(',')}` : '',
    options.runs !== requested.runs || options.warmup !== requested.warmup ? `${options.runs} runs after ${options.warmup} warm-up` : '',
    options.matrices !== requested.matrices ? `SpMV matrices ${(options.matrices ?? []).map((m) => m.name).join(',')}` : '',
  ].filter(Boolean);
  return `software adapter (${adapterText(device)}): ${changed.length ? `${changed.join('; ')} where the command line gave none` : 'the settings given'}; its numbers say nothing about GPUs`;
}

/** The progress line's figures of a frame case: encode and GPU medians and creations per frame, or the first call's total. */
function frameText(r: CaseResult): string {
  const f = r.frameLoop;
  if (f) {
    const per = f.createdPerFrame;
    return ` encode ${formatNumber(f.encode.medianMs)} ms (p90 ${formatNumber(f.encode.p90Ms)}) GPU ${formatNumber(f.gpu?.medianMs)} ms; per frame ${formatNumber(per.buffers)} buffers, ${formatNumber(per.bindGroups)} bind groups, ${formatNumber(per.pipelines + per.asyncPipelines)} pipelines`;
  }
  const c = r.firstCall;
  if (c) {
    const ready = !c.hasReady ? 'n/a' : c.readyMs !== undefined ? `${formatNumber(c.readyMs)} ms` : '-';
    return ` create ${formatNumber(c.createMs)} ms, ready ${ready}, encode ${formatNumber(c.encodeMs)} ms, frame ${formatNumber(c.frameMs)} ms, total ${formatNumber(c.totalMs)} ms`;
  }
  return '';
}

function progressLine(i: number, total: number, r: CaseResult): string {
  const m = r.measurement;
  const vsScan = r.ratioScanTime !== undefined ? ` ×scan ${formatNumber(r.ratioScanTime)}` : '';
  const spmv = r.matrix
    ? ` ${formatNumber(r.gflops)} GFLOPS (${r.matrix.algorithm}${r.ratioSpmvTime !== undefined ? `, ×spmv ${formatNumber(r.ratioSpmvTime)}` : ''})`
    : '';
  const timing = m
    ? ` ${formatNumber(m.medianMs)} ms ${formatNumber(m.gbps)} GB/s ×copy ${formatNumber(r.ratioCopy)}${vsScan}${spmv}`
    : frameText(r);
  const why = r.status === 'ok' ? '' : ` ${(r.message ?? '').split('\n')[0]}`;
  return `[${i + 1}/${total}] ${r.case.series} n=${formatSize(r.case.n)}: ${r.status}${timing}${why}`;
}

/**
 * Runs every selected case, each in its own child process of `script` (this CLI's bundle), one at
 * a time so cases never share the GPU; writes the JSON report and prints the table (or the JSON).
 * The parent never creates a GPU device: a Dawn crash can only take one child with it. When the
 * command line left sizes, runs, warm-up or matrices out, a first child reads the adapter, and a
 * software one (SwiftShader) gets the small defaults of software-adapter.ts instead.
 *
 * @example
 * ```ts
 * await runBench(options, fileURLToPath(import.meta.url));
 * ```
 */
export async function runBench(requested: BenchOptions, script: string): Promise<RunOutcome> {
  const started = new Date();
  const root = repoRoot(process.cwd());
  const git = requested.commit ? { commit: requested.commit, dirty: undefined } : gitInfo(root);
  // Children inherit the environment: SCAN_DAWN_TOGGLES, VK_ICD_FILENAMES, SCAN_VK_ICD.
  const env = process.env;
  // The adapter matters before the run only where a default it decides changes the cases (explicit
  // settings always win; `--only copy` has no matrices to shrink): only then a child reads it.
  const gpuCases = enumerateCases(requested);
  const softwareCases = enumerateCases(softwareOptions(requested));
  let device: DeviceInfo | null =
    JSON.stringify(softwareCases) !== JSON.stringify(gpuCases)
      ? await probeAdapter({ script, env, timeoutS: Math.min(requested.timeoutS, 120) })
      : null;
  const software = isSoftwareAdapter(device);
  const options = software ? softwareOptions(requested) : requested;
  if (device && software) process.stderr.write(`${softwareLine(device, requested, options)}\n`);
  const cases = software ? softwareCases : gpuCases;
  const results: CaseResult[] = [];
  for (const [i, c] of cases.entries()) {
    // The paper's split radix sort makes 32 splits: three times the budget (SwiftShader takes
    // 10-18 s per 2^20-key sort), so the default run finishes there too.
    const timeoutS = c.algorithm === 'split-radix' ? 3 * options.timeoutS : options.timeoutS;
    const message = await runCaseInChild(c, { script, env, timeoutS });
    device ??= message.device;
    results.push(message.result);
    process.stderr.write(`${progressLine(i, cases.length, message.result)}\n`);
  }
  const report: BenchReport = {
    schema: REPORT_SCHEMA,
    date: started.toISOString(),
    commit: git.commit,
    ...(git.dirty !== undefined ? { dirty: git.dirty } : {}),
    host: { node: process.version, platform: process.platform, arch: process.arch },
    options: reportOptions(options, env.SCAN_DAWN_TOGGLES),
    device,
    results,
  };
  const path = resolve(options.out ?? defaultReportPath(root, started));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    process.stdout.write(`${formatTable(report)}\n\nreport: ${path}\n`);
  }
  return { report, path };
}
