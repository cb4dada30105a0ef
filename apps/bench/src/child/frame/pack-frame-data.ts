import { createPackPlan } from '@scan/core';
import { pack as cpuPack } from '@scan/core/cpu';
import { countOnesBuffer } from '../../primitives/shared/flags.js';
import { preparePartition } from '../../primitives/shared/partition.js';
import { encodeFill, runCheck } from '../device-ops.js';
import { encodeKernel, readWords, submitAndWait } from '../gpu.js';
import { checkPartitionKernel } from '../kernels/check-partition.js';
import { CPU_COMPARE_MAX, countDifferences, POISON, readArray } from '../workload.js';
import { encodeTailCheck, type FrameCaseOf, type FrameDataFactory, frameCheck } from './frame-data.js';

/** Fraction of 1-flags of the frame cases' pack (half the particles live). */
const PACK_DENSITY = 0.5;

import { asFramePlan } from './frame-plan.js';

/**
 * The particle system's compaction: n u32 elements whose values encode their indices and u32 flags
 * of density 0.5, the pack cases' data (`preparePartition`). The output and
 * `packedCount` are poisoned before every frame (copies only). Checked on the GPU for the frame's
 * count: every output names a 1-flagged source below the count, sources increase, `packedCount`
 * equals the 1-flags among the first `count` (counted by the bench), and nothing past the kept
 * elements is written; at n ≤ 2^16 also against `@scan/core/cpu`.
 *
 * @example
 * ```ts
 * const data = await packFrameData(ctx, c);
 * ```
 */
export const packFrameData: FrameDataFactory<FrameCaseOf<'pack'>> = async (ctx, c) => {
  const n = c.n;
  const d = await preparePartition(ctx, { n, seed: c.seed, type: 'u32', flagType: c.flagType, density: PACK_DENSITY }, 'pack');
  try {
    const poison = d.pool.storage(4 * n, 'frame pack poison');
    const setup = ctx.device.createCommandEncoder();
    encodeFill(ctx, d.pool, setup, poison, n, 'constant', 0, POISON);
    await submitAndWait(ctx, setup);
    const kernel = checkPartitionKernel({ mode: 'pack', type: 'u32' });
    return {
      buffers: { input: d.data, flags: d.flags, output: d.output, packedCount: d.count },
      createPlan: () => asFramePlan(createPackPlan(ctx, { type: 'u32', maxCount: n })),
      prepare(encoder) {
        encoder.copyBufferToBuffer(poison, 0, d.output, 0, 4 * n);
        encoder.copyBufferToBuffer(poison, 0, d.count, 0, 4);
      },
      async verify(count) {
        const ones = await countOnesBuffer(ctx, d.pool, d.flags, count);
        const [kept] = await readWords(ctx, ones, 1);
        const gpu = await runCheck(ctx, d.pool, (encoder, errors) => {
          const params = d.pool.params(kernel, { n: count });
          encodeKernel(
            ctx,
            encoder,
            kernel,
            { out: d.output, flags: d.flags, reported: d.count, ones, err: errors, params },
            { invocations: count },
          );
          encodeTailCheck(ctx, d.pool, encoder, errors, d.output, poison, kept!, n);
        });
        if (n > CPU_COMPARE_MAX) return frameCheck(gpu);
        const expected = cpuPack(await readArray(ctx, d.data, count, 'u32'), (await readArray(ctx, d.flags, count, 'u32')) as Uint32Array);
        const [packedCount] = await readWords(ctx, d.count, 1);
        const wrong =
          packedCount !== expected.length
            ? Math.abs(expected.length - packedCount!) || 1
            : countDifferences(expected, await readArray(ctx, d.output, expected.length, 'u32'));
        return frameCheck(gpu, wrong);
      },
      destroy: () => d.pool.destroy(),
    };
  } catch (error) {
    d.pool.destroy();
    throw error;
  }
};
