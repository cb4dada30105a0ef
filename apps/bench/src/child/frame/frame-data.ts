import type { ScanContext } from '@scan/core';
import type { CaseCommon } from '../../case-types.js';
import type { Verification } from '../../report.js';
import type { CheckOutcome } from '../device-ops.js';
import { type BufferPool, encodeKernel } from '../gpu.js';
import { checkTailKernel } from '../kernels/check-tail.js';
import type { FramePlan } from './frame-plan.js';

// What a frame case needs of its workload (sort, pack, scan): the buffers on the GPU, a plan,
// an untimed per-frame step that restores inputs and poisons outputs, and a check of one frame's
// output at its count. The per-frame step only records copies between buffers made at setup, so
// a frame creates no GPU object of the bench's own and the creation counts are the plan's.

/**
 * The plans a frame case records, as the applications use them: `sort` the descending key–value
 * sort of f32 depths with u32 indices (a Gaussian-splat viewer), `pack` the compaction of u32
 * elements by u32 flags, `scan` the exclusive u32 add scan (a particle system's live list and bins)
 * and `segmented-scan` the exclusive segmented add scan (its per-cell offsets).
 *
 * @example
 * ```ts
 * const workload: FrameWorkloadName = FRAME_WORKLOADS[0]; // 'sort'
 * ```
 */
export const FRAME_WORKLOADS = ['sort', 'pack', 'scan', 'segmented-scan'] as const;
export type FrameWorkloadName = (typeof FRAME_WORKLOADS)[number];

/** The fields that name a frame case's plan (its options and types) in its series. */
export type FrameWorkloadFields =
  | { readonly frameWorkload: 'sort'; readonly valueType: 'u32'; readonly descending: true }
  | { readonly frameWorkload: 'pack'; readonly flagType: 'u32' }
  | { readonly frameWorkload: 'scan'; readonly op: 'add'; readonly inclusive: false }
  | { readonly frameWorkload: 'segmented-scan'; readonly op: 'add'; readonly inclusive: false; readonly segmentMean: number };

/** A frame case as its data needs it: the common fields and its plan's. */
export type FrameCaseData = CaseCommon & FrameWorkloadFields;

/** The frame case data of one plan. */
export type FrameCaseOf<W extends FrameWorkloadName> = CaseCommon & Extract<FrameWorkloadFields, { readonly frameWorkload: W }>;

/**
 * The plan options and types of each frame workload: the shape fields that name it in the series.
 *
 * @example
 * ```ts
 * frameWorkloadShape('sort'); // { frameWorkload: 'sort', type: 'f32', valueType: 'u32', descending: true }
 * ```
 */
export function frameWorkloadShape(workload: FrameWorkloadName): FrameWorkloadFields & Pick<CaseCommon, 'type'> {
  switch (workload) {
    case 'sort':
      // Depths sorted far to near with the splat indices as values, as a splat viewer does.
      return { frameWorkload: 'sort', type: 'f32', valueType: 'u32', descending: true };
    case 'pack':
      return { frameWorkload: 'pack', type: 'u32', flagType: 'u32' };
    case 'scan':
      return { frameWorkload: 'scan', type: 'u32', op: 'add', inclusive: false };
    case 'segmented-scan':
      // Per-cell offsets of a particle system: segments of 32 elements on average.
      return { frameWorkload: 'segmented-scan', type: 'u32', op: 'add', inclusive: false, segmentMean: 32 };
  }
}

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
 * const data: FrameData = await frameDataOf(ctx, c);
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
 * export const scanFrameData: FrameDataFactory<FrameCaseOf<'scan'>> = async (ctx, c) => ({ buffers, createPlan, prepare, verify, destroy });
 * ```
 */
export type FrameDataFactory<C> = (ctx: ScanContext, c: C) => Promise<FrameData>;

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
 * count `start` must not have touched (see `checkTailKernel`).
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
  const params = pool.params(checkTailKernel, { end, start });
  encodeKernel(ctx, encoder, checkTailKernel, { actual, expected, err: errors, params }, { invocations: end - start });
}
