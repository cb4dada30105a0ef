import { chooseNodeType, NULL_POINTER, nodeWords, POOL_HEADER_WORDS, regionLeafWords } from '../format/layout.js';
import { writeNode } from '../format/node-io.js';
import { HiSparsePool } from '../format/pool.js';
import { writeRegionLeaf } from '../format/region-io.js';

// The skeleton of a matrix before it has a pool: what the top-down binning of the build, the
// joint traversal of add and compaction produce, and what `fillPool` lays out. Keeping one
// layout routine makes every fresh pool canonical: the same matrix gives the same words whichever
// operation made it.

/**
 * A node of the skeleton: its entries' slots (ascending) and either children or leaf values.
 *
 * @example
 * ```ts
 * const leaf: SkeletonNode = { slots: [0, 5], bits: [0x3f800000, 0x40000000] };
 * const root: SkeletonNode = { slots: [3], children: [leaf] };
 * ```
 */
export interface SkeletonNode {
  /** Slots (row·d + col inside the node), ascending, distinct. */
  readonly slots: number[];
  /** Inner node: the child of each slot. */
  readonly children?: SkeletonNode[];
  /** Leaf: the f32 bits of each slot's value; region leaf: of each entry's value. */
  readonly bits?: number[];
  /**
   * Region leaf (FORMAT.md, "Region leaves"): the entries' local rows and columns in the node's
   * region, row-major, with their values in `bits`; `slots` is then empty.
   */
  readonly region?: { readonly rows: number[]; readonly cols: number[] };
}

/**
 * Words the node itself takes in a pool (not its children): a region leaf by its entry count,
 * any other node by `chooseNodeType` of its slot count.
 *
 * @example
 * ```ts
 * skeletonNodeWords({ slots: [0], bits: [0x3f800000] }, 4); // 4
 * ```
 */
export function skeletonNodeWords(node: SkeletonNode, d: number): number {
  if (node.region) return regionLeafWords(node.region.rows.length);
  return nodeWords(chooseNodeType(node.slots.length, d), node.slots.length, d);
}

/**
 * The skeleton's nodes by depth below `skeleton` (index 0: `skeleton` itself), each depth in
 * hierarchical order (breadth-first, children in slot order). Region leaves have no children.
 *
 * @example
 * ```ts
 * skeletonLevels(root).length; // levels below and including root
 * ```
 */
export function skeletonLevels(skeleton: SkeletonNode): SkeletonNode[][] {
  const levels: SkeletonNode[][] = [[skeleton]];
  for (;;) {
    const next: SkeletonNode[] = [];
    for (const node of levels[levels.length - 1]!) if (node.children) next.push(...node.children);
    if (next.length === 0) break;
    levels.push(next);
  }
  return levels;
}

/**
 * Appends a skeleton to `pool` in the canonical order (the deepest level first, the subtree's root
 * last; within a level in hierarchical order, region leaves among the other nodes of their
 * level) and returns the pointer of its root. `fillPool` does this into a fresh pool; edits that
 * rebuild a region append into the matrix's pool. `shift` is added to every pointer written into a
 * parent and to the one returned: the GPU's edits write into a scratch pool whose words are
 * appended `shift` words further on in the matrix's pool.
 *
 * @example
 * ```ts
 * const pointer = writeSkeleton(H.pool, { slots: [0], bits: [0x3f800000] }, H.nodeSize);
 * ```
 */
export function writeSkeleton(pool: HiSparsePool, skeleton: SkeletonNode, d: number, shift = 0): number {
  const levels = skeletonLevels(skeleton);
  const pointers = new Map<SkeletonNode, number>();
  for (let k = levels.length - 1; k >= 0; k--) {
    for (const node of levels[k]!) {
      if (node.region) {
        pointers.set(node, shift + writeRegionLeaf(pool, node.region.rows, node.region.cols, node.bits!));
        continue;
      }
      const words = node.children ? node.children.map((child) => pointers.get(child)!) : node.bits!;
      pointers.set(node, shift + writeNode(pool, chooseNodeType(node.slots.length, d), node.slots, words, d));
    }
  }
  return pointers.get(skeleton)!;
}

/**
 * Lays a skeleton out in a fresh pool, bottom-up as the paper fills its pool (§3.2): first every
 * leaf, then the level above, …, the root last; within a level, nodes in hierarchical order
 * (breadth-first with children in slot order, i.e. the order of their blocks in a recursive
 * row-major walk). Node types follow `chooseNodeType`. The pool is sized exactly in a first pass,
 * as the paper allocates "one large chunk". Returns the pool and the root pointer (null for no
 * skeleton).
 *
 * @example
 * ```ts
 * const { pool, root } = fillPool({ slots: [0], bits: [0x3f800000] }, 4); // a 1-entry COO1 leaf at word 4
 * ```
 */
export function fillPool(skeleton: SkeletonNode | null, d: number): { pool: HiSparsePool; root: number } {
  if (skeleton === null) return { pool: new HiSparsePool(POOL_HEADER_WORDS), root: NULL_POINTER };
  let total = POOL_HEADER_WORDS;
  for (const level of skeletonLevels(skeleton)) for (const node of level) total += skeletonNodeWords(node, d);
  const pool = new HiSparsePool(total);
  return { pool, root: writeSkeleton(pool, skeleton, d) };
}
