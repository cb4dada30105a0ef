import type { ScanContext } from '@scan/core';
import { deviceInfo } from '../src/child/device-info.js';
import { runCase } from '../src/child/run.js';
import { type BenchReport, type CaseResult, REPORT_SCHEMA } from '../src/report.js';
import { adapterText, isSoftwareAdapter } from '../src/software-adapter.js';
import { LIVE_MATRIX_SUITES, type LiveSelection, liveCases } from './live-cases.js';

// A benchmark run in the visitor's browser, on their GPU: the same cases and the same runCase as a
// bench child process (verify first, then time, then verify again), one after another on one
// device, collected into a report of the bench's schema.

/** Progress of a live run, after each case. */
export interface LiveProgress {
  readonly done: number;
  readonly total: number;
  /** The case that just finished. */
  readonly result: CaseResult;
}

/** Options of {@link runLive}. */
export interface LiveRunOptions {
  /** Called after every case with the result so far. */
  readonly onProgress?: (progress: LiveProgress) => void;
  /** Aborting stops the run after the case in flight; the report then holds the cases that finished. */
  readonly signal?: AbortSignal;
  /** The commit the page was built from, for the report. */
  readonly commit?: string | null;
}

/**
 * Runs the selected cases on `ctx` and returns the report. A case that throws becomes an `error`
 * row (as a crashed child would in the CLI), so one bad case never ends the run; only verified
 * results are `ok`.
 *
 * @example
 * ```ts
 * const report = await runLive(ctx, { primitives: ['scan', 'copy'], sizes: [2 ** 16], runs: 10, warmup: 2 }, { onProgress });
 * ```
 */
export async function runLive(ctx: ScanContext, selection: LiveSelection, options: LiveRunOptions = {}): Promise<BenchReport> {
  if (selection.primitives.length === 0) throw new Error('pick at least one primitive');
  if (selection.sizes.length === 0) throw new Error('pick at least one size');
  const started = new Date();
  const settings = { sizes: [...selection.sizes], runs: selection.runs, warmup: selection.warmup, seed: 1, density: 0.5 };
  const cases = liveCases(selection);
  const matrices = cases.some((c) => c.matrix !== undefined) ? { matrices: [...LIVE_MATRIX_SUITES[selection.matrices ?? '1M']] } : {};
  const results: CaseResult[] = [];
  for (const c of cases) {
    if (options.signal?.aborted) break;
    let result: CaseResult;
    const t0 = performance.now();
    try {
      result = { ...(await runCase(ctx, c)), wallMs: performance.now() - t0 };
    } catch (e) {
      result = { case: c, status: 'error', message: e instanceof Error ? e.message : String(e), wallMs: performance.now() - t0 };
    }
    results.push(result);
    options.onProgress?.({ done: results.length, total: cases.length, result });
    // A lost device fails every later case the same way; stop with what was measured.
    if (ctx.lostReason !== undefined) break;
  }
  return {
    schema: REPORT_SCHEMA,
    date: started.toISOString(),
    commit: options.commit ?? null,
    host: { node: 'none (browser)', platform: navigator.platform || 'unknown', arch: 'unknown', userAgent: navigator.userAgent },
    options: { ...settings, timeoutS: 0, only: [...selection.primitives], ...matrices },
    device: deviceInfo(ctx),
    results,
  };
}

/**
 * One line naming the device a live run uses, and whether it is a software adapter (SwiftShader,
 * llvmpipe, WARP: the same test as the CLI's), whose numbers say nothing about GPUs.
 *
 * @example
 * ```ts
 * const { text, software } = describeDevice(ctx); // 'google / swiftshader / SwiftShader Device (Subzero)', true
 * ```
 */
export function describeDevice(ctx: ScanContext): { text: string; software: boolean } {
  const info = deviceInfo(ctx);
  return { text: [info.adapter.device, adapterText(info)].filter(Boolean).join(' / '), software: isSoftwareAdapter(info) };
}
