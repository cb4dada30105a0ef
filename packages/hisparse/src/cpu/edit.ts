import { ScanError } from '@scan/core';
import { invalidArgument } from '@scan/core/kit';
import { checkHiSparse, checkIndex } from '../format/args.js';
import { chooseNodeType, type NodeType, NULL_POINTER } from '../format/layout.js';
import { type HiSparseHost, makeHiSparse } from '../format/matrix.js';
import { type NodeEntries, readNode, writeNode } from '../format/node-io.js';
import { isRegionLeaf, type RegionEntries, readRegionLeaf } from '../format/region-io.js';
import { f32Bits } from './bits.js';
import { subtreeFromEntries } from './region.js';
import { writeSkeleton } from './tree.js';

// Copy-on-write edits (§3.2: "only the affected nodes need to be altered or generated anew" and
// matrices "can share nodes"). Nodes are immutable, so an edit copies the root-to-leaf path it
// changes — at most `levels` nodes — appending the copies to the same pool, and the new matrix
// points at the new root. Every other subtree is shared by offset with the old matrix, which is
// untouched: its root and every word it can reach stay as they were.

/**
 * What an edit does at the leaf: store these value bits, or remove the entry (`null`).
 *
 * @example
 * ```ts
 * const insert: EditChange = { bits: f32Bits(5) };
 * const remove: EditChange = null;
 * ```
 */
export type EditChange = { readonly bits: number } | null;

/**
 * The slot (row-major place in the d×d grid) the stored position (r, c) takes at each level, root
 * first: `slots[ℓ]` is where the path to (r, c) goes in its level-ℓ node.
 *
 * @example
 * ```ts
 * pathSlots(5, 6, 4, 2); // [1 * 4 + 1, 1 * 4 + 2] = [5, 6]
 * ```
 */
export function pathSlots(r: number, c: number, d: number, levels: number): number[] {
  const log2d = Math.log2(d);
  const mask = d - 1;
  const slots: number[] = [];
  for (let level = 0; level < levels; level++) {
    const shift = log2d * (levels - 1 - level);
    slots.push(((r >>> shift) & mask) * d + ((c >>> shift) & mask));
  }
  return slots;
}

/**
 * Where the path continues below a node read on it: the child pointer in `slot` of the node's
 * entries, or the null pointer when the slot is empty or the node is a leaf (the path ends there).
 *
 * @example
 * ```ts
 * let pointer = H.root;
 * for (let level = 0; pointer !== NULL_POINTER; level++) pointer = nextOnPath(readNode(H.pool, pointer, d), slots[level], level === H.levels - 1);
 * ```
 */
export function nextOnPath(node: NodeEntries, slot: number, leaf: boolean): number {
  if (leaf) return NULL_POINTER;
  const at = node.slots.indexOf(slot);
  return at < 0 ? NULL_POINTER : node.words[at]!;
}

/**
 * The new path of an edit, bottom-up, from the nodes read on the old one. `path[ℓ]` is the level-ℓ
 * node on the way from the root (pointer `root`) to the edited position, as far as nodes exist
 * (see {@link nextOnPath}); `slots` are the {@link pathSlots}. Each changed node is written through
 * `write(type, slots, words, level)` — its type re-chosen by {@link chooseNodeType}, children
 * written before their parents — which returns its pointer. Returns the new root: `root` itself
 * when nothing changes (removing an absent entry: nothing is written), the null pointer when the
 * last entry goes. When the root changes, every node of `path` has left the new tree and the
 * written nodes have taken their places (nodes left empty are not written).
 *
 * @example
 * ```ts
 * const root = rewritePath(path, H.root, slots, H.nodeSize, H.levels, { bits: f32Bits(1) }, (t, s, w) =>
 *   writeNode(H.pool, t, s, w, H.nodeSize),
 * );
 * ```
 */
