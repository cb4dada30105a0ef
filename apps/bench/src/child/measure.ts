import { createGpuTimer, type ScanContext } from '@scan/core';
import { throughput } from '../metrics.js';
import type { Measurement } from '../report.js';
import { summarize } from '../stats.js';
import { submitAndWait } from './gpu.js';
import { heatGpu } from './heat.js';
import type { Workload } from './workload.js';

/** The timer of `createGpuTimer`. */
export type GpuTimer = ReturnType<typeof createGpuTimer>;

/** Runs of a measurement. */
export interface RunCounts {
  readonly warmup: number;
  readonly runs: number;
}

/**
 * The wall-clock form of `createGpuTimer` (its fallback on devices without timestamp queries: from
 * `submit` to `onSubmittedWorkDone`), whatever this device has. The baselines of an asynchronous
 * case (hisparse-add) are timed with it, so the case's ×copy compares wall clock with wall clock.
 *
 * @example
 * ```ts
 * const wall = createWallClockTimer(ctx); // wall.method === 'wall-clock'
 * ```
 */
export function createWallClockTimer(ctx: ScanContext): GpuTimer {
  if (!ctx.caps.features.timestampQuery) return createGpuTimer(ctx);
  const caps = { ...ctx.caps, features: { ...ctx.caps.features, timestampQuery: false } };
  // The same context with timestamp queries hidden: createGpuTimer reads only `device` and `caps`.
  return createGpuTimer(Object.create(ctx, { caps: { value: caps } }) as ScanContext);
}

/** How the runs of `workload` are timed: by wall clock for the asynchronous form, else by `timer`. */
export function timerMethod(timer: GpuTimer, workload: Workload): GpuTimer['method'] {
  return workload.run ? 'wall-clock' : timer.method;
}

/**
 * Runs the workload's untimed step before a run and waits for it: an encoded workload's `prepare`
 * (if it has one) in its own submission, so the run recorded next starts from its restored inputs
 * and no timestamp covers the step; an asynchronous workload's `discard` (frees the previous run's result).
 *
 * @example
 * ```ts
 * await prepareRun(ctx, workload);
 * ```
 */
export async function prepareRun(ctx: ScanContext, workload: Workload): Promise<void> {
  if (workload.run) {
    workload.discard?.();
    return;
  }
  if (!workload.prepare) return;
  const encoder = ctx.device.createCommandEncoder();
  workload.prepare(encoder);
  await submitAndWait(ctx, encoder);
}

/**
 * One untimed run after its {@link prepareRun} step, waited for: the first (verified) run and the warm-ups.
 *
 * @example
 * ```ts
 * await runOnce(ctx, workload);
 * const outcome = await workload.verify();
 * ```
 */
export async function runOnce(ctx: ScanContext, workload: Workload): Promise<void> {
  await prepareRun(ctx, workload);
  if (workload.run) {
    await workload.run();
    await ctx.device.queue.onSubmittedWorkDone();
    return;
  }
  const encoder = ctx.device.createCommandEncoder();
  workload.encode(encoder);
  await submitAndWait(ctx, encoder);
}

/**
 * One timed run in milliseconds (after its untimed {@link prepareRun} step). An encoded workload
 * runs in its own encoder between the timer's begin and end marks; an asynchronous one is timed
 * the way `createGpuTimer` times without timestamp queries — wall clock from the start of `run`
 * (which records and submits its first commands) until `onSubmittedWorkDone` after it resolves,
 * the queue being idle when the clock starts — so its read-backs, allocations and the CPU work
 * between its submissions all count.
 */
async function timedRun(ctx: ScanContext, timer: GpuTimer, workload: Workload): Promise<number> {
  await prepareRun(ctx, workload);
  if (workload.run) {
    await ctx.device.queue.onSubmittedWorkDone();
    const t0 = performance.now();
    await workload.run();
    await ctx.device.queue.onSubmittedWorkDone();
    return performance.now() - t0;
  }
  const encoder = ctx.device.createCommandEncoder();
  timer.begin(encoder);
  workload.encode(encoder);
  timer.end(encoder);
  return timer.submitAndMeasure([encoder.finish()]);
}

/**
 * Times `workload`: `warmup` untimed runs, then `runs` timed runs (see `timedRun`: the timer's marks
 * around an encoded run, wall clock around an asynchronous one), summarized by median. Before each
 * run the workload's untimed step runs (see {@link prepareRun}).
 *
 * @example
 * ```ts
 * const m = await measure(ctx, timer, workload, n, { warmup: 5, runs: 20 });
 * ```
 */
export async function measure(ctx: ScanContext, timer: GpuTimer, workload: Workload, n: number, counts: RunCounts): Promise<Measurement> {
  // Clocks up first (a GPU idles down while a child starts and compiles; see heat.ts).
  await heatGpu(ctx);
  for (let i = 0; i < counts.warmup; i++) await runOnce(ctx, workload);
  const samplesMs: number[] = [];
  for (let i = 0; i < counts.runs; i++) samplesMs.push(await timedRun(ctx, timer, workload));
  const stats = summarize(samplesMs);
  return { ...stats, samplesMs, bytes: workload.bytes, ...throughput(workload.bytes, n, stats.medianMs) };
}
