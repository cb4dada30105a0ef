import type { PlanMemory } from '../../report.js';

// What the frame cases need of a plan, duck-typed: the same bench must run on the code before and
// after a change of the plans' API (`ready`, `memoryBytes` and the GPU-count arguments are new).

/**
 * A plan as the frame cases drive it.
 *
 * @example
 * ```ts
 * const plan: FramePlan = asFramePlan(createPackPlan(ctx, { type: 'u32', maxCount: n }));
 * ```
 */
export interface FramePlan {
  /** Records the plan's work; the arguments are the workload's buffers plus the count (host or GPU). */
  encode(encoder: GPUCommandEncoder, args: Readonly<Record<string, unknown>>): void;
  destroy(): void;
  readonly allocations?: number;
  readonly scratchBytes?: number;
  readonly memoryBytes?: number;
  /** New API: resolves when the plan's pipelines are compiled. */
  readonly ready?: PromiseLike<unknown>;
}

/**
 * A plan of any package as a {@link FramePlan} (the cast the frame cases need to pass the GPU-count
 * form to a plan whose types do not have it yet).
 *
 * @example
 * ```ts
 * const plan = asFramePlan(createScanPlan(ctx, { type: 'u32', maxCount: n }));
 * ```
 */
export function asFramePlan(plan: { encode(encoder: GPUCommandEncoder, args: never): void; destroy(): void }): FramePlan {
  return plan as unknown as FramePlan;
}

/**
 * The plan's memory accounting now: the numeric ones of `allocations`, `scratchBytes`, `memoryBytes`.
 *
 * @example
 * ```ts
 * planMemory(plan); // { allocations: 1, scratchBytes: 4352, memoryBytes: 4608 }
 * ```
 */
export function planMemory(plan: FramePlan): PlanMemory {
  const pick = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const allocations = pick(plan.allocations);
  const scratchBytes = pick(plan.scratchBytes);
  const memoryBytes = pick(plan.memoryBytes);
  return {
    ...(allocations !== undefined ? { allocations } : {}),
    ...(scratchBytes !== undefined ? { scratchBytes } : {}),
    ...(memoryBytes !== undefined ? { memoryBytes } : {}),
  };
}

/**
 * The plan's `ready` promise, or undefined when it has none (the code before `ready` existed).
 *
 * @example
 * ```ts
 * const ready = readyOf(plan);
 * if (ready) await ready;
 * ```
 */
export function readyOf(plan: FramePlan): PromiseLike<unknown> | undefined {
  const ready = plan.ready;
  return ready !== undefined && ready !== null && typeof (ready as PromiseLike<unknown>).then === 'function' ? ready : undefined;
}
