import { createScanPlan } from '@scan/core';
import { scan as cpuScan } from '@scan/core/cpu';
import { SCAN_ALGORITHM_NAMES, type ScanAlgorithmName } from '../../case-types.js';
import { bytesMoved } from '../../metrics.js';
import { encodeFill, runCheck } from '../device-ops.js';
import { BufferPool, encodeKernel, submitAndWait } from '../gpu.js';
import { checkScanKey, checkScanWgsl, type ScanCheckSpec } from '../kernels/check-scan.js';
import { countDifferences, POISON, randomFillMode, readArray, type WorkloadFactory } from '../workload.js';

function scanAlgorithm(name: string | undefined): ScanAlgorithmName {
  if (name === undefined) return 'auto';
  if ((SCAN_ALGORITHM_NAMES as readonly string[]).includes(name)) return name as ScanAlgorithmName;
  throw new Error(`scan: algorithm ${name} is not one of ${SCAN_ALGORITHM_NAMES.join(', ')}`);
}

/**
 * Scan of random data (f32: small integers) with the case's type, operator, direction and
 * algorithm; checked element by element against the scan recurrence.
 *
 * @example
 * ```ts
 * const w = await scanWorkload(ctx, c);
 * ```
 */
export const scanWorkload: WorkloadFactory = async (ctx, c) => {
  const pool = new BufferPool(ctx);
  const n = c.n;
  const spec: ScanCheckSpec = { type: c.type, op: c.op ?? 'add', inclusive: c.inclusive ?? false, backward: c.backward ?? false };
  const input = pool.storage(4 * n, 'scan input');
  const output = pool.storage(4 * n, 'scan output');
  const setup = ctx.device.createCommandEncoder();
  encodeFill(ctx, pool, setup, input, n, randomFillMode(c.type), c.seed);
  encodeFill(ctx, pool, setup, output, n, 'constant', 0, POISON);
  await submitAndWait(ctx, setup);
  const plan = createScanPlan(ctx, { ...spec, algorithm: scanAlgorithm(c.algorithm), maxCount: n });
  return {
    bytes: bytesMoved('scan', n),
    output,
    encode: (encoder) => plan.encode(encoder, { input, output, count: n }),
    verify: () =>
      runCheck(ctx, pool, (encoder, errors) =>
        encodeKernel(ctx, encoder, { key: checkScanKey(spec), wgsl: () => checkScanWgsl(spec) }, [input, output, errors, pool.params(n)], {
          invocations: n,
        }),
      ),
    async compareWithCpu() {
      const data = await readArray(ctx, input, n, c.type);
      const expected = cpuScan(data, { op: spec.op, inclusive: spec.inclusive, backward: spec.backward });
      return countDifferences(expected, await readArray(ctx, output, n, c.type));
    },
    destroy() {
      plan.destroy();
      pool.destroy();
    },
  };
};
