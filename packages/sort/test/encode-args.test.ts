// The sort plans check their encode's arguments before they compile or create anything (issue 46,
// item 4): see planRejectionFaults.
import type { Plan } from '@scan/core';
import { getTestContext, type PlanRejectionCase, planRejectionFaults } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { createSegmentedSortPlan, createSortPlan } from '../src/index.js';

const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

describe('sort plan.encode checks its arguments first', () => {
  it('rejects bad arguments with INVALID_ARGUMENT, a short message, and nothing created', async () => {
    const ctx = await getTestContext();
    const [keys, values, headFlags] = [0, 1, 2].map(() => ctx.device.createBuffer({ size: 4096, usage: USAGE }));
    const plans: PlanRejectionCase[] = [
      ['radix', () => createSortPlan(ctx, { keyType: 'u32', valueType: 'u32' }) as Plan<never>, { keys, values, count: 100 }, 'values'],
      ['split radix', () => createSortPlan(ctx, { keyType: 'f32', algorithm: 'split-radix' }) as Plan<never>, { keys, count: 100 }, 'keys'],
      ['segmented', () => createSegmentedSortPlan(ctx, { keyType: 'u32' }) as Plan<never>, { keys, headFlags, count: 100 }, 'headFlags'],
    ];
    try {
      expect(planRejectionFaults(ctx.device, plans)).toEqual([]);
    } finally {
      for (const b of [keys, values, headFlags]) b?.destroy();
    }
  });
});
