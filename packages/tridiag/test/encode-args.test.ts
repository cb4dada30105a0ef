// The tridiagonal plan checks its encode's arguments before it compiles or creates anything (issue
// 46, item 4): see encodeRejectionFaults. Its count is fixed by the plan, so no count is tried.
import { encodeRejectionFaults, getTestContext } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { createTridiagonalPlan } from '../src/index.js';

const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

describe('tridiagonal plan.encode checks its arguments first', () => {
  it('rejects bad arguments with INVALID_ARGUMENT, a short message, and nothing created', async () => {
    const ctx = await getTestContext();
    const [a, b, c, d, x] = [0, 1, 2, 3, 4].map(() => ctx.device.createBuffer({ size: 4 * 64 * 2, usage: USAGE })) as GPUBuffer[];
    const plan = createTridiagonalPlan(ctx, { n: 64, batch: 2 });
    try {
      expect(encodeRejectionFaults(ctx.device, plan, { a, b, c, d, x } as never, { bufferRole: 'd' })).toEqual([]);
    } finally {
      plan.destroy();
      for (const buffer of [a, b, c, d, x]) buffer?.destroy();
    }
  });
});
