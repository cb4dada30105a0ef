import type { KernelSpec } from '@scan/core/kit';
import { buildKernelFrame } from './params.js';

// Summing duplicate positions (a non-canonical CSR). After the sort, the entries of one position
// are a run in input order: its first entry has depth ≤ L, the others depth L + 1 (they start
// nothing, so the binning already counts the run as one entry). What is left is the value: the
// run's values are reduced by `@scan/segmented` (head flags where depth ≤ L) and the sum is
// written into the run's first entry, which is the one the leaf filling reads.

/**
 * One invocation per 32 entries (one word of bit-packed head flags): `head_bits[w]` bit b set when
 * entry 32w + b starts a run (depth ≤ L), and `run_values[j]` = the value bits of entry j, the
 * input of the segmented reduction.
 * Bindings: 0 params (n, levels), 1 entries, 2 run_values, 3 head_bits.
 *
 * @example
 * ```ts
 * b.dispatch(runHeadsKernel(), [p, entries, runValues, headBits], Math.ceil(Math.ceil(n / 32) / BUILD_WORKGROUP));
 * ```
 */
export function runHeadsKernel(): KernelSpec {
  return {
    key: 'hisparse/build/run-heads',
    wgsl: () =>
      buildKernelFrame(
        `@group(0) @binding(1) var<storage, read> entries: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> run_values: array<u32>;
@group(0) @binding(3) var<storage, read_write> head_bits: array<u32>;`,
        `  let start = 32u * i;
  if (start >= params.n) { return; }
  var bits = 0u;
  for (var b = 0u; b < 32u && start + b < params.n; b++) {
    let e = entries[start + b];
    run_values[start + b] = e.z;
    if (e.w <= params.levels) { bits |= 1u << b; }
  }
  head_bits[i] = bits;`,
      ),
  };
}

/**
 * One invocation per entry: the first entry j of a run of two or more (depth ≤ L, the next entry
 * of depth L + 1) takes the run's sum, `entries[j].z = sums[child_excl[j]]` (`child_excl` of the
 * leaf level numbers the runs). A run of one keeps its value bits untouched (−0 and NaN payloads).
 * Bindings: 0 params (n, levels), 1 entries, 2 child_excl, 3 sums.
 *
 * @example
 * ```ts
 * b.dispatch(runSumsKernel(), [p, entries, childExcl, sums], Math.ceil(n / BUILD_WORKGROUP));
 * ```
 */
export function runSumsKernel(): KernelSpec {
  return {
    key: 'hisparse/build/run-sums',
    wgsl: () =>
      buildKernelFrame(
        `@group(0) @binding(1) var<storage, read_write> entries: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read> child_excl: array<u32>;
@group(0) @binding(3) var<storage, read> sums: array<u32>;`,
        `  if (i + 1u >= params.n) { return; }
  if (entries[i].w > params.levels || entries[i + 1u].w <= params.levels) { return; }
  entries[i].z = sums[child_excl[i]];`,
      ),
  };
}