export function rewritePath(
  path: readonly NodeEntries[],
  root: number,
  slots: readonly number[],
  d: number,
  levels: number,
  change: EditChange,
  write: (type: NodeType, slots: number[], words: number[], level: number) => number,
): number {
  if (change === null) {
    const leaf = path[levels - 1];
    if (leaf === undefined || !leaf.slots.includes(slots[levels - 1]!)) return root; // removing what is not there: nothing to copy
  }
  // The word that goes into the slot below: the value bits at the leaf, then each new child.
  let word = change === null ? NULL_POINTER : change.bits;
  for (let level = levels - 1; level >= 0; level--) {
    const node = path[level];
    const nodeSlots = node ? [...node.slots] : [];
    const nodeWords = node ? [...node.words] : [];
    const slot = slots[level]!;
    let at = 0;
    while (at < nodeSlots.length && nodeSlots[at]! < slot) at++;
    // Remove the slot when the child vanished (or the entry was removed), else replace or insert.
    if (change === null && word === NULL_POINTER) {
      nodeSlots.splice(at, 1);
      nodeWords.splice(at, 1);
    } else if (nodeSlots[at] === slot) {
      nodeWords[at] = word;
    } else {
      nodeSlots.splice(at, 0, slot);
      nodeWords.splice(at, 0, word);
    }
    word = nodeSlots.length === 0 ? NULL_POINTER : write(chooseNodeType(nodeSlots.length, d), nodeSlots, nodeWords, level);
  }
  return word;
}

/**
 * The checks every edit makes, in the CPU reference's terms (`name` is the matrix's argument name):
 * `row` and `col` in range of the logical shape, and for an insert (`value` given) a number and a
 * scale other than 0 (the stored value is `value / scale`). Throws `INVALID_ARGUMENT` ScanErrors.
 *
 * @example
 * ```ts
 * checkEdit({ rows: 3, cols: 3, scale: 1 }, 3, 0, 'H', { value: 1 }); // throws: row = 3: expected an integer from 0 to H.rows − 1 = 2
 * ```
 */
export function checkEdit(
  m: { readonly rows: number; readonly cols: number; readonly scale: number },
  row: unknown,
  col: unknown,
  name: string,
  insert?: { readonly value: unknown },
): void {
  checkIndex(row, m.rows, 'row', `${name}.rows`);
  checkIndex(col, m.cols, 'col', `${name}.cols`);
  if (insert === undefined) return;
  const { value } = insert;
  if (typeof value !== 'number') invalidArgument('value', value, 'expected a number');
  if (m.scale === 0) {
    throw new ScanError('INVALID_ARGUMENT', `${name}.scale = 0: a matrix scaled by 0 cannot store a value (value / scale)`, {
      argument: `${name}.scale`,
    });
  }
}

/**
 * Applies an edit at stored (r, c) to the entries `e` of the region leaf at `level` it falls in
 * (row-major, local coordinates; changed in place): stores the bits, or removes the entry.
 * Returns false when nothing changes (removing an absent entry). The CPU's edits and the GPU's
 * (which read the region leaf back) share it.
 *
 * @example
 * ```ts
 * const e = readRegionLeaf(H.pool, pointer);
 * if (editRegionEntries(e, r, c, level, H.nodeSize, H.levels, { bits: f32Bits(2) })) subtreeFromEntries(e, level, d, levels);
 * ```
 */
export function editRegionEntries(
  e: RegionEntries,
  r: number,
  c: number,
  level: number,
  d: number,
  levels: number,
  change: EditChange,
): boolean {
  const side = d ** (levels - level);
  const [lr, lc] = [r % side, c % side];
  let at = 0;
  while (at < e.rows.length && (e.rows[at]! < lr || (e.rows[at] === lr && e.cols[at]! < lc))) at++;
  const present = at < e.rows.length && e.rows[at] === lr && e.cols[at] === lc;
  if (change === null) {
    if (!present) return false; // removing what is not there: nothing to copy
    e.rows.splice(at, 1);
    e.cols.splice(at, 1);
    e.bits.splice(at, 1);
  } else if (present) {
    e.bits[at] = change.bits;
  } else {
    e.rows.splice(at, 0, lr);
    e.cols.splice(at, 0, lc);
    e.bits.splice(at, 0, change.bits);
  }
  return true;
}

