import { benchModule } from '../bench-module.js';
import type { Case } from '../case-types.js';
import { encodeFill, runElementCheck } from '../child/device-ops.js';
import { BufferPool, encodeKernel, submitAndWait } from '../child/gpu.js';
import { copyVec4Kernel } from '../child/kernels/baselines.js';
import { checkEqualKernel } from '../child/kernels/check-equal.js';
import { POISON } from '../child/workload.js';
import { bytesMoved } from '../metrics.js';

/** The copy baseline's case (u32): the vec4 copy every case's `×copy` divides by. */
export type CopyCase = Case<'copy'>;

/**
 * The vec4 copy baseline over n u32 (⌈n/4⌉ vec4s; buffers are padded to 16 bytes) as a case of its
 * own; it also runs inside every case's process, at the case's size, for the `×copy` column. Kept
 * whatever `--types` says (it moves bits, not values); last but one in the report.
 *
 * @example
 * ```ts
 * COPY.shapes(selection); // [{ primitive: 'copy', type: 'u32' }]
 * ```
 */
export const COPY = benchModule<CopyCase>({
  package: '@scan/bench',
  primitives: ['copy'],
  anyType: true,
  shapes: () => [{ primitive: 'copy', type: 'u32' }],
  async workload(ctx, c) {
    const pool = new BufferPool(ctx);
    const n = c.n;
    const vecs = Math.ceil(n / 4);
    const input = pool.storage(4 * n, 'copy input');
    const output = pool.storage(4 * n, 'copy output');
    const setup = ctx.device.createCommandEncoder();
    encodeFill(ctx, pool, setup, input, n, 'random', c.seed);
    encodeFill(ctx, pool, setup, output, n, 'constant', 0, POISON);
    await submitAndWait(ctx, setup);
    const params = pool.params(copyVec4Kernel, { n: vecs });
    const check = checkEqualKernel({ mode: 'copy' });
    return {
      bytes: bytesMoved('copy', n),
      output,
      encode: (encoder) => encodeKernel(ctx, encoder, copyVec4Kernel, { src: input, dst: output, params }, { invocations: vecs }),
      verify: () => runElementCheck(ctx, pool, check, input, output, n),
      destroy: () => pool.destroy(),
    };
  },
});
