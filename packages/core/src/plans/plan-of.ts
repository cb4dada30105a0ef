import { checkEncodeCall } from './plan-args.js';
import type { Plan } from './types.js';

/** What a plan is made of: executors and other plans, each owning buffers. */
export interface PlanPart {
  destroy(): void;
  readonly scratchBytes: number;
  readonly memoryBytes: number;
  readonly allocations: number;
  /** Inner plans have one; executors do not (their plan passes what they load). */
  readonly ready?: Promise<void>;
}

/**
 * A {@link Plan} from its `encode`, the parts that own its buffers, and what it compiles ahead
 * (`ready`, usually `exec.load([...recipes of every path])`): `destroy` frees every part,
 * `scratchBytes`, `memoryBytes` and `allocations` add them up, and `ready` waits for the plan's own
 * pipelines and its inner plans'. The plan's `encode` checks its encoder and that its args are an
 * object (`checkEncodeCall`, naming the plan by `what`) before the `encode` given here runs, which
 * checks the buffers and the count (`checkEncodeArgs`) before it compiles or creates anything.
 *
 * @example
 * ```ts
 * const plan = planOf([exec, scanPlan], {
 *   what: 'my plan',
 *   encode(encoder, args) {
 *     // exec.encode(encoder, …) and scanPlan.encode(encoder, …)
 *   },
 *   ready: exec.load([recipe]), // every recipe the plan can run
 * });
 * ```
 */
export function planOf<Args>(
  parts: readonly PlanPart[],
  plan: Pick<Plan<Args>, 'encode'> & { readonly what: string; ready?: Promise<void> },
): Plan<Args> {
  const waits: Promise<void>[] = [];
  if (plan.ready) waits.push(plan.ready);
  for (const part of parts) if (part.ready) waits.push(part.ready);
  const ready = Promise.all(waits).then(() => undefined);
  // Nobody has to await `ready`: a failed compilation must not surface as an unhandled rejection
  // (the encode that needs the kernel reports it); awaiting it still rejects.
  ready.catch(() => undefined);
  const { what, encode } = plan;
  return {
    encode(encoder, args) {
      checkEncodeCall(what, encoder, args);
      encode(encoder, args);
    },
    ready,
    destroy() {
      for (const part of parts) part.destroy();
    },
    get scratchBytes() {
      return parts.reduce((sum, part) => sum + part.scratchBytes, 0);
    },
    get memoryBytes() {
      return parts.reduce((sum, part) => sum + part.memoryBytes, 0);
    },
    get allocations() {
      return parts.reduce((sum, part) => sum + part.allocations, 0);
    },
  };
}
