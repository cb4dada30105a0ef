import { BufferUsage, type ScanContext } from '@scan/core';

// GPU time per frame without stalling every frame: a real-time application keeps a few frames in
// flight, and a GPU left idle between short frames drops its clocks (DESIGN.md, Facts: ~400 MHz
// after a second idle on the lent H100). Each frame's two timestamps are resolved into its slot of
// a ring of read-back buffers; a slot is read only when the frame `inFlight` frames later needs
// it, so the queue stays fed back to back and the CPU waits only when that many frames are queued.

/**
 * Frames in flight: about what a browser lets an application queue before `requestAnimationFrame` waits.
 *
 * @example
 * ```ts
 * createFrameTimer(ctx, FRAMES_IN_FLIGHT).inFlight; // 3
 * ```
 */
export const FRAMES_IN_FLIGHT = 3;

/** Stride of the slots in the resolve buffer: `resolveQuerySet` writes at multiples of 256 bytes. */
const RESOLVE_STRIDE = 256;

/**
 * Per-frame GPU timing through a ring of read-back buffers.
 *
 * @example
 * ```ts
 * const timer: FrameTimer = createFrameTimer(ctx);
 * ```
 */
export interface FrameTimer {
  /** `'timestamp'` with `timestamp-query`; `'none'` without (frames are still throttled, not timed). */
  readonly method: 'timestamp' | 'none';
  /** Ring length: frames submitted before the oldest must be done. */
  readonly inFlight: number;
  /** GPU milliseconds of the measured frames whose timestamps were read, in frame order. */
  readonly samplesMs: readonly number[];
  /** Waits until the ring slot of `frame` is free (the frame `inFlight` before it read). Call before recording it. */
  acquire(frame: number): Promise<void>;
  /** Records the start mark of `frame` (an empty compute pass that writes a timestamp). */
  begin(encoder: GPUCommandEncoder, frame: number): void;
  /** Records the end mark of `frame` and the copy of both timestamps into its slot. */
  end(encoder: GPUCommandEncoder, frame: number): void;
  /** After `frame`'s submit: starts reading its slot back; `measured` frames' times join `samplesMs`. */
  submitted(frame: number, measured: boolean): void;
  /** Waits for every frame in flight and records their times. */
  drain(): Promise<void>;
  destroy(): void;
}

interface Pending {
  readonly frame: number;
  readonly measured: boolean;
  readonly done: Promise<void>;
}

/**
 * A frame timer for `ctx` with `inFlight` slots (all its GPU objects are made here, before any
 * frame, so a counter installed afterwards does not see them).
 *
 * @example
 * ```ts
 * const timer = createFrameTimer(ctx);
 * for (let k = 0; k < frames; k++) {
 *   await timer.acquire(k);
 *   const encoder = ctx.device.createCommandEncoder();
 *   timer.begin(encoder, k);
 *   plan.encode(encoder, args);
 *   timer.end(encoder, k);
 *   ctx.device.queue.submit([encoder.finish()]);
 *   timer.submitted(k, true);
 * }
 * await timer.drain();
 * timer.samplesMs; // one GPU time per frame
 * ```
 */
export function createFrameTimer(ctx: ScanContext, inFlight = FRAMES_IN_FLIGHT): FrameTimer {
  const device = ctx.device;
  const timestamps = ctx.caps.features.timestampQuery;
  const querySet = timestamps ? device.createQuerySet({ type: 'timestamp', count: 2 * inFlight }) : undefined;
  const resolve = timestamps
    ? device.createBuffer({
        size: RESOLVE_STRIDE * inFlight,
        usage: BufferUsage.QUERY_RESOLVE | BufferUsage.COPY_SRC,
        label: 'bench frame timestamps',
      })
    : undefined;
  const reads = timestamps
    ? Array.from({ length: inFlight }, () =>
        device.createBuffer({ size: 16, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST, label: 'bench frame timestamp read-back' }),
      )
    : [];
  const pending: (Pending | undefined)[] = Array.from({ length: inFlight }, () => undefined);
  const samplesMs: number[] = [];
  const mark = (encoder: GPUCommandEncoder, index: number) => {
    if (!querySet) return;
    encoder.beginComputePass({ timestampWrites: { querySet, beginningOfPassWriteIndex: index } }).end();
  };
  const collect = async (slot: number) => {
    const p = pending[slot];
    if (!p) return;
    pending[slot] = undefined;
    await p.done;
    const read = reads[slot];
    if (!read) return;
    const [t0, t1] = new BigUint64Array(read.getMappedRange().slice(0));
    read.unmap();
    if (p.measured) samplesMs.push(Number((t1 as bigint) - (t0 as bigint)) / 1e6);
  };
  return {
    method: timestamps ? 'timestamp' : 'none',
    inFlight,
    samplesMs,
    acquire: (frame) => collect(frame % inFlight),
    begin: (encoder, frame) => mark(encoder, 2 * (frame % inFlight)),
    end(encoder, frame) {
      const slot = frame % inFlight;
      mark(encoder, 2 * slot + 1);
      if (!querySet || !resolve) return;
      encoder.resolveQuerySet(querySet, 2 * slot, 2, resolve, RESOLVE_STRIDE * slot);
      encoder.copyBufferToBuffer(resolve, RESOLVE_STRIDE * slot, reads[slot]!, 0, 16);
    },
    submitted(frame, measured) {
      const slot = frame % inFlight;
      const read = reads[slot];
      // Without timestamps the slot still throttles: it waits for the queue up to this frame.
      const done = read ? read.mapAsync(0x0001 /* GPUMapMode.READ */) : device.queue.onSubmittedWorkDone();
      // A loop that ends early (an error) destroys the ring under pending maps: never an unhandled rejection.
      done.catch(() => undefined);
      pending[slot] = { frame, measured, done };
    },
    async drain() {
      // Oldest frame first, so the samples stay in frame order.
      const order = pending.flatMap((p, slot) => (p ? [{ slot, frame: p.frame }] : [])).sort((a, b) => a.frame - b.frame);
      for (const { slot } of order) await collect(slot);
    },
    destroy() {
      querySet?.destroy();
      resolve?.destroy();
      for (const r of reads) r.destroy();
    },
  };
}
