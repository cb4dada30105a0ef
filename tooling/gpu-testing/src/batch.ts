// Buffers with data, poisoned outputs, and many plan encodes recorded into one encoder with a single
// submit and read-back: what the packages' "several encodes before one submit" tests share.
import { BufferUsage, type ScanContext, STORAGE_USAGE } from '@scan/core';
import { poisonBuffer } from './poison.js';

// Core's constants, not the GPUBufferUsage global: in Node that global exists only once `webgpu` has
// loaded, after this module is imported.
const USAGE = STORAGE_USAGE;

/**
 * A storage buffer holding `data`, padded to 16 bytes (at least `minBytes`); bytes (u8 flags) are
 * padded with zeros to whole words, as `writeBuffer` moves multiples of 4.
 *
 * @example
 * ```ts
 * const input = bufferOf(ctx, new Uint32Array([1, 2, 3]));
 * ```
 */
export function bufferOf(ctx: ScanContext, data: ArrayBufferView, minBytes = 16): GPUBuffer {
  const b = ctx.device.createBuffer({ size: Math.max(minBytes, Math.ceil(data.byteLength / 16) * 16), usage: USAGE });
  const bytes = new Uint8Array(Math.ceil(data.byteLength / 4) * 4);
  bytes.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  if (bytes.byteLength > 0) ctx.device.queue.writeBuffer(b, 0, bytes);
  return b;
}

/**
 * A storage buffer of `bytes` (padded to 16) filled with the poison sentinel, so that an element the
 * GPU does not write fails the comparison.
 *
 * @example
 * ```ts
 * const output = poisoned(ctx, 4 * n);
 * ```
 */
export function poisoned(ctx: ScanContext, bytes: number): GPUBuffer {
  const b = ctx.device.createBuffer({ size: Math.max(16, Math.ceil(bytes / 16) * 16), usage: USAGE });
  poisonBuffer(ctx, b, b.size);
  return b;
}

/** One job of {@link runBatch}: records its encodes and names the buffers (and bytes) to read back. */
export interface Job {
  record(encoder: GPUCommandEncoder): readonly { buffer: GPUBuffer; bytes: number }[];
}

/**
 * Records every job into one encoder, submits once, and returns each job's read-backs; the buffers
 * the jobs read and those in `owned` (their inputs, or plans) are destroyed afterwards. A validation error
 * fails the batch.
 *
 * @example
 * ```ts
 * const [[out]] = await runBatch(ctx, [{ record: (e) => { plan.encode(e, args); return [{ buffer: output, bytes }]; } }]);
 * ```
 */
export async function runBatch(ctx: ScanContext, jobs: readonly Job[], owned: { destroy(): void }[] = []): Promise<ArrayBuffer[][]> {
  const device = ctx.device;
  device.pushErrorScope('validation');
  const encoder = device.createCommandEncoder();
  const staging = jobs.map((job) =>
    job.record(encoder).map(({ buffer, bytes }) => {
      const padded = Math.max(4, Math.ceil(bytes / 4) * 4);
      const s = device.createBuffer({ size: padded, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
      if (bytes > 0) encoder.copyBufferToBuffer(buffer, 0, s, 0, padded);
      owned.push(buffer);
      return { buffer: s, bytes };
    }),
  );
  device.queue.submit([encoder.finish()]);
  const error = await device.popErrorScope();
  if (error) throw new Error(`validation error: ${error.message}`);
  const results: ArrayBuffer[][] = [];
  for (const reads of staging) {
    const out: ArrayBuffer[] = [];
    for (const r of reads) {
      await r.buffer.mapAsync(0x0001 /* GPUMapMode.READ */);
      out.push(r.buffer.getMappedRange().slice(0, r.bytes));
      r.buffer.destroy();
    }
    results.push(out);
  }
  for (const b of owned) b.destroy();
  return results;
}
