// Every segmented plan checks its encode's arguments before it compiles or creates anything
// (issue 46, item 4): see planRejectionFaults.
import type { Plan } from '@scan/core';
import { getTestContext, type PlanRejectionCase, planRejectionFaults } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import {
  createHeadFlagsToOffsetsPlan,
  createOffsetsToHeadFlagsPlan,
  createPackHeadFlagsPlan,
  createReduceByKeyPlan,
  createRunLengthEncodePlan,
  createScanByKeyPlan,
  createSegmentedDistributePlan,
  createSegmentedEnumeratePlan,
  createSegmentedReducePlan,
  createSegmentedScanPlan,
  createSplitAndSegmentPlan,
  createUniqueByKeyPlan,
  createUniquePlan,
} from '../src/index.js';

const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

describe('segmented plan.encode checks its arguments first', () => {
  it('rejects bad arguments with INVALID_ARGUMENT, a short message, and nothing created', async () => {
    const ctx = await getTestContext();
    const made: GPUBuffer[] = [];
    const make = () => {
      const b = ctx.device.createBuffer({ size: 4096, usage: USAGE });
      made.push(b);
      return b;
    };
    const [input, flags, headBits, output] = [make(), make(), make(), make()];
    const count = 100;
    const plans: PlanRejectionCase[] = [
      ['scan', () => createSegmentedScanPlan(ctx) as Plan<never>, { input, headBits, output, count }, 'headBits'],
      ['reduce', () => createSegmentedReducePlan(ctx) as Plan<never>, { input, headBits, output, count }, 'input'],
      ['distribute', () => createSegmentedDistributePlan(ctx) as Plan<never>, { input, headBits, output, count }, 'output'],
      ['enumerate', () => createSegmentedEnumeratePlan(ctx) as Plan<never>, { flags, headBits, output, count }, 'flags'],
      [
        'split and segment',
        () => createSplitAndSegmentPlan(ctx) as Plan<never>,
        { input, flags, headBits, output, outputHeadBits: make(), count },
        'outputHeadBits',
      ],
      ['pack head flags', () => createPackHeadFlagsPlan(ctx) as Plan<never>, { flags, output, count }, 'flags'],
      [
        'head flags to offsets',
        () => createHeadFlagsToOffsetsPlan(ctx) as Plan<never>,
        { headBits, output, count, segmentCount: make() },
        'segmentCount',
      ],
      [
        'offsets to head flags',
        () => createOffsetsToHeadFlagsPlan(ctx) as Plan<never>,
        { offsets: input, output, count, segments: 4 },
        'offsets',
      ],
      // The run-based plans (outputs as long as the keys; the run count, 4 bytes).
      [
        'reduce by key',
        () => createReduceByKeyPlan(ctx) as Plan<never>,
        { keys: input, values: flags, outKeys: output, outValues: headBits, runCount: make(), count },
        'values',
      ],
      ['scan by key', () => createScanByKeyPlan(ctx) as Plan<never>, { keys: input, values: flags, output, count }, 'keys'],
      ['unique', () => createUniquePlan(ctx) as Plan<never>, { keys: input, outKeys: output, runCount: make(), count }, 'outKeys'],
      [
        'unique by key',
        () => createUniqueByKeyPlan(ctx) as Plan<never>,
        { keys: input, values: flags, outKeys: output, outValues: headBits, runCount: make(), count },
        'outValues',
      ],
      [
        'run-length encode',
        () => createRunLengthEncodePlan(ctx) as Plan<never>,
        { keys: input, outKeys: output, lengths: flags, offsets: headBits, runCount: make(), count },
        'lengths',
      ],
    ];
    try {
      expect(planRejectionFaults(ctx.device, plans)).toEqual([]);
    } finally {
      for (const b of made) b.destroy();
    }
  });
});
