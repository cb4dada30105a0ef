import { defineKernel, read, readWrite } from '@scan/core/kit';
import { NODE_LAYOUT_WGSL } from './node-layout-wgsl.js';
import { BUILD_PARAMS, buildKernelFrame } from './params.js';

// Binning of one level ℓ (§3.2), on entries in hierarchical order: which entries start a node
// (head flags where the key prefix of ℓ slots changes), which start a child of one (prefix of
// ℓ + 1 slots), and from the exclusive scans of those flags each node's first child, entry count,
// type and word size. Arrays have n + 1 elements: element n is a sentinel whose scanned value is
// the level's total (nodes, children, words), so no kernel special-cases the last node.

const headFlags = defineKernel({
  name: 'hisparse/build/head-flags',
  bindings: {
    entries: read('array<vec4<u32>>'),
    node_flag: readWrite('array<u32>'),
    child_flag: readWrite('array<u32>'),
  },
  params: BUILD_PARAMS,
  wgsl: () =>
    buildKernelFrame(
      '',
      `  if (i > params.n) { return; }
  if (i == params.n) { node_flag[i] = 0u; child_flag[i] = 0u; return; }
  let e = entries[i].w;
  node_flag[i] = select(0u, 1u, e <= params.level);
  child_flag[i] = select(0u, 1u, e <= params.level + 1u);`,
    ),
});

/**
 * Head flags of level `params.level`, from each entry's depth (`entries[j].w`):
 * `node_flag[j] = depth <= ℓ` (j starts a node of level ℓ), `child_flag[j] = depth <= ℓ + 1` (j
 * starts one of a node's entries); both 0 at j = n.
 * Bindings: `entries`, `node_flag`, `child_flag`. Params ({@link BUILD_PARAMS}): `n`, `level`.
 *
 * @example
 * ```ts
 * b.dispatch(headFlagsKernel(), { entries, node_flag, child_flag }, Math.ceil((n + 1) / BUILD_WORKGROUP), params);
 * ```
 */
export function headFlagsKernel() {
  return headFlags({});
}

const nodeStarts = defineKernel({
  name: 'hisparse/build/node-starts',
  bindings: {
    entries: read('array<vec4<u32>>'),
    node_excl: read('array<u32>'),
    child_excl: read('array<u32>'),
    first_child: readWrite('array<u32>'),
  },
  params: BUILD_PARAMS,
  wgsl: () =>
    buildKernelFrame(
      '',
      `  if (i > params.n) { return; }
  if (i == params.n || entries[i].w <= params.level) { first_child[node_excl[i]] = child_excl[i]; }`,
    ),
});

/**
 * `first_child[k]`: the index (among the level's entries) of node k's first entry, written by the
 * entry that starts node k; the sentinel j = n writes `first_child[nodes]` = the level's entry
 * count, so node k has `first_child[k + 1] − first_child[k]` entries.
 * Bindings: `entries`, `node_excl`, `child_excl`, `first_child`. Params ({@link BUILD_PARAMS}):
 * `n`, `level`.
 *
 * @example
 * ```ts
 * b.dispatch(nodeStartsKernel(), { entries, node_excl, child_excl, first_child }, groups, params);
 * ```
 */
export function nodeStartsKernel() {
  return nodeStarts({});
}

const nodeSizes = defineKernel({
  name: 'hisparse/build/node-sizes',
  bindings: {
    node_excl: read('array<u32>'),
    first_child: read('array<u32>'),
    words: readWrite('array<u32>'),
  },
  params: BUILD_PARAMS,
  wgsl: () =>
    buildKernelFrame(
      NODE_LAYOUT_WGSL,
      `  if (i > params.n) { return; }
  var size = 0u;
  if (i < node_excl[params.n]) {
    let count = first_child[i + 1u] - first_child[i];
    size = node_words(node_type(count), count);
  }
  words[i] = size;`,
    ),
});

/**
 * Words of each node k of the level (`node_words(node_type(count), count)`, the CPU rule), 0 for
 * k ≥ the node count up to n, so an exclusive scan of n + 1 elements gives every node's offset and,
 * at n, the level's words.
 * Bindings: `node_excl`, `first_child`, `words`. Params ({@link BUILD_PARAMS}): `n`, `log2d`.
 *
 * @example
 * ```ts
 * b.dispatch(nodeSizesKernel(), { node_excl, first_child, words }, groups, params);
 * ```
 */
export function nodeSizesKernel() {
  return nodeSizes({});
}
