import { REGION_LEAF_MAX_ENTRIES, regionLeafWords, regionLevelAllowed } from '../format/layout.js';
import { binSkeleton } from './bin.js';
import type { Operand } from './copy.js';
import { forEachStoredBits } from './traverse.js';
import { type SkeletonNode, skeletonNodeWords } from './tree.js';

// Region leaves (FORMAT.md, "Region leaves"): which subtrees collapse into one COO node of their
// whole region, and the entries of a region gathered from a skeleton or a pool.

/**
 * Entries of a region in local coordinates: rows, columns and f32 value bits, row-major after
 * {@link sortRowMajor}.
 *
 * @example
 * ```ts
 * const e: RegionList = { rows: [0], cols: [3], bits: [0x3f800000] };
 * ```
 */
export interface RegionList {
  rows: number[];
  cols: number[];
  bits: number[];
}

/**
 * Sorts a region's entries row-major (row, then column) in place: the order of a region leaf.
 *
 * @example
 * ```ts
 * sortRowMajor({ rows: [1, 0], cols: [0, 9], bits: [1, 2] }); // rows [0, 1], cols [9, 0], bits [2, 1]
 * ```
 */
export function sortRowMajor(e: RegionList): RegionList {
  const order = e.rows.map((_, i) => i).sort((a, b) => e.rows[a]! - e.rows[b]! || e.cols[a]! - e.cols[b]!);
  const rows = order.map((i) => e.rows[i]!);
  const cols = order.map((i) => e.cols[i]!);
  const bits = order.map((i) => e.bits[i]!);
  e.rows = rows;
  e.cols = cols;
  e.bits = bits;
  return e;
}

/** Appends the entries of a skeleton subtree at `level`, offset by (row0, col0) in its region of side `span`. */
function gatherSkeleton(
  node: SkeletonNode,
  level: number,
  levels: number,
  d: number,
  row0: number,
  col0: number,
  span: number,
  out: RegionList,
): void {
  if (node.region) {
    for (let i = 0; i < node.region.rows.length; i++) {
      out.rows.push(row0 + node.region.rows[i]!);
      out.cols.push(col0 + node.region.cols[i]!);
      out.bits.push(node.bits![i]!);
    }
    return;
  }
  const child = span / d;
  for (let i = 0; i < node.slots.length; i++) {
    const r = row0 + Math.floor(node.slots[i]! / d) * child;
    const c = col0 + (node.slots[i]! % d) * child;
    if (level === levels - 1) {
      out.rows.push(r);
      out.cols.push(c);
      out.bits.push(node.bits![i]!);
    } else {
      gatherSkeleton(node.children![i]!, level + 1, levels, d, r, c, child, out);
    }
  }
}

/**
 * The collapse rule, bottom-up over a skeleton whose root is at `level`: every inner node is first
 * given its children's best forms; then, where its level may hold region leaves (region side ≤
 * 65536), it holds at most `REGION_LEAF_MAX_ENTRIES` entries and its region leaf takes fewer words
 * than the subtree as it now stands, it becomes that region leaf (on a tie it stays a subtree).
 * Bottom-up makes the result the smallest pool this rule can reach, and unique: each node's form
 * depends only on its own entries. Returns the new skeleton, its words and its entry count.
 *
 * @example
 * ```ts
 * const { node, words } = collapseRegions(binSkeleton(rows, cols, bits, d, levels, 0)!, 0, d, levels);
 * ```
 */
export function collapseRegions(
  node: SkeletonNode,
  level: number,
  d: number,
  levels: number,
): { node: SkeletonNode; words: number; count: number } {
  if (!node.children) {
    const count = node.region ? node.region.rows.length : node.slots.length;
    return { node, words: skeletonNodeWords(node, d), count };
  }
  let words = skeletonNodeWords(node, d);
  let count = 0;
  let changed = false;
  const children = node.children.map((child) => {
    const best = collapseRegions(child, level + 1, d, levels);
    words += best.words;
    count += best.count;
    if (best.node !== child) changed = true;
    return best.node;
  });
  const kept = changed ? { slots: node.slots, children } : node;
  if (regionLevelAllowed(d, levels, level) && count <= REGION_LEAF_MAX_ENTRIES) {
    const regionWords = regionLeafWords(count);
    if (regionWords < words) {
      const e = sortRowMajor(gatherRegion(kept, level, d, levels));
      return { node: { slots: [], bits: e.bits, region: { rows: e.rows, cols: e.cols } }, words: regionWords, count };
    }
  }
  return { node: kept, words, count };
}

/**
 * The entries of a skeleton subtree at `level` in coordinates local to its region (not sorted).
 *
 * @example
 * ```ts
 * gatherRegion(subtree, 2, 64, 4).rows.length; // its entry count
 * ```
 */
export function gatherRegion(node: SkeletonNode, level: number, d: number, levels: number): RegionList {
  const out: RegionList = { rows: [], cols: [], bits: [] };
  gatherSkeleton(node, level, levels, d, 0, 0, d ** (levels - level), out);
  return out;
}

/**
 * The skeleton of a subtree at `level` holding the given distinct entries (local to its region),
 * built by the build's rules: binned, then collapsed by {@link collapseRegions}. What add and edits
 * use where a region leaf takes part. Null without entries.
 *
 * @example
 * ```ts
 * const sk = subtreeFromEntries({ rows: [0], cols: [70], bits: [0x3f800000] }, 2, 64, 4);
 * ```
 */
export function subtreeFromEntries(e: RegionList, level: number, d: number, levels: number): SkeletonNode | null {
  const binned = binSkeleton(e.rows, e.cols, e.bits, d, levels, level);
  return binned === null ? null : collapseRegions(binned, level, d, levels).node;
}

/**
 * The stored entries below `pointer` (a node at `level` of `op`'s matrix) in coordinates local to
 * its region and in `op`'s orientation (row and column swapped when `op.swap`), value bits as
 * stored (no scale). Region leaves and ordinary subtrees alike.
 *
 * @example
 * ```ts
 * const e = gatherPool({ h: H, swap: false, s: 1 }, pointer, 2);
 * ```
 */
export function gatherPool(op: Operand, pointer: number, level: number): RegionList {
  const out: RegionList = { rows: [], cols: [], bits: [] };
  forEachStoredBits(op.h, pointer, level, (r, c, bits) => {
    out.rows.push(r);
    out.cols.push(c);
    out.bits.push(bits);
  });
  if (op.swap) [out.rows, out.cols] = [out.cols, out.rows];
  return out;
}
