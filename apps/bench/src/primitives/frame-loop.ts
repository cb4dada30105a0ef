import { BufferUsage, type ScanContext, ScanError } from '@scan/core';
import { benchModule } from '../bench-module.js';
import type { Case, CaseSelection, CaseShape } from '../case-types.js';
import { type CreationCounter, perFrame, subtractCounts, watchCreations } from '../child/frame/creation-counter.js';
import { frameCountsOf } from '../child/frame/frame-counts.js';
import { FRAME_WORKLOADS, type FrameData, type FrameWorkloadFields, frameWorkloadShape } from '../child/frame/frame-data.js';
import { type FramePlan, planMemory, readyOf } from '../child/frame/frame-plan.js';
import { asFrameStats } from '../child/frame/frame-stats.js';
import { createFrameTimer, type FrameTimer } from '../child/frame/frame-timer.js';
import { frameDataOf } from '../child/frame/frame-workloads.js';
import { submitAndWait } from '../child/gpu.js';
import { guarded } from '../child/guard.js';
import { heatGpu } from '../child/heat.js';
import type { CaseResult, FrameLoopRecord } from '../report.js';

// frame-loop: what a real-time application pays for a plan it records into its own
// encoder every frame, with a count that changes every frame. Its report record is `frameLoop`
// (report.ts); the data of each plan is in child/frame/.
// The frame loop of a real-time application: every frame a new count (seeded, in [n/2, n]), a new
// encoder, the plan recorded into it between two timestamp marks, submitted; frames back to back
// with a few in flight (frame-timer.ts). Verified at a known count before any frame is timed, and
// the last frame's output again after.

/**
 * Where a frame's count comes from: `host`, the number in `encode`'s arguments; `gpu`, a word of a
 * storage buffer written before the frame (standing for a culling pass's output), read by the plan.
 *
 * @example
 * ```ts
 * const source: CountSource = COUNT_SOURCES[1]; // 'gpu'
 * ```
 */
export const COUNT_SOURCES = ['host', 'gpu'] as const;
export type CountSource = (typeof COUNT_SOURCES)[number];

/**
 * A frame-loop case: the plan (see `FrameWorkloadFields`), where each frame's count comes from,
 * and the measured and warm-up frames. Its `n` is the plan's maxCount.
 */
export type FrameLoopCase = Case<'frame-loop', FrameWorkloadFields & { countSource: CountSource; frames: number; warmupFrames: number }>;

/**
 * Measured frames of a frame-loop case when `--runs` is not given (on every adapter).
 *
 * @example
 * ```ts
 * frameCounts(selection).frames; // DEFAULT_FRAMES unless --runs was given
 * ```
 */
export const DEFAULT_FRAMES = 300;

/**
 * Warm-up frames of a frame-loop case when `--warmup` is not given.
 *
 * @example
 * ```ts
 * frameCounts(selection).warmupFrames; // DEFAULT_WARMUP_FRAMES unless --warmup was given
 * ```
 */
export const DEFAULT_WARMUP_FRAMES = 30;

/**
 * Sizes (the plans' maxCount) of the frame-loop cases when `--sizes` is not given: small, medium and large scenes.
 *
 * @example
 * ```ts
 * enumerateCases({ ...options, only: ['frame-loop'] }).map((c) => c.n); // 2^14, 2^18, 2^22 (six cases each) without --sizes
 * ```
 */
export const FRAME_LOOP_SIZES: readonly number[] = [2 ** 14, 2 ** 18, 2 ** 22];

/**
 * The frame-loop configurations: each workload with the count from the host and from the GPU, with
 * the selection's frames (see {@link frameCounts}).
 *
 * @example
 * ```ts
 * frameLoopShapes(selection).map((s) => `${s.frameWorkload} ${s.countSource}`); // ['sort host', 'sort gpu', 'pack host', …]
 * ```
 */
export function frameLoopShapes(selection: CaseSelection): CaseShape<FrameLoopCase>[] {
  const counts = frameCounts(selection);
  return FRAME_WORKLOADS.flatMap((w) =>
    COUNT_SOURCES.map(
      (countSource): CaseShape<FrameLoopCase> => ({ primitive: 'frame-loop', ...frameWorkloadShape(w), countSource, ...counts }),
    ),
  );
}

/**
 * Frames of a frame-loop case: `--runs` / `--warmup` when given, else 300 after 30 (the software
 * adapter's 10 runs do not apply: the JavaScript medians need many frames, and a frame is cheap).
 *
 * @example
 * ```ts
 * frameCounts({ sizes: [4096], runs: 10, warmup: 1, seed: 1, density: 0.5 }); // { frames: 300, warmupFrames: 30 }
 * ```
 */
export function frameCounts(selection: CaseSelection): { frames: number; warmupFrames: number } {
  return { frames: selection.frames ?? DEFAULT_FRAMES, warmupFrames: selection.warmupFrames ?? DEFAULT_WARMUP_FRAMES };
}

