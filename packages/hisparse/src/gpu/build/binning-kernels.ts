import type { KernelSpec } from '@scan/core/kit';
import { NODE_LAYOUT_WGSL } from './node-layout-wgsl.js';
import { buildKernelFrame } from './params.js';

// Binning of one level ℓ (§3.2), on entries in hierarchical order: which entries start a node
// (head flags where the key prefix of ℓ slots changes), which start a child of one (prefix of
// ℓ + 1 slots), and from the exclusive scans of those flags each node's first child, entry count,
// type and word size. Arrays have n + 1 elements: element n is a sentinel whose scanned value is
// the level's total (nodes, children, words), so no kernel special-cases the last node.

/**
 * Head flags of level `params.level`, from each entry's depth (`entries[j].w`):
 * `node_flag[j] = depth <= ℓ` (j starts a node of level ℓ), `child_flag[j] = depth <= ℓ + 1` (j
 * starts one of a node's entries); both 0 at j = n.
 * Bindings: 0 params (n, level), 1 entries, 2 node_flag, 3 child_flag.
 *
 * @example
 * ```ts
 * b.dispatch(headFlagsKernel(), [p, entries, nodeFlag, childFlag], Math.ceil((n + 1) / BUILD_WORKGROUP));
 * ```
 */
export function headFlagsKernel(): KernelSpec {
  return {
    key: 'hisparse/build/head-flags',
    wgsl: () =>
      buildKernelFrame(
        `@group(0) @binding(1) var<storage, read> entries: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> node_flag: array<u32>;
@group(0) @binding(3) var<storage, read_write> child_flag: array<u32>;`,
        `  if (i > params.n) { return; }
  if (i == params.n) { node_flag[i] = 0u; child_flag[i] = 0u; return; }
  let e = entries[i].w;
  node_flag[i] = select(0u, 1u, e <= params.level);
  child_flag[i] = select(0u, 1u, e <= params.level + 1u);`,
      ),
  };
}

/**
 * `first_child[k]`: the index (among the level's entries) of node k's first entry, written by the
 * entry that starts node k; the sentinel j = n writes `first_child[nodes]` = the level's entry
 * count, so node k has `first_child[k + 1] − first_child[k]` entries.
 * Bindings: 0 params (n, level), 1 entries, 2 node_excl, 3 child_excl, 4 first_child.
 *
 * @example
 * ```ts
 * b.dispatch(nodeStartsKernel(), [p, entries, nodeExcl, childExcl, firstChild], groups);
 * ```
 */
export function nodeStartsKernel(): KernelSpec {
  return {
    key: 'hisparse/build/node-starts',
    wgsl: () =>
      buildKernelFrame(
        `@group(0) @binding(1) var<storage, read> entries: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read> node_excl: array<u32>;
@group(0) @binding(3) var<storage, read> child_excl: array<u32>;
@group(0) @binding(4) var<storage, read_write> first_child: array<u32>;`,
        `  if (i > params.n) { return; }
  if (i == params.n || entries[i].w <= params.level) { first_child[node_excl[i]] = child_excl[i]; }`,
      ),
  };
}

/**
 * Words of each node k of the level (`node_words(node_type(count), count)`, the CPU rule), 0 for
 * k ≥ the node count up to n, so an exclusive scan of n + 1 elements gives every node's offset and,
 * at n, the level's words.
 * Bindings: 0 params (n, log2d), 1 node_excl, 2 first_child, 3 words.
 *
 * @example
 * ```ts
 * b.dispatch(nodeSizesKernel(), [p, nodeExcl, firstChild, words], groups);
 * ```
 */
export function nodeSizesKernel(): KernelSpec {
  return {
    key: 'hisparse/build/node-sizes',
    wgsl: () =>
      buildKernelFrame(
        `@group(0) @binding(1) var<storage, read> node_excl: array<u32>;
@group(0) @binding(2) var<storage, read> first_child: array<u32>;
@group(0) @binding(3) var<storage, read_write> words: array<u32>;
${NODE_LAYOUT_WGSL}`,
        `  if (i > params.n) { return; }
  var size = 0u;
  if (i < node_excl[params.n]) {
    let count = first_child[i + 1u] - first_child[i];
    size = node_words(node_type(count), count);
  }
  words[i] = size;`,
      ),
  };
}
