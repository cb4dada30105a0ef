import type { ScanContext } from '@scan/core';
import { POISON_U32 } from '@scan/gpu-testing';

// Buffers the sort tests make and read: one set of helpers for every test file.

/** Usage of the tests' buffers: bindable, and copied from and into. */
export const TEST_USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

/** A buffer of `words.length + slack` words (at least 16 bytes): `words`, then poison. */
export function bufferWith(ctx: ScanContext, words: Uint32Array, slack = 0): GPUBuffer {
  const length = Math.max(4, words.length + slack);
  const b = ctx.device.createBuffer({ size: 4 * length, usage: TEST_USAGE });
  const init = new Uint32Array(length).fill(POISON_U32);
  init.set(words);
  ctx.device.queue.writeBuffer(b, 0, init);
  return b;
}

/** The first `words` words of `buffer` (all of it by default), read back. */
export async function readWords(ctx: ScanContext, buffer: GPUBuffer, words = buffer.size / 4): Promise<Uint32Array> {
  const bytes = Math.max(16, Math.ceil((4 * words) / 16) * 16);
  const staging = ctx.device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = ctx.device.createCommandEncoder();
  encoder.copyBufferToBuffer(buffer, 0, staging, 0, Math.min(bytes, buffer.size));
  ctx.device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const out = new Uint32Array(staging.getMappedRange().slice(0, 4 * words));
  staging.destroy();
  return out;
}

/** `ctx` as a device allowing only `workgroups` workgroups per dispatch dimension (forces 2-D dispatches). */
export function narrowDispatchContext(ctx: ScanContext, workgroups: number): ScanContext {
  return {
    device: ctx.device,
    caps: { ...ctx.caps, limits: { ...ctx.caps.limits, maxComputeWorkgroupsPerDimension: workgroups } },
    lostReason: undefined,
    lost: ctx.lost,
    destroy() {},
  };
}
