import type { ScanContext } from '@scan/core';
import { createNodeContext } from '@scan/core/node';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { encodeFill, runCheck } from '../src/child/device-ops.js';
import { BufferPool, encodeKernel, readWords, submitAndWait } from '../src/child/gpu.js';
import { checkScanKernel, type ScanCheckSpec } from '../src/child/kernels/check-scan.js';
import { PREFIX_SPAN } from '../src/child/kernels/prefix-sum.js';
import { encodeInclusiveSum } from '../src/child/prefix-sum.js';

// The segmented-reduce check rests on the bench's own prefix sum: it must be exact (wrapping) at
// every level of its recursion.
let ctx: ScanContext;
let pool: BufferPool;

beforeAll(async () => {
  ctx = await createNodeContext();
  pool = new BufferPool(ctx);
});
afterAll(() => {
  pool?.destroy();
  ctx?.destroy();
});

async function prefixOfRandom(n: number): Promise<{ src: GPUBuffer; dst: GPUBuffer }> {
  const src = pool.storage(4 * n, 'test src');
  const dst = pool.storage(4 * n, 'test dst');
  const encoder = ctx.device.createCommandEncoder();
  encodeFill(ctx, pool, encoder, src, n, 'random', 9);
  encodeInclusiveSum(ctx, pool, encoder, src, dst, n);
  await submitAndWait(ctx, encoder);
  return { src, dst };
}

test('two levels (a few workgroups, a ragged end) equal the CPU prefix sum', async () => {
  const n = 2 * PREFIX_SPAN + 905;
  const { src, dst } = await prefixOfRandom(n);
  const data = await readWords(ctx, src, n);
  const expected = new Uint32Array(n);
  let acc = 0;
  for (let i = 0; i < n; i++) expected[i] = acc = (acc + data[i]!) >>> 0;
  expect(await readWords(ctx, dst, n)).toEqual(expected);
});

test('three levels pass the scan recurrence check on the GPU', async () => {
  const n = PREFIX_SPAN * PREFIX_SPAN + 3;
  const { src, dst } = await prefixOfRandom(n);
  const spec: ScanCheckSpec = { type: 'u32', op: 'add', inclusive: true, backward: false };
  const outcome = await runCheck(ctx, pool, (encoder, errors) =>
    encodeKernel(
      ctx,
      encoder,
      checkScanKernel(spec),
      { inp: src, out: dst, err: errors, params: pool.params(checkScanKernel(spec), { n }) },
      {
        invocations: n,
      },
    ),
  );
  expect(outcome).toEqual({ mismatches: 0 });
});
