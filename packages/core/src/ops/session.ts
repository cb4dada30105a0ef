import { checkBufferSize, createStorageBuffer, encodeReadback, uploadArray } from '../buffers.js';
import type { ScanContext } from '../context.js';
import { runGuarded } from '../gpu-errors.js';

/**
 * The GPU side of one array-level call: buffers and plans it creates are freed when it ends,
 * whatever happens; errors come back as `ScanError`s (see `runGuarded`).
 */
export class GpuSession {
  readonly encoder: GPUCommandEncoder;
  private readonly owned: { destroy(): void }[] = [];

  constructor(readonly ctx: ScanContext) {
    this.encoder = ctx.device.createCommandEncoder();
  }

  /** Uploads `data` into a new storage buffer owned by the session. */
  upload(data: ArrayBufferView, label: string): GPUBuffer {
    return this.own(uploadArray(this.ctx, data, label));
  }

  /** Uploads 0/1 flags as the plans read them, one u32 per flag (a `Uint8Array` is widened first). */
  uploadFlags(flags: Uint32Array | Uint8Array, label = 'flags'): GPUBuffer {
    return this.upload(flags instanceof Uint32Array ? flags : Uint32Array.from(flags), label);
  }

  /** Uploads one byte per flag as the one-pass split and pack read them (four to a word). */
  uploadBytes(bytes: Uint8Array, label = 'flags'): GPUBuffer {
    return this.upload(bytes, label);
  }

  /** A new storage buffer of `bytes` bytes owned by the session. */
  buffer(bytes: number, label: string): GPUBuffer {
    checkBufferSize(this.ctx, bytes, label, 'bytes');
    return this.own(createStorageBuffer(this.ctx, bytes, label));
  }

  /**
   * Takes ownership of a plan and waits until its pipelines are compiled (`plan.ready`), so the
   * call's encode does not compile them synchronously.
   */
  async plan<P extends { destroy(): void; readonly ready: Promise<void> }>(plan: P): Promise<P> {
    this.own(plan);
    await plan.ready;
    return plan;
  }

  /** Takes ownership of a plan (or anything with `destroy`). */
  own<T extends { destroy(): void }>(thing: T): T {
    this.owned.push(thing);
    return thing;
  }

  /**
   * Records a read-back of `bytes` bytes; call the result after `submit`, with the number of
   * leading bytes wanted when fewer (see `encodeReadback`).
   */
  readback(buffer: GPUBuffer, bytes: number, byteOffset = 0): (take?: number) => Promise<ArrayBuffer> {
    return encodeReadback(this.ctx, this.encoder, buffer, byteOffset, bytes);
  }

  submit(): void {
    this.ctx.device.queue.submit([this.encoder.finish()]);
  }

  destroy(): void {
    for (const thing of this.owned.splice(0)) thing.destroy();
  }
}

/**
 * Runs `body` with a fresh {@link GpuSession}, guarded by error scopes and device loss.
 *
 * @example
 * ```ts
 * const out = await withSession(ctx, 'scan', async (s) => {
 *   const input = s.upload(data, 'input');
 *   const output = s.buffer(data.byteLength, 'output');
 *   const plan = await s.plan(createScanPlan(ctx, { type: 'u32' }));
 *   plan.encode(s.encoder, { input, output, count: data.length });
 *   const read = s.readback(output, data.byteLength);
 *   s.submit();
 *   return new Uint32Array(await read());
 * });
 * ```
 */
export async function withSession<R>(ctx: ScanContext, what: string, body: (session: GpuSession) => Promise<R>): Promise<R> {
  return runGuarded(ctx, what, async () => {
    const session = new GpuSession(ctx);
    try {
      return await body(session);
    } finally {
      session.destroy();
    }
  });
}
