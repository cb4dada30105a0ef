import type { Plan } from './types.js';

/** What a plan is made of: executors and other plans, each owning scratch. */
export interface PlanPart {
  destroy(): void;
  readonly scratchBytes: number;
  readonly allocations: number;
}

/**
 * A {@link Plan} from its `encode` and the parts that own its scratch: `destroy` frees every part,
 * `scratchBytes` and `allocations` add them up.
 *
 * @example
 * ```ts
 * return planOf([exec, scanPlan], {
 *   encode(encoder, args) { ... },
 * });
 * ```
 */
export function planOf<Args>(parts: readonly PlanPart[], plan: Pick<Plan<Args>, 'encode'>): Plan<Args> {
  return {
    encode: plan.encode,
    destroy() {
      for (const part of parts) part.destroy();
    },
    get scratchBytes() {
      return parts.reduce((sum, part) => sum + part.scratchBytes, 0);
    },
    get allocations() {
      return parts.reduce((sum, part) => sum + part.allocations, 0);
    },
  };
}
