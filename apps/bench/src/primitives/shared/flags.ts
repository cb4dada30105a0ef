import type { ScanContext } from '@scan/core';
import { encodeReduceTree } from '../../child/device-ops.js';
import { type BufferPool, readWords } from '../../child/gpu.js';

/**
 * Counts the 1-flags of `flags` with the bench's own reduction (a 4-byte read-back).
 *
 * @example
 * ```ts
 * const ones = await countOnes(ctx, pool, flags, n);
 * ```
 */
export async function countOnes(ctx: ScanContext, pool: BufferPool, flags: GPUBuffer, n: number): Promise<number> {
  const total = await countOnesBuffer(ctx, pool, flags, n);
  const [ones] = await readWords(ctx, total, 1);
  return ones!;
}

/**
 * Records and runs the count of 1-flags, returning the buffer whose word 0 holds it (the partition
 * checks bind it directly).
 *
 * @example
 * ```ts
 * const onesBuffer = await countOnesBuffer(ctx, pool, flags, n);
 * ```
 */
export async function countOnesBuffer(ctx: ScanContext, pool: BufferPool, flags: GPUBuffer, n: number): Promise<GPUBuffer> {
  const encoder = ctx.device.createCommandEncoder();
  const total = encodeReduceTree(ctx, pool, encoder, flags, n, 'u32', 'add');
  ctx.device.queue.submit([encoder.finish()]);
  await ctx.device.queue.onSubmittedWorkDone();
  return total;
}
