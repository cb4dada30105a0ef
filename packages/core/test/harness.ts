// Runs many plan encodes in one submission, each on its own poisoned output, and reads all back.
import { POISON_U32, poisonBuffer } from '@scan/gpu-testing';
import type { ScanContext } from '../src/context.js';
import type { ScanTypedArray } from '../src/element-types.js';

const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

/** A GPU buffer holding `data`, padded to 16 bytes. */
export function bufferOf(ctx: ScanContext, data: ArrayBufferView): GPUBuffer {
  const b = ctx.device.createBuffer({ size: Math.max(16, Math.ceil(data.byteLength / 16) * 16), usage: USAGE });
  if (data.byteLength) ctx.device.queue.writeBuffer(b, 0, data.buffer, data.byteOffset, data.byteLength);
  return b;
}

/** A buffer of `bytes` filled with the poison sentinel. */
export function poisoned(ctx: ScanContext, bytes: number): GPUBuffer {
  const b = ctx.device.createBuffer({ size: Math.max(16, Math.ceil(bytes / 16) * 16), usage: USAGE });
  poisonBuffer(ctx, b, b.size);
  return b;
}

/** One job of a batch: records into the encoder and names the buffers to read back. */
export interface Job {
  record(encoder: GPUCommandEncoder): { buffer: GPUBuffer; bytes: number }[];
}

/**
 * Records every job into one encoder, submits once, and returns each job's read-backs as
 * ArrayBuffers; all buffers are destroyed afterwards. Validation errors fail the batch.
 */
export async function runBatch(ctx: ScanContext, jobs: Job[], owned: { destroy(): void }[] = []): Promise<ArrayBuffer[][]> {
  const device = ctx.device;
  device.pushErrorScope('validation');
  const encoder = device.createCommandEncoder();
  const staging: { buffer: GPUBuffer; bytes: number }[][] = [];
  for (const job of jobs) {
    const reads = job.record(encoder).map(({ buffer, bytes }) => {
      const s = device.createBuffer({
        size: Math.max(4, Math.ceil(bytes / 4) * 4),
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      });
      if (bytes > 0) encoder.copyBufferToBuffer(buffer, 0, s, 0, Math.ceil(bytes / 4) * 4);
      owned.push(buffer);
      return { buffer: s, bytes };
    });
    staging.push(reads);
  }
  device.queue.submit([encoder.finish()]);
  const error = await device.popErrorScope();
  if (error) throw new Error(`validation error: ${error.message}`);
  const results: ArrayBuffer[][] = [];
  for (const reads of staging) {
    const out: ArrayBuffer[] = [];
    for (const r of reads) {
      await r.buffer.mapAsync(GPUMapMode.READ);
      out.push(r.buffer.getMappedRange().slice(0, r.bytes));
      r.buffer.destroy();
    }
    results.push(out);
  }
  for (const o of owned) o.destroy();
  return results;
}

/** A typed array like `like` over `bytes`. */
export function asTyped<A extends ScanTypedArray>(like: A, bytes: ArrayBuffer): A {
  return new (like.constructor as new (b: ArrayBuffer) => A)(bytes);
}

export { POISON_U32 };