/** Whether `error` is the library's argument error (what an old plan throws at the GPU-count form). */
function isScanError(error: unknown): error is Error {
  return error instanceof ScanError || (error instanceof Error && error.name === 'ScanError');
}

/** How a frame's count reaches the plan: in the arguments, or written into a GPU buffer first. */
interface CountFeed {
  /** The arguments of `encode` for a frame of `count` (one object reused for a GPU count). */
  args(count: number): Readonly<Record<string, unknown>>;
  /** Writes `count` where the plan reads it (the GPU count's buffer, with `queue.writeBuffer`). */
  write(count: number): void;
  destroy(): void;
}

function countFeed(ctx: ScanContext, c: FrameLoopCase, data: FrameData): CountFeed {
  if (c.countSource !== 'gpu') return { args: (count) => ({ ...data.buffers, count }), write() {}, destroy() {} };
  // Stands for a culling pass's output: a storage buffer the application's own kernel would write.
  const countBuffer = ctx.device.createBuffer({ size: 16, usage: BufferUsage.STORAGE | BufferUsage.COPY_DST, label: 'bench frame count' });
  const args = { ...data.buffers, countBuffer, countOffset: 0 };
  const word = new Uint32Array(1);
  return {
    args: () => args,
    write(count) {
      word[0] = count;
      ctx.device.queue.writeBuffer(countBuffer, 0, word);
    },
    destroy: () => countBuffer.destroy(),
  };
}

/** What the loop needs to record frames. */
interface Loop {
  readonly ctx: ScanContext;
  readonly plan: FramePlan;
  readonly data: FrameData;
  readonly feed: CountFeed;
  readonly timer: FrameTimer;
  readonly encodeMs: number[];
  counter?: CreationCounter;
}

/**
 * One frame `k` of `count`: the count written, then in a new encoder the untimed restore/poison
 * step, the start mark, `plan.encode` (its JavaScript time alone measured), the end mark; submitted
 * without waiting (the ring waits, `inFlight` frames later).
 */
async function recordFrame(loop: Loop, k: number, count: number, measured: boolean): Promise<void> {
  const { ctx, plan, data, feed, timer, counter } = loop;
  await timer.acquire(k);
  feed.write(count);
  const args = feed.args(count);
  recordTimedEncode(
    { ctx, timer, counter, encodeMs: loop.encodeMs },
    k,
    measured,
    (encoder) => plan.encode(encoder, args),
    (encoder) => data.prepare(encoder),
  );
}

/**
 * Frame `k` in a new encoder: the untimed `before` step, the start mark, `encode` (its JavaScript
 * time alone measured, into `encodeMs` when `measured`; the creation counter counts inside it), the
 * end mark; submitted without waiting. The caller has acquired the timer's slot `k`.
 *
 * @example
 * ```ts
 * await timer.acquire(k);
 * recordTimedEncode({ ctx, timer, counter, encodeMs }, k, true, (encoder) => plan.encode(encoder, args));
 * ```
 */
export function recordTimedEncode(
  loop: {
    readonly ctx: ScanContext;
    readonly timer: FrameTimer;
    readonly encodeMs: number[];
    readonly counter?: CreationCounter | undefined;
  },
  k: number,
  measured: boolean,
  encode: (encoder: GPUCommandEncoder) => void,
  before?: (encoder: GPUCommandEncoder) => void,
): void {
  const { ctx, timer, counter } = loop;
  const encoder = ctx.device.createCommandEncoder();
  before?.(encoder);
  timer.begin(encoder, k);
  if (counter) counter.insideFlag = true;
  const t0 = performance.now();
  encode(encoder);
  const t1 = performance.now();
  if (counter) counter.insideFlag = false;
  timer.end(encoder, k);
  ctx.device.queue.submit([encoder.finish()]);
  timer.submitted(k, measured);
  if (measured) loop.encodeMs.push(t1 - t0);
}

/**
 * Runs a `frame-loop` case: setup, plan (its `ready` awaited where it has one), one verified frame
 * at count n − 3, `warmupFrames` untimed frames, `frames` measured frames with the device's creating
 * methods counted, the last frame verified again. A plan that rejects the GPU-count form with a
 * `ScanError` makes the case `skipped` ("GPU count not supported by this plan"), so the same bench
 * runs on plans from before and after that form existed.
 *
 * @example
 * ```ts
 * const result = await runFrameLoop(ctx, { ...c, primitive: 'frame-loop', frameWorkload: 'sort', countSource: 'gpu' });
 * result.frameLoop?.encode.medianMs;
 * ```
 */
