import type { ScanContext } from '@scan/core';
import { type BufferPool, encodeKernel } from './gpu.js';
import { addBlockPrefixKernel, blockPrefixSumKernel, PREFIX_SPAN } from './kernels/prefix-sum.js';

/**
 * Records the bench's own inclusive u32 add prefix sum (wrapping) of `n` words of `src` into `dst`:
 * workgroup scans, then the same recursively over the workgroup totals, then the totals added
 * back (three levels at 2^28). Used only by checks; its small level buffers come from `pool`.
 *
 * @example
 * ```ts
 * encodeInclusiveSum(ctx, pool, encoder, data, prefix, n);
 * ```
 */
export function encodeInclusiveSum(
  ctx: ScanContext,
  pool: BufferPool,
  encoder: GPUCommandEncoder,
  src: GPUBuffer,
  dst: GPUBuffer,
  n: number,
): void {
  const groups = Math.ceil(n / PREFIX_SPAN);
  const sums = pool.storage(4 * groups, 'prefix-sum totals');
  encodeKernel(
    ctx,
    encoder,
    blockPrefixSumKernel,
    { src, dst, sums, params: pool.params(blockPrefixSumKernel, { n, groups }) },
    { groups },
  );
  if (groups === 1) return;
  const scanned = pool.storage(4 * groups, 'prefix-sum scanned totals');
  encodeInclusiveSum(ctx, pool, encoder, sums, scanned, groups);
  encodeKernel(ctx, encoder, addBlockPrefixKernel, { dst, scanned, params: pool.params(addBlockPrefixKernel, { n }) }, { invocations: n });
}
