import { countDeviceCalls, type DeviceCounts } from './counting.js';
import { createRng } from './random.js';

/** What {@link runFrameLoop} drives: how to make the plan and record one frame. */
export interface FrameLoopOptions<P extends { destroy(): void; readonly ready?: Promise<void> }> {
  /** Makes the plan (its setup is counted apart from the frames). */
  create(): P;
  /**
   * Records frame `frame` into `encoder` (a new count, new scalars…, as an application would).
   * With `maxCount`, `count` is the frame's count (see there); else it is 0.
   */
  encode(plan: P, encoder: GPUCommandEncoder, frame: number, count: number): void;
  /**
   * Draws the frames' counts: the warm-up at large counts — `maxCount` first (the most scratch),
   * then counts in its top eighth, as a frame loop near its size would see — and the counted frames
   * over all of [0, maxCount]: 0, 1, 2, 3, 5 and maxCount − 1 first, then uniformly at random. A
   * plan must make every structure a count may take when it first meets its buffers, not when a
   * count first crosses a threshold.
   */
  maxCount?: number;
  /** Seed of the counts drawn (default 1). */
  seed?: number;
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
 * const counts = await runFrameLoop(ctx.device, {
 *   create: () => createScanPlan(ctx, { maxCount: 4096 }),
 *   // Warmed up near 4096, then counts over all of [0, 4096].
 *   encode: (plan, encoder, _frame, count) => plan.encode(encoder, { input, output, count }),
 *   maxCount: 4096,
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
    const countOf = frameCounts(options.maxCount, options.seed ?? 1, warmupFrames);
    const frame = (i: number) => {
      const encoder = device.createCommandEncoder();
      options.encode(plan as P, encoder, i, countOf(i));
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

/**
 * The count of each frame of {@link runFrameLoop} with `maxCount` (0 without): see
 * `FrameLoopOptions.maxCount`.
 *
 * @example
 * ```ts
 * const countOf = frameCounts(8192, 1, 16);
 * countOf(0); // 8192
 * countOf(16); // 0, the first counted frame
 * ```
 */
export function frameCounts(maxCount: number | undefined, seed: number, warmupFrames: number): (frame: number) => number {
  if (maxCount === undefined) return () => 0;
  const rng = createRng(seed);
  const edges = [0, 1, 2, 3, 5, Math.max(0, maxCount - 1)].filter((n) => n <= maxCount);
  return (frame) => {
    if (frame === 0) return maxCount;
    if (frame < warmupFrames) return maxCount - rng.int(0, Math.floor(maxCount / 8));
    const counted = frame - warmupFrames;
    return counted < edges.length ? (edges[counted] as number) : rng.int(0, maxCount);
  };
}
