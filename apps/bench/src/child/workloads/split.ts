import { createSplitPlan } from '@scan/core';
import { split as cpuSplit } from '@scan/core/cpu';
import { bytesMoved } from '../../metrics.js';
import { readWords } from '../gpu.js';
import { countDifferences, readArray, type WorkloadFactory } from '../workload.js';
import { preparePartition } from './partition.js';

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
  const plan = createSplitPlan(ctx, { type: c.type });
  return {
    bytes: bytesMoved('split', n),
    output: d.output,
    ones: d.ones,
    encode: (encoder) => plan.encode(encoder, { input: d.data, flags: d.flags, output: d.output, count: n, falseCount: d.count }),
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
