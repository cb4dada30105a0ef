import type { createGpuTimer, ScanContext } from '@scan/core';
import { throughput } from '../metrics.js';
import type { Measurement } from '../report.js';
import { summarize } from '../stats.js';
import { submitAndWait } from './gpu.js';
import type { Workload } from './workload.js';

/** The timer of `createGpuTimer`. */
export type GpuTimer = ReturnType<typeof createGpuTimer>;

/** Runs of a measurement. */
export interface RunCounts {
  readonly warmup: number;
  readonly runs: number;
}

/**
 * Runs the workload's untimed `prepare` step (if it has one) in its own submission and waits for
 * it, so the run recorded next starts from its restored inputs and no timestamp covers the step.
 *
 * @example
 * ```ts
 * await prepareRun(ctx, workload);
 * ```
 */
export async function prepareRun(ctx: ScanContext, workload: Workload): Promise<void> {
  if (!workload.prepare) return;
  const encoder = ctx.device.createCommandEncoder();
  workload.prepare(encoder);
  await submitAndWait(ctx, encoder);
}

/**
 * Times `workload`: `warmup` untimed runs, then `runs` runs, each in its own encoder between the
 * timer's begin and end marks (timestamp queries when the device has them), summarized by median.
 * Before each run the workload's `prepare` step runs untimed (see {@link prepareRun}).
 *
 * @example
 * ```ts
 * const m = await measure(ctx, timer, workload, n, { warmup: 5, runs: 20 });
 * ```
 */
export async function measure(ctx: ScanContext, timer: GpuTimer, workload: Workload, n: number, counts: RunCounts): Promise<Measurement> {
  for (let i = 0; i < counts.warmup; i++) {
    await prepareRun(ctx, workload);
    const encoder = ctx.device.createCommandEncoder();
    workload.encode(encoder);
    await submitAndWait(ctx, encoder);
  }
  const samplesMs: number[] = [];
  for (let i = 0; i < counts.runs; i++) {
    await prepareRun(ctx, workload);
    const encoder = ctx.device.createCommandEncoder();
    timer.begin(encoder);
    workload.encode(encoder);
    timer.end(encoder);
    samplesMs.push(await timer.submitAndMeasure([encoder.finish()]));
  }
  const stats = summarize(samplesMs);
  return { ...stats, samplesMs, bytes: workload.bytes, ...throughput(workload.bytes, n, stats.medianMs) };
}
