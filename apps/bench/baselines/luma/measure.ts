import type { GpuTimer, ScanContext } from '@scan/core';
import type { Heater } from './heat.js';
import { type RunStats, summarizeRuns } from './stats.js';
import type { Workload } from './workload.js';

/** Untimed and timed runs of one measurement. */
export interface RunCounts {
  readonly warmup: number;
  readonly runs: number;
  /** Milliseconds of back-to-back copies right before the warm-ups (0: none). */
  readonly heatMs: number;
}

/** One untimed run: recorded in its own encoder, submitted, waited for. */
export async function runUntimed(ctx: ScanContext, workload: Workload): Promise<void> {
  const encoder = ctx.device.createCommandEncoder();
  workload.encode(encoder);
  ctx.device.queue.submit([encoder.finish()]);
  await ctx.device.queue.onSubmittedWorkDone();
}

/**
 * Times `workload` the way the bench does (`apps/bench/src/child/measure.ts`): `warmup` untimed
 * runs (after `heatMs` of the heater's copies, when a heater is given), then `runs` runs back to back, each one command encoder holding the timer's begin mark
 * (an empty compute pass writing a timestamp), the workload's recorded passes and the end mark,
 * submitted and waited for before the next run. With `timestamp-query` the time is the GPU's
 * between the marks; without it `createGpuTimer` falls back to submit → `onSubmittedWorkDone`.
 *
 * @example
 * ```ts
 * const stats = await measureWorkload(ctx, createGpuTimer(ctx), workload, { warmup: 10, runs: 50, heatMs: 0 });
 * ```
 */
export async function measureWorkload(
  ctx: ScanContext,
  timer: GpuTimer,
  workload: Workload,
  counts: RunCounts,
  heater?: Heater,
): Promise<RunStats> {
  await heater?.heat(counts.heatMs);
  for (let i = 0; i < counts.warmup; i++) await runUntimed(ctx, workload);
  const samples: number[] = [];
  for (let i = 0; i < counts.runs; i++) {
    const encoder = ctx.device.createCommandEncoder();
    timer.begin(encoder);
    workload.encode(encoder);
    timer.end(encoder);
    samples.push(await timer.submitAndMeasure([encoder.finish()]));
  }
  return summarizeRuns(samples);
}
