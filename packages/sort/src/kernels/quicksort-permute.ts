import { defineKernel, read, readWrite } from '@scan/core/kit';
import { ELEMENTWISE_PARAMS, elementwiseWgsl } from './elementwise.js';

// With values, a quicksort round splits-and-segments the identity permutation instead of the keys
// and then gathers keys and values through it: one split-and-segment (two segmented scans) per
// round whatever moves with the keys, where splitting keys and values separately would take two.

/**
 * `out[i] = i`: the identity permutation, written once per sort (split-and-segment reads it and
 * never writes it, so every round can permute it afresh).
 *
 * Bindings: `out`; parameters `{ count, dispatch_x }`.
 *
 * @example
 * ```ts
 * b.dispatch(quicksortIotaKernel({}), { out: iota }, Math.ceil(count / ELEMENTWISE_WORKGROUP), { count, dispatch_x });
 * ```
 */
export const quicksortIotaKernel = defineKernel({
  name: 'sort/quicksort/iota',
  bindings: { out: readWrite('array<u32>') },
  params: ELEMENTWISE_PARAMS,
  wgsl: () => elementwiseWgsl('', 'out[i] = i;'),
});

/**
 * The gather after a round's split-and-segment of the identity: `perm[i]` is the index, before the
 * round, of the element that belongs at i, so `keys_out[i] = keys_in[perm[i]]` and the values
 * likewise — raw words, every bit kept.
 *
 * Bindings: `perm`, `keys_in`, `keys_out`, `values_in`, `values_out`; parameters `{ count, dispatch_x }`.
 *
 * @example
 * ```ts
 * b.dispatch(quicksortGatherKernel({}), { perm, keys_in, keys_out, values_in, values_out }, Math.ceil(count / ELEMENTWISE_WORKGROUP), { count, dispatch_x });
 * ```
 */
export const quicksortGatherKernel = defineKernel({
  name: 'sort/quicksort/gather',
  bindings: {
    perm: read('array<u32>'),
    keys_in: read('array<u32>'),
    keys_out: readWrite('array<u32>'),
    values_in: read('array<u32>'),
    values_out: readWrite('array<u32>'),
  },
  params: ELEMENTWISE_PARAMS,
  wgsl: () =>
    elementwiseWgsl(
      '',
      `
let source = perm[i];
keys_out[i] = keys_in[source];
values_out[i] = values_in[source];`,
    ),
});
