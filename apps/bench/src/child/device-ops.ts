import type { ElementType, ScanContext, ScanOp } from '@scan/core';
import type { Kernel } from '@scan/core/kit';
import { type BufferPool, encodeKernel, readWords, submitAndWait } from './gpu.js';
import { type FillMode, fillKernel } from './kernels/fill.js';
import { checkScalarKernel, reduceTreeKernel, TREE_SPAN } from './kernels/reduce-tree.js';

/** Result of a GPU check: how many elements were wrong, and the first (scan-order) index. */
export interface CheckOutcome {
  readonly mismatches: number;
  readonly first?: number;
}

/**
 * Records a fill of `n` words of `buffer` (see {@link FillMode}).
 *
 * @example
 * ```ts
 * encodeFill(ctx, pool, encoder, input, n, 'random', seed);
 * ```
 */
export function encodeFill(
  ctx: ScanContext,
  pool: BufferPool,
  encoder: GPUCommandEncoder,
  buffer: GPUBuffer,
  n: number,
  mode: FillMode,
  seed: number,
  arg = 0,
): void {
  const kernel = fillKernel({ mode });
  encodeKernel(ctx, encoder, kernel, { out: buffer, params: pool.params(kernel, { n, seed, arg }) }, { invocations: n });
}

/**
 * Fills each `[buffer, words]` with `value` (the outputs' poison) in one submit, before a case's
 * first run, so an element the plan never writes fails its check.
 *
 * @example
 * ```ts
 * await fillConstant(ctx, pool, POISON, [outKeys, n], [runCount, 1]);
 * ```
 */
export async function fillConstant(
  ctx: ScanContext,
  pool: BufferPool,
  value: number,
  ...buffers: readonly (readonly [GPUBuffer, number])[]
): Promise<void> {
  const encoder = ctx.device.createCommandEncoder();
  for (const [buffer, words] of buffers) encodeFill(ctx, pool, encoder, buffer, words, 'constant', 0, value);
  await submitAndWait(ctx, encoder);
}

/**
 * Records the bench's own reduction of `n` elements of `src` and returns the buffer whose element 0
 * will hold the result (multi-pass until one value is left).
 *
 * @example
 * ```ts
 * const total = encodeReduceTree(ctx, pool, encoder, flags, n, 'u32', 'add');
 * ```
 */
export function encodeReduceTree(
  ctx: ScanContext,
  pool: BufferPool,
  encoder: GPUCommandEncoder,
  src: GPUBuffer,
  n: number,
  type: ElementType,
  op: ScanOp,
): GPUBuffer {
  const kernel = reduceTreeKernel({ type, op });
  let current = src;
  let count = n;
  do {
    const groups = Math.ceil(count / TREE_SPAN);
    const partials = pool.storage(4 * groups, 'reduce-tree partials');
    encodeKernel(ctx, encoder, kernel, { src: current, partials, params: pool.params(kernel, { n: count, groups }) }, { groups });
    current = partials;
    count = groups;
  } while (count > 1);
  return current;
}

/**
 * Runs GPU checks: creates the two-word error counter (`[0, 0xffffffff]`), lets `record` encode
 * kernels that use it, submits, and reads back the 8 bytes.
 *
 * @example
 * ```ts
 * const outcome = await runCheck(ctx, pool, (encoder, err) => encodeKernel(ctx, encoder, kernel, { inp, out, err, params }, { invocations: n }));
 * ```
 */
export async function runCheck(
  ctx: ScanContext,
  pool: BufferPool,
  record: (encoder: GPUCommandEncoder, errors: GPUBuffer) => void,
): Promise<CheckOutcome> {
  const errors = pool.storage(8, 'check errors');
  const encoder = ctx.device.createCommandEncoder();
  // Word 1 (first index) starts at 0xffffffff for atomicMin: fill both words with it, then zero word 0.
  encodeFill(ctx, pool, encoder, errors, 2, 'constant', 0, 0xffffffff);
  encoder.clearBuffer(errors, 0, 4);
  record(encoder, errors);
  ctx.device.queue.submit([encoder.finish()]);
  const [mismatches, first] = await readWords(ctx, errors, 2);
  return mismatches ? { mismatches: mismatches!, first: first! } : { mismatches: 0 };
}

/**
 * Runs an element-by-element check over `n` elements: one invocation per element of `check`, a
 * kernel that reads `inp` and `out` and counts into `err` (parameters `{ n }`), as most cases' checks do.
 *
 * @example
 * ```ts
 * const outcome = await runElementCheck(ctx, pool, checkEqualKernel({ mode: 'copy' }), input, output, n);
 * ```
 */
export function runElementCheck(
  ctx: ScanContext,
  pool: BufferPool,
  check: Kernel<'inp' | 'out' | 'err', { readonly n: 'u32' }>,
  inp: GPUBuffer,
  out: GPUBuffer,
  n: number,
): Promise<CheckOutcome> {
  return runCheck(ctx, pool, (encoder, errors) =>
    encodeKernel(ctx, encoder, check, { inp, out, err: errors, params: pool.params(check, { n }) }, { invocations: n }),
  );
}

/**
 * Records a comparison of element 0 of `a` and `b` (of `type`) into the error counter.
 *
 * @example
 * ```ts
 * encodeCheckScalar(ctx, encoder, 'f32', planOutput, benchTotal, errors);
 * ```
 */
export function encodeCheckScalar(
  ctx: ScanContext,
  encoder: GPUCommandEncoder,
  type: ElementType,
  a: GPUBuffer,
  b: GPUBuffer,
  errors: GPUBuffer,
): void {
  encodeKernel(ctx, encoder, checkScalarKernel({ type }), { a, b, err: errors }, { groups: 1 });
}
