import { execFileSync } from 'node:child_process';
import type { CaseRecord } from '../../src/case-types.js';
import { deviceInfo } from '../../src/child/device-info.js';
import { type BytesModel, bytesMoved, throughput } from '../../src/metrics.js';
import {
  type BenchReport,
  type CaseResult,
  type DeviceInfo,
  type Measurement,
  REPORT_SCHEMA,
  type ReportOptions,
} from '../../src/report.js';
import { LUMA_CASES } from './cases/index.js';
import { PACK_DENSITY } from './cases/pack.js';
import type { LumaDeviceContext } from './device.js';
import type { LumaOptions } from './options.js';
import { caseNameOf, LUMA_LIBRARY, type LumaRecord } from './report.js';
import type { RunStats } from './stats.js';
import type { LumaCaseName } from './workload.js';

// The luma.gl baseline's records as the bench's report (`scan-bench/1`): the same row shape as
// our cases and as baselines/cuda.py's, so the dashboard and the table read all three the same way.
// The report says `baseline: 'webgpu'`; each row's case has the bench primitive's name and fields
// (so it pairs with our row of the same work), `baseline: 'luma.gl 9.4.2'` and `call`, luma's class.

/** `git rev-parse HEAD` in the working directory, or null where git is missing (a copy sent by scripts/remote-bench.sh). */
export function currentCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'], encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** The run settings every case records (the bench's `seed`, `runs`, `warmup`). */
export interface LumaRunSettings {
  readonly seed: number;
  readonly runs: number;
  readonly warmup: number;
}

/**
 * The case of a luma row: the bench primitive's name and fields (`LUMA_CASES[c].shape`, with the
 * fields where luma's work differs, `differs`, over them), the size and run settings, `baseline`
 * (library and version) and `call` (luma's class). The series follows baselines/cuda.py's
 * `primitive/library/variant`, the variant in the bench's words.
 *
 * @example
 * ```ts
 * lumaCase('scan', 1024, { seed: 1, runs: 50, warmup: 10 }).series; // 'scan/luma.gl 9.4.2 GPUScan/u32 add excl fwd'
 * ```
 */
export function lumaCase(caseName: LumaCaseName, n: number, settings: LumaRunSettings): CaseRecord {
  const spec = LUMA_CASES[caseName];
  const primitive = spec.primitive;
  const series = `${primitive}/${LUMA_LIBRARY} ${spec.call}/${spec.variant}`;
  return {
    id: `${series}@${n}`,
    series,
    primitive,
    n,
    seed: settings.seed,
    runs: settings.runs,
    warmup: settings.warmup,
    ...spec.shape,
    ...spec.differs,
    baseline: LUMA_LIBRARY,
    call: spec.call,
  };
}

/** Run statistics as the bench's measurement: GB/s over the bench's bytes model of the same primitive. */
function measurementOf(
  stats: Pick<RunStats, 'runs' | 'medianMs' | 'minMs' | 'maxMs' | 'samplesMs'>,
  bytes: number,
  n: number,
): Measurement {
  const samplesMs = [...stats.samplesMs];
  const meanMs = samplesMs.reduce((a, b) => a + b, 0) / samplesMs.length;
  return {
    runs: stats.runs,
    medianMs: stats.medianMs,
    minMs: stats.minMs,
    maxMs: stats.maxMs,
    meanMs,
    samplesMs,
    bytes,
    ...throughput(bytes, n, stats.medianMs),
  };
}

/**
 * One record as the bench's row: status and message; for an `ok` record the timer, the
 * primitive's and the copy kernel's measurements, `ratioCopy` (GB/s ÷ copy GB/s, as the bench
 * computes it), `ones` (pack); the verification (the whole output compared on the CPU: `cpuCompared`,
 * `cpuMismatches`, `detail`; no `gpuMismatches`, since no GPU check kernel ran); and `baselineInfo`
 * (luma's class, settings, kernels, compute passes).
 *
 * @example
 * ```ts
 * const row = lumaCaseResult(record, { seed: 1, runs: 50, warmup: 10 });
 * ```
 */
