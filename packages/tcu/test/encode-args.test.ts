// The tcu plans check their encode's arguments before they compile or create anything (issue 46,
// item 4): see encodeRejectionFaults.
import { encodeRejectionFaults, getTestContext } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { createTcuCountPlan, createTcuReducePlan, createTcuScanPlan, type TcuPlan } from '../src/index.js';

const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

describe('tcu plan.encode checks its arguments first', () => {
  it('rejects bad arguments with INVALID_ARGUMENT, a short message, and nothing created', async () => {
    const ctx = await getTestContext();
    const [input, output] = [0, 1].map(() => ctx.device.createBuffer({ size: 4096, usage: USAGE })) as [GPUBuffer, GPUBuffer];
    const plans: [string, () => TcuPlan, string][] = [
      ['reduce', () => createTcuReducePlan(ctx, { path: 'emulated' }), 'input'],
      ['scan', () => createTcuScanPlan(ctx, { path: 'emulated' }), 'output'],
      ['count', () => createTcuCountPlan(ctx, { path: 'emulated' }), 'input'],
    ];
    try {
      for (const [name, create, bufferRole] of plans) {
        const plan = create();
        try {
          expect(encodeRejectionFaults(ctx.device, plan, { input, output, count: 100 }, { bufferRole }), name).toEqual([]);
        } finally {
          plan.destroy();
        }
      }
    } finally {
      input.destroy();
      output.destroy();
    }
  });
});
