import { createReducePlan, type ScanOp } from '@scan/core';
import { reduce as cpuReduce } from '@scan/core/cpu';
import { benchModule } from '../bench-module.js';
import type { Case } from '../case-types.js';
import { encodeCheckScalar, encodeFill, encodeReduceTree, runCheck } from '../child/device-ops.js';
import { BufferPool, submitAndWait } from '../child/gpu.js';
import { countDifferences, POISON, randomFillMode, readArray } from '../child/workload.js';
import { bytesMoved } from '../metrics.js';

/** A reduce case: the operator. */
export type ReduceCase = Case<'reduce', { op: ScanOp }>;

/**
 * `reduce` in the registry: u32 add, f32 add and u32 max of random data (f32: small integers, so
 * every order of addition gives the same sum); checked against the bench's own tree reduction on
 * the GPU. Bound by reading the input once, so the read-only baseline runs beside it.
 *
 * @example
 * ```ts
 * REDUCE.shapes(selection).map((s) => `${s.type} ${s.op}`); // ['u32 add', 'f32 add', 'u32 max']
 * ```
 */
export const REDUCE = benchModule<ReduceCase>({
  package: '@scan/core',
  primitives: ['reduce'],
  readBound: true,
  shapes: () => [
    { primitive: 'reduce', type: 'u32', op: 'add' },
    { primitive: 'reduce', type: 'f32', op: 'add' },
    { primitive: 'reduce', type: 'u32', op: 'max' },
  ],
  async workload(ctx, c) {
    const pool = new BufferPool(ctx);
    const n = c.n;
    const op = c.op;
    const input = pool.storage(4 * n, 'reduce input');
    const output = pool.storage(16, 'reduce output');
    const setup = ctx.device.createCommandEncoder();
    encodeFill(ctx, pool, setup, input, n, randomFillMode(c.type), c.seed);
    encodeFill(ctx, pool, setup, output, 4, 'constant', 0, POISON);
    await submitAndWait(ctx, setup);
    const plan = createReducePlan(ctx, { type: c.type, op });
    return {
      bytes: bytesMoved('reduce', n),
      output,
      encode: (encoder) => plan.encode(encoder, { input, output, count: n }),
      verify: () =>
        runCheck(ctx, pool, (encoder, errors) => {
          const expected = encodeReduceTree(ctx, pool, encoder, input, n, c.type, op);
          encodeCheckScalar(ctx, encoder, c.type, output, expected, errors);
        }),
      async compareWithCpu() {
        const data = await readArray(ctx, input, n, c.type);
        const expected = cpuReduce(data, { op });
        // The CPU may sum in doubles: round to the element type before comparing.
        const typed = c.type === 'f32' ? Math.fround(expected) : c.type === 'i32' ? expected | 0 : expected >>> 0;
        return countDifferences([typed], await readArray(ctx, output, 1, c.type));
      },
      destroy() {
        plan.destroy();
        pool.destroy();
      },
    };
  },
});
