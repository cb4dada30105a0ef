import { bytesMoved } from '../../metrics.js';
import { encodeCheckScalar, encodeFill, encodeReduceTree, runCheck } from '../device-ops.js';
import { BufferPool, encodeKernel, submitAndWait } from '../gpu.js';
import { READ_ONLY_ITEMS, readOnlyVec4Wgsl } from '../kernels/baselines.js';
import { WG } from '../kernels/common.js';
import type { WorkloadFactory } from '../workload.js';

/**
 * The read-only baseline: reads n u32 once as vec4s and adds them into one sum per workgroup. Verified by
 * summing its partials and the input with the bench's tree reduction (u32 add) and comparing.
 *
 * @example
 * ```ts
 * const w = await readOnlyWorkload(ctx, { ...c, primitive: 'read-only' });
 * ```
 */
export const readOnlyWorkload: WorkloadFactory = async (ctx, c) => {
  const pool = new BufferPool(ctx);
  const n = c.n;
  const vecs = Math.ceil(n / 4);
  const groups = Math.ceil(vecs / (WG * READ_ONLY_ITEMS));
  const input = pool.storage(4 * n, 'read-only input');
  const partials = pool.storage(4 * groups, 'read-only partials');
  const setup = ctx.device.createCommandEncoder();
  encodeFill(ctx, pool, setup, input, n, 'random', c.seed);
  await submitAndWait(ctx, setup);
  const params = pool.params(vecs, groups);
  const subgroups = ctx.caps.features.subgroups;
  const kernel = { key: `bench/read-only-vec4/${subgroups ? 'sg' : 'wg'}`, wgsl: () => readOnlyVec4Wgsl(subgroups) };
  return {
    bytes: bytesMoved('read-only', n),
    output: partials,
    encode(encoder) {
      encoder.clearBuffer(partials);
      encodeKernel(ctx, encoder, kernel, [input, partials, params], { groups });
    },
    verify: () =>
      runCheck(ctx, pool, (encoder, errors) => {
        const fromPartials = encodeReduceTree(ctx, pool, encoder, partials, groups, 'u32', 'add');
        const fromInput = encodeReduceTree(ctx, pool, encoder, input, n, 'u32', 'add');
        encodeCheckScalar(ctx, encoder, 'u32', fromPartials, fromInput, errors);
      }),
    destroy: () => pool.destroy(),
  };
};
