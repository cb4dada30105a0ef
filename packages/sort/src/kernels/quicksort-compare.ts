import type { KernelSpec } from '@scan/core/kit';
import { orderBitsWgsl } from '../key-order.js';
import type { SortKeyType } from '../types.js';
import { elementwiseKernel } from './elementwise.js';

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
 * Bindings: 0 params `{ count, dispatch_x, or_equal }`, 1 keys, 2 pivots (u32 words), 3 flags
 * (u32 0/1, out).
 *
 * @example
 * ```ts
 * b.dispatch(quicksortCompareKernel('f32', false), [params, keys, pivots, flags], Math.ceil(count / ELEMENTWISE_WORKGROUP));
 * ```
 */
export function quicksortCompareKernel(keyType: SortKeyType, descending: boolean): KernelSpec {
  return elementwiseKernel(
    `sort/quicksort/compare/${keyType}/${descending ? 'desc' : 'asc'}`,
    `@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read> pivots: array<u32>;
@group(0) @binding(3) var<storage, read_write> flags: array<u32>;

${orderBitsWgsl(keyType, descending)}`,
    `
let k = order_bits(keys[i]);
let p = order_bits(pivots[i]);
flags[i] = select(u32(k > p), u32(k >= p), params.or_equal != 0u);`,
  );
}
