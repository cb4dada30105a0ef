import { defineKernel, read, readWrite } from '@scan/core/kit';
import { COMMON_WGSL, ENTRY_ARGS, ERROR_BINDING, ERROR_WGSL, WG } from './common.js';
import { HASH_WGSL } from './fill.js';

// The bench's own checks of the toolbox cases (issue 49), written apart from the library's kernels.

/**
 * The expected histogram of u32 samples over the whole u32 range in 2^(32 − shift) even bins:
 * an atomic add per sample into `counts` (cleared first) at `sample >> shift`. Compared with the
 * plan's histogram by `checkEqualKernel({ mode: 'copy' })`.
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, histogramCountsKernel, { samples, counts, params: pool.params(histogramCountsKernel, { n, shift: 24 }) }, { invocations: n });
 * ```
 */
export const histogramCountsKernel = defineKernel({
  name: 'bench/histogram-counts',
  bindings: { samples: read('array<u32>'), counts: readWrite('array<atomic<u32>>') },
  params: { n: 'u32', shift: 'u32' },
  wgsl: () => `${COMMON_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i < params.n) { atomicAdd(&counts[samples[i] >> params.shift], 1u); }
}
`,
})({});

/**
 * The check of an arg-max of f32 (`out` = value bits, index) against the bench's own maximum
 * (`best[0]`, from its tree reduction): the value must be the maximum, the element at the index
 * must equal it, and no earlier element may (the lowest index on ties). Parameter `n`.
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, checkArgMaxKernel, { inp, out, best, err, params: pool.params(checkArgMaxKernel, { n }) }, { invocations: n });
 * ```
 */
export const checkArgMaxKernel = defineKernel({
  name: 'bench/check-arg-max',
  bindings: { inp: read('array<f32>'), out: read('array<u32>'), best: read('array<f32>'), ...ERROR_BINDING },
  params: { n: 'u32' },
  wgsl: () => `${COMMON_WGSL}${ERROR_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i >= params.n) { return; }
  let index = out[1];
  if (i == 0u && (bitcast<f32>(out[0]) != best[0] || index >= params.n || inp[min(index, params.n - 1u)] != best[0])) { mismatch(0u); }
  if (i < index && inp[i] == best[0]) { mismatch(i); }
}
`,
})({});

/**
 * Counts, for the k-th key of a top-k (largest first) `kth = out_keys[k − 1]`, the input keys
 * strictly greater (`counts[0]`) and at least as large (`counts[1]`): a right selection has fewer
 * than k of the first and at least k of the second. Each workgroup adds its counts once.
 * Parameters `n`, `k` (≥ 1).
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, topKCountsKernel, { inp, out_keys, counts, params: pool.params(topKCountsKernel, { n, k }) }, { invocations: n });
 * ```
 */
export const topKCountsKernel = defineKernel({
  name: 'bench/top-k-counts',
  bindings: { inp: read('array<f32>'), out_keys: read('array<f32>'), counts: readWrite('array<atomic<u32>, 2>') },
  params: { n: 'u32', k: 'u32' },
  wgsl: () => `${COMMON_WGSL}
var<workgroup> wg_greater: atomic<u32>;
var<workgroup> wg_at_least: atomic<u32>;
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  let kth = out_keys[params.k - 1u];
  if (i < params.n) {
    let x = inp[i];
    if (x > kth) { atomicAdd(&wg_greater, 1u); }
    if (x >= kth) { atomicAdd(&wg_at_least, 1u); }
  }
  workgroupBarrier();
  if (lid.x == 0u) {
    atomicAdd(&counts[0], atomicLoad(&wg_greater));
    atomicAdd(&counts[1], atomicLoad(&wg_at_least));
  }
}
`,
})({});

/**
 * The check of a top-k's k outputs (largest first): keys non-increasing, each index in range with
 * the input key there equal to the output key, and (at j = 0) the counts of {@link topKCountsKernel}
 * (`greater < k ≤ at_least`). Parameters `n`, `k`.
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, checkTopKKernel, { inp, out_keys, out_indices, counts, err, params: pool.params(checkTopKKernel, { n, k }) }, { invocations: k });
 * ```
 */
export const checkTopKKernel = defineKernel({
  name: 'bench/check-top-k',
  bindings: {
    inp: read('array<f32>'),
    out_keys: read('array<f32>'),
    out_indices: read('array<u32>'),
    counts: read('array<u32>'),
    ...ERROR_BINDING,
  },
  params: { n: 'u32', k: 'u32' },
  wgsl: () => `${COMMON_WGSL}${ERROR_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let j = global_index(wid, nwg, lid);
  if (j >= params.k) { return; }
  let at = out_indices[j];
  if (at >= params.n || inp[min(at, params.n - 1u)] != out_keys[j]) { mismatch(j); }
  if (j > 0u && out_keys[j] > out_keys[j - 1u]) { mismatch(j); }
  if (j == 0u && !(counts[0] < params.k && counts[1] >= params.k)) { mismatch(j); }
}
`,
})({});

/**
 * A sorted u32 array of `n` keys with runs of equal keys: key i is `⌊i / 2⌋ · step` plus a hashed
 * offset below `step` shared by the pair (`step` = ⌊2^32 / ⌈n / 2⌉⌋), so the keys spread over the
 * u32 range and never decrease.
 *
 * @example
 * ```ts
 * encodeKernel(ctx, encoder, sortedKeysKernel, { out: sorted, params: pool.params(sortedKeysKernel, { n, seed, step }) }, { invocations: n });
 * ```
 */
export const sortedKeysKernel = defineKernel({
  name: 'bench/sorted-keys',
  bindings: { out: readWrite('array<u32>') },
  params: { n: 'u32', seed: 'u32', step: 'u32' },
  wgsl: () => `${COMMON_WGSL}${HASH_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  let pair = i >> 1u;
  if (i < params.n) { out[i] = pair * params.step + rand(pair, params.seed) % params.step; }
}
`,
})({});

/**
 * The check of a lower bound (`upper`: an upper bound) of each u32 needle in `sorted` (`n` keys):
 * `r = out[j]` must have every key before r below the needle (upper: at most it) and the key at r,
 * if any, at least it (upper: above it). Parameters `n` (keys) and `needles`.
 *
 * @example
 * ```ts
 * const kernel = checkBoundsKernel({ upper: false });
 * encodeKernel(ctx, encoder, kernel, { sorted, needles, out, err, params: pool.params(kernel, { n, needles: m }) }, { invocations: m });
 * ```
 */
export const checkBoundsKernel = defineKernel({
  name: 'bench/check-bounds',
  bindings: { sorted: read('array<u32>'), needles: read('array<u32>'), out: read('array<u32>'), ...ERROR_BINDING },
  params: { n: 'u32', needles: 'u32' },
  wgsl: (spec: { upper: boolean }) => {
    const [before, at] = spec.upper ? ['<=', '>'] : ['<', '>='];
    return `${COMMON_WGSL}${ERROR_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let j = global_index(wid, nwg, lid);
  if (j >= params.needles) { return; }
  let x = needles[j];
  let r = out[j];
  if (r > params.n) { mismatch(j); return; }
  if (r > 0u && !(sorted[r - 1u] ${before} x)) { mismatch(j); }
  if (r < params.n && !(sorted[r] ${at} x)) { mismatch(j); }
}
`;
  },
});
