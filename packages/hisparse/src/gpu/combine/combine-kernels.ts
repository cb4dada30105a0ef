import type { KernelSpec } from '@scan/core/kit';
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

/**
 * Binding numbers of {@link recordHeadsKernel}.
 *
 * @example
 * ```ts
 * bindings[HEADS_BINDINGS.keys] = { role: 'recordKeys', offset: 0 };
 * ```
 */
export const HEADS_BINDINGS = { recordCount: 0, keys: 1, headBits: 2, params: 3 } as const;

/**
 * Binding numbers of {@link recordScatterKernel}.
 *
 * @example
 * ```ts
 * bindings[SCATTER_BINDINGS.y] = { role: 'y', offset: 0 };
 * ```
 */
export const SCATTER_BINDINGS = { recordCount: 0, keys: 1, sums: 2, y: 3, params: 4 } as const;

/**
 * Reduce by key, the head flags: one invocation per 32 records (one word of bit-packed head flags,
 * the layout `@scan/segmented` reads). Record i starts a run when it is the first, when its key
 * differs from the previous one, or when it is past the records written (the count the leaves left
 * in `record_count[0]`, read here on the GPU): the scan runs over the whole capacity, and every
 * slot past the count — whatever an earlier product or the sort's scratch left there — is a run of
 * its own that the scatter ignores, so the tail needs no padding.
 * Params: capacity (records), head words.
 *
 * @example
 * ```ts
 * b.dispatch(recordHeadsKernel(), bindings, Math.ceil(headWords / COMBINE_WORKGROUP));
 * ```
 */
export function recordHeadsKernel(): KernelSpec {
  const B = HEADS_BINDINGS;
  return {
    key: 'hisparse/combine/heads',
    wgsl: () => /* wgsl */ `
struct Params { capacity: u32, words: u32 }
@group(0) @binding(${B.recordCount}) var<storage, read> record_count: array<u32>;
@group(0) @binding(${B.keys}) var<storage, read> keys: array<u32>;
@group(0) @binding(${B.headBits}) var<storage, read_write> head_bits: array<u32>;
@group(0) @binding(${B.params}) var<uniform> params: Params;

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
  };
}

/**
 * Scatter: the last record of each run of equal keys holds the run's sum in the inclusive
 * segmented scan, and writes it to y[key] (y was cleared, so outputs without records stay 0). Only
 * the records written (the count the leaves left on the GPU) are read.
 * Params: capacity (records).
 *
 * @example
 * ```ts
 * b.dispatch(recordScatterKernel(), bindings, Math.ceil(capacity / COMBINE_WORKGROUP));
 * ```
 */
export function recordScatterKernel(): KernelSpec {
  const B = SCATTER_BINDINGS;
  return {
    key: 'hisparse/combine/scatter',
    wgsl: () => /* wgsl */ `
struct Params { capacity: u32 }
@group(0) @binding(${B.recordCount}) var<storage, read> record_count: array<u32>;
@group(0) @binding(${B.keys}) var<storage, read> keys: array<u32>;
@group(0) @binding(${B.sums}) var<storage, read> sums: array<f32>;
@group(0) @binding(${B.y}) var<storage, read_write> y: array<f32>;
@group(0) @binding(${B.params}) var<uniform> params: Params;

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
  };
}
