import { createEnumeratePlan } from '@scan/core';
import { enumerate as cpuEnumerate } from '@scan/core/cpu';
import { bytesMoved } from '../../metrics.js';
import { encodeFill, runCheck } from '../device-ops.js';
import { BufferPool, encodeKernel, submitAndWait } from '../gpu.js';
import { checkScanKey, checkScanWgsl, type ScanCheckSpec } from '../kernels/check-scan.js';
import { densityThreshold } from '../kernels/fill.js';
import { countDifferences, POISON, readArray, type WorkloadFactory } from '../workload.js';
import { countOnes } from './flags.js';

/**
 * Enumerate of random 0/1 flags (`--density` ones): the output is the exclusive u32 sum scan of the
 * flags, checked with the scan recurrence kernel.
 *
 * @example
 * ```ts
 * const w = await enumerateWorkload(ctx, c);
 * ```
 */
export const enumerateWorkload: WorkloadFactory = async (ctx, c) => {
  const pool = new BufferPool(ctx);
  const n = c.n;
  const backward = c.backward ?? false;
  const spec: ScanCheckSpec = { type: 'u32', op: 'add', inclusive: false, backward };
  const flags = pool.storage(4 * n, 'enumerate flags');
  const output = pool.storage(4 * n, 'enumerate output');
  const setup = ctx.device.createCommandEncoder();
  encodeFill(ctx, pool, setup, flags, n, 'flags', c.seed, densityThreshold(c.density ?? 0.5));
  encodeFill(ctx, pool, setup, output, n, 'constant', 0, POISON);
  await submitAndWait(ctx, setup);
  const ones = await countOnes(ctx, pool, flags, n);
  const plan = createEnumeratePlan(ctx, { backward });
  return {
    bytes: bytesMoved('enumerate', n),
    output,
    ones,
    encode: (encoder) => plan.encode(encoder, { flags, output, count: n }),
    verify: () =>
      runCheck(ctx, pool, (encoder, errors) =>
        encodeKernel(ctx, encoder, { key: checkScanKey(spec), wgsl: () => checkScanWgsl(spec) }, [flags, output, errors, pool.params(n)], {
          invocations: n,
        }),
      ),
    async compareWithCpu() {
      const expected = cpuEnumerate((await readArray(ctx, flags, n, 'u32')) as Uint32Array, { backward });
      return countDifferences(expected, await readArray(ctx, output, n, 'u32'));
    },
    destroy() {
      plan.destroy();
      pool.destroy();
    },
  };
};
