import {
  NODE_TYPE,
  type NodeType,
  NULL_POINTER,
  nodeWords,
  packCoord,
  REGION_LEAF_FLAG,
  regionLayout,
  sparseLayout,
  TYPE_MASK,
} from './layout.js';
import type { HiSparsePool } from './pool.js';

// Reading and writing one node. A node's entries are (slot, word) pairs: the slot is the entry's
// place in the node's d×d grid in row-major order (row·d + col), the word a child pointer (inner)
// or the bits of an f32 value (leaf). Sparse nodes keep their entries sorted by slot — the order a
// row-major merge of two nodes relies on (§6) — and the dense form is the grid itself.

/**
 * The entries of one node, slots ascending (row-major), with their words.
 *
 * @example
 * ```ts
 * const { type, slots, words } = readNode(H.pool, H.root, H.nodeSize);
 * ```
 */
export interface NodeEntries {
  readonly type: NodeType;
  readonly slots: number[];
  readonly words: number[];
}

/**
 * Reads the entries of the node `pointer` points at. In a dense node, a word of 0 is no entry: a
 * null child pointer in an inner node, +0.0 in a leaf (a dense leaf cannot hold an explicit +0).
 *
 * @example
 * ```ts
 * const { slots, words } = readNode(H.pool, H.root, H.nodeSize);
 * ```
 */
export function readNode(pool: HiSparsePool, pointer: number, d: number): NodeEntries {
  const type = (pointer & TYPE_MASK) as NodeType;
  const at = pointer - type;
  const w = pool.words;
  const slots: number[] = [];
  const words: number[] = [];
  if (type === NODE_TYPE.dense) {
    for (let s = 0; s < d * d; s++) {
      const v = w[at + s]!;
      if (v !== 0) {
        slots.push(s);
        words.push(v);
      }
    }
    return { type, slots, words };
  }
  const count = w[at]!;
  const { coordStart, valueStart } = sparseLayout(type, count);
  for (let i = 0; i < count; i++) {
    const coord = (w[at + coordStart + (i >> 1)]! >>> ((i & 1) * 16)) & 0xffff;
    slots.push((coord & 0xff) * d + (coord >>> 8));
    words.push(w[at + valueStart + i]!);
  }
  return { type, slots, words };
}

/**
 * Words of the node `pointer` points at (for memory accounting and copies).
 *
 * @example
 * ```ts
 * nodeSizeAt(H.pool, H.root, H.nodeSize); // e.g. 1024 for a dense root with d = 32
 * ```
 */
export function nodeSizeAt(pool: HiSparsePool, pointer: number, d: number): number {
  const type = (pointer & TYPE_MASK) as NodeType;
  if (type === NODE_TYPE.dense) return nodeWords(type, 0, d);
  const head = pool.words[pointer - type]!;
  // A region leaf (FORMAT.md, "Region leaves") has its own layout; the flag is only ever tested on COOX nodes.
  if (head & REGION_LEAF_FLAG) return regionLayout(type, head & ~REGION_LEAF_FLAG).words;
  return nodeWords(type, head, d);
}

/**
 * Appends a node of `type` holding the entries (`slots` ascending, distinct, below d²; `words`
 * their child pointers or f32 bits) to the pool and returns its pointer (offset | type). Padding
 * words are 0: the coordinate (0, 0) and the value +0.0 or the null pointer, which kernels mask by
 * the entry count (0 · ∞ would be NaN).
 *
 * @example
 * ```ts
 * const leaf = writeNode(pool, NODE_TYPE.coo1, [5], [0x3f800000], 4); // 1.0 at (1, 1)
 * ```
 */
export function writeNode(pool: HiSparsePool, type: NodeType, slots: ArrayLike<number>, words: ArrayLike<number>, d: number): number {
  const count = slots.length;
  const at = pool.alloc(nodeWords(type, count, d));
  const w = pool.words;
  if (type === NODE_TYPE.dense) {
    for (let i = 0; i < count; i++) w[at + slots[i]!] = words[i]!;
    return at | type;
  }
  const { coordStart, valueStart } = sparseLayout(type, count);
  w[at] = count;
  for (let i = 0; i < count; i++) {
    const s = slots[i]!;
    const coord = packCoord(Math.floor(s / d), s % d);
    w[at + coordStart + (i >> 1)]! |= coord << ((i & 1) * 16);
    w[at + valueStart + i] = words[i]!;
  }
  return at | type;
}

/**
 * True for the null pointer (no node).
 *
 * @example
 * ```ts
 * isNull(H.root); // true for a matrix without entries
 * ```
 */
export function isNull(pointer: number): boolean {
  return pointer === NULL_POINTER;
}
