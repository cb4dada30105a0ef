import type { ScanContext } from '@scan/core';
import type { BenchCase } from '../../case-types.js';
import type { CaseResult, FirstCallRecord } from '../../report.js';
import { guarded } from '../guard.js';
import { type CreationCounter, watchCreations } from './creation-counter.js';
import { type FramePlan, readyOf } from './frame-plan.js';
import { FRAME_DATA } from './frame-workloads.js';

// The first call of a plan in a fresh process: each case runs in its own child, so no pipeline of
// the library is compiled yet (the bench's own generators and checks have their own cache keys).
// What an application waits for before its first frame shows: creation, `ready`, the first
// encode (which compiles synchronously what is not compiled yet) and the first frame on the GPU.

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
export async function runFirstCall(ctx: ScanContext, c: BenchCase): Promise<CaseResult> {
  const workload = c.frameWorkload;
  if (!workload) throw new Error(`first-call: case ${c.id} names no frameWorkload`);
  const n = c.n;
  // The data's own step (restore, poison) already ran at setup: the first frame is the plan alone.
  const data = await guarded(ctx, 'first-call setup', () => FRAME_DATA[workload](ctx, c));
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
