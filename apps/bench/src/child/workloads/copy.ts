import { bytesMoved } from '../../metrics.js';
import { encodeFill, runCheck } from '../device-ops.js';
import { BufferPool, encodeKernel, submitAndWait } from '../gpu.js';
import { copyVec4Wgsl } from '../kernels/baselines.js';
import { checkEqualWgsl } from '../kernels/check-equal.js';
import { POISON, type WorkloadFactory } from '../workload.js';

/** The copy baseline kernel. */
export const COPY_KERNEL = { key: 'bench/copy-vec4', wgsl: copyVec4Wgsl };

/**
 * The vec4 copy baseline over n u32 (ceil(n/4) vec4s; buffers are padded to 16 bytes).
 *
 * @example
 * ```ts
 * const w = await copyWorkload(ctx, { ...c, primitive: 'copy' });
 * ```
 */
export const copyWorkload: WorkloadFactory = async (ctx, c) => {
  const pool = new BufferPool(ctx);
  const n = c.n;
  const vecs = Math.ceil(n / 4);
  const input = pool.storage(4 * n, 'copy input');
  const output = pool.storage(4 * n, 'copy output');
  const setup = ctx.device.createCommandEncoder();
  encodeFill(ctx, pool, setup, input, n, 'random', c.seed);
  encodeFill(ctx, pool, setup, output, n, 'constant', 0, POISON);
  await submitAndWait(ctx, setup);
  const params = pool.params(vecs);
  return {
    bytes: bytesMoved('copy', n),
    output,
    encode: (encoder) => encodeKernel(ctx, encoder, COPY_KERNEL, [input, output, params], { invocations: vecs }),
    verify: () =>
      runCheck(ctx, pool, (encoder, errors) =>
        encodeKernel(
          ctx,
          encoder,
          { key: 'bench/check-equal/copy', wgsl: () => checkEqualWgsl('copy') },
          [input, output, errors, pool.params(n)],
          { invocations: n },
        ),
      ),
    destroy: () => pool.destroy(),
  };
};
