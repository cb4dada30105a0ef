import type { HiSparseHost } from '../format/matrix.js';
import { readNode } from '../format/node-io.js';
import { isRegionLeaf, readRegionLeaf } from '../format/region-io.js';

// Depth-first walks over the stored matrix (state not applied: callers decide what transposition
// and scale mean for them). Children are visited in slot order, so entries come out in the
// hierarchical order of FORMAT.md (block by block, row-major inside each node); a region leaf's
// entries come out row-major within its region, where the walk meets it.

/**
 * Calls `visit(row, col, value)` for every stored entry, with the global stored coordinates and
 * the f32 value as stored (before the matrix's scale).
 *
 * @example
 * ```ts
 * forEachStoredEntry(H, (r, c, v) => console.log(r, c, v));
 * ```
 */
export function forEachStoredEntry(H: HiSparseHost, visit: (row: number, col: number, value: number) => void): void {
  const bits = new Uint32Array(1);
  const f32 = new Float32Array(bits.buffer);
  if (H.root === 0) return;
  forEachStoredBits(H, H.root, 0, (r, c, word) => {
    bits[0] = word;
    visit(r, c, f32[0]!);
  });
}

/**
 * Calls `visit(row, col, bits)` for every stored entry of the subtree at `pointer` (a node of
 * `level`), with coordinates relative to the subtree's region and the value's f32 bits as stored:
 * the one walk behind {@link forEachStoredEntry} and the gathering of a region (region.ts).
 *
 * @example
 * ```ts
 * forEachStoredBits(H, H.root, 0, (r, c, bits) => console.log(r, c, bits.toString(16)));
 * ```
 */
export function forEachStoredBits(
  H: Pick<HiSparseHost, 'pool' | 'nodeSize' | 'levels'>,
  pointer: number,
  level: number,
  visit: (row: number, col: number, bits: number) => void,
): void {
  const { pool, nodeSize: d, levels } = H;
  const walk = (p: number, at: number, row0: number, col0: number, span: number): void => {
    // Only inner levels hold region leaves; at the leaf level the test is skipped (and would hold no flag).
    if (at < levels - 1 && isRegionLeaf(pool, p)) {
      const e = readRegionLeaf(pool, p);
      for (let i = 0; i < e.rows.length; i++) visit(row0 + e.rows[i]!, col0 + e.cols[i]!, e.bits[i]!);
      return;
    }
    const { slots, words } = readNode(pool, p, d);
    const child = span / d;
    for (let i = 0; i < slots.length; i++) {
      const r = row0 + Math.floor(slots[i]! / d) * child;
      const c = col0 + (slots[i]! % d) * child;
      if (at === levels - 1) visit(r, c, words[i]!);
      else walk(words[i]!, at + 1, r, c, child);
    }
  };
  walk(pointer, level, 0, 0, d ** (levels - level));
}

/**
 * Calls `visit(pointer, level)` once for every distinct node reachable from the root (a node
 * shared by two parents is visited once), parents before children. A region leaf is visited and
 * not descended into (its words are entries, not child pointers).
 *
 * @example
 * ```ts
 * let nodes = 0;
 * forEachNode(H, () => nodes++);
 * ```
 */
export function forEachNode(H: HiSparseHost, visit: (pointer: number, level: number) => void): void {
  const { pool, nodeSize: d, levels } = H;
  const seen = new Set<number>();
  const walk = (pointer: number, level: number): void => {
    if (seen.has(pointer)) return;
    seen.add(pointer);
    visit(pointer, level);
    if (level === levels - 1 || isRegionLeaf(pool, pointer)) return;
    for (const child of readNode(pool, pointer, d).words) walk(child, level + 1);
  };
  if (H.root !== 0) walk(H.root, 0);
}

/**
 * True when a region leaf (FORMAT.md, "Region leaves") is reachable from the root: what readers
 * that do not know region leaves yet (the GPU kernels) must refuse rather than misread.
 *
 * @example
 * ```ts
 * hasRegionLeaves(hisparseFromCsr(A)); // false: region leaves are opt-in
 * ```
 */
export function hasRegionLeaves(H: HiSparseHost): boolean {
  const { pool, nodeSize: d, levels } = H;
  // Only inner nodes are read (leaves cannot be region leaves), and the walk stops at the first one.
  const walk = (pointer: number, level: number): boolean => {
    if (isRegionLeaf(pool, pointer)) return true;
    if (level + 1 >= levels - 1) return false;
    return readNode(pool, pointer, d).words.some((child) => walk(child, level + 1));
  };
  return H.root !== 0 && levels > 1 && walk(H.root, 0);
}
