import { createDistributePlan } from '@scan/core';
import { distribute as cpuDistribute } from '@scan/core/cpu';
import { bytesMoved } from '../../metrics.js';
import { encodeFill, runCheck } from '../device-ops.js';
import { BufferPool, encodeKernel, submitAndWait } from '../gpu.js';
import { checkEqualWgsl } from '../kernels/check-equal.js';
import { countDifferences, POISON, randomFillMode, readArray, type WorkloadFactory } from '../workload.js';

/**
 * Distribute of random data: every output element must equal the first (last, backward) input.
 *
 * @example
 * ```ts
 * const w = await distributeWorkload(ctx, c);
 * ```
 */
export const distributeWorkload: WorkloadFactory = async (ctx, c) => {
  const pool = new BufferPool(ctx);
  const n = c.n;
  const backward = c.backward ?? false;
  const mode = backward ? 'last' : 'first';
  const input = pool.storage(4 * n, 'distribute input');
  const output = pool.storage(4 * n, 'distribute output');
  const setup = ctx.device.createCommandEncoder();
  encodeFill(ctx, pool, setup, input, n, randomFillMode(c.type), c.seed);
  encodeFill(ctx, pool, setup, output, n, 'constant', 0, POISON);
  await submitAndWait(ctx, setup);
  const plan = createDistributePlan(ctx, { type: c.type, backward });
  return {
    bytes: bytesMoved('distribute', n),
    output,
    encode: (encoder) => plan.encode(encoder, { input, output, count: n }),
    verify: () =>
      runCheck(ctx, pool, (encoder, errors) =>
        encodeKernel(
          ctx,
          encoder,
          { key: `bench/check-equal/${mode}`, wgsl: () => checkEqualWgsl(mode) },
          [input, output, errors, pool.params(n)],
          { invocations: n },
        ),
      ),
    async compareWithCpu() {
      const expected = cpuDistribute(await readArray(ctx, input, n, c.type), { backward });
      return countDifferences(expected, await readArray(ctx, output, n, c.type));
    },
    destroy() {
      plan.destroy();
      pool.destroy();
    },
  };
};
