import { defineKernel, read, readWrite } from '@scan/core/kit';
import { FLAT_BUILTINS_WGSL, FLAT_WORKGROUP_WGSL } from '../kernels/node-wgsl.js';

/**
 * Invocations per workgroup of the combine's kernels.
 *
 * @example
 * ```ts
 * const groups = Math.ceil(capacity / COMBINE_WORKGROUP);
 * ```
 */
export const COMBINE_WORKGROUP = 256;

const heads = defineKernel({
  name: 'hisparse/combine/heads',
  bindings: { record_count: read('array<u32>'), keys: read('array<u32>'), head_bits: readWrite('array<u32>') },
  params: { capacity: 'u32', words: 'u32' },
  wgsl: () => `
@compute @workgroup_size(${COMBINE_WORKGROUP})
fn main(${FLAT_BUILTINS_WGSL}) {
  ${FLAT_WORKGROUP_WGSL}
  let w = wg * ${COMBINE_WORKGROUP}u + lid;
  if (w >= params.words) { return; }
  let count = min(record_count[0], params.capacity);
  let start = 32u * w;
  var bits = 0u;
  var previous = 0u;
  if (start > 0u && start - 1u < count) { previous = keys[start - 1u]; }
  for (var b = 0u; b < 32u && start + b < params.capacity; b++) {
    let i = start + b;
    if (i >= count) {
      bits |= 1u << b;
    } else {
      let key = keys[i];
      if (i == 0u || key != previous) { bits |= 1u << b; }
      previous = key;
    }
  }
  head_bits[w] = bits;
}
`,
});

/**
 * Reduce by key, the head flags: one invocation per 32 records (one word of bit-packed head flags,
 * the layout `@scan/segmented` reads). Record i starts a run when it is the first, when its key
 * differs from the previous one, or when it is past the records written (`record_count[0]`, the
 * count the leaves left on the GPU, capped at the capacity): the scan runs over the whole capacity,
 * and every slot past the count — whatever an earlier product or the sort's scratch left there — is
 * a run of its own that the scatter ignores, so the tail needs no padding.
 *
 * The count is read from the buffer the leaves counted into, not through a count fixup: it is the
 * plan's own intermediate (as a pack's kept count is for `core/kept-gaps`), and a fixup is one more
 * dispatch, which cost 5–6% of a product at 2^20 entries on the H100 (issue 47's A/B).
 * Bindings: `record_count`, `keys` (the sorted record keys), `head_bits`. Params: `capacity`
 * (records), `words` (head words).
 *
 * @example
 * ```ts
 * b.dispatch(recordHeadsKernel(), { record_count, keys, head_bits }, Math.ceil(words / COMBINE_WORKGROUP), { capacity, words });
 * ```
 */
export function recordHeadsKernel() {
  return heads({});
}

const scatter = defineKernel({
  name: 'hisparse/combine/scatter',
  bindings: { record_count: read('array<u32>'), keys: read('array<u32>'), sums: read('array<f32>'), y: readWrite('array<f32>') },
  params: { capacity: 'u32' },
  wgsl: () => `
@compute @workgroup_size(${COMBINE_WORKGROUP})
fn main(${FLAT_BUILTINS_WGSL}) {
  ${FLAT_WORKGROUP_WGSL}
  let i = wg * ${COMBINE_WORKGROUP}u + lid;
  let count = min(record_count[0], params.capacity);
  if (i >= count) { return; }
  let key = keys[i];
  if (i + 1u == count || keys[i + 1u] != key) { y[key] = sums[i]; }
}
`,
});

/**
 * Scatter: the last record of each run of equal keys holds the run's sum in the inclusive
 * segmented scan, and writes it to y[key] (y was cleared, so outputs without records stay 0). Only
 * the records written are read: `record_count[0]`, the count the leaves left on the GPU (read as
 * the heads kernel reads it), capped at the capacity.
 * Bindings: `record_count`, `keys`, `sums` (the inclusive segmented scan), `y`. Params: `capacity`.
 *
 * @example
 * ```ts
 * b.dispatch(recordScatterKernel(), { record_count, keys, sums, y }, Math.ceil(capacity / COMBINE_WORKGROUP), { capacity });
 * ```
 */
export function recordScatterKernel() {
  return scatter({});
}
