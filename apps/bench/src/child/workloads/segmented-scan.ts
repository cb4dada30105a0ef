import { createSegmentedScanPlan } from '@scan/segmented';
import { segmentedScan as cpuSegmentedScan } from '@scan/segmented/cpu';
import { SEGMENTED_ALGORITHM_NAMES, type SegmentedAlgorithmName } from '../../case-types.js';
import { bytesMoved } from '../../metrics.js';

import { encodeFill, runCheck } from '../device-ops.js';
import { encodeKernel, submitAndWait } from '../gpu.js';
import { checkSegmentedScanWgsl } from '../kernels/check-segmented-scan.js';
import { countDifferences, POISON, readArray, type WorkloadFactory } from '../workload.js';
import { prepareSegments, readHeadFlags } from './segments.js';

function segmentedAlgorithm(name: string | undefined): SegmentedAlgorithmName {
  if ((SEGMENTED_ALGORITHM_NAMES as readonly string[]).includes(name ?? '')) return name as SegmentedAlgorithmName;
  throw new Error(`segmented-scan: algorithm ${String(name)} is not one of ${SEGMENTED_ALGORITHM_NAMES.join(', ')}`);
}

/**
 * u32 add exclusive segmented scan (forward or backward, single-pass or tree) of random data over
 * random segments of mean length `c.segmentMean`; checked element by element against the
 * segmented recurrence on the GPU.
 *
 * @example
 * ```ts
 * const w = await segmentedScanWorkload(ctx, c);
 * ```
 */
export const segmentedScanWorkload: WorkloadFactory = async (ctx, c) => {
  const n = c.n;
  const backward = c.backward ?? false;
  const d = await prepareSegments(ctx, c, 'segmented-scan');
  const { pool, input, headBits } = d;
  const output = pool.storage(4 * n, 'segmented-scan output');
  const setup = ctx.device.createCommandEncoder();
  encodeFill(ctx, pool, setup, output, n, 'constant', 0, POISON);
  await submitAndWait(ctx, setup);
  const plan = createSegmentedScanPlan(ctx, {
    type: 'u32',
    op: 'add',
    inclusive: false,
    backward,
    algorithm: segmentedAlgorithm(c.algorithm),
    maxCount: n,
  });
  const check = { key: `bench/check-segmented-scan/${backward ? 'bwd' : 'fwd'}`, wgsl: () => checkSegmentedScanWgsl(backward) };
  return {
    bytes: bytesMoved('segmented-scan', n),
    output,
    segments: d.segments,
    encode: (encoder) => plan.encode(encoder, { input, headBits, output, count: n }),
    verify: () =>
      runCheck(ctx, pool, (encoder, errors) =>
        encodeKernel(ctx, encoder, check, [input, output, headBits, errors, pool.params(n)], { invocations: n }),
      ),
    async compareWithCpu() {
      const { flags, layoutErrors } = await readHeadFlags(ctx, headBits, n);
      const data = (await readArray(ctx, input, n, 'u32')) as Uint32Array;
      const expected = cpuSegmentedScan(data, flags, { op: 'add', inclusive: false, backward });
      return layoutErrors + countDifferences(expected, await readArray(ctx, output, n, 'u32'));
    },
    destroy() {
      plan.destroy();
      pool.destroy();
    },
  };
};
