import { countDeviceCalls, type DeviceCounts } from './counting.js';

/** What {@link runFrameLoop} drives: how to make the plan and record one frame. */
export interface FrameLoopOptions<P extends { destroy(): void; readonly ready?: Promise<void> }> {
  /** Makes the plan (its setup is counted apart from the frames). */
  create(): P;
  /** Records frame `frame` into `encoder` (a new count, new scalars…, as an application would). */
  encode(plan: P, encoder: GPUCommandEncoder, frame: number): void;
  /** Frames counted after the warm-up (default 1000). */
  frames?: number;
  /**
   * Frames before counting (default 16: more than a plan's parameter slots, so each slot's bind
   * groups exist). Encode the largest case first in the warm-up when the plan grows with the count.
   */
  warmup?: number;
  /**
   * Submit one frame in this many (default 10); the others are finished and dropped, which records
   * the same commands without making a software adapter run every frame.
   */
  submitEvery?: number;
}

/** What the device made during {@link runFrameLoop}, by phase. */
export interface FrameLoopCounts {
  /** While the plan was created and its pipelines compiled (`await plan.ready`). */
  readonly setup: DeviceCounts;
  readonly warmup: DeviceCounts;
  /** During the counted frames: a plan in steady state makes nothing here. */
  readonly steady: DeviceCounts;
  /** Buffers the plan made that are still alive after `plan.destroy()` (it must free them all). */
  readonly liveAfterDestroy: number;
  /** Buffers alive at the end of the frames (before `destroy`): what the plan holds. */
  readonly liveAtEnd: number;
}

/**
 * Drives a plan the way a real-time application does — one encoder per frame, a new count every
 * frame — while counting the buffers, bind groups and pipelines the device creates, then destroys
 * the plan and counts what it left alive. The frames run inside a validation error scope; a
 * validation error fails the loop.
 *
 * @example
 * ```ts
 * const rng = createRng(7);
 * const counts = await runFrameLoop(ctx.device, {
 *   create: () => createScanPlan(ctx, { maxCount: 4096 }),
 *   encode: (plan, encoder) => plan.encode(encoder, { input, output, count: rng.int(0, 4096) }),
 * });
 * expect(counts.steady).toEqual({ buffers: 0, bindGroups: 0, pipelines: 0 });
 * expect(counts.liveAfterDestroy).toBe(0);
 * ```
 */
export async function runFrameLoop<P extends { destroy(): void; readonly ready?: Promise<void> }>(
  device: GPUDevice,
  options: FrameLoopOptions<P>,
): Promise<FrameLoopCounts> {
  const frames = options.frames ?? 1000;
  const warmupFrames = options.warmup ?? 16;
  const submitEvery = options.submitEvery ?? 10;
  const counted = countDeviceCalls(device);
  device.pushErrorScope('validation');
  let scopeOpen = true;
  let plan: P | undefined;
  try {
    plan = options.create();
    await plan.ready;
    const setup = { ...counted.counts };
    counted.reset();
    const frame = (i: number) => {
      const encoder = device.createCommandEncoder();
      options.encode(plan as P, encoder, i);
      const commands = encoder.finish();
      if (i % submitEvery === 0) device.queue.submit([commands]);
    };
    for (let i = 0; i < warmupFrames; i++) frame(i);
    const warmup = { ...counted.counts };
    counted.reset();
    for (let i = 0; i < frames; i++) frame(warmupFrames + i);
    const steady = { ...counted.counts };
    await device.queue.onSubmittedWorkDone();
    const liveAtEnd = counted.live.size;
    plan.destroy();
    plan = undefined;
    const liveAfterDestroy = counted.live.size;
    scopeOpen = false;
    const error = await device.popErrorScope();
    if (error) throw new Error(`a frame raised a WebGPU validation error: ${error.message}`);
    return { setup, warmup, steady, liveAfterDestroy, liveAtEnd };
  } catch (e) {
    plan?.destroy();
    if (scopeOpen) await device.popErrorScope().catch(() => undefined);
    throw e;
  } finally {
    counted.restore();
  }
}
