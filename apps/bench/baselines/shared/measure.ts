import type { GpuTimer, ScanContext } from '@scan/core';
import type { Heater } from '../luma/heat.js';
import { type RunStats, summarizeRuns } from '../luma/stats.js';

/** Untimed and timed runs of one measurement. */
export interface RunCounts {
  readonly warmup: number;
  readonly runs: number;
  /** Milliseconds of back-to-back copies right before the warm-ups (0: none). */
  readonly heatMs: number;
}

/** What is timed: `encode` records it; `prepare`, when given, runs before every run in a submission of its own, untimed. */
export interface TimedWork {
  /** Records the timed work (luma's passes; gridwise records asynchronously). */
  encode(encoder: GPUCommandEncoder): void | Promise<void>;
  /** Untimed setup before each run (gridwise restores its input, which its sort overwrites). */
  prepare?(): Promise<void>;
}

/**
 * One untimed run: `prepare`, then `encode` in an encoder of its own, submitted and waited for.
 *
 * @example
 * ```ts
 * await runUntimed(ctx, workload); // a warm-up, or the run before a check
 * ```
 */
export async function runUntimed(ctx: ScanContext, work: TimedWork): Promise<void> {
  await work.prepare?.();
  const encoder = ctx.device.createCommandEncoder();
  await work.encode(encoder);
  ctx.device.queue.submit([encoder.finish()]);
  await ctx.device.queue.onSubmittedWorkDone();
}

/**
 * Times `work` the way the bench does (`apps/bench/src/child/measure.ts`): `warmup` untimed runs
 * (after `heatMs` of the heater's copies, when a heater is given), then `runs` runs back to back,
 * each one command encoder holding the timer's begin mark (an empty compute pass writing a
 * timestamp), the recorded work and the end mark, submitted and waited for before the next run.
 * With `timestamp-query` the time is the GPU's between the marks; without it `createGpuTimer` falls
 * back to submit → `onSubmittedWorkDone`. `prepare` is awaited before each run, outside the marks.
 *
 * @example
 * ```ts
 * const stats = await measureWorkload(ctx, createGpuTimer(ctx), workload, { warmup: 10, runs: 50, heatMs: 0 });
 * ```
 */
export async function measureWorkload(
  ctx: ScanContext,
  timer: GpuTimer,
  work: TimedWork,
  counts: RunCounts,
  heater?: Heater,
): Promise<RunStats> {
  await heater?.heat(counts.heatMs);
  for (let i = 0; i < counts.warmup; i++) await runUntimed(ctx, work);
  const samples: number[] = [];
  for (let i = 0; i < counts.runs; i++) {
    await work.prepare?.();
    const encoder = ctx.device.createCommandEncoder();
    timer.begin(encoder);
    await work.encode(encoder);
    timer.end(encoder);
    samples.push(await timer.submitAndMeasure([encoder.finish()]));
  }
  return summarizeRuns(samples);
}

/**
 * Runs `body` inside validation and out-of-memory error scopes; a GPU error becomes a thrown Error
 * naming every error caught (so a case becomes an `error` row instead of a silent wrong time).
 *
 * @example
 * ```ts
 * const row = await withErrorScopes(ctx.device, async () => runCaseBody());
 * ```
 */
export async function withErrorScopes<T>(device: GPUDevice, body: () => Promise<T>): Promise<T> {
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  let result: T | undefined;
  let thrown: unknown;
  try {
    result = await body();
  } catch (error) {
    thrown = error;
  }
  const validation = await device.popErrorScope();
  const memory = await device.popErrorScope();
  // Both, out-of-memory first: a buffer past the device's memory (SwiftShader at 2^28) is the cause,
  // and the validation error after it only says that the buffer is invalid. One line each.
  const errors = [
    ...(memory ? [`GPU out-of-memory error: ${memory.message}`] : []),
    ...(validation ? [`GPU validation error: ${validation.message}`] : []),
  ];
  if (errors.length) throw new Error(errors.map((e) => e.replace(/\s*\n\s*/g, ' ').trim()).join('; '));
  if (thrown !== undefined) throw thrown;
  return result as T;
}
