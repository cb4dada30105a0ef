import { defineKernel, read, readWrite } from '@scan/core/kit';
import { orderBitsWgsl } from '../key-order.js';
import type { SortKeyType } from '../types.js';
import { ELEMENTWISE_PARAMS, elementwiseWgsl } from './elementwise.js';

/**
 * The comparison step of the paper's quicksort (Sengupta et al. 2007, §4.1): each key against its
 * segment's pivot (the segment's first key, distributed across the segment beforehand), giving
 * the flag that split-and-segment partitions by — 0 (smaller) to the head of the segment, 1
 * (larger) to its end. The comparison alternates between rounds: `key > pivot` when
 * `params.or_equal` is 0, `key >= pivot` when it is 1. Keys compare by their order bits, so every
 * key type (and descending) is one unsigned comparison, and NaNs are equal to each other.
 *
 * Why alternate: with `>` the pivot and its equals stay left, so a segment whose pivot is its
 * largest key does not split; with `>=` they go right, so a segment whose pivot is its smallest
 * key does not split. A segment that is not constant has a pivot that is not both, so within two
 * rounds it splits into two non-empty segments.
 *
 * Bindings: `keys`, `pivots` (u32 words), `flags` (u32 0/1, out); parameters `{ count, dispatch_x,
 * or_equal }`.
 *
 * @example
 * ```ts
 * b.dispatch(quicksortCompareKernel({ keyType: 'f32', descending: false }), { keys, pivots, flags }, Math.ceil(count / ELEMENTWISE_WORKGROUP), { count, dispatch_x, or_equal: 1 });
 * ```
 */
export const quicksortCompareKernel = defineKernel({
  name: 'sort/quicksort/compare',
  bindings: { keys: read('array<u32>'), pivots: read('array<u32>'), flags: readWrite('array<u32>') },
  params: { ...ELEMENTWISE_PARAMS, or_equal: 'u32' },
  wgsl: (spec: { readonly keyType: SortKeyType; readonly descending: boolean }) =>
    elementwiseWgsl(
      orderBitsWgsl(spec.keyType, spec.descending),
      `
let k = order_bits(keys[i]);
let p = order_bits(pivots[i]);
flags[i] = select(u32(k > p), u32(k >= p), params.or_equal != 0u);`,
    ),
});
