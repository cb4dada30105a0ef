import { createGpuTimer, type ScanContext } from '@scan/core';
import type { BenchCase, Primitive } from '../cases.js';
import type { CaseResult, Measurement, Verification } from '../report.js';
import { guarded } from './guard.js';
import { type GpuTimer, measure } from './measure.js';
import { CPU_COMPARE_MAX } from './workload.js';
import { WORKLOADS } from './workloads/index.js';

/** Why a case cannot run on this device, or undefined when it fits. */
function tooLarge(ctx: ScanContext, c: BenchCase): string | undefined {
  const bytes = 4 * Math.ceil(c.n / 4) * 4;
  const { maxStorageBufferBindingSize: binding, maxBufferSize } = ctx.caps.limits;
  if (bytes > Math.min(binding, maxBufferSize)) {
    return `n = ${c.n} needs ${bytes}-byte buffers; the device binds at most ${binding} and allocates at most ${maxBufferSize}`;
  }
  return undefined;
}

/** Outcome of verifying one workload: its verification record and, when wrong, why. */
interface Checked {
  readonly verification: Verification;
  readonly problem?: string;
}

async function verifyOnce(w: Awaited<ReturnType<(typeof WORKLOADS)[Primitive]>>, n: number): Promise<Checked> {
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
    const where = gpu.first === 0xfffffffe ? 'the reported count is wrong' : `first at index ${gpu.first}`;
    problems.push(`GPU check: ${gpu.mismatches} mismatches (${where})`);
  }
  if (cpuMismatches) problems.push(`CPU reference: ${cpuMismatches} elements differ`);
  return problems.length ? { verification, problem: problems.join('; ') } : { verification };
}

/**
 * Verifies, then times, one primitive: one run, GPU check (plus CPU reference at small sizes); if
 * correct, warm-up and timed runs, then the GPU check again on the last output.
 */
async function verifyAndMeasure(
  ctx: ScanContext,
  timer: GpuTimer,
  c: BenchCase,
  primitive: Primitive,
): Promise<{ checked: Checked; measurement?: Measurement; ones?: number }> {
  const workload = await guarded(ctx, `${primitive} setup`, () => WORKLOADS[primitive](ctx, { ...c, primitive }));
  try {
    const checked = await guarded(ctx, `${primitive} first run`, async () => {
      const encoder = ctx.device.createCommandEncoder();
      workload.encode(encoder);
      ctx.device.queue.submit([encoder.finish()]);
      return verifyOnce(workload, c.n);
    });
    const ones = workload.ones !== undefined ? { ones: workload.ones } : {};
    if (checked.problem) return { checked, ...ones };
    const measurement = await guarded(ctx, `${primitive} timing`, () => measure(ctx, timer, workload, c.n, c));
    const after = await guarded(ctx, `${primitive} re-check`, () => workload.verify());
    const verification = { ...checked.verification, gpuMismatchesAfterTiming: after.mismatches };
    if (after.mismatches) {
      return {
        checked: { verification, problem: `GPU check after the timed runs: ${after.mismatches} mismatches (first at ${after.first})` },
        ...ones,
      };
    }
    return { checked: { verification }, measurement, ...ones };
  } finally {
    workload.destroy();
  }
}

/**
 * Runs one case in this (child) process: the primitive, then the copy baseline at the same size
 * (and the read-only baseline for reduce), each verified before it is timed.
 *
 * @example
 * ```ts
 * const result = await runCase(ctx, c);
 * ```
 */
export async function runCase(ctx: ScanContext, c: BenchCase): Promise<CaseResult> {
  const skip = tooLarge(ctx, c);
  if (skip) return { case: c, status: 'skipped', message: skip };
  const timer = createGpuTimer(ctx);
  try {
    const main = await verifyAndMeasure(ctx, timer, c, c.primitive);
    const base = {
      case: c,
      timer: timer.method,
      verification: main.checked.verification,
      ...(main.ones !== undefined ? { ones: main.ones } : {}),
    };
    if (!main.measurement) return { ...base, status: 'failed', message: main.checked.problem ?? 'not verified' };
    const m = main.measurement;
    // The baselines share this process and size, so the ratio compares like with like.
    const copy = c.primitive === 'copy' ? m : await baseline(ctx, timer, c, 'copy');
    const readOnly = c.primitive === 'read-only' ? m : c.primitive === 'reduce' ? await baseline(ctx, timer, c, 'read-only') : undefined;
    return {
      ...base,
      status: 'ok',
      measurement: m,
      copy,
      ...finiteRatio('ratioCopy', m, copy),
      ...(readOnly ? { readOnly, ...finiteRatio('ratioReadOnly', m, readOnly) } : {}),
    };
  } finally {
    timer.destroy();
  }
}

/** `{ [key]: m GB/s ÷ base GB/s }`, or nothing when a time was below the timer's resolution. */
function finiteRatio<K extends string>(key: K, m: Measurement, base: Measurement): { [P in K]?: number } {
  const ratio = m.gbps / base.gbps;
  return (Number.isFinite(ratio) ? { [key]: ratio } : {}) as { [P in K]?: number };
}

async function baseline(ctx: ScanContext, timer: GpuTimer, c: BenchCase, primitive: 'copy' | 'read-only'): Promise<Measurement> {
  const { checked, measurement } = await verifyAndMeasure(ctx, timer, c, primitive);
  if (!measurement) throw new Error(`${primitive} baseline failed its check: ${checked.problem}`);
  return measurement;
}
