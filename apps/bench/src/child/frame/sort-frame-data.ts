import { createSortPlan } from '@scan/sort';
import { sort as cpuSort } from '@scan/sort/cpu';
import { bitsOf } from '../../primitives/shared/sort-data.js';
import { runCheck } from '../device-ops.js';
import { BufferPool, encodeKernel, readWords, submitAndWait } from '../gpu.js';
import { fillKernel } from '../kernels/fill.js';
import { checkSortOrderKernel } from '../kernels/sort-checks.js';
import { sortKeysKernel } from '../kernels/sort-keys.js';
import { CPU_COMPARE_MAX, countDifferences, readArray } from '../workload.js';
import { encodeTailCheck, type FrameCaseOf, type FrameDataFactory, frameCheck } from './frame-data.js';
import { asFramePlan } from './frame-plan.js';

/** Offset between the case seed and the depths' seed (any constant; other cases' data differ). */
const DEPTH_SEED_OFFSET = 0x5a1a7;

/**
 * The splat viewer's sort: n random finite f32 depths (half negative, subnormals included; see
 * `sortKeysKernel`) with u32 values that are their indices, sorted in place far to near
 * (`descending`). Both are restored from pristine copies before every frame (untimed, copies
 * only), as a viewer writes fresh depths each frame. Checked on the GPU: the first `count` keys in
 * descending order, `key[i] == depth[value[i]]` with `value[i] < count`, equal keys with increasing
 * values (stable), and everything past `count` untouched; at n ≤ 2^16 also bit for bit against
 * `@scan/sort/cpu`.
 *
 * @example
 * ```ts
 * const data = await sortFrameData(ctx, c);
 * const plan = data.createPlan();
 * ```
 */
export const sortFrameData: FrameDataFactory<FrameCaseOf<'sort'>> = async (ctx, c) => {
  const n = c.n;
  const pool = new BufferPool(ctx);
  try {
    const depths = pool.storage(4 * n, 'frame sort depths');
    const indices = pool.storage(4 * n, 'frame sort indices');
    const keys = pool.storage(4 * n, 'frame sort keys');
    const values = pool.storage(4 * n, 'frame sort values');
    const prepare = (encoder: GPUCommandEncoder) => {
      encoder.copyBufferToBuffer(depths, 0, keys, 0, 4 * n);
      encoder.copyBufferToBuffer(indices, 0, values, 0, 4 * n);
    };
    const setup = ctx.device.createCommandEncoder();
    const generate = sortKeysKernel({ type: 'f32' });
    const generateParams = pool.params(generate, { n, seed: c.seed + DEPTH_SEED_OFFSET });
    encodeKernel(ctx, setup, generate, { out: depths, params: generateParams }, { invocations: n });
    const iota = fillKernel({ mode: 'iota-u32' });
    encodeKernel(ctx, setup, iota, { out: indices, params: pool.params(iota, { n, seed: 0, arg: 0 }) }, { invocations: n });
    prepare(setup);
    await submitAndWait(ctx, setup);
    const order = checkSortOrderKernel({ type: 'f32', descending: true, pairs: true, segmented: false });
    return {
      buffers: { keys, values },
      createPlan: () => asFramePlan(createSortPlan(ctx, { keyType: 'f32', valueType: 'u32', descending: true, maxCount: n })),
      prepare,
      async verify(count) {
        const gpu = await runCheck(ctx, pool, (encoder, errors) => {
          const params = pool.params(order, { n: count });
          encodeKernel(ctx, encoder, order, { keys, vals: values, original: depths, err: errors, params }, { invocations: count });
          encodeTailCheck(ctx, pool, encoder, errors, keys, depths, count, n);
          encodeTailCheck(ctx, pool, encoder, errors, values, indices, count, n);
        });
        if (n > CPU_COMPARE_MAX) return frameCheck(gpu);
        const input = (await readArray(ctx, depths, count, 'f32')) as Float32Array;
        const expected = cpuSort(input, { values: Uint32Array.from({ length: count }, (_, i) => i), descending: true });
        const wrong =
          countDifferences(bitsOf(expected.keys), await readWords(ctx, keys, count)) +
          (expected.values ? countDifferences(bitsOf(expected.values), await readWords(ctx, values, count)) : count);
        return frameCheck(gpu, wrong);
      },
      destroy: () => pool.destroy(),
    };
  } catch (error) {
    pool.destroy();
    throw error;
  }
};
