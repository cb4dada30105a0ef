import type { KernelSpec } from '@scan/core/kit';
import { elementwiseKernel } from './elementwise.js';

/**
 * One u32 per element from bit-packed head flags (bit `i % 32` of word `⌊i / 32⌋`): 1 at a segment
 * head, 0 elsewhere and at element 0 (which always starts the first segment) — so that an
 * inclusive scan numbers the segments from 0.
 *
 * Bindings: 0 params, 1 packed flags, 2 heads (out).
 *
 * @example
 * ```ts
 * b.dispatch(unpackHeadsKernel(), [params, { role: 'headFlags', offset: 0 }, heads], groups);
 * ```
 */
export function unpackHeadsKernel(): KernelSpec {
  return elementwiseKernel(
    'sort/unpack-heads',
    `@group(0) @binding(1) var<storage, read> packed: array<u32>;
@group(0) @binding(2) var<storage, read_write> heads: array<u32>;`,
    'heads[i] = select((packed[i >> 5u] >> (i & 31u)) & 1u, 0u, i == 0u);',
  );
}

/**
 * A gather: `out[i] = src[outer[inner[i]]]` (`twoLevels`) or `src[inner[i]]`.
 *
 * Bindings: 0 params, 1 src, 2 out, 3 inner, 4 outer (two levels).
 *
 * @example
 * ```ts
 * const k = gatherKernel({ twoLevels: false });
 * ```
 */
export function gatherKernel(spec: { twoLevels: boolean }): KernelSpec {
  return elementwiseKernel(
    `sort/gather/${spec.twoLevels ? 2 : 1}`,
    `@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read> inner: array<u32>;
${spec.twoLevels ? '@group(0) @binding(4) var<storage, read> outer: array<u32>;' : ''}`,
    `out[i] = src[${spec.twoLevels ? 'outer[inner[i]]' : 'inner[i]'}];`,
  );
}
