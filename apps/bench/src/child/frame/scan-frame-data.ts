import { createScanPlan } from '@scan/core';
import { scan as cpuScan } from '@scan/core/cpu';
import { encodeFill, runCheck } from '../device-ops.js';
import { BufferPool, encodeKernel, submitAndWait } from '../gpu.js';
import { checkScanKernel, type ScanCheckSpec } from '../kernels/check-scan.js';
import { CPU_COMPARE_MAX, countDifferences, POISON, readArray } from '../workload.js';
import { encodeTailCheck, type FrameCaseOf, type FrameDataFactory, frameCheck } from './frame-data.js';
import { asFramePlan } from './frame-plan.js';

const SPEC: ScanCheckSpec = { type: 'u32', op: 'add', inclusive: false, backward: false };

/**
 * The particle system's bin offsets: the exclusive u32 add scan of n random words (wrapping). The
 * output is poisoned before every frame (a copy). Checked on the GPU for the frame's count: every
 * element against the scan recurrence, and everything past the count still poison; at n ≤ 2^16
 * also against `@scan/core/cpu`.
 *
 * @example
 * ```ts
 * const data = await scanFrameData(ctx, c);
 * ```
 */
export const scanFrameData: FrameDataFactory<FrameCaseOf<'scan'>> = async (ctx, c) => {
  const n = c.n;
  const pool = new BufferPool(ctx);
  try {
    const input = pool.storage(4 * n, 'frame scan input');
    const output = pool.storage(4 * n, 'frame scan output');
    const poison = pool.storage(4 * n, 'frame scan poison');
    const prepare = (encoder: GPUCommandEncoder) => encoder.copyBufferToBuffer(poison, 0, output, 0, 4 * n);
    const setup = ctx.device.createCommandEncoder();
    encodeFill(ctx, pool, setup, input, n, 'random', c.seed);
    encodeFill(ctx, pool, setup, poison, n, 'constant', 0, POISON);
    prepare(setup);
    await submitAndWait(ctx, setup);
    const kernel = checkScanKernel(SPEC);
    return {
      buffers: { input, output },
      createPlan: () => asFramePlan(createScanPlan(ctx, { type: 'u32', op: 'add', maxCount: n })),
      prepare,
      async verify(count) {
        const gpu = await runCheck(ctx, pool, (encoder, errors) => {
          const params = pool.params(kernel, { n: count });
          encodeKernel(ctx, encoder, kernel, { inp: input, out: output, err: errors, params }, { invocations: count });
          encodeTailCheck(ctx, pool, encoder, errors, output, poison, count, n);
        });
        if (n > CPU_COMPARE_MAX) return frameCheck(gpu);
        const expected = cpuScan(await readArray(ctx, input, count, 'u32'), { op: 'add' });
        return frameCheck(gpu, countDifferences(expected, await readArray(ctx, output, count, 'u32')));
      },
      destroy: () => pool.destroy(),
    };
  } catch (error) {
    pool.destroy();
    throw error;
  }
};
