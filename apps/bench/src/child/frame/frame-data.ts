import type { ScanContext } from '@scan/core';
import type { BenchCase } from '../../case-types.js';
import type { Verification } from '../../report.js';
import type { CheckOutcome } from '../device-ops.js';
import { type BufferPool, encodeKernel } from '../gpu.js';
import { checkTailWgsl } from '../kernels/check-tail.js';
import type { FramePlan } from './frame-plan.js';

// What a frame case needs of its workload (sort, pack, scan): the buffers on the GPU, a plan,
// an untimed per-frame step that restores inputs and poisons outputs, and a check of one frame's
// output at its count. The per-frame step only records copies between buffers made at setup, so
// a frame creates no GPU object of the bench's own and the creation counts are the plan's.

/**
 * A check's verdict: the report's verification record and, when wrong, why.
 *
 * @example
 * ```ts
 * const check: FrameCheck = await data.verify(count); // check.problem is undefined when correct
 * ```
 */
export interface FrameCheck {
  readonly verification: Verification;
  readonly problem?: string;
}

/**
 * One workload's data on the GPU.
 *
 * @example
 * ```ts
 * const data: FrameData = await FRAME_DATA.scan(ctx, c);
 * ```
 */
export interface FrameData {
  /** The buffers of `encode`'s arguments; the frame adds the count (`count`, or `countBuffer`). */
  readonly buffers: Readonly<Record<string, GPUBuffer>>;
  /** Creates the case's plan (`create*Plan` with `maxCount` n); first-call times this. */
  createPlan(): FramePlan;
  /**
   * Records the untimed step before a frame's start mark: the sort's unsorted keys and values
   * restored, the outputs poisoned (copies only; creates nothing).
   */
  prepare(encoder: GPUCommandEncoder): void;
  /** Checks the output of the last frame, which ran at `count` (GPU checks; CPU reference at small n). */
  verify(count: number): Promise<FrameCheck>;
  destroy(): void;
}

/**
 * Builds a workload's data for a case: buffers sized for `c.n`, inputs generated on the GPU.
 *
 * @example
 * ```ts
 * export const scanFrameData: FrameDataFactory = async (ctx, c) => ({ buffers, createPlan, prepare, verify, destroy });
 * ```
 */
export type FrameDataFactory = (ctx: ScanContext, c: BenchCase) => Promise<FrameData>;

/**
 * The verdict of a GPU check and (at small sizes) a CPU comparison.
 *
 * @example
 * ```ts
 * const check = frameCheck(await runCheck(ctx, pool, record), cpuMismatches);
 * if (check.problem) return failed(check.problem);
 * ```
 */
export function frameCheck(gpu: CheckOutcome, cpuMismatches?: number): FrameCheck {
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
 * Records the check that `actual[i] == expected[i]` for i in [start, end): the words a frame of
 * count `start` must not have touched (see `checkTailWgsl`).
 *
 * @example
 * ```ts
 * encodeTailCheck(ctx, pool, encoder, errors, output, poison, count, n);
 * ```
 */
export function encodeTailCheck(
  ctx: ScanContext,
  pool: BufferPool,
  encoder: GPUCommandEncoder,
  errors: GPUBuffer,
  actual: GPUBuffer,
  expected: GPUBuffer,
  start: number,
  end: number,
): void {
  if (start >= end) return;
  encodeKernel(ctx, encoder, { key: 'bench/check-tail', wgsl: checkTailWgsl }, [actual, expected, errors, pool.params(end, start)], {
    invocations: end - start,
  });
}
