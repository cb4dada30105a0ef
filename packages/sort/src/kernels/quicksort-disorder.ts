import type { KernelSpec } from '@scan/core/kit';
import { orderBitsWgsl } from '../key-order.js';
import type { SortKeyType } from '../types.js';
import { elementwiseKernel } from './elementwise.js';

/**
 * The stop test of the paper's quicksort, before its global reduction: `out[i]` is 1 where key
 * i − 1 is greater than key i (by order bits), else 0. Their sum (a reduce-add) is the number of
 * adjacent out-of-order pairs of the whole array; 0 means sorted. Checking the whole array, not
 * only inside segments, makes the test independent of the segment bookkeeping it is judging.
 *
 * Bindings: 0 params `{ count, dispatch_x }`, 1 keys, 2 out (u32 0/1).
 *
 * @example
 * ```ts
 * b.dispatch(quicksortDisorderKernel('i32', true), [params, keys, disorder], Math.ceil(count / ELEMENTWISE_WORKGROUP));
 * ```
 */
export function quicksortDisorderKernel(keyType: SortKeyType, descending: boolean): KernelSpec {
  return elementwiseKernel(
    `sort/quicksort/disorder/${keyType}/${descending ? 'desc' : 'asc'}`,
    `@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;

${orderBitsWgsl(keyType, descending)}`,
    `
// Element 0 has no predecessor; it compares with itself (never out of order).
let before = order_bits(keys[max(i, 1u) - 1u]);
out[i] = select(0u, 1u, before > order_bits(keys[i]));`,
  );
}
