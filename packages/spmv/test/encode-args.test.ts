// The SpMV plan checks its encode's arguments before it compiles or creates anything (issue 46,
// item 4): see encodeRejectionFaults; and its scalars are numbers.
import { ScanError } from '@scan/core';
import { encodeRejectionFaults, getTestContext } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { createSpmvPlan, poisson2d } from '../src/index.js';

const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

describe('spmv plan.encode checks its arguments first', () => {
  it('rejects bad arguments with INVALID_ARGUMENT, a short message, and nothing created', async () => {
    const ctx = await getTestContext();
    const A = poisson2d(8);
    const [x, y] = [0, 1].map(() => ctx.device.createBuffer({ size: 4 * A.rows, usage: USAGE })) as [GPUBuffer, GPUBuffer];
    const plan = createSpmvPlan(ctx, A);
    try {
      expect(encodeRejectionFaults(ctx.device, plan, { x, y }, { bufferRole: 'x' })).toEqual([]);
      const encoder = ctx.device.createCommandEncoder();
      for (const [name, value] of [
        ['alpha', Number.NaN],
        ['beta', '1'],
      ] as const) {
        expect(() => plan.encode(encoder, { x, y, [name]: value as number })).toThrow(ScanError);
        expect(() => plan.encode(encoder, { x, y, [name]: value as number })).toThrow(
          `args.${name} = ${typeof value === 'string' ? `"${value}"` : 'NaN'}`,
        );
      }
    } finally {
      plan.destroy();
      x.destroy();
      y.destroy();
    }
  });
});
