// Every core plan checks its encode's arguments before it compiles or creates anything: no
// encoder, no args, a typed array where a GPUBuffer belongs, a bad count — each an INVALID_ARGUMENT
// naming the argument and its value in a short message (issue 46, item 4).
import { getTestContext, type PlanRejectionCase, planRejectionFaults } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import {
  createDispatchArgsPlan,
  createDistributePlan,
  createEnumeratePlan,
  createHistogramPlan,
  createPackIfPlan,
  createPackPlan,
  createReducePlan,
  createScanPlan,
  createSplitPlan,
  type Plan,
  type ScanContext,
} from '../src/index.js';

const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

/** Each core plan with arguments that it takes, and the role that gets a typed array. */
function cases(ctx: ScanContext, make: (bytes: number) => GPUBuffer) {
  const [input, flags, output, count] = [make(4096), make(4096), make(4096), make(16)];
  const host = { input, output, count: 100 };
  const plans: PlanRejectionCase[] = [
    ['scan', () => createScanPlan(ctx) as Plan<never>, host, 'input'],
    ['reduce', () => createReducePlan(ctx) as Plan<never>, host, 'output'],
    ['enumerate', () => createEnumeratePlan(ctx) as Plan<never>, { flags, output, count: 100 }, 'flags'],
    ['distribute', () => createDistributePlan(ctx) as Plan<never>, host, 'input'],
    ['split', () => createSplitPlan(ctx) as Plan<never>, { ...host, flags, falseCount: count }, 'falseCount'],
    ['pack', () => createPackPlan(ctx) as Plan<never>, { ...host, flags, packedCount: count }, 'flags'],
    ['packIf', () => createPackIfPlan(ctx, { op: 'gt', value: 1 }) as Plan<never>, { ...host, packedCount: count }, 'packedCount'],
    [
      'histogram',
      () => createHistogramPlan(ctx, { bins: 4, range: [0, 4] }) as Plan<never>,
      { samples: input, histogram: output, count: 100 },
      'samples',
    ],
    [
      'dispatch args',
      () => createDispatchArgsPlan(ctx, { elementsPerWorkgroup: 256 }) as Plan<never>,
      { countBuffer: count, args: make(16) },
      'args',
    ],
  ];
  return plans;
}

describe('plan.encode checks its arguments first', () => {
  it('every core plan rejects bad arguments with INVALID_ARGUMENT, a short message, and nothing created', async () => {
    const ctx = await getTestContext();
    const made: GPUBuffer[] = [];
    const make = (size: number) => {
      const b = ctx.device.createBuffer({ size, usage: USAGE | GPUBufferUsage.INDIRECT });
      made.push(b);
      return b;
    };
    try {
      expect(planRejectionFaults(ctx.device, cases(ctx, make))).toEqual([]);
    } finally {
      for (const b of made) b.destroy();
    }
  });
});
