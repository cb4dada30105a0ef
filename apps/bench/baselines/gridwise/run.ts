import { createGpuTimer, type GpuTimer, type ScanContext } from '@scan/core';
import type { CaseRecord } from '../../src/case-types.js';
import { bytesMoved, throughput } from '../../src/metrics.js';
import type { CaseResult, Measurement } from '../../src/report.js';
import { copyWorkload } from '../luma/cases/copy.js';
import { createHeater, type Heater } from '../luma/heat.js';
import type { RunStats } from '../luma/stats.js';
import { measureWorkload, type RunCounts, runUntimed, type TimedWork, withErrorScopes } from '../shared/measure.js';
import { type GridwiseKeyType, sortBytes } from './check.js';
import { type GridwiseSort, gridwiseSort } from './sort.js';

/** `gridwise 0.1.0 a5fdd8d`: the library, its package version and commit, as the build found them. */
export const GRIDWISE_LIBRARY = `gridwise ${typeof __GRIDWISE_VERSION__ === 'string' ? __GRIDWISE_VERSION__ : 'unbuilt'}`;

/** What one run covers. */
export interface GridwisePlan extends RunCounts {
  /** log2 of the element counts. */
  readonly sizes: readonly number[];
  readonly types: readonly GridwiseKeyType[];
  readonly seed: number;
  readonly disableSubgroups: boolean;
}

/**
 * The row's case: the bench's `sort` with `type` the key type, so the dashboard and the summary
 * pair it with our `sort radix u32` / `u64` rows; `baseline` the library, `call` its class; the
 * series in baselines/cuda.py's `primitive/library/variant` form.
 *
 * @example
 * ```ts
 * gridwiseCase('u64', 1024, { seed: 1, runs: 50, warmup: 10 }).series; // 'sort/gridwise 0.1.0 a5fdd8d OneSweepSort/u64 keys'
 * ```
 */
export function gridwiseCase(type: GridwiseKeyType, n: number, settings: { seed: number; runs: number; warmup: number }): CaseRecord {
  const series = `sort/${GRIDWISE_LIBRARY} OneSweepSort/${type} keys`;
  return {
    id: `${series}@${n}`,
    series,
    primitive: 'sort',
    n,
    seed: settings.seed,
    runs: settings.runs,
    warmup: settings.warmup,
    // u64 keys are not an `ElementType` of @scan/core at this commit; the report's case takes any name.
    type: type as CaseRecord['type'],
    descending: false,
    baseline: GRIDWISE_LIBRARY,
    call: 'OneSweepSort',
  };
}

function measurementOf(stats: RunStats, bytes: number, n: number): Measurement {
  const samplesMs = [...stats.samplesMs];
  return {
    runs: stats.runs,
    medianMs: stats.medianMs,
    minMs: stats.minMs,
    maxMs: stats.maxMs,
    meanMs: samplesMs.reduce((a, b) => a + b, 0) / samplesMs.length,
    samplesMs,
    bytes,
    ...throughput(bytes, n, stats.medianMs),
  };
}

/**
 * gridwise's sort as timed work: the input restored before each run in a submission of its own,
 * awaited (so the copy is not timed and every run sorts random keys again); timed, one encoder holding
 * gridwise's recorded work (its histogram clears and its passes), as the luma runner times luma.
 */
function sortWork(ctx: ScanContext, sort: GridwiseSort): TimedWork {
  return {
    prepare: async () => {
      const encoder = ctx.device.createCommandEncoder();
      sort.restore(encoder);
      ctx.device.queue.submit([encoder.finish()]);
      await ctx.device.queue.onSubmittedWorkDone();
    },
    encode: (encoder) => sort.encode(encoder),
  };
}

