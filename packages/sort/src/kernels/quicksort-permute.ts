import type { KernelSpec } from '@scan/core/kit';
import { elementwiseKernel } from './elementwise.js';

// With values, a quicksort round splits-and-segments the identity permutation instead of the keys
// and then gathers keys and values through it: one split-and-segment (two segmented scans) per
// round whatever moves with the keys, where splitting keys and values separately would take two.

/**
 * `out[i] = i`: the identity permutation, written once per sort (split-and-segment reads it and
 * never writes it, so every round can permute it afresh).
 *
 * Bindings: 0 params `{ count, dispatch_x }`, 1 out.
 *
 * @example
 * ```ts
 * b.dispatch(quicksortIotaKernel(), [params, iota], Math.ceil(count / ELEMENTWISE_WORKGROUP));
 * ```
 */
export function quicksortIotaKernel(): KernelSpec {
  return elementwiseKernel('sort/quicksort/iota', '@group(0) @binding(1) var<storage, read_write> out: array<u32>;', 'out[i] = i;');
}

/**
 * The gather after a round's split-and-segment of the identity: `perm[i]` is the index, before the
 * round, of the element that belongs at i, so `keys_out[i] = keys_in[perm[i]]` and the values
 * likewise — raw words, every bit kept.
 *
 * Bindings: 0 params `{ count, dispatch_x }`, 1 perm, 2 keys_in, 3 keys_out, 4 values_in,
 * 5 values_out.
 *
 * @example
 * ```ts
 * b.dispatch(quicksortGatherKernel(), [params, perm, keysIn, keysOut, valuesIn, valuesOut], Math.ceil(count / ELEMENTWISE_WORKGROUP));
 * ```
 */
export function quicksortGatherKernel(): KernelSpec {
  return elementwiseKernel(
    'sort/quicksort/gather',
    `@group(0) @binding(1) var<storage, read> perm: array<u32>;
@group(0) @binding(2) var<storage, read> keys_in: array<u32>;
@group(0) @binding(3) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(4) var<storage, read> values_in: array<u32>;
@group(0) @binding(5) var<storage, read_write> values_out: array<u32>;`,
    `
let source = perm[i];
keys_out[i] = keys_in[source];
values_out[i] = values_in[source];`,
  );
}
