import { createPackPlan } from '@scan/core';
import { pack as cpuPack } from '@scan/core/cpu';
import { bytesMoved } from '../../metrics.js';
import { readWords } from '../gpu.js';
import { countDifferences, readArray, type WorkloadFactory } from '../workload.js';
import { compactAlgorithmOf, preparePartition } from './partition.js';

/**
 * Pack (stream compaction: keep the 1-flagged elements, in order) of index-encoded data; checked for
 * membership, order and `packedCount` on the GPU.
 *
 * @example
 * ```ts
 * const w = await packWorkload(ctx, c);
 * ```
 */
export const packWorkload: WorkloadFactory = async (ctx, c) => {
  const n = c.n;
  const d = await preparePartition(ctx, c, 'pack');
  // A sweep's internal options ride along with the public ones; the plan checks them.
  const plan = createPackPlan(ctx, { type: c.type, flags: c.flagType ?? 'u32', algorithm: compactAlgorithmOf(c), ...c.tuning });
  return {
    bytes: bytesMoved('pack', n, d.ones, c.flagType === 'u8' ? 1 : 4),
    output: d.output,
    ones: d.ones,
    encode: (encoder) => plan.encode(encoder, { input: d.data, flags: d.planFlags, output: d.output, count: n, packedCount: d.count }),
    verify: d.verify,
    async compareWithCpu() {
      const data = await readArray(ctx, d.data, n, c.type);
      const flags = (await readArray(ctx, d.flags, n, 'u32')) as Uint32Array;
      const expected = cpuPack(data, flags);
      const [packedCount] = await readWords(ctx, d.count, 1);
      if (packedCount !== expected.length) return Math.abs(expected.length - packedCount!) || 1;
      return countDifferences(expected, await readArray(ctx, d.output, expected.length, c.type));
    },
    destroy() {
      plan.destroy();
      d.pool.destroy();
    },
  };
};
