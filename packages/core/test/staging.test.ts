// The staging pool behind every large upload and read-back: buffers are reused across calls of
// different sizes without stale bytes leaking in, concurrent calls take separate buffers, and the
// idle memory kept stays bounded.
import { freshTestContext, randomData } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import * as cpu from '../src/cpu/index.js';
import { scan } from '../src/ops/scan.js';
import { idleStagingBytes, STAGING_IDLE_BYTES, STAGING_MIN_BYTES } from '../src/staging.js';

const MiB = 1 << 20;

/** Waits until the pool holds `bytes` of idle write staging (mapping them again is asynchronous). */
async function idleWrite(device: GPUDevice, bytes: number): Promise<number> {
  for (let i = 0; i < 200 && idleStagingBytes(device).write !== bytes; i++) await new Promise((r) => setTimeout(r, 10));
  return idleStagingBytes(device).write;
}

describe('staging pool', () => {
  it('reuses one buffer for a smaller transfer after a larger one, with no stale bytes', async () => {
    const ctx = await freshTestContext();
    try {
      const large = randomData('u32', (3 * MiB) / 4, 1); // 3 MiB: a 4 MiB staging buffer each way
      expect([...(await scan(ctx, large)).subarray(0, 8)]).toEqual([...cpu.scan(large).subarray(0, 8)]);
      expect(await idleWrite(ctx.device, 4 * MiB)).toBe(4 * MiB);
      expect(idleStagingBytes(ctx.device).read).toBe(4 * MiB);
      // 1.5 MiB through the same 4 MiB buffers: the result must be exactly as long as the input
      // and hold nothing of the previous call's tail.
      const small = randomData('u32', (3 * MiB) / 8, 2);
      const got = await scan(ctx, small, { inclusive: true });
      expect(got.length).toBe(small.length);
      expect(got).toEqual(cpu.scan(small, { inclusive: true }));
      expect(await idleWrite(ctx.device, 4 * MiB)).toBe(4 * MiB);
      expect(idleStagingBytes(ctx.device).read).toBe(4 * MiB);
    } finally {
      ctx.destroy();
    }
  });

  it('concurrent calls take separate buffers and all come back right', async () => {
    const ctx = await freshTestContext();
    try {
      const inputs = [1, 2, 3].map((seed) => randomData('u32', (2 * MiB) / 4 + seed, seed));
      const results = await Promise.all(inputs.map((data) => scan(ctx, data)));
      results.forEach((got, i) => expect(got).toEqual(cpu.scan(inputs[i]!)));
      // Three 4 MiB buffers each way were needed at once and are kept.
      expect(await idleWrite(ctx.device, 12 * MiB)).toBe(12 * MiB);
      expect(idleStagingBytes(ctx.device).read).toBe(12 * MiB);
    } finally {
      ctx.destroy();
    }
  });

  it('small transfers bypass the pool, and the idle bound is a sane size', async () => {
    const ctx = await freshTestContext();
    try {
      const data = randomData('u32', STAGING_MIN_BYTES / 4 - 1, 5);
      expect(await scan(ctx, data)).toEqual(cpu.scan(data));
      expect(idleStagingBytes(ctx.device)).toEqual({ write: 0, read: 0 });
      expect(STAGING_IDLE_BYTES).toBeGreaterThanOrEqual(64 * MiB);
    } finally {
      ctx.destroy();
    }
  });
});
