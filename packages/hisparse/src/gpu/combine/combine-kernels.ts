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
  bindings: { keys: read('array<u32>'), head_bits: readWrite('array<u32>') },
  params: { count: 'u32', capacity: 'u32', words: 'u32' },
  wgsl: () => `
@compute @workgroup_size(${COMBINE_WORKGROUP})
fn main(${FLAT_BUILTINS_WGSL}) {
  ${FLAT_WORKGROUP_WGSL}
  let w = wg * ${COMBINE_WORKGROUP}u + lid;
  if (w >= params.words) { return; }
  let count = params.count;
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
 * differs from the previous one, or when it is past the records written (`count`: the count the
 * leaves left on the GPU, which a count fixup writes into the parameters): the scan runs over the
 * whole capacity, and every slot past the count — whatever an earlier product or the sort's scratch
 * left there — is a run of its own that the scatter ignores, so the tail needs no padding.
 * Bindings: `keys` (the sorted record keys), `head_bits`. Params: `count` (records written, at most
 * the capacity), `capacity` (records), `words` (head words).
 *
 * @example
 * ```ts
 * const [params] = recordCountFixup(b, { word: 0, from: recordCount, capacity, blocks: [countedParams(recordHeadsKernel(), { count: 'count' }, { capacity, words })] });
 * b.dispatch(recordHeadsKernel(), { keys, head_bits }, Math.ceil(words / COMBINE_WORKGROUP), params);
 * ```
 */
export function recordHeadsKernel() {
  return heads({});
}

const scatter = defineKernel({
  name: 'hisparse/combine/scatter',
  bindings: { keys: read('array<u32>'), sums: read('array<f32>'), y: readWrite('array<f32>') },
  params: { count: 'u32' },
  wgsl: () => `
@compute @workgroup_size(${COMBINE_WORKGROUP})
fn main(${FLAT_BUILTINS_WGSL}) {
  ${FLAT_WORKGROUP_WGSL}
  let i = wg * ${COMBINE_WORKGROUP}u + lid;
  let count = params.count;
  if (i >= count) { return; }
  let key = keys[i];
  if (i + 1u == count || keys[i + 1u] != key) { y[key] = sums[i]; }
}
`,
});

/**
 * Scatter: the last record of each run of equal keys holds the run's sum in the inclusive
 * segmented scan, and writes it to y[key] (y was cleared, so outputs without records stay 0). Only
 * the records written are read: `count`, the count the leaves left on the GPU, which a count fixup
 * writes into the parameters (at most the capacity).
 * Bindings: `keys`, `sums` (the inclusive segmented scan), `y`. Params: `count`.
 *
 * @example
 * ```ts
 * const [params] = recordCountFixup(b, { word: 0, from: recordCount, capacity, blocks: [countedParams(recordScatterKernel(), { count: 'count' }, {})] });
 * b.dispatch(recordScatterKernel(), { keys, sums, y }, Math.ceil(capacity / COMBINE_WORKGROUP), params);
 * ```
 */
export function recordScatterKernel() {
  return scatter({});
}
