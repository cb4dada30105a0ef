import { createSplitPlan } from '@scan/core';
import { split as cpuSplit } from '@scan/core/cpu';
import { bytesMoved } from '../../metrics.js';
import { readWords } from '../gpu.js';
import { countDifferences, readArray, type WorkloadFactory } from '../workload.js';
import { compactAlgorithmOf, preparePartition } from './partition.js';

/**
 * Split (stable, 0-flags first) of index-encoded data by random flags; checked for partition,
 * stability and `falseCount` on the GPU.
 *
 * @example
 * ```ts
 * const w = await splitWorkload(ctx, c);
 * ```
 */
export const splitWorkload: WorkloadFactory = async (ctx, c) => {
  const n = c.n;
  const d = await preparePartition(ctx, c, 'split');
  // A sweep's internal options ride along with the public ones; the plan checks them.
  const plan = createSplitPlan(ctx, { type: c.type, flags: c.flagType ?? 'u32', algorithm: compactAlgorithmOf(c), ...c.tuning });
  return {
    bytes: bytesMoved('split', n, 0, c.flagType === 'u8' ? 1 : 4),
    output: d.output,
    ones: d.ones,
    encode: (encoder) => plan.encode(encoder, { input: d.data, flags: d.planFlags, output: d.output, count: n, falseCount: d.count }),
    verify: d.verify,
    async compareWithCpu() {
      const data = await readArray(ctx, d.data, n, c.type);
      const flags = (await readArray(ctx, d.flags, n, 'u32')) as Uint32Array;
      const expected = cpuSplit(data, flags);
      const [falseCount] = await readWords(ctx, d.count, 1);
      const wrongCount = falseCount === expected.falseCount ? 0 : 1;
      return wrongCount + countDifferences(expected.output, await readArray(ctx, d.output, n, c.type));
    },
    destroy() {
      plan.destroy();
      d.pool.destroy();
    },
  };
};
