import type { ScanContext } from '@scan/core';
import { benchModule } from '../bench-module.js';
import type { Case, CaseShape } from '../case-types.js';
import { type CreationCounter, watchCreations } from '../child/frame/creation-counter.js';
import { FRAME_WORKLOADS, type FrameWorkloadFields, frameWorkloadShape } from '../child/frame/frame-data.js';
import { type FramePlan, readyOf } from '../child/frame/frame-plan.js';
import { frameDataOf } from '../child/frame/frame-workloads.js';
import { guarded } from '../child/guard.js';
import type { CaseResult, FirstCallRecord } from '../report.js';

// The first call of a plan in a fresh process: each case runs in its own child, so no pipeline of
// the library is compiled yet (the bench's own generators and checks have their own cache keys).
// What an application waits for before its first frame shows: creation, `ready`, the first
// encode (which compiles synchronously what is not compiled yet) and the first frame on the GPU.

/**
 * The two ways of a first call: `wait` awaits the plan's `ready` promise (its pipelines) before the
 * first encode; `no-wait` encodes at once.
 *
 * @example
 * ```ts
 * const variant: FirstCallVariant = FIRST_CALL_VARIANTS[0]; // 'wait'
 * ```
 */
export const FIRST_CALL_VARIANTS = ['wait', 'no-wait'] as const;
export type FirstCallVariant = (typeof FIRST_CALL_VARIANTS)[number];

/** A first-call case: the plan (see `FrameWorkloadFields`) and whether `ready` is awaited first. Its `n` is the plan's maxCount. */
export type FirstCallCase = Case<'first-call', FrameWorkloadFields & { firstCall: FirstCallVariant }>;

/**
 * Size of the first-call cases when `--sizes` is not given.
 *
 * @example
 * ```ts
 * enumerateCases({ ...options, only: ['first-call'] })[0].n; // 2^20 without --sizes
 * ```
 */
export const FIRST_CALL_SIZES: readonly number[] = [2 ** 20];

/**
 * The first-call configurations: each workload awaiting `ready` first and encoding at once.
 *
 * @example
 * ```ts
 * firstCallShapes().map((s) => `${s.frameWorkload} ${s.firstCall}`); // ['sort wait', 'sort no-wait', 'pack wait', …]
 * ```
 */
export function firstCallShapes(): CaseShape<FirstCallCase>[] {
  return FRAME_WORKLOADS.flatMap((w) =>
    FIRST_CALL_VARIANTS.map((firstCall): CaseShape<FirstCallCase> => ({ primitive: 'first-call', ...frameWorkloadShape(w), firstCall })),
  );
}

/**
 * Runs a `first-call` case: with the inputs already on the GPU, creates the plan, awaits `ready`
 * (variant `wait`, where the plan has it), encodes one frame of count n, submits and waits for it —
 * each step timed by wall clock — then verifies the output.
 *
 * @example
 * ```ts
 * const result = await runFirstCall(ctx, { ...c, primitive: 'first-call', frameWorkload: 'scan', firstCall: 'wait' });
 * result.firstCall?.totalMs;
 * ```
 */
export async function runFirstCall(ctx: ScanContext, c: FirstCallCase): Promise<CaseResult> {
  const n = c.n;
  // The data's own step (restore, poison) already ran at setup: the first frame is the plan alone.
  const data = await guarded(ctx, 'first-call setup', () => frameDataOf(ctx, c));
  let plan: FramePlan | undefined;
  let counter: CreationCounter | undefined;
  try {
    const record = await guarded(ctx, 'first call', async (): Promise<FirstCallRecord> => {
      counter = watchCreations(ctx.device);
      const t0 = performance.now();
      plan = data.createPlan();
      const t1 = performance.now();
      const ready = readyOf(plan);
      if (c.firstCall === 'wait' && ready) await ready;
      const t2 = performance.now();
      const encoder = ctx.device.createCommandEncoder();
      const args = { ...data.buffers, count: n };
      const t3 = performance.now();
      plan.encode(encoder, args);
      const t4 = performance.now();
      const commands = encoder.finish();
      const t5 = performance.now();
      ctx.device.queue.submit([commands]);
      await ctx.device.queue.onSubmittedWorkDone();
      const t6 = performance.now();
      counter.restore();
      return {
        createMs: t1 - t0,
        ...(c.firstCall === 'wait' && ready ? { readyMs: t2 - t1 } : {}),
        hasReady: ready !== undefined,
        encodeMs: t4 - t3,
        frameMs: t6 - t5,
        totalMs: t6 - t0,
        count: n,
        created: { ...counter.total },
      };
    });
    const check = await guarded(ctx, 'first-call check', () => data.verify(n));
    if (check.problem) return { case: c, status: 'failed', message: check.problem, verification: check.verification, firstCall: record };
    return { case: c, status: 'ok', timer: 'wall-clock', verification: check.verification, firstCall: record };
  } finally {
    counter?.restore();
    plan?.destroy();
    data.destroy();
  }
}

/**
 * `first-call` in the registry: the first use of a sort, pack, scan and segmented scan plan in a
 * fresh process, with and without awaiting `ready` ({@link runFirstCall}). A software adapter's
 * default run samples the `no-wait` case of each plan (awaiting the sort's `ready` alone takes most
 * of a minute on SwiftShader).
 *
 * @example
 * ```ts
 * enumerateCases({ ...selection, only: ['first-call'] }); // 8 cases per size
 * ```
 */
export const FIRST_CALL = benchModule<FirstCallCase>({
  package: '@scan/core, @scan/sort',
  primitives: ['first-call'],
  shapes: firstCallShapes,
  sample: (shapes) => shapes.filter((s) => s.firstCall === 'no-wait'),
  defaultSizes: FIRST_CALL_SIZES,
  run: runFirstCall,
});
