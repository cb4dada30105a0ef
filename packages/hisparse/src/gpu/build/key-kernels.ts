import { defineKernel, read, readWrite } from '@scan/core/kit';
import { BUILD_PARAMS, buildKernelFrame } from './params.js';

// The hierarchical keys of binning (§3.2). An entry's key is its slot at every level, most
// significant first: slot_ℓ = (row digit ℓ)·d + (column digit ℓ), 2·log2(d) bits each, so the key
// has 2·log2(d)·L bits — past 32 for deep hierarchies — and is kept as two words (lo, hi). Sorting
// by the whole key gives the hierarchical order in one go: the top-down binning of the CPU
// reference reaches the same order because its entries are distinct positions. Duplicate positions
// (a non-canonical CSR) sort next to each other, in input order (the sort is stable), and are
// summed into the first of their run (`duplicate-sums.ts`).

const hierarchicalKey = defineKernel({
  name: 'hisparse/build/hierarchical-key',
  bindings: {
    row_ptr: read('array<u32>'),
    col_idx: read('array<u32>'),
    key_lo: readWrite('array<u32>'),
    key_hi: readWrite('array<u32>'),
    sort_key: readWrite('array<u32>'),
    perm: readWrite('array<u32>'),
  },
  params: BUILD_PARAMS,
  wgsl: () =>
    buildKernelFrame(
      `// The last row r with row_ptr[r] <= p: the row holding nonzero p (empty rows share a row_ptr).
fn row_of(p: u32) -> u32 {
  var lo = 0u;
  var hi = params.rows;
  while (hi - lo > 1u) {
    let mid = (lo + hi) >> 1u;
    if (row_ptr[mid] <= p) { lo = mid; } else { hi = mid; }
  }
  return lo;
}`,
      `  if (i >= params.n) { return; }
  let r = row_of(i);
  let c = col_idx[i];
  let b = params.log2d;
  let mask = (1u << b) - 1u;
  let width = 2u * b; // bits of one slot, 4 to 16: a shift by it never reaches 32
  var lo = 0u;
  var hi = 0u;
  for (var level = 0u; level < params.levels; level++) {
    let s = b * (params.levels - 1u - level); // < 32 because d^(L-1) < 2^32
    let slot = (((r >> s) & mask) << b) | ((c >> s) & mask);
    hi = (hi << width) | (lo >> (32u - width));
    lo = (lo << width) | slot;
  }
  key_lo[i] = lo;
  key_hi[i] = hi;
  sort_key[i] = lo;
  perm[i] = i;`,
    ),
});

/**
 * The key of every CSR nonzero: its row (by binary search on `row_ptr`), its column, and from them
 * the slot digits of all levels, shifted into a 64-bit (lo, hi) pair. Writes `key_lo`, `key_hi`,
 * `sort_key` (= lo, the first sort's keys) and `perm` (the identity, the sorts' values).
 * Bindings: `row_ptr`, `col_idx`, `key_lo`, `key_hi`, `sort_key`, `perm`. Params
 * ({@link BUILD_PARAMS}): `n`, `rows`, `levels`, `log2d`.
 *
 * @example
 * ```ts
 * b.dispatch(hierarchicalKeyKernel(), { row_ptr, col_idx, key_lo, key_hi, sort_key, perm }, groups, params);
 * ```
 */
export function hierarchicalKeyKernel() {
  return hierarchicalKey({});
}

const highWord = defineKernel({
  name: 'hisparse/build/high-word',
  bindings: {
    key_hi: read('array<u32>'),
    perm: read('array<u32>'),
    sort_key: readWrite('array<u32>'),
  },
  params: BUILD_PARAMS,
  wgsl: () =>
    buildKernelFrame(
      '',
      `  if (i >= params.n) { return; }
  sort_key[i] = key_hi[perm[i]];`,
    ),
});

/**
 * Between the two stable sorts of an LSD sort by (lo, then hi): `sort_key[j] = key_hi[perm[j]]`,
 * the high words in the order the first sort left.
 * Bindings: `key_hi`, `perm`, `sort_key`. Params ({@link BUILD_PARAMS}): `n`.
 *
 * @example
 * ```ts
 * b.dispatch(highWordKernel(), { key_hi, perm, sort_key }, groups, params);
 * ```
 */
export function highWordKernel() {
  return highWord({});
}

const hierarchicalOrder = defineKernel({
  name: 'hisparse/build/hierarchical-order',
  bindings: {
    perm: read('array<u32>'),
    key_lo: read('array<u32>'),
    key_hi: read('array<u32>'),
    values: read('array<u32>'),
    entries: readWrite('array<vec4<u32>>'),
  },
  params: BUILD_PARAMS,
  wgsl: () =>
    buildKernelFrame(
      '',
      `  if (i >= params.n) { return; }
  let p = perm[i];
  let lo = key_lo[p];
  let hi = key_hi[p];
  var depth = 0u;
  if (i > 0u) {
    let q = perm[i - 1u];
    let x_hi = hi ^ key_hi[q];
    let x_lo = lo ^ key_lo[q];
    if ((x_hi | x_lo) == 0u) {
      // The same position as the previous entry (a duplicate of a non-canonical CSR): L + 1
      // starts nothing at any level, so the binning sees the run as its first entry alone.
      depth = params.levels + 1u;
    } else {
      // Highest differing bit of the 64-bit keys.
      let top = select(firstLeadingBit(x_lo), 32u + firstLeadingBit(x_hi), x_hi != 0u);
      // That bit lies in slot top / (2·log2d) counted from the leaf's, i.e. level L − 1 − that.
      depth = params.levels - top / (2u * params.log2d);
    }
  }
  // Value bits are copied untouched (−0 and NaN payloads survive).
  entries[i] = vec4<u32>(lo, hi, values[p], depth);`,
    ),
});

/**
 * After the sorts, in hierarchical order: `entries[j] = (lo, hi, bits, depth)`, the key and value
 * bits of each entry (gathered through `perm`; one vec4 so the filling kernels stay within the
 * eight storage bindings WebGPU guarantees) and its **depth**: 0 for the first entry, else 1 + the
 * first level at which its slot differs from the previous entry's (1 … L), or L + 1 when its key
 * equals the previous entry's (a duplicate position). Entry j then starts a node of level ℓ exactly
 * when `depth <= ℓ`, and a child of one (an entry of a level-ℓ node) when `depth <= ℓ + 1`: the
 * head flags of every level come from this one field, and a duplicate starts nothing, so the
 * binning counts each run of equal keys as one entry (the first of the run carries it).
 * Bindings: `perm`, `key_lo`, `key_hi`, `values`, `entries`. Params ({@link BUILD_PARAMS}): `n`,
 * `levels`, `log2d`.
 *
 * @example
 * ```ts
 * b.dispatch(hierarchicalOrderKernel(), { perm, key_lo, key_hi, values, entries }, groups, params);
 * ```
 */
export function hierarchicalOrderKernel() {
  return hierarchicalOrder({});
}
