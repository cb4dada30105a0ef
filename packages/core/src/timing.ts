import { BufferUsage } from './buffers.js';
import type { ScanContext } from './context.js';

/** Measures GPU time of the commands recorded between `begin` and `end`. */
export interface GpuTimer {
  /** `'timestamp'` when the device has `timestamp-query`, else `'wall-clock'` (submit to done). */
  readonly method: 'timestamp' | 'wall-clock';
  /** Records the start mark into `encoder`. */
  begin(encoder: GPUCommandEncoder): void;
  /** Records the end mark into `encoder`. */
  end(encoder: GPUCommandEncoder): void;
  /** Submits `commands`, waits for them, and resolves to the elapsed time in milliseconds. */
  submitAndMeasure(commands: GPUCommandBuffer[]): Promise<number>;
  destroy(): void;
}

/**
 * A timer for GPU work. With `timestamp-query` it writes timestamps from two empty compute passes
 * around the measured commands (so it times every pass between them); without it, it falls back to
 * the wall-clock time from `submit` to `onSubmittedWorkDone`.
 *
 * @example
 * ```ts
 * const timer = createGpuTimer(ctx);
 * const encoder = ctx.device.createCommandEncoder();
 * timer.begin(encoder);
 * plan.encode(encoder, { input, output, count });
 * timer.end(encoder);
 * const ms = await timer.submitAndMeasure([encoder.finish()]);
 * ```
 */
export function createGpuTimer(ctx: ScanContext): GpuTimer {
  const device = ctx.device;
  if (!ctx.caps.features.timestampQuery) {
    return {
      method: 'wall-clock',
      begin() {},
      end() {},
      async submitAndMeasure(commands) {
        const t0 = performance.now();
        device.queue.submit(commands);
        await device.queue.onSubmittedWorkDone();
        return performance.now() - t0;
      },
      destroy() {},
    };
  }
  const querySet = device.createQuerySet({ type: 'timestamp', count: 2 });
  const resolve = device.createBuffer({ size: 16, usage: BufferUsage.QUERY_RESOLVE | BufferUsage.COPY_SRC });
  const read = device.createBuffer({ size: 16, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
  const mark = (encoder: GPUCommandEncoder, index: number) => {
    const pass = encoder.beginComputePass({ timestampWrites: { querySet, beginningOfPassWriteIndex: index } });
    pass.end();
  };
  return {
    method: 'timestamp',
    begin: (encoder) => mark(encoder, 0),
    end(encoder) {
      mark(encoder, 1);
      encoder.resolveQuerySet(querySet, 0, 2, resolve, 0);
      encoder.copyBufferToBuffer(resolve, 0, read, 0, 16);
    },
    async submitAndMeasure(commands) {
      device.queue.submit(commands);
      await read.mapAsync(0x0001);
      const [t0, t1] = new BigUint64Array(read.getMappedRange().slice(0));
      read.unmap();
      return Number((t1 as bigint) - (t0 as bigint)) / 1e6;
    },
    destroy() {
      querySet.destroy();
      resolve.destroy();
      read.destroy();
    },
  };
}
