import { createGpuTimer, type GpuTimer } from '@scan/core';
import { measureWorkload, type RunCounts, runUntimed, withErrorScopes } from '../shared/measure.js';
import { copyWorkload } from './cases/copy.js';
import { casesOf, LUMA_CASES, type LumaCase } from './cases/index.js';
import type { LumaDeviceContext } from './device.js';
import { createHeater, type Heater } from './heat.js';
import type { LumaRecord, Timing } from './report.js';
import type { LumaCaseName, LumaPrimitive, Verification, Workload } from './workload.js';

/** What one run covers. */
export interface LumaRunPlan extends RunCounts {
  /** log2 of the element counts. */
  readonly sizes: readonly number[];
  readonly only: readonly LumaPrimitive[];
  readonly seed: number;
}

/** Poisons the outputs, runs once, reads back and compares. */
async function runAndVerify(dev: LumaDeviceContext, workload: Workload): Promise<Verification> {
  workload.poison();
  await runUntimed(dev.ctx, workload);
  return workload.verify();
}

/** Verifies, times and re-verifies the copy kernel at n; null timing when its check fails. */
async function timeCopy(
  dev: LumaDeviceContext,
  timer: GpuTimer,
  n: number,
  plan: LumaRunPlan,
  heater?: Heater,
): Promise<LumaRecord['copy']> {
  const copy = copyWorkload(dev.ctx.device, n, plan.seed + 100);
  try {
    if (!(await runAndVerify(dev, copy)).ok) return null;
    const stats = await measureWorkload(dev.ctx, timer, copy, plan, heater);
    const after = await runAndVerify(dev, copy);
    return { ...stats, method: timer.method, verified: after.ok };
  } finally {
    copy.destroy();
  }
}

/**
 * A record for a case that was not timed: a wrong result (`failed`, with the check's `mismatches`)
 * or an `error` (a throw, a GPU validation or out-of-memory error, a lost device).
 */
export function untimedRecord(
  base: Pick<LumaRecord, 'primitive' | 'caseName' | 'n' | 'log2n' | 'luma'>,
  status: 'failed' | 'error',
  check: Verification,
  message?: string,
): LumaRecord {
  return {
    ...base,
    status,
    verified: false,
    verification: check.detail,
    ...(check.mismatches === undefined ? {} : { mismatches: check.mismatches }),
    ...(message === undefined ? {} : { message }),
    timing: null,
    medianMs: null,
    p10Ms: null,
    p90Ms: null,
    minMs: null,
    maxMs: null,
    runs: 0,
    samplesMs: [],
    copyMedianMs: null,
    copy: null,
    copyTimeRatio: null,
  };
}

/**
 * One case at one size: set up luma's graph, check it (its own self-test, then the timed input
 * against the CPU), and only then time it, check it again, and time the copy kernel at the same n.
 */
async function runCase(
  dev: LumaDeviceContext,
  timer: GpuTimer,
  caseName: LumaCaseName,
  spec: LumaCase,
  log2n: number,
  plan: LumaRunPlan,
  heater?: Heater,
): Promise<LumaRecord> {
  const n = 2 ** log2n;
  const base = { primitive: spec.primitive, caseName, n, log2n, luma: {} as LumaRecord['luma'] };
  let workload: Workload | undefined;
  try {
    return await withErrorScopes(dev.ctx.device, async () => {
      workload = spec.create(dev.luma, n, plan.seed + log2n);
      const self = workload.selfTest ? await workload.selfTest() : undefined;
      const first = self && !self.ok ? self : await runAndVerify(dev, workload);
      base.luma = { ...workload.describe, ...workload.stats?.() };
      if (!first.ok) return untimedRecord(base, 'failed', first, 'wrong result: not timed');
      const stats = await measureWorkload(dev.ctx, timer, workload, plan, heater);
      const after = await runAndVerify(dev, workload);
      if (!after.ok) return untimedRecord(base, 'failed', after, 'wrong result after the timed runs');
      const copy = await timeCopy(dev, timer, n, plan, heater);
      const primitiveTiming: Timing = { ...stats, method: timer.method };
      return {
        ...base,
        status: 'ok' as const,
        verified: true,
        verification: [self?.detail, first.detail].filter(Boolean).join('; '),
        timing: primitiveTiming.method,
        medianMs: stats.medianMs,
        p10Ms: stats.p10Ms,
        p90Ms: stats.p90Ms,
        minMs: stats.minMs,
        maxMs: stats.maxMs,
        runs: stats.runs,
        samplesMs: stats.samplesMs,
        ...(workload.ones === undefined ? {} : { ones: workload.ones }),
        ...(workload.bytes === undefined ? {} : { bytes: workload.bytes }),
        ...(workload.segments === undefined ? {} : { segments: workload.segments }),
        copyMedianMs: copy?.medianMs ?? null,
        copy,
        copyTimeRatio: copy && stats.medianMs > 0 ? copy.medianMs / stats.medianMs : null,
      };
    });
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    return untimedRecord(base, 'error', { ok: false, detail: 'not verified' }, message);
  } finally {
    workload?.destroy();
  }
}

/**
 * Runs the cases of every selected primitive at every size on `dev`, in size order (cases in
 * `LUMA_CASE_NAMES` order within a size), calling `onRecord` after each. A case that throws or
 * raises a GPU error (luma past a device limit, say) is an `error` record and the run goes on;
 * once the device is lost, every case left is an `error` record naming the reason, so the report
 * is still written. `cases` replaces the registry (tests).
 *
 * @example
 * ```ts
 * const records = await runLumaBaseline(dev, { sizes: [10], only: ['scan'], runs: 20, warmup: 5, heatMs: 0, seed: 1 });
 * ```
 */
export async function runLumaBaseline(
  dev: LumaDeviceContext,
  plan: LumaRunPlan,
  onRecord?: (record: LumaRecord) => void,
  cases: Readonly<Record<LumaCaseName, LumaCase>> = LUMA_CASES,
): Promise<LumaRecord[]> {
  const timer = createGpuTimer(dev.ctx);
  const heater = plan.heatMs > 0 ? createHeater(dev.ctx.device) : undefined;
  const records: LumaRecord[] = [];
  try {
    for (const log2n of plan.sizes) {
      for (const caseName of casesOf(plan.only, cases)) {
        const lost = dev.ctx.lostReason;
        const spec = cases[caseName];
        const record =
          lost === undefined
            ? await runCase(dev, timer, caseName, spec, log2n, plan, heater)
            : untimedRecord(
                { primitive: spec.primitive, caseName, n: 2 ** log2n, log2n, luma: {} },
                'error',
                { ok: false, detail: 'not run' },
                `device lost: ${lost}`,
              );
        records.push(record);
        onRecord?.(record);
      }
    }
  } finally {
    timer.destroy();
    heater?.destroy();
  }
  return records;
}
