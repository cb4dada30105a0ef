import { createGpuTimer, type ScanContext } from '@scan/core';
import type { CaseCommon, CaseRecord } from '../case-types.js';
import { spmvGflops } from '../primitives/spmv.js';
import { moduleOf, workloadOf } from '../registry.js';
import type { CaseResult, Measurement, Verification } from '../report.js';
import { guarded } from './guard.js';
import { CHECKSUM_MISMATCH } from './kernels/sort-checks.js';
import { IDENTITY_MISMATCH } from './kernels/spmv-checks.js';
import { createWallClockTimer, type GpuTimer, measure, runOnce, timerMethod } from './measure.js';
import { CPU_COMPARE_MAX, pastBinding, UnsupportedCaseError, type Workload } from './workload.js';

/** Why a case cannot run on this device, or undefined when it fits. */
function tooLarge(ctx: ScanContext, c: CaseCommon): string | undefined {
  const bytes = 4 * Math.ceil(c.n / 4) * 4;
  const limits = pastBinding(ctx, bytes);
  return limits === undefined ? undefined : `n = ${c.n} needs ${bytes}-byte buffers; ${limits}`;
}

/** Outcome of verifying one workload: its verification record and, when wrong, why. */
interface Checked {
  readonly verification: Verification;
  readonly problem?: string;
}

async function verifyOnce(w: Workload, n: number): Promise<Checked> {
  const gpu = await w.verify();
  let cpuMismatches: number | undefined;
  if (n <= CPU_COMPARE_MAX && w.compareWithCpu) cpuMismatches = await w.compareWithCpu();
  const verification: Verification = {
    gpuMismatches: gpu.mismatches,
    ...(gpu.first !== undefined ? { firstMismatch: gpu.first } : {}),
    cpuCompared: cpuMismatches !== undefined,
    ...(cpuMismatches !== undefined ? { cpuMismatches } : {}),
  };
  const problems: string[] = [];
  if (gpu.mismatches) {
    const where =
      gpu.first === 0xfffffffe
        ? 'the reported count is wrong'
        : gpu.first === CHECKSUM_MISMATCH
          ? 'the multiset of keys changed: checksums differ'
          : gpu.first === IDENTITY_MISMATCH
            ? 'wᵀ(Aᵀx) and (Aw)ᵀx differ beyond the bound'
            : `first at index ${gpu.first}`;
    problems.push(`GPU check: ${gpu.mismatches} mismatches (${where})`);
  }
  if (cpuMismatches) problems.push(`CPU reference: ${cpuMismatches} elements differ`);
  return problems.length ? { verification, problem: problems.join('; ') } : { verification };
}

/** What one verified-then-timed workload gives: its check, its timing when correct, its counts. */
interface Measured {
  readonly checked: Checked;
  readonly measurement?: Measurement;
  readonly counts: Pick<CaseResult, 'ones' | 'segments' | 'matrix'>;
  /** How it was timed: `timer`'s method, or wall clock for an asynchronous workload. */
  readonly timer: GpuTimer['method'];
}

/**
 * Verifies, then times, the primitive of `c`: one run, GPU check (plus CPU reference at small
 * sizes); if correct, warm-up and timed runs, then the GPU check again on the last output.
 */
async function verifyAndMeasure(ctx: ScanContext, timer: GpuTimer, c: CaseCommon): Promise<Measured> {
  const primitive = c.primitive;
  const workload = await guarded(ctx, `${primitive} setup`, () => workloadOf(primitive)(ctx, c));
  try {
    const checked = await guarded(ctx, `${primitive} first run`, async () => {
      await runOnce(ctx, workload);
      return verifyOnce(workload, c.n);
    });
    const method = timerMethod(timer, workload);
    const counts = {
      ...(workload.ones !== undefined ? { ones: workload.ones } : {}),
      ...(workload.segments !== undefined ? { segments: workload.segments } : {}),
      ...(workload.matrix !== undefined ? { matrix: workload.matrix } : {}),
    };
    if (checked.problem) return { checked, counts, timer: method };
    const measurement = await guarded(ctx, `${primitive} timing`, () => measure(ctx, timer, workload, c.n, c));
    const after = await guarded(ctx, `${primitive} re-check`, () => workload.verify());
    const verification = { ...checked.verification, gpuMismatchesAfterTiming: after.mismatches };
    if (after.mismatches) {
      return {
        checked: { verification, problem: `GPU check after the timed runs: ${after.mismatches} mismatches (first at ${after.first})` },
        counts,
        timer: method,
      };
    }
    return { checked: { verification }, measurement, counts, timer: method };
  } finally {
    workload.destroy();
  }
}

/** A baseline's case: the copy or read-only kernel at the size, seed and runs of `c`. */
function baselineCase(c: CaseCommon, primitive: 'copy' | 'read-only'): CaseCommon {
  return { id: c.id, series: c.series, primitive, type: c.type, n: c.n, seed: c.seed, runs: c.runs, warmup: c.warmup };
}

