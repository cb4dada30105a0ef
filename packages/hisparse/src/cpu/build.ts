import { checkOptions } from '@scan/core/kit';
import { type CooMatrix, type CsrMatrix, cooToCsr, csrToCoo } from '@scan/spmv/cpu';
import { checkNodeSize } from '../format/args.js';
import { levelsFor } from '../format/layout.js';
import { type HiSparseHost, makeHiSparse } from '../format/matrix.js';
import { fillPool, type SkeletonNode } from './tree.js';

/**
 * Options of `hisparseFromCsr` and `hisparseFromCoo`.
 *
 * @example
 * ```ts
 * const options: HiSparseBuildOptions = { nodeSize: 64 };
 * ```
 */
export interface HiSparseBuildOptions {
  /** Node size d: a power of two from 4 to 256 (default `DEFAULT_NODE_SIZE`, 64). */
  nodeSize?: number;
}

/**
 * Top-down binning (§3.2: "we repeatedly in-place sort the COO entries into d×d bins, whereas the
 * bins correspond to nodes"): the entries of a node are sorted by their slot at the node's level
 * — ties kept in canonical CSR order — and each run of one slot becomes a child, until the leaf
 * level. Entries are distinct positions, so the final order is the unique hierarchical order and
 * a GPU build that bins differently (a segmented sort per level) reaches the same skeleton.
 */
function binEntries(A: CsrMatrix, d: number, levels: number): SkeletonNode | null {
  const nnz = A.colIdx.length;
  if (nnz === 0) return null;
  const rowOf = new Uint32Array(nnz);
  for (let r = 0; r < A.rows; r++) rowOf.fill(r, A.rowPtr[r]!, A.rowPtr[r + 1]!);
  const colOf = A.colIdx;
  const bitsOf = new Uint32Array(A.values.buffer, A.values.byteOffset, nnz);
  const order = new Uint32Array(nnz);
  for (let k = 0; k < nnz; k++) order[k] = k;
  const log2d = Math.log2(d);
  const mask = d - 1;
  const slot = new Uint32Array(nnz); // the current level's slot of each entry, by entry index

  const bin = (lo: number, hi: number, level: number): SkeletonNode => {
    const shift = log2d * (levels - 1 - level);
    for (let p = lo; p < hi; p++) {
      const k = order[p]!;
      slot[k] = ((rowOf[k]! >>> shift) & mask) * d + ((colOf[k]! >>> shift) & mask);
    }
    order.subarray(lo, hi).sort((a, b) => slot[a]! - slot[b]! || a - b);
    const slots: number[] = [];
    if (level === levels - 1) {
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
      children.push(bin(start, end, level + 1));
      start = end;
    }
    return { slots, children };
  };
  return bin(0, nnz, 0);
}

/** Builds from a canonical CSR (sorted, no duplicates); the public functions validate first. */
function build(A: CsrMatrix, d: number): HiSparseHost {
  const levels = levelsFor(A.rows, A.cols, d);
  const { pool, root } = fillPool(binEntries(A, d, levels), d);
  return makeHiSparse({ storedRows: A.rows, storedCols: A.cols, nodeSize: d, levels, pool, root, transposed: false, scale: 1 });
}

/**
 * Converts a CSR matrix to HiSparse (Derler et al., ICS 2017, §3.2) in a fresh pool: the entries
 * are first made canonical by `@scan/spmv`'s conversions (which validate `A` — a bad `rowPtr` or
 * column index is an `INVALID_ARGUMENT` ScanError naming the field — sort each row and sum
 * duplicates), then binned top-down into d×d nodes and laid out bottom-up, leaves first and the
 * root last (FORMAT.md, "Build order"). Deterministic: the same matrix and node size give the same
 * pool, word for word, which is what the GPU build is compared with. Explicit zeros are kept in
 * sparse leaves; a dense leaf cannot tell +0 from no entry.
 *
 * @example
 * ```ts
 * const A = { rows: 2, cols: 3, rowPtr: new Uint32Array([0, 2, 3]), colIdx: new Uint32Array([0, 2, 1]), values: new Float32Array([1, 2, 3]) };
 * const H = hisparseFromCsr(A, { nodeSize: 4 }); // one level: the root is a COO4 leaf with 3 entries
 * H.pool.view(); // Uint32Array(12): header, then [3, 0, 0x0200_0000, 0x0000_0101, 1.0f, 2.0f, 3.0f, 0]
 * ```
 */
export function hisparseFromCsr(A: CsrMatrix, options?: HiSparseBuildOptions): HiSparseHost {
  const canonical = cooToCsr(csrToCoo(A));
  const o = checkOptions(options, ['nodeSize']);
  return build(canonical, checkNodeSize(o['nodeSize'], 'options.nodeSize'));
}

/**
 * Converts a COO matrix (any order, duplicates summed in f64 as `cooToCsr` does) to HiSparse;
 * otherwise as {@link hisparseFromCsr}.
 *
 * @example
 * ```ts
 * const coo = { rows: 4, cols: 4, rowIdx: new Uint32Array([3, 3]), colIdx: new Uint32Array([0, 0]), values: new Float32Array([1, 2]) };
 * const H = hisparseFromCoo(coo, { nodeSize: 4 }); // one COO1 leaf: 3 at (3, 0)
 * ```
 */
export function hisparseFromCoo(coo: CooMatrix, options?: HiSparseBuildOptions): HiSparseHost {
  const canonical = cooToCsr(coo);
  const o = checkOptions(options, ['nodeSize']);
  return build(canonical, checkNodeSize(o['nodeSize'], 'options.nodeSize'));
}