export async function runFrameLoop(ctx: ScanContext, c: FrameLoopCase): Promise<CaseResult> {
  const frames = c.frames;
  const warmupFrames = c.warmupFrames;
  const n = c.n;
  const data = await guarded(ctx, 'frame-loop setup', () => frameDataOf(ctx, c));
  const timer = createFrameTimer(ctx);
  const feed = countFeed(ctx, c, data);
  let plan: FramePlan | undefined;
  let counter: CreationCounter | undefined;
  try {
    plan = await guarded(ctx, 'plan creation', async () => data.createPlan());
    const planAtCreation = planMemory(plan);
    const ready = readyOf(plan);
    let readyMs: number | undefined;
    if (ready) {
      const t0 = performance.now();
      await guarded(ctx, 'plan ready', async () => void (await ready));
      readyMs = performance.now() - t0;
    }
    const loop: Loop = { ctx, plan, data, feed, timer, encodeMs: [] };
    const known = Math.max(1, n - 3);
    try {
      await guarded(ctx, 'first frame', async () => {
        feed.write(known);
        const encoder = ctx.device.createCommandEncoder();
        data.prepare(encoder);
        loop.plan.encode(encoder, feed.args(known));
        await submitAndWait(ctx, encoder);
      });
    } catch (error) {
      // The old plans throw at the GPU-count arguments before recording anything.
      if (c.countSource === 'gpu' && isScanError(error)) {
        return { case: c, status: 'skipped', message: `GPU count not supported by this plan: ${error.message}` };
      }
      throw error;
    }
    const first = await guarded(ctx, 'first check', () => data.verify(known));
    if (first.problem) return { case: c, status: 'failed', message: first.problem, verification: first.verification };

    const counts = frameCountsOf(n, warmupFrames + frames, c.seed);
    // Clocks up before the frames (see heat.ts); the warm-up frames then keep them there.
    await heatGpu(ctx);
    await guarded(ctx, 'warm-up frames', async () => {
      for (let k = 0; k < warmupFrames; k++) await recordFrame(loop, k, counts[k]!, false);
    });
    const planBefore = planMemory(plan);
    // Installed only now: setup, the timer's ring and the count buffer were all made before it.
    counter = watchCreations(ctx.device);
    loop.counter = counter;
    const t0 = performance.now();
    await guarded(ctx, 'measured frames', async () => {
      for (let k = warmupFrames; k < warmupFrames + frames; k++) await recordFrame(loop, k, counts[k]!, true);
      await timer.drain();
    });
    const wallMsPerFrame = (performance.now() - t0) / frames;
    counter.restore();
    const planAfter = planMemory(plan);
    const measuredCounts = counts.slice(warmupFrames);
    const lastCount = measuredCounts[measuredCounts.length - 1]!;
    const after = await guarded(ctx, 'last frame check', () => data.verify(lastCount));
    const verification = { ...first.verification, gpuMismatchesAfterTiming: after.verification.gpuMismatches };
    if (after.problem) return { case: c, status: 'failed', message: `after the measured frames: ${after.problem}`, verification };
    const created = { ...counter.total };
    const record: FrameLoopRecord = {
      frames,
      warmupFrames,
      countMin: Math.min(...measuredCounts),
      countMax: Math.max(...measuredCounts),
      lastCount,
      encode: asFrameStats(loop.encodeMs),
      ...(timer.method === 'timestamp' && timer.samplesMs.length ? { gpu: asFrameStats(timer.samplesMs) } : {}),
      inFlight: timer.inFlight,
      wallMsPerFrame,
      created,
      createdPerFrame: perFrame(created, frames),
      createdOutsideEncode: subtractCounts(created, counter.inside),
      planAtCreation,
      planBefore,
      planAfter,
      ...(readyMs !== undefined ? { readyMs } : {}),
    };
    return {
      case: c,
      status: 'ok',
      ...(timer.method === 'timestamp' ? { timer: 'timestamp' as const } : {}),
      verification,
      frameLoop: record,
    };
  } finally {
    counter?.restore();
    plan?.destroy();
    timer.destroy();
    feed.destroy();
    data.destroy();
  }
}

/**
 * `frame-loop` in the registry: sort, pack, scan and segmented scan plans recorded every frame with
 * a changing count, from the host or from a GPU buffer ({@link runFrameLoop}). A software adapter's
 * default run samples the GPU count of each plan (the sort's two cases alone take two minutes on
 * SwiftShader, most of it compiling).
 *
 * @example
 * ```ts
 * enumerateCases({ ...selection, only: ['frame-loop'] }); // 8 cases per size
 * ```
 */
export const FRAME_LOOP = benchModule<FrameLoopCase>({
  package: '@scan/core, @scan/sort',
  primitives: ['frame-loop'],
  shapes: frameLoopShapes,
  sample: (shapes) => shapes.filter((s) => s.countSource === 'gpu'),
  defaultSizes: FRAME_LOOP_SIZES,
  run: runFrameLoop,
});
