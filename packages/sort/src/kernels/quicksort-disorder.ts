import { defineKernel, read, readWrite } from '@scan/core/kit';
import { orderBitsWgsl } from '../key-order.js';
import type { SortKeyType } from '../types.js';
import { ELEMENTWISE_PARAMS, elementwiseWgsl } from './elementwise.js';

/**
 * The stop test of the paper's quicksort, before its global reduction: `out[i]` is 1 where key
 * i − 1 is greater than key i (by order bits), else 0. Their sum (a reduce-add) is the number of
 * adjacent out-of-order pairs of the whole array; 0 means sorted. Checking the whole array, not
 * only inside segments, makes the test independent of the segment bookkeeping it is judging.
 *
 * Bindings: `keys`, `out` (u32 0/1); parameters `{ count, dispatch_x }`.
 *
 * @example
 * ```ts
 * b.dispatch(quicksortDisorderKernel({ keyType: 'i32', descending: true }), { keys, out: disorder }, Math.ceil(count / ELEMENTWISE_WORKGROUP), { count, dispatch_x });
 * ```
 */
export const quicksortDisorderKernel = defineKernel({
  name: 'sort/quicksort/disorder',
  bindings: { keys: read('array<u32>'), out: readWrite('array<u32>') },
  params: ELEMENTWISE_PARAMS,
  wgsl: (spec: { readonly keyType: SortKeyType; readonly descending: boolean }) =>
    elementwiseWgsl(
      orderBitsWgsl(spec.keyType, spec.descending),
      `
// Element 0 has no predecessor; it compares with itself (never out of order).
let before = order_bits(keys[max(i, 1u) - 1u]);
out[i] = select(0u, 1u, before > order_bits(keys[i]));`,
    ),
});