/**
 * An edit whose path meets the region leaf `pointer` at `level`: the region's entries with the
 * change applied are rebuilt by the build's rule (they may stay one region leaf, or no longer
 * qualify and become a subtree), appended to the pool, and the path above is rewritten to point at
 * them as an ordinary edit would. Returns the new root, or `root` when nothing changes.
 */
function editRegion(
  h: HiSparseHost,
  path: NodeEntries[],
  pointer: number,
  level: number,
  r: number,
  c: number,
  slots: number[],
  change: EditChange,
): number {
  const { pool, nodeSize: d, levels } = h;
  const e = readRegionLeaf(pool, pointer);
  if (!editRegionEntries(e, r, c, level, d, levels, change)) return h.root;
  const skeleton = subtreeFromEntries(e, level, d, levels);
  const rebuilt = skeleton === null ? NULL_POINTER : writeSkeleton(pool, skeleton, d);
  if (level === 0) return rebuilt;
  // The path above the region, rewritten as an edit whose "leaf" is the region's parent level.
  const above: EditChange = rebuilt === NULL_POINTER ? null : { bits: rebuilt };
  return rewritePath(path, h.root, slots, d, level, above, (type, s, w) => writeNode(pool, type, s, w, d));
}

/** The edit itself, after the checks: returns the new root, or `root` unchanged when nothing changed. */
function editPath(h: HiSparseHost, row: number, col: number, change: EditChange): number {
  const { pool, nodeSize: d, levels } = h;
  const [r, c] = h.transposed ? [col, row] : [row, col];
  const slots = pathSlots(r, c, d, levels);
  const path: NodeEntries[] = [];
  for (let pointer = h.root, level = 0; pointer !== NULL_POINTER; level++) {
    // Region leaves sit only at inner levels; word 0 of a leaf is an entry count without the flag.
    if (level < levels - 1 && isRegionLeaf(pool, pointer)) return editRegion(h, path, pointer, level, r, c, slots, change);
    const node = readNode(pool, pointer, d);
    path.push(node);
    pointer = nextOnPath(node, slots[level]!, level === levels - 1);
  }
  return rewritePath(path, h.root, slots, d, levels, change, (type, s, w) => writeNode(pool, type, s, w, d));
}

/**
 * A new matrix equal to `H` with entry (row, col) of the logical matrix set to `value` (inserted,
 * or replaced when present). Copy-on-write: the changed root-to-leaf path (at most `levels` nodes)
 * is appended to `H`'s pool, every other node is shared, and `H` itself is unchanged. The state
 * is honoured: coordinates are swapped for a transposed `H`, and `value / H.scale` is stored
 * (exact when the scale is a power of two; a matrix scaled by 0 cannot be edited). Node types
 * along the path are chosen again for their new entry counts. Storing +0 in a dense leaf is the
 * same as removing the entry. Where the path meets a region leaf, that region is rebuilt by the
 * build's rule with the change (FORMAT.md, "Region leaves") and appended, the path above copied.
 *
 * @example
 * ```ts
 * const B = hisparseInsert(H, 0, 1, 5); // B has 5 at (0, 1); H is unchanged and shares B's other nodes
 * ```
 */
export function hisparseInsert(H: HiSparseHost, row: number, col: number, value: number): HiSparseHost {
  const h = checkHiSparse(H, 'H');
  checkEdit(h, row, col, 'H', { value });
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
  checkEdit(h, row, col, 'H');
  return makeHiSparse({ ...h, root: editPath(h, row, col, null) });
}
