import { createEnumeratePlan } from '@scan/core';
import { enumerate as cpuEnumerate } from '@scan/core/cpu';
import { benchModule } from '../bench-module.js';
import type { Case } from '../case-types.js';
import { encodeFill, runElementCheck } from '../child/device-ops.js';
import { BufferPool, submitAndWait } from '../child/gpu.js';
import { checkScanKernel, type ScanCheckSpec } from '../child/kernels/check-scan.js';
import { densityThreshold } from '../child/kernels/fill.js';
import { countDifferences, POISON, readArray } from '../child/workload.js';
import { bytesMoved } from '../metrics.js';
import { countOnes } from './shared/flags.js';

/** An enumerate case: the direction, and the fraction of 1-flags (`--density`). */
export type EnumerateCase = Case<'enumerate', { backward: boolean; density: number }>;

/**
 * `enumerate` in the registry: random 0/1 flags (`--density` ones); the output is the exclusive
 * u32 sum scan of the flags, checked with the scan recurrence kernel.
 *
 * @example
 * ```ts
 * ENUMERATE.shapes({ ...selection, density: 0.25 }); // [{ primitive: 'enumerate', type: 'u32', backward: false, density: 0.25 }]
 * ```
 */
export const ENUMERATE = benchModule<EnumerateCase>({
  package: '@scan/core',
  primitives: ['enumerate'],
  shapes: (selection) => [{ primitive: 'enumerate', type: 'u32', backward: false, density: selection.density }],
  async workload(ctx, c) {
    const pool = new BufferPool(ctx);
    const n = c.n;
    const backward = c.backward;
    const spec: ScanCheckSpec = { type: 'u32', op: 'add', inclusive: false, backward };
    const flags = pool.storage(4 * n, 'enumerate flags');
    const output = pool.storage(4 * n, 'enumerate output');
    const setup = ctx.device.createCommandEncoder();
    encodeFill(ctx, pool, setup, flags, n, 'flags', c.seed, densityThreshold(c.density));
    encodeFill(ctx, pool, setup, output, n, 'constant', 0, POISON);
    await submitAndWait(ctx, setup);
    const ones = await countOnes(ctx, pool, flags, n);
    const plan = createEnumeratePlan(ctx, { backward });
    const check = checkScanKernel(spec);
    return {
      bytes: bytesMoved('enumerate', n),
      output,
      ones,
      encode: (encoder) => plan.encode(encoder, { flags, output, count: n }),
      verify: () => runElementCheck(ctx, pool, check, flags, output, n),
      async compareWithCpu() {
        const expected = cpuEnumerate((await readArray(ctx, flags, n, 'u32')) as Uint32Array, { backward });
        return countDifferences(expected, await readArray(ctx, output, n, 'u32'));
      },
      destroy() {
        plan.destroy();
        pool.destroy();
      },
    };
  },
});
