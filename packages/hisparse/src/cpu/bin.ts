import type { SkeletonNode } from './tree.js';

/**
 * Top-down binning (§3.2: "we repeatedly in-place sort the COO entries into d×d bins, whereas the
 * bins correspond to nodes") of `rowOf.length` distinct entries into the skeleton of a node at
 * `level` (0 for the root of a whole matrix): the entries of a node are sorted by their slot at the
 * node's level — ties kept in input order — and each run of one slot becomes a child, down to the
 * leaf level `levels − 1`. Coordinates may be global or local to the node's region (the slot at
 * `level` and below depends only on their low bits). Distinct positions make the result the unique
 * hierarchical order, so a GPU build that bins differently (a segmented sort per level) reaches
 * the same skeleton. Returns null without entries.
 *
 * @example
 * ```ts
 * binSkeleton(Uint32Array.of(0, 5), Uint32Array.of(1, 5), Uint32Array.of(0x3f800000, 0x40000000), 4, 2, 0);
 * ```
 */
export function binSkeleton(
  rowOf: ArrayLike<number>,
  colOf: ArrayLike<number>,
  bitsOf: ArrayLike<number>,
  d: number,
  levels: number,
  level: number,
): SkeletonNode | null {
  const nnz = rowOf.length;
  if (nnz === 0) return null;
  const order = new Uint32Array(nnz);
  for (let k = 0; k < nnz; k++) order[k] = k;
  const log2d = Math.log2(d);
  const mask = d - 1;
  const slot = new Uint32Array(nnz); // the current level's slot of each entry, by entry index

  const bin = (lo: number, hi: number, at: number): SkeletonNode => {
    const shift = log2d * (levels - 1 - at);
    for (let p = lo; p < hi; p++) {
      const k = order[p]!;
      slot[k] = ((rowOf[k]! >>> shift) & mask) * d + ((colOf[k]! >>> shift) & mask);
    }
    order.subarray(lo, hi).sort((a, b) => slot[a]! - slot[b]! || a - b);
    const slots: number[] = [];
    if (at === levels - 1) {
      const bits: number[] = [];
      for (let p = lo; p < hi; p++) {
        slots.push(slot[order[p]!]!);
        bits.push(bitsOf[order[p]!]!);
      }
      return { slots, bits };
    }
    const children: SkeletonNode[] = [];
    let start = lo;
    while (start < hi) {
      const s = slot[order[start]!]!;
      let end = start + 1;
      while (end < hi && slot[order[end]!] === s) end++;
      slots.push(s);
      children.push(bin(start, end, at + 1));
      start = end;
    }
    return { slots, children };
  };
  return bin(0, nnz, level);
}