/** The bench's copy kernel at n: verified, timed, or null when its check fails. */
async function timeCopy(ctx: ScanContext, timer: GpuTimer, n: number, plan: GridwisePlan, heater?: Heater): Promise<RunStats | null> {
  const copy = copyWorkload(ctx.device, n, plan.seed + 100);
  try {
    copy.poison();
    await runUntimed(ctx, copy);
    if (!(await copy.verify()).ok) return null;
    return await measureWorkload(ctx, timer, copy, plan, heater);
  } finally {
    copy.destroy();
  }
}

/** One key type at one size: set up, run once and check, time, check again, time the copy. */
async function runCase(
  ctx: ScanContext,
  timer: GpuTimer,
  type: GridwiseKeyType,
  log2n: number,
  plan: GridwisePlan,
  heater?: Heater,
): Promise<CaseResult> {
  const n = 2 ** log2n;
  const c = gridwiseCase(type, n, plan);
  let sort: GridwiseSort | undefined;
  let info: Readonly<Record<string, string | number | boolean>> = {};
  try {
    return await withErrorScopes(ctx.device, async (): Promise<CaseResult> => {
      sort = gridwiseSort(ctx.device, type, n, plan.seed + log2n + (type === 'u64' ? 1000 : 0), plan.disableSubgroups);
      const work = sortWork(ctx, sort);
      sort.poison();
      await runUntimed(ctx, work);
      const first = await sort.verify();
      info = sort.describe;
      const verification = (check: { mismatches: number; detail: string }) => ({
        cpuCompared: true,
        cpuMismatches: check.mismatches,
        detail: check.detail,
      });
      if (!first.ok)
        return { case: c, status: 'failed', message: 'wrong result: not timed', verification: verification(first), baselineInfo: info };
      const stats = await measureWorkload(ctx, timer, work, plan, heater);
      sort.poison();
      await runUntimed(ctx, work);
      const after = await sort.verify();
      if (!after.ok)
        return {
          case: c,
          status: 'failed',
          message: 'wrong result after the timed runs',
          verification: verification(after),
          baselineInfo: info,
        };
      const copyStats = await timeCopy(ctx, timer, n, plan, heater);
      const m = measurementOf(stats, sortBytes(type, n), n);
      const copy = copyStats ? measurementOf(copyStats, bytesMoved('copy', n), n) : undefined;
      const ratioCopy = copy ? m.gbps / copy.gbps : Number.NaN;
      return {
        case: c,
        status: 'ok',
        timer: timer.method,
        measurement: m,
        ...(copy ? { copy } : {}),
        ...(Number.isFinite(ratioCopy) ? { ratioCopy } : {}),
        verification: { ...verification(first), detail: `${first.detail} (before and after the timed runs)` },
        baselineInfo: info,
      };
    });
  } catch (error) {
    return { case: c, status: 'error', message: (error as Error)?.message ?? String(error), baselineInfo: info };
  } finally {
    sort?.destroy();
  }
}

/**
 * Every key type at every size, in size order, calling `onResult` after each. A throw or a GPU error
 * is an `error` row and the run goes on; after a lost device every case left is an `error` row.
 *
 * @example
 * ```ts
 * const rows = await runGridwise(ctx, { sizes: [10], types: ['u32', 'u64'], runs: 5, warmup: 1, heatMs: 0, seed: 1, disableSubgroups: false });
 * ```
 */
export async function runGridwise(ctx: ScanContext, plan: GridwisePlan, onResult?: (r: CaseResult) => void): Promise<CaseResult[]> {
  const timer = createGpuTimer(ctx);
  const heater = plan.heatMs > 0 ? createHeater(ctx.device) : undefined;
  const rows: CaseResult[] = [];
  try {
    for (const log2n of plan.sizes)
      for (const type of plan.types) {
        const lost = ctx.lostReason;
        const row: CaseResult =
          lost === undefined
            ? await runCase(ctx, timer, type, log2n, plan, heater)
            : { case: gridwiseCase(type, 2 ** log2n, plan), status: 'error', message: `device lost: ${lost}` };
        rows.push(row);
        onResult?.(row);
      }
  } finally {
    timer.destroy();
    heater?.destroy();
  }
  return rows;
}
