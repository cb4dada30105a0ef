import type { SortArray, SortValueType } from './types.js';

/** Options of `topK`. */
export interface TopKOptions<V extends SortArray = SortArray> {
  /**
   * The k largest keys, largest first (default true); false: the k smallest, smallest first. The
   * key order is `sort`'s (floats −∞ < … < −0 < +0 < … < +∞ < NaN, every NaN equal), so NaNs are the
   * largest keys: `topK(keys, k)` is what `sort(keys, { descending: true })` puts first (NaNs first),
   * `topK(keys, k, { largest: false })` what `sort(keys)` puts first (NaNs only once every number is
   * taken).
   */
  largest?: boolean;
  /** Values gathered with the chosen keys: one per key, any of the three types. */
  values?: V;
}

/** What `topK` resolves to: new arrays of k elements, best first. */
export interface TopKResult<K extends SortArray = SortArray, V extends SortArray = SortArray> {
  /** The k best keys, best first, bit for bit (NaN payloads kept). */
  keys: K;
  /** Where each of them was in the input. */
  indices: Uint32Array;
  /** `values[indices[i]]` at i (present when values were given). */
  values?: V;
}

/** Options of `createTopKPlan`. */
export interface TopKPlanOptions {
  /** Key type (default `'u32'`). */
  type?: SortValueType;
  /** The k of every encode: give this or `maxK`. */
  k?: number;
  /** The largest k an encode may ask for (`args.k`); scratch for it is allocated up front. */
  maxK?: number;
  /** Largest keys first (default true); see {@link TopKOptions.largest}. */
  largest?: boolean;
  /** Type of the values gathered with the keys; leave it out for keys and indices only. */
  values?: SortValueType;
  /** Largest key count expected: scratch for it is allocated up front (else it grows by doubling). */
  maxCount?: number;
  /**
   * **Unstable** (tests and benchmark sweeps, not covered by semver): `privateHistogram` false
   * counts digits with global atomics only (the default on SwiftShader, which compiles the
   * workgroup histograms slowly); `unrolled` false loops over each invocation's keys instead of
   * unrolling (the default on SwiftShader, again for its compile time); `elementsPerThread` (1–32,
   * default 16) is the keys each invocation of a pass reads per chunk; `workgroups` (default 1024)
   * the most workgroups a pass over the keys strides with.
   */
  tuning?: { privateHistogram?: boolean; unrolled?: boolean; elementsPerThread?: number; workgroups?: number };
}

/**
 * Buffers of one top-k: the first `count` keys of `keys` are read (never written); the k best go
 * to the first k words of `outKeys`, their positions to `outIndices` and, with a plan made with
 * `values`, `values[index]` to `outValues`.
 */
export interface TopKEncodeArgs {
  keys: GPUBuffer;
  /** Number of keys (k ≤ count). */
  count: number;
  /** This encode's k, at most the plan's `maxK` (default: the plan's `k`, else `maxK`). */
  k?: number;
  /** At least k words; the keys chosen, best first. */
  outKeys: GPUBuffer;
  /** At least k words; their indices in `keys`. */
  outIndices: GPUBuffer;
  /** The values (at least `count` words), with a plan made with `values`. */
  values?: GPUBuffer;
  /** At least k words, with `values`: the chosen keys' values. */
  outValues?: GPUBuffer;
}
