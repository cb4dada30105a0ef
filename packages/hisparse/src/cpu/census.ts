import { type CsrMatrix, cooToCsr, csrToCoo } from '@scan/spmv/cpu';
import { levelsFor, POOL_HEADER_WORDS } from '../format/layout.js';
import { binSkeleton } from './bin.js';
import { collapseRegions } from './region.js';
import { type SkeletonNode, skeletonLevels, skeletonNodeWords } from './tree.js';

// The census behind `nodeSize: 'auto'`: for each candidate node size the matrix is binned once,
// and the exact pool size is counted without and with region leaves (the collapse does not change
// the skeleton it reads, so both come from one binning). Only the chosen skeleton is kept.

/**
 * The node sizes `nodeSize: 'auto'` chooses from, in tie-breaking order (the default first).
 *
 * @example
 * ```ts
 * for (const d of AUTO_NODE_SIZES) hisparseFromCsr(A, { nodeSize: d }); // the plain candidates of 'auto'
 * ```
 */
export const AUTO_NODE_SIZES = [64, 32, 16] as const;

/**
 * One candidate layout of a census: node size, region leaves or not, and the exact bytes of its
 * pool (header included: what `hisparseMemoryBytes` of that build reports).
 *
 * @example
 * ```ts
 * const best = hisparseCensus(A).reduce((a, b) => (b.memoryBytes < a.memoryBytes ? b : a));
 * ```
 */
export interface HiSparseCensusEntry {
  readonly nodeSize: number;
  readonly regionLeaves: boolean;
  readonly memoryBytes: number;
}

/**
 * The skeleton of a canonical CSR for node size d and its `levels` (top-down binning): null
 * without entries.
 *
 * @example
 * ```ts
 * const skeleton = skeletonOf(A, 64, levelsFor(A.rows, A.cols, 64));
 * ```
 */
export function skeletonOf(A: CsrMatrix, d: number, levels: number): SkeletonNode | null {
  const nnz = A.colIdx.length;
  const rowOf = new Uint32Array(nnz);
  for (let r = 0; r < A.rows; r++) rowOf.fill(r, A.rowPtr[r]!, A.rowPtr[r + 1]!);
  return binSkeleton(rowOf, A.colIdx, new Uint32Array(A.values.buffer, A.values.byteOffset, nnz), d, levels, 0);
}

/** Words of a skeleton laid out, header included. */
function poolWords(skeleton: SkeletonNode | null, d: number): number {
  let words = POOL_HEADER_WORDS;
  if (skeleton) for (const level of skeletonLevels(skeleton)) for (const node of level) words += skeletonNodeWords(node, d);
  return words;
}

/**
 * Counts the candidates (`sizes` × `modes`, region leaves off and/or on) on a canonical CSR and
 * returns every count plus the winner's skeleton: the smallest pool, ties to the earlier candidate
 * in the order (all sizes without region leaves, then all with; sizes in the order given).
 *
 * @example
 * ```ts
 * const { d, skeleton } = censusOf(A, AUTO_NODE_SIZES, [false, true]).best; // what 'auto' lays out
 * ```
 */
export function censusOf(
  A: CsrMatrix,
  sizes: readonly number[],
  modes: readonly boolean[],
): { entries: HiSparseCensusEntry[]; best: { d: number; skeleton: SkeletonNode | null } } {
  const entries: HiSparseCensusEntry[] = [];
  let best: { d: number; skeleton: SkeletonNode | null; words: number; rank: number } | null = null;
  sizes.forEach((d, i) => {
    const levels = levelsFor(A.rows, A.cols, d);
    const plain = skeletonOf(A, d, levels);
    for (const regions of modes) {
      const skeleton = regions && plain ? collapseRegions(plain, 0, d, levels).node : plain;
      const words = poolWords(skeleton, d);
      const rank = (regions ? sizes.length : 0) + i;
      entries.push({ nodeSize: d, regionLeaves: regions, memoryBytes: 4 * words });
      if (best === null || words < best.words || (words === best.words && rank < best.rank)) best = { d, skeleton, words, rank };
    }
  });
  const chosen = best as unknown as { d: number; skeleton: SkeletonNode | null };
  return { entries, best: { d: chosen.d, skeleton: chosen.skeleton } };
}

/**
 * The census `nodeSize: 'auto'` decides by: the exact pool bytes of `A` in HiSparse for each node
 * size of {@link AUTO_NODE_SIZES} (64, 32, 16), without and with region leaves — six builds'
 * memory for three binnings, nothing laid out. `A` is made canonical first, as the builder does.
 *
 * @example
 * ```ts
 * for (const { nodeSize, regionLeaves, memoryBytes } of hisparseCensus(A)) console.log(nodeSize, regionLeaves, memoryBytes);
 * ```
 */
export function hisparseCensus(A: CsrMatrix): HiSparseCensusEntry[] {
  return censusOf(cooToCsr(csrToCoo(A)), AUTO_NODE_SIZES, [false, true]).entries;
}
