import { createDistributePlan } from '@scan/core';
import { distribute as cpuDistribute } from '@scan/core/cpu';
import { benchModule } from '../bench-module.js';
import type { Case } from '../case-types.js';
import { encodeFill, runElementCheck } from '../child/device-ops.js';
import { BufferPool, submitAndWait } from '../child/gpu.js';
import { checkEqualKernel } from '../child/kernels/check-equal.js';
import { countDifferences, POISON, randomFillMode, readArray } from '../child/workload.js';
import { bytesMoved } from '../metrics.js';

/** A distribute case: the direction (the first element forward, the last backward). */
export type DistributeCase = Case<'distribute', { backward: boolean }>;

/**
 * `distribute` in the registry: random data; every output element must equal the first (last,
 * backward) input.
 *
 * @example
 * ```ts
 * DISTRIBUTE.shapes(selection); // [{ primitive: 'distribute', type: 'u32', backward: false }]
 * ```
 */
export const DISTRIBUTE = benchModule<DistributeCase>({
  package: '@scan/core',
  primitives: ['distribute'],
  shapes: () => [{ primitive: 'distribute', type: 'u32', backward: false }],
  async workload(ctx, c) {
    const pool = new BufferPool(ctx);
    const n = c.n;
    const backward = c.backward;
    const input = pool.storage(4 * n, 'distribute input');
    const output = pool.storage(4 * n, 'distribute output');
    const setup = ctx.device.createCommandEncoder();
    encodeFill(ctx, pool, setup, input, n, randomFillMode(c.type), c.seed);
    encodeFill(ctx, pool, setup, output, n, 'constant', 0, POISON);
    await submitAndWait(ctx, setup);
    const plan = createDistributePlan(ctx, { type: c.type, backward });
    const check = checkEqualKernel({ mode: backward ? 'last' : 'first' });
    return {
      bytes: bytesMoved('distribute', n),
      output,
      encode: (encoder) => plan.encode(encoder, { input, output, count: n }),
      verify: () => runElementCheck(ctx, pool, check, input, output, n),
      async compareWithCpu() {
        const expected = cpuDistribute(await readArray(ctx, input, n, c.type), { backward });
        return countDifferences(expected, await readArray(ctx, output, n, c.type));
      },
      destroy() {
        plan.destroy();
        pool.destroy();
      },
    };
  },
});
