import { defineKernel, read, readWrite } from '@scan/core/kit';
import { BUILD_PARAMS, buildKernelFrame } from './params.js';

// Summing duplicate positions (a non-canonical CSR). After the sort, the entries of one position
// are a run in input order: its first entry has depth ≤ L, the others depth L + 1 (they start
// nothing, so the binning already counts the run as one entry). What is left is the value: the
// run's values are reduced by `@scan/segmented` (head flags where depth ≤ L) and the sum is
// written into the run's first entry, which is the one the leaf filling reads.

const runHeads = defineKernel({
  name: 'hisparse/build/run-heads',
  bindings: {
    entries: read('array<vec4<u32>>'),
    run_values: readWrite('array<u32>'),
    head_bits: readWrite('array<u32>'),
  },
  params: BUILD_PARAMS,
  wgsl: () =>
    buildKernelFrame(
      '',
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
});

/**
 * One invocation per 32 entries (one word of bit-packed head flags): `head_bits[w]` bit b set when
 * entry 32w + b starts a run (depth ≤ L), and `run_values[j]` = the value bits of entry j, the
 * input of the segmented reduction.
 * Bindings: `entries`, `run_values`, `head_bits`. Params ({@link BUILD_PARAMS}): `n`, `levels`.
 *
 * @example
 * ```ts
 * b.dispatch(runHeadsKernel(), { entries, run_values, head_bits }, Math.ceil(Math.ceil(n / 32) / BUILD_WORKGROUP), params);
 * ```
 */
export function runHeadsKernel() {
  return runHeads({});
}

const runSums = defineKernel({
  name: 'hisparse/build/run-sums',
  bindings: {
    entries: readWrite('array<vec4<u32>>'),
    child_excl: read('array<u32>'),
    sums: read('array<u32>'),
  },
  params: BUILD_PARAMS,
  wgsl: () =>
    buildKernelFrame(
      '',
      `  if (i + 1u >= params.n) { return; }
  if (entries[i].w > params.levels || entries[i + 1u].w <= params.levels) { return; }
  entries[i].z = sums[child_excl[i]];`,
    ),
});

/**
 * One invocation per entry: the first entry j of a run of two or more (depth ≤ L, the next entry
 * of depth L + 1) takes the run's sum, `entries[j].z = sums[child_excl[j]]` (`child_excl` of the
 * leaf level numbers the runs). A run of one keeps its value bits untouched (−0 and NaN payloads).
 * Bindings: `entries`, `child_excl`, `sums`. Params ({@link BUILD_PARAMS}): `n`, `levels`.
 *
 * @example
 * ```ts
 * b.dispatch(runSumsKernel(), { entries, child_excl, sums }, Math.ceil(n / BUILD_WORKGROUP), params);
 * ```
 */
export function runSumsKernel() {
  return runSums({});
}
