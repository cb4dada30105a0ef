import { createSegmentedScanPlan } from '@scan/segmented';
import { segmentedScan as cpuSegmentedScan } from '@scan/segmented/cpu';
import { prepareSegments, readHeadFlags } from '../../primitives/shared/segments.js';
import { encodeFill, runCheck } from '../device-ops.js';
import { encodeKernel, submitAndWait } from '../gpu.js';
import { checkSegmentedScanKernel } from '../kernels/check-segmented-scan.js';
import { CPU_COMPARE_MAX, countDifferences, POISON, readArray } from '../workload.js';
import { encodeTailCheck, type FrameCaseOf, type FrameDataFactory, frameCheck } from './frame-data.js';
import { asFramePlan } from './frame-plan.js';

const CHECK = checkSegmentedScanKernel({ backward: false });

/**
 * Per-segment offsets, as a particle system scans the particles of each cell: the exclusive u32 add
 * segmented scan (single pass) of n random words over random segments of mean length
 * `c.segmentMean`. The output is poisoned before every frame. Checked on the GPU for the frame's
 * count (every element against the segmented recurrence, everything past the count still poison);
 * at n ≤ 2^16 also against `@scan/segmented/cpu`.
 *
 * @example
 * ```ts
 * const data = await segmentedScanFrameData(ctx, c);
 * ```
 */
export const segmentedScanFrameData: FrameDataFactory<FrameCaseOf<'segmented-scan'>> = async (ctx, c) => {
  const n = c.n;
  const d = await prepareSegments(ctx, c, 'frame segmented scan');
  const { pool, input, headBits } = d;
  try {
    const output = pool.storage(4 * n, 'frame segmented scan output');
    const poison = pool.storage(4 * n, 'frame segmented scan poison');
    const prepare = (encoder: GPUCommandEncoder) => encoder.copyBufferToBuffer(poison, 0, output, 0, 4 * n);
    const setup = ctx.device.createCommandEncoder();
    encodeFill(ctx, pool, setup, poison, n, 'constant', 0, POISON);
    prepare(setup);
    await submitAndWait(ctx, setup);
    return {
      buffers: { input, headBits, output },
      createPlan: () => asFramePlan(createSegmentedScanPlan(ctx, { type: 'u32', op: 'add', maxCount: n })),
      prepare,
      async verify(count) {
        const gpu = await runCheck(ctx, pool, (encoder, errors) => {
          const params = pool.params(CHECK, { n: count });
          encodeKernel(ctx, encoder, CHECK, { inp: input, out: output, bits: headBits, err: errors, params }, { invocations: count });
          encodeTailCheck(ctx, pool, encoder, errors, output, poison, count, n);
        });
        if (n > CPU_COMPARE_MAX) return frameCheck(gpu);
        const { flags } = await readHeadFlags(ctx, headBits, count);
        const data = (await readArray(ctx, input, count, 'u32')) as Uint32Array;
        const expected = cpuSegmentedScan(data, flags, { op: 'add' });
        return frameCheck(gpu, countDifferences(expected, await readArray(ctx, output, count, 'u32')));
      },
      destroy: () => pool.destroy(),
    };
  } catch (error) {
    pool.destroy();
    throw error;
  }
};
