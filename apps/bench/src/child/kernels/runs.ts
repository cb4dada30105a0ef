import { defineKernel, read, readWrite } from '@scan/core/kit';
import { COMMON_WGSL, ENTRY_ARGS, ERROR_BINDING, ERROR_WGSL, WG } from './common.js';
import { HEAD_FNS_WGSL } from './head-bits.js';

/**
 * The head flags of `n` elements as one u32 each (1 where an element starts a segment of the head
 * bits): their inclusive prefix sum (the bench's own) gives the keys of the by-key cases, so that
 * key i is the number of the segment holding element i (1, 2, …) and the runs of equal keys are
 * the segments exactly.
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, headWordsKernel, { bits, flags, params: pool.params(headWordsKernel, { n }) }, { invocations: n });
 * ```
 */
export const headWordsKernel = defineKernel({
  name: 'bench/head-words',
  bindings: { bits: read('array<u32>'), flags: readWrite('array<u32>') },
  params: { n: 'u32' },
  wgsl: () => `${COMMON_WGSL}
${HEAD_FNS_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i < params.n) { flags[i] = select(0u, 1u, is_head(i)); }
}
`,
})({});

/**
 * The check of a run-based output whose keys are the segment numbers 1 … `runs` (see
 * {@link headWordsKernel}): `out_keys[j] = j + 1` for every run j, and `run_count[0] = runs`
 * (reported at index 0 when wrong). Bindings: `out_keys`, `run_count`, `err`; parameter `runs`.
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, checkRunKeysKernel, { out_keys, run_count, err, params: pool.params(checkRunKeysKernel, { runs }) }, { invocations: runs });
 * ```
 */
export const checkRunKeysKernel = defineKernel({
  name: 'bench/check-run-keys',
  bindings: { out_keys: read('array<u32>'), run_count: read('array<u32>'), ...ERROR_BINDING },
  params: { runs: 'u32' },
  wgsl: () => `${COMMON_WGSL}${ERROR_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let j = global_index(wid, nwg, lid);
  if (j >= params.runs) { return; }
  if (out_keys[j] != j + 1u || (j == 0u && run_count[0] != params.runs)) { mismatch(j); }
}
`,
})({});

/**
 * The check of a run-length encoding's offsets and lengths, element by element over the head
 * bits: a head i of run j (`keys[i] − 1`) needs `offsets[j] = i`; the last element i of run j
 * needs `lengths[j] = i − offsets[j] + 1` (right once the offsets are). Bindings: `bits`, `keys`,
 * `offsets`, `lengths`, `err`; parameter `n` elements.
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, checkRunLengthsKernel, { bits, keys, offsets, lengths, err, params: pool.params(checkRunLengthsKernel, { n }) }, { invocations: n });
 * ```
 */
export const checkRunLengthsKernel = defineKernel({
  name: 'bench/check-run-lengths',
  bindings: {
    bits: read('array<u32>'),
    keys: read('array<u32>'),
    offsets: read('array<u32>'),
    lengths: read('array<u32>'),
    ...ERROR_BINDING,
  },
  params: { n: 'u32' },
  wgsl: () => `${COMMON_WGSL}${ERROR_WGSL}
${HEAD_FNS_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i >= params.n) { return; }
  let j = keys[i] - 1u;
  if (is_head(i) && offsets[j] != i) { mismatch(i); }
  if (is_last(i) && lengths[j] != i - offsets[j] + 1u) { mismatch(i); }
}
`,
})({});

/**
 * The check of a unique-by-key's values, element by element over the head bits: a head i of run j
 * (`keys[i] − 1`) needs `out_values[j] = values[i]`, the first value of its run. Bindings: `bits`,
 * `keys`, `values`, `out_values`, `err`; parameter `n` elements.
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, checkRunFirstValuesKernel, { bits, keys, values, out_values, err, params: pool.params(checkRunFirstValuesKernel, { n }) }, { invocations: n });
 * ```
 */
export const checkRunFirstValuesKernel = defineKernel({
  name: 'bench/check-run-first-values',
  bindings: {
    bits: read('array<u32>'),
    keys: read('array<u32>'),
    values: read('array<u32>'),
    out_values: read('array<u32>'),
    ...ERROR_BINDING,
  },
  params: { n: 'u32' },
  wgsl: () => `${COMMON_WGSL}${ERROR_WGSL}
${HEAD_FNS_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i >= params.n) { return; }
  if (is_head(i) && out_values[keys[i] - 1u] != values[i]) { mismatch(i); }
}
`,
})({});
