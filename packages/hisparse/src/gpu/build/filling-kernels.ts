import { defineKernel, read, readWrite } from '@scan/core/kit';
import { NODE_LAYOUT_WGSL } from './node-layout-wgsl.js';
import { BUILD_PARAMS, buildKernelFrame } from './params.js';

// Filling of one level ℓ (§3.2: "we process the tree in a bottom-up fashion, allocating memory
// from the pool"): the level's nodes start at pool word `params.base` (everything below them in
// the tree was filled before them), node k at `base + offset[k]` from the exclusive scan of node
// sizes. The pool is zero when filling starts (WebGPU zero-initializes buffers), which is exactly
// FORMAT.md's padding and dense "no entry", so only entries and counts are written.

const nodeHead = defineKernel({
  name: 'hisparse/build/node-head',
  bindings: {
    node_excl: read('array<u32>'),
    first_child: read('array<u32>'),
    offsets: read('array<u32>'),
    node_ptr: readWrite('array<u32>'),
    pool: readWrite('array<u32>'),
  },
  params: BUILD_PARAMS,
  wgsl: () =>
    buildKernelFrame(
      NODE_LAYOUT_WGSL,
      `  if (i >= node_excl[params.n]) { return; }
  let count = first_child[i + 1u] - first_child[i];
  let t = node_type(count);
  let at = params.base + offsets[i];
  if (t != 0u) { pool[at] = count; }
  node_ptr[i] = at | t;`,
    ),
});

/**
 * One invocation per node k of the level: its pointer `node_ptr[k] = (base + offset[k]) | type`
 * (what the parent level stores as child pointer, and what the entries kernel locates the node by)
 * and, for a COOX node, its entry count in word 0.
 * Bindings: `node_excl`, `first_child`, `offsets`, `node_ptr`, `pool`. Params ({@link BUILD_PARAMS}):
 * `n`, `log2d`, `base`.
 *
 * @example
 * ```ts
 * b.dispatch(nodeHeadKernel(), { node_excl, first_child, offsets, node_ptr, pool }, groups, params);
 * ```
 */
export function nodeHeadKernel() {
  return nodeHead({});
}

const nodeEntries = defineKernel({
  name: 'hisparse/build/node-entries',
  bindings: {
    entries: read('array<vec4<u32>>'),
    node_excl: read('array<u32>'),
    child_excl: read('array<u32>'),
    first_child: read('array<u32>'),
    node_ptr: read('array<u32>'),
    child_ptr: read('array<u32>'),
    pool: readWrite('array<atomic<u32>>'),
  },
  params: BUILD_PARAMS,
  wgsl: () =>
    buildKernelFrame(
      `${NODE_LAYOUT_WGSL}
// Bits [s, s + 2·log2d) of the 64-bit key (lo, hi): the slot of one level.
fn key_slot(lo: u32, hi: u32, s: u32) -> u32 {
  var v = lo;
  if (s >= 32u) { v = hi >> (s - 32u); } else if (s > 0u) { v = (lo >> s) | (hi << (32u - s)); }
  return v & ((1u << (2u * params.log2d)) - 1u);
}`,
      `  if (i >= params.n) { return; }
  let e = entries[i];
  if (e.w > params.level + 1u) { return; } // inside a child started earlier
  let k = node_excl[i] + select(0u, 1u, e.w <= params.level) - 1u; // this entry's node
  let c = child_excl[i]; // this entry's index among the level's entries
  let first = first_child[k];
  let count = first_child[k + 1u] - first;
  let rank = c - first;
  let ptr = node_ptr[k];
  let t = ptr & 3u;
  let at = ptr & ~3u;
  let slot = key_slot(e.x, e.y, 2u * params.log2d * (params.levels - 1u - params.level));
  let word = select(child_ptr[c], e.z, params.level + 1u == params.levels);
  if (t == 0u) {
    atomicStore(&pool[at + slot], word);
    return;
  }
  atomicStore(&pool[at + value_start(t, count) + rank], word);
  let b = params.log2d;
  let coord = (slot >> b) | ((slot & ((1u << b) - 1u)) << 8u);
  atomicOr(&pool[at + coord_start(t) + (rank >> 1u)], coord << (16u * (rank & 1u)));`,
    ),
});

/**
 * One invocation per entry of the level's nodes (an entry j with `depth <= ℓ + 1`): its slot at
 * level ℓ (bits of the hierarchical key), its rank in its node, and its word — the f32 bits in a
 * leaf (ℓ = L − 1), else the pointer of the child node it starts (`child_ptr`, the level below's
 * `node_ptr`). A dense node takes the word at the slot; a COOX node at value_start + rank, and the
 * packed coordinate `row | col << 8` in half `rank & 1` of word coord_start + rank / 2. Two
 * entries share a coordinate word, so the halves are OR-ed in atomically (into zeros, which makes
 * the result independent of the order).
 * Bindings: `entries`, `node_excl`, `child_excl`, `first_child`, `node_ptr`, `child_ptr`, `pool`.
 * Params ({@link BUILD_PARAMS}): `n`, `levels`, `log2d`, `level`.
 *
 * @example
 * ```ts
 * b.dispatch(nodeEntriesKernel(), { entries, node_excl, child_excl, first_child, node_ptr, child_ptr, pool }, groups, params);
 * ```
 */
export function nodeEntriesKernel() {
  return nodeEntries({});
}
