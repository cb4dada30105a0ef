import { ScanError } from '@scan/core';
import { checkHiSparse } from '../format/args.js';
import { type HiSparseHost, makeHiSparse } from '../format/matrix.js';
import { isRegionLeaf } from '../format/region-io.js';
import { bitsF32, f32Bits } from './bits.js';
import { copySubtree, entriesOf, type Operand, scaledBits } from './copy.js';
import { gatherPool, type RegionList, sortRowMajor, subtreeFromEntries } from './region.js';
import { fillPool, type SkeletonNode } from './tree.js';

/**
 * A node pair where at least one side is a region leaf: both regions' entries are gathered (in A's
 * orientation), merged row-major with common positions summed as at the leaves (f64, scaled,
 * rounded once), and the subtree rebuilt by the build's rule (FORMAT.md, "Region leaves").
 */
function joinRegions(a: Operand, pa: number, b: Operand, pb: number, level: number): SkeletonNode {
  const ea = sortRowMajor(gatherPool(a, pa, level));
  const eb = sortRowMajor(gatherPool(b, pb, level));
  const out: RegionList = { rows: [], cols: [], bits: [] };
  let i = 0;
  let j = 0;
  while (i < ea.rows.length || j < eb.rows.length) {
    const order = i === ea.rows.length ? 1 : j === eb.rows.length ? -1 : ea.rows[i]! - eb.rows[j]! || ea.cols[i]! - eb.cols[j]!;
    if (order === 0) {
      out.rows.push(ea.rows[i]!);
      out.cols.push(ea.cols[i]!);
      out.bits.push(f32Bits(a.s * bitsF32(ea.bits[i]!) + b.s * bitsF32(eb.bits[j]!)));
      i++;
      j++;
    } else if (order < 0) {
      out.rows.push(ea.rows[i]!);
      out.cols.push(ea.cols[i]!);
      out.bits.push(scaledBits(a, ea.bits[i]!));
      i++;
    } else {
      out.rows.push(eb.rows[j]!);
      out.cols.push(eb.cols[j]!);
      out.bits.push(scaledBits(b, eb.bits[j]!));
      j++;
    }
  }
  // Both sides hold entries, so the union is never empty.
  return subtreeFromEntries(out, level, a.h.nodeSize, a.h.levels)!;
}

/**
 * Joint traversal of two nodes at the same place (§6): merge the two row-major slot lists, count
 * the union (|A| + |B| − common, the count the GPU allocates from before it writes), and recurse
 * into common children; a slot only one side has is copied. At the leaves common entries add up
 * (in f64, scaled, rounded to f32 once).
 */
function join(a: Operand, pa: number, b: Operand, pb: number, level: number): SkeletonNode {
  const inner = level < a.h.levels - 1;
  if (inner && (isRegionLeaf(a.h.pool, pa) || isRegionLeaf(b.h.pool, pb))) return joinRegions(a, pa, b, pb, level);
  const ea = entriesOf(a, pa);
  const eb = entriesOf(b, pb);
  let common = 0;
  for (let i = 0, j = 0; i < ea.slots.length && j < eb.slots.length; ) {
    const d = ea.slots[i]! - eb.slots[j]!;
    if (d === 0) common++;
    if (d <= 0) i++;
    if (d >= 0) j++;
  }
  const union = ea.slots.length + eb.slots.length - common;
  const leaf = level === a.h.levels - 1;
  const slots = new Array<number>(union);
  const bits: number[] = [];
  const children: SkeletonNode[] = [];
  let i = 0;
  let j = 0;
  for (let k = 0; k < union; k++) {
    const sa = i < ea.slots.length ? ea.slots[i]! : Number.POSITIVE_INFINITY;
    const sb = j < eb.slots.length ? eb.slots[j]! : Number.POSITIVE_INFINITY;
    if (sa === sb) {
      slots[k] = sa;
      if (leaf) bits.push(f32Bits(a.s * bitsF32(ea.words[i]!) + b.s * bitsF32(eb.words[j]!)));
      else children.push(join(a, ea.words[i]!, b, eb.words[j]!, level + 1));
      i++;
      j++;
    } else if (sa < sb) {
      slots[k] = sa;
      if (leaf) bits.push(scaledBits(a, ea.words[i]!));
      else children.push(copySubtree(a, ea.words[i]!, level + 1));
      i++;
    } else {
      slots[k] = sb;
      if (leaf) bits.push(scaledBits(b, eb.words[j]!));
      else children.push(copySubtree(b, eb.words[j]!, level + 1));
      j++;
    }
  }
  return leaf ? { slots, bits } : { slots, children };
}

/**
 * C = A + B (§6) by a joint top-down traversal of both hierarchies with union counting, into a
 * fresh pool laid out canonically (as `hisparseFromCsr` would lay out C: the same words). Either
 * operand may be transposed or scaled: C is built in A's stored orientation (so when both are
 * transposed, C = (A_S + B_S)ᵀ is built by plain merging and returned with the transposed flag
 * set), B's slots are swapped where its flag differs from A's, and both scales are applied to the
 * values (C's scale is 1). Node types come from the union counts by the usual rule, so a dense node
 * meeting a sparse one gives a dense node, as in the paper. Entries that cancel stay as stored
 * zeros in sparse leaves (as in CSR addition), and vanish in dense ones. Where either side of a
 * node pair is a region leaf, the two regions' entries are summed and that subtree is rebuilt by
 * the build's collapse rule (FORMAT.md, "Region leaves").
 *
 * Throws an `INVALID_ARGUMENT` ScanError when the logical shapes or the node sizes differ.
 *
 * @example
 * ```ts
 * const C = hisparseAdd(H, transpose(H)); // A + Aᵀ for a square A
 * const D = hisparseAdd(H, scale(H, -1)); // A − A: every entry a stored zero (or gone in dense leaves)
 * ```
 */
export function hisparseAdd(A: HiSparseHost, B: HiSparseHost): HiSparseHost {
  const ha = checkHiSparse(A, 'A');
  const hb = checkHiSparse(B, 'B');
  if (ha.rows !== hb.rows || ha.cols !== hb.cols) {
    throw new ScanError(
      'INVALID_ARGUMENT',
      `B = ${hb.rows}×${hb.cols} matrix: shape does not match A = ${ha.rows}×${ha.cols} (C = A + B needs equal shapes)`,
      { argument: 'B' },
    );
  }
  if (ha.nodeSize !== hb.nodeSize) {
    throw new ScanError(
      'INVALID_ARGUMENT',
      `B.nodeSize = ${hb.nodeSize}: does not match A.nodeSize = ${ha.nodeSize} (the joint traversal needs one node size)`,
      { argument: 'B.nodeSize' },
    );
  }
  const a: Operand = { h: ha, swap: false, s: ha.scale };
  const b: Operand = { h: hb, swap: ha.transposed !== hb.transposed, s: hb.scale };
  let skeleton: SkeletonNode | null = null;
  if (ha.root !== 0 && hb.root !== 0) skeleton = join(a, ha.root, b, hb.root, 0);
  else if (ha.root !== 0) skeleton = copySubtree(a, ha.root, 0);
  else if (hb.root !== 0) skeleton = copySubtree(b, hb.root, 0);
  const { pool, root } = fillPool(skeleton, ha.nodeSize);
  return makeHiSparse({ ...ha, pool, root, scale: 1 });
}
