import type { HiSparseHost } from '../format/matrix.js';
import { readNode } from '../format/node-io.js';
import { isRegionLeaf, readRegionLeaf } from '../format/region-io.js';
import { bitsF32, f32Bits } from './bits.js';
import type { SkeletonNode } from './tree.js';

/**
 * A matrix read in some orientation and scale: what add traverses and compaction copies.
 *
 * @example
 * ```ts
 * const op: Operand = { h: B, swap: A.transposed !== B.transposed, s: B.scale };
 * ```
 */
export interface Operand {
  readonly h: HiSparseHost;
  /** Read every slot with row and column swapped (the stored matrix transposed). */
  readonly swap: boolean;
  /** Factor applied to leaf values (1 keeps the stored bits exactly, NaN payloads and −0 included). */
  readonly s: number;
}

/**
 * A node's entries in the reader's orientation, slots ascending. Swapping row and column of every
 * slot breaks the row-major order, so a swapped node is re-sorted (the paper sorts in shared
 * memory for the transposed case, §6, and merges directly otherwise).
 *
 * @example
 * ```ts
 * entriesOf({ h: H, swap: true, s: 1 }, H.root); // the root's children, as in Hᵀ
 * ```
 */
export function entriesOf(op: Operand, pointer: number): { slots: number[]; words: number[] } {
  const d = op.h.nodeSize;
  const { slots, words } = readNode(op.h.pool, pointer, d);
  if (!op.swap) return { slots, words };
  const swapped = slots.map((s, i) => [(s % d) * d + Math.floor(s / d), words[i]!] as const).sort((p, q) => p[0] - q[0]);
  return { slots: swapped.map((p) => p[0]), words: swapped.map((p) => p[1]) };
}

/**
 * The leaf value bits of `op` for stored bits `w`: the scale applied in f64 and rounded to f32
 * once, or the bits unchanged for a scale of 1.
 *
 * @example
 * ```ts
 * scaledBits({ h: H, swap: false, s: 2 }, 0x3f800000); // 0x40000000 (2.0)
 * ```
 */
export function scaledBits(op: Operand, w: number): number {
  return op.s === 1 ? w : f32Bits(op.s * bitsF32(w));
}

/**
 * The skeleton of the subtree at `pointer` (a node at `level`) as `op` reads it: what add copies
 * for a subtree only one operand has (§6: "simply copied into the output matrix") and what
 * compaction copies for all of them. A region leaf stays a region leaf (its entries swapped and
 * re-sorted row-major when `op.swap`): the structure is kept, only the orientation and scale change.
 *
 * @example
 * ```ts
 * const skeleton = copySubtree({ h: H, swap: false, s: 1 }, H.root, 0);
 * ```
 */
export function copySubtree(op: Operand, pointer: number, level: number): SkeletonNode {
  if (isRegionLeaf(op.h.pool, pointer)) {
    const e = readRegionLeaf(op.h.pool, pointer);
    const [rows, cols] = op.swap ? [e.cols, e.rows] : [e.rows, e.cols];
    const order = rows.map((_, i) => i);
    if (op.swap) order.sort((a, b) => rows[a]! - rows[b]! || cols[a]! - cols[b]!);
    return {
      slots: [],
      bits: order.map((i) => scaledBits(op, e.bits[i]!)),
      region: { rows: order.map((i) => rows[i]!), cols: order.map((i) => cols[i]!) },
    };
  }
  const { slots, words } = entriesOf(op, pointer);
  if (level === op.h.levels - 1) return { slots, bits: words.map((w) => scaledBits(op, w)) };
  return { slots, children: words.map((w) => copySubtree(op, w, level + 1)) };
}
