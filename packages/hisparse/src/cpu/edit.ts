import { ScanError } from '@scan/core';
import { invalidArgument } from '@scan/core/kit';
import { checkHiSparse, checkIndex } from '../format/args.js';
import { chooseNodeType, NULL_POINTER } from '../format/layout.js';
import { type HiSparseHost, makeHiSparse } from '../format/matrix.js';
import { readNode, writeNode } from '../format/node-io.js';
import { f32Bits } from './bits.js';

// Copy-on-write edits (§3.2: "only the affected nodes need to be altered or generated anew" and
// matrices "can share nodes"). Nodes are immutable, so an edit copies the root-to-leaf path it
// changes — at most `levels` nodes — appending the copies to the same pool, and the new matrix
// points at the new root. Every other subtree is shared by offset with the old matrix, which is
// untouched: its root and every word it can reach stay as they were.

/** What an edit does at the leaf: store these value bits, or remove the entry. */
type Change = { readonly bits: number } | null;

/** The edit itself, after the checks: returns the new root, or `root` unchanged when nothing changed. */
function editPath(h: HiSparseHost, row: number, col: number, change: Change): number {
  const { pool, nodeSize: d, levels } = h;
  const [r, c] = h.transposed ? [col, row] : [row, col];
  const log2d = Math.log2(d);
  const mask = d - 1;
  const visit = (pointer: number, level: number): number => {
    const shift = log2d * (levels - 1 - level);
    const slot = ((r >>> shift) & mask) * d + ((c >>> shift) & mask);
    const { slots, words } = pointer === NULL_POINTER ? { slots: [], words: [] } : readNode(pool, pointer, d);
    let at = 0;
    while (at < slots.length && slots[at]! < slot) at++;
    const found = slots[at] === slot;
    if (change === null && !found) return pointer; // removing what is not there: nothing to copy
    let word: number;
    if (level === levels - 1) {
      if (change === null) word = NULL_POINTER;
      else word = change.bits;
    } else {
      const child = found ? words[at]! : NULL_POINTER;
      word = visit(child, level + 1);
      if (word === child) return pointer;
    }
    // Remove the slot when the child vanished (or the entry was removed), else replace or insert.
    if (change === null && word === NULL_POINTER) {
      slots.splice(at, 1);
      words.splice(at, 1);
    } else if (found) {
      words[at] = word;
    } else {
      slots.splice(at, 0, slot);
      words.splice(at, 0, word);
    }
    if (slots.length === 0) return NULL_POINTER;
    return writeNode(pool, chooseNodeType(slots.length, d), slots, words, d);
  };
  return visit(h.root, 0);
}

/**
 * A new matrix equal to `H` with entry (row, col) of the logical matrix set to `value` (inserted,
 * or replaced when present). Copy-on-write: the changed root-to-leaf path (at most `levels` nodes)
 * is appended to `H`'s pool, every other node is shared, and `H` itself is unchanged. The state
 * is honoured: coordinates are swapped for a transposed `H`, and `value / H.scale` is stored
 * (exact when the scale is a power of two; a matrix scaled by 0 cannot be edited). Node types
 * along the path are chosen again for their new entry counts. Storing +0 in a dense leaf is the
 * same as removing the entry.
 *
 * @example
 * ```ts
 * const B = hisparseInsert(H, 0, 1, 5); // B has 5 at (0, 1); H is unchanged and shares B's other nodes
 * ```
 */
export function hisparseInsert(H: HiSparseHost, row: number, col: number, value: number): HiSparseHost {
  const h = checkHiSparse(H, 'H');
  checkIndex(row, h.rows, 'row', 'H.rows');
  checkIndex(col, h.cols, 'col', 'H.cols');
  if (typeof value !== 'number') invalidArgument('value', value, 'expected a number');
  if (h.scale === 0) {
    throw new ScanError('INVALID_ARGUMENT', 'H.scale = 0: a matrix scaled by 0 cannot store a value (value / scale)', {
      argument: 'H.scale',
    });
  }
  return makeHiSparse({ ...h, root: editPath(h, row, col, { bits: f32Bits(value / h.scale) }) });
}

/**
 * A new matrix equal to `H` without entry (row, col) of the logical matrix, copy-on-write as
 * {@link hisparseInsert}: nodes left empty disappear from their parents (a matrix whose last entry
 * is removed has a null root). Removing an absent entry copies nothing: the result shares `H`'s
 * root.
 *
 * @example
 * ```ts
 * const C = hisparseRemove(B, 0, 1); // C equals H again, but in the pool the path was copied twice
 * ```
 */
export function hisparseRemove(H: HiSparseHost, row: number, col: number): HiSparseHost {
  const h = checkHiSparse(H, 'H');
  checkIndex(row, h.rows, 'row', 'H.rows');
  checkIndex(col, h.cols, 'col', 'H.cols');
  return makeHiSparse({ ...h, root: editPath(h, row, col, null) });
}
