import { chooseNodeType, NULL_POINTER, nodeWords, POOL_HEADER_WORDS } from '../format/layout.js';
import { writeNode } from '../format/node-io.js';
import { HiSparsePool } from '../format/pool.js';

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
  /** Leaf: the f32 bits of each slot's value. */
  readonly bits?: number[];
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
  // Breadth-first levels: level k lists its nodes in hierarchical order.
  const levels: SkeletonNode[][] = [[skeleton]];
  for (;;) {
    const next: SkeletonNode[] = [];
    for (const node of levels[levels.length - 1]!) if (node.children) next.push(...node.children);
    if (next.length === 0) break;
    levels.push(next);
  }
  let total = POOL_HEADER_WORDS;
  for (const level of levels) for (const node of level) total += nodeWords(chooseNodeType(node.slots.length, d), node.slots.length, d);
  const pool = new HiSparsePool(total);
  const pointers = new Map<SkeletonNode, number>();
  for (let k = levels.length - 1; k >= 0; k--) {
    for (const node of levels[k]!) {
      const words = node.children ? node.children.map((child) => pointers.get(child)!) : node.bits!;
      pointers.set(node, writeNode(pool, chooseNodeType(node.slots.length, d), node.slots, words, d));
    }
  }
  return { pool, root: pointers.get(skeleton)! };
}