/**
 * Runs one case in this (child) process with its module (registry.ts): the primitive, then the copy
 * baseline at the same size (and the read-only baseline for a read-bound module, reduce and
 * segmented-reduce; the module's companion, if any: the unsegmented decoupled-fallback scan beside
 * a segmented scan, the single-vector product beside an spmm), each verified before it is timed. A
 * module that runs its own way (the frame cases, `frame-loop` and `first-call`) returns its own
 * row, with no baseline. A case too large for the device's limits, or whose workload throws
 * {@link UnsupportedCaseError}, is `skipped`.
 *
 * @example
 * ```ts
 * const result = await runCase(ctx, c);
 * ```
 */
export async function runCase(ctx: ScanContext, c: CaseRecord): Promise<CaseResult> {
  const skip = tooLarge(ctx, c);
  if (skip) return { case: c, status: 'skipped', message: skip };
  const module = moduleOf(c.primitive);
  if (!module) throw new Error(`${c.primitive}: no module of the registry has this primitive`);
  // The frame cases time per frame and per first call, not throughput: no copy baseline.
  if (module.run) return module.run(ctx, c);
  const timer = createGpuTimer(ctx);
  let wall: GpuTimer | undefined;
  try {
    let main: Measured;
    try {
      main = await verifyAndMeasure(ctx, timer, c);
    } catch (error) {
      // A feature the device lacks (the subgroup-matrix path of the tcu cases) is not a failure.
      if (error instanceof UnsupportedCaseError) return { case: c, status: 'skipped', message: error.message };
      throw error;
    }
    const base = { case: c, timer: main.timer, verification: main.checked.verification, ...main.counts };
    if (!main.measurement) return { ...base, status: 'failed', message: main.checked.problem ?? 'not verified' };
    const m = main.measurement;
    // An asynchronous case (hisparse-add) was timed by wall clock: its baselines are too, through
    // createGpuTimer's wall-clock path, so the ratios compare like with like.
    if (main.timer !== timer.method) wall = createWallClockTimer(ctx);
    const baseTimer = wall ?? timer;
    // The baselines share this process and size, so the ratio compares like with like.
    const copy = c.primitive === 'copy' ? m : await baseline(ctx, baseTimer, baselineCase(c, 'copy'));
    const readOnly =
      c.primitive === 'read-only' ? m : module.readBound ? await baseline(ctx, baseTimer, baselineCase(c, 'read-only')) : undefined;
    const companion = module.companion?.(c);
    const scan = companion?.field === 'scan' ? await baseline(ctx, baseTimer, companion.case) : undefined;
    // A time ratio, not finiteRatio's GB/s ratio: the targets are stated in time, and the two
    // count different bytes (the segmented scan also reads the head bits).
    const ratioScanTime = scan ? m.medianMs / scan.medianMs : undefined;
    // spmm: the single-vector product of the same matrix, so the gain of k columns per pass shows.
    const single = companion?.field === 'spmv' ? await baseline(ctx, baseTimer, companion.case) : undefined;
    const ratioSpmvTime = single ? m.medianMs / single.medianMs : undefined;
    const info = main.counts.matrix;
    const gflops = info ? spmvGflops(info.nnz, info.k, m.medianMs) : undefined;
    return {
      ...base,
      status: 'ok',
      measurement: m,
      copy,
      ...finiteRatio('ratioCopy', m, copy),
      ...(readOnly ? { readOnly, ...finiteRatio('ratioReadOnly', m, readOnly) } : {}),
      ...(scan ? { scan, ...(Number.isFinite(ratioScanTime) ? { ratioScanTime } : {}) } : {}),
      ...(gflops !== undefined ? { gflops } : {}),
      ...(single ? { spmv: single, ...(Number.isFinite(ratioSpmvTime) ? { ratioSpmvTime } : {}) } : {}),
    };
  } finally {
    timer.destroy();
    wall?.destroy();
  }
}

/** `{ [key]: m GB/s ÷ base GB/s }`, or nothing when a time was below the timer's resolution. */
function finiteRatio<K extends string>(key: K, m: Measurement, base: Measurement): { [P in K]?: number } {
  // A baseline against itself is 1 by definition, even when SwiftShader's timestamps give a median
  // of 0 ms (infinite GB/s) for a tiny case.
  const ratio = m === base ? 1 : m.gbps / base.gbps;
  return (Number.isFinite(ratio) ? { [key]: ratio } : {}) as { [P in K]?: number };
}

/** Verifies and times a baseline case; a baseline that fails its check makes the case an error. */
async function baseline(ctx: ScanContext, timer: GpuTimer, c: CaseCommon): Promise<Measurement> {
  const { checked, measurement } = await verifyAndMeasure(ctx, timer, c);
  if (!measurement) throw new Error(`${c.primitive} baseline failed its check: ${checked.problem}`);
  return measurement;
}