export function lumaCaseResult(record: LumaRecord, settings: LumaRunSettings): CaseResult {
  const c = lumaCase(caseNameOf(record), record.n, settings);
  const verification = {
    cpuCompared: true,
    ...(record.status === 'ok' ? { cpuMismatches: 0 } : record.mismatches !== undefined ? { cpuMismatches: record.mismatches } : {}),
    detail: record.verification,
  };
  const common = {
    case: c,
    status: record.status,
    ...(record.message === undefined ? {} : { message: record.message }),
    // An error record never reached a check: no verification to state.
    ...(record.status === 'error' ? {} : { verification }),
    baselineInfo: record.luma,
  };
  const { medianMs, minMs, maxMs, timing } = record;
  if (record.status !== 'ok' || medianMs === null || minMs === null || maxMs === null || timing === null) return common;
  const stats = { runs: record.runs, medianMs, minMs, maxMs, samplesMs: record.samplesMs };
  const bytes = record.bytes ?? bytesMoved(record.primitive as BytesModel, record.n, record.ones ?? 0);
  const m = measurementOf(stats, bytes, record.n);
  const copy = record.copy ? measurementOf(record.copy, bytesMoved('copy', record.n), record.n) : undefined;
  const ratioCopy = copy ? m.gbps / copy.gbps : Number.NaN;
  return {
    ...common,
    timer: timing,
    measurement: m,
    ...(copy ? { copy } : {}),
    // Absent when a time was below the timer's resolution, as in the bench.
    ...(Number.isFinite(ratioCopy) ? { ratioCopy } : {}),
    ...(record.ones === undefined ? {} : { ones: record.ones }),
    ...(record.segments === undefined ? {} : { segments: record.segments }),
  };
}

/** What a run's report says about its settings (sizes as counts, like the bench's). */
export function lumaReportOptions(
  options: Pick<LumaOptions, 'sizes' | 'only' | 'runs' | 'warmup' | 'seed'>,
  heatMs: number,
  toggles: readonly string[],
): ReportOptions {
  return {
    sizes: options.sizes.map((k) => 2 ** k),
    runs: options.runs,
    warmup: options.warmup,
    seed: options.seed,
    density: PACK_DENSITY,
    timeoutS: 0,
    only: [...options.only],
    ...(toggles.length ? { dawnToggles: toggles.join(' ') } : {}),
    heatMs,
  };
}

/** The parts of a report that are not the rows. */
export interface LumaReportHead {
  /** ISO time the run started. */
  readonly date: string;
  readonly commit: string | null;
  readonly host: BenchReport['host'];
  readonly device: DeviceInfo | null;
  readonly options: ReportOptions;
  readonly notes?: readonly string[];
}

/**
 * A bench report (`scan-bench/1`, `baseline: 'webgpu'`) of luma records.
 *
 * @example
 * ```ts
 * const report = lumaBenchReport(head, records);
 * ```
 */
export function lumaBenchReport(head: LumaReportHead, records: readonly LumaRecord[]): BenchReport {
  const settings = { seed: head.options.seed, runs: head.options.runs, warmup: head.options.warmup };
  return {
    schema: REPORT_SCHEMA,
    date: head.date,
    commit: head.commit,
    host: head.host,
    options: head.options,
    device: head.device,
    baseline: 'webgpu',
    ...(head.notes?.length ? { notes: head.notes } : {}),
    results: records.map((r) => lumaCaseResult(r, settings)),
  };
}

/**
 * The report of a run on `dev`: started at `started`, the commit (`--commit`, else git), this
 * host, the device as the bench records it (`deviceInfo`, the same function as the bench's children,
 * so both name the GPU alike), the options and the records.
 *
 * @example
 * ```ts
 * const report = buildLumaReport(dev, { ...options, heatMs }, records, started);
 * ```
 */
export function buildLumaReport(
  dev: LumaDeviceContext,
  options: LumaOptions & { readonly heatMs: number },
  records: readonly LumaRecord[],
  started: Date,
): BenchReport {
  return lumaBenchReport(
    {
      date: started.toISOString(),
      commit: options.commit ?? currentCommit(),
      host: { node: process.version, platform: process.platform, arch: process.arch },
      device: deviceInfo(dev.ctx),
      options: lumaReportOptions(options, options.heatMs, dev.toggles),
    },
    records,
  );
}
