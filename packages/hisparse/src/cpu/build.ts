import { checkBoolean, checkOptions, invalidArgument } from '@scan/core/kit';
import { type CooMatrix, type CsrMatrix, cooToCsr, csrToCoo } from '@scan/spmv/cpu';
import { checkNodeSize } from '../format/args.js';
import { levelsFor } from '../format/layout.js';
import { type HiSparseHost, makeHiSparse } from '../format/matrix.js';
import { binSkeleton } from './bin.js';
import { collapseRegions } from './region.js';
import { fillPool, type SkeletonNode, skeletonLevels, skeletonNodeWords } from './tree.js';

/**
 * Options of `hisparseFromCsr` and `hisparseFromCoo`.
 *
 * @example
 * ```ts
 * const options: HiSparseBuildOptions = { nodeSize: 64 };
 * ```
 */
export interface HiSparseBuildOptions {
  /**
   * Node size d: a power of two from 4 to 256 (default `DEFAULT_NODE_SIZE`, 64), or `'auto'`: the
   * builder takes a census of the matrix — its skeleton for d = 64, 32 and 16, each without and
   * with region leaves — and keeps the smallest pool (ties go to the earlier of 64, 32, 16
   * without region leaves, then 64, 32, 16 with them: GPU-readable first, the larger d first).
   * `regionLeaves` limits the candidates to those without (false) or with (true) region leaves;
   * undefined lets the census choose.
   */
  nodeSize?: number | 'auto';
  /**
   * Collapse sparse subtrees into region leaves (FORMAT.md, "Region leaves"): smaller pools on
   * random and power-law matrices. Default false: the pool is then word for word the format's
   * version 1 without them. The CPU reference reads region leaves everywhere; the GPU cannot yet
   * (`HiSparseMatrix.fromHost` refuses them).
   */
  regionLeaves?: boolean;
}

/** The node sizes `nodeSize: 'auto'` chooses from, in tie-breaking order. */
const AUTO_NODE_SIZES = [64, 32, 16] as const;

/** The skeleton of a canonical CSR for node size d (top-down binning, `binSkeleton`). */
function skeletonOf(A: CsrMatrix, d: number, levels: number): SkeletonNode | null {
  const nnz = A.colIdx.length;
  const rowOf = new Uint32Array(nnz);
  for (let r = 0; r < A.rows; r++) rowOf.fill(r, A.rowPtr[r]!, A.rowPtr[r + 1]!);
  return binSkeleton(rowOf, A.colIdx, new Uint32Array(A.values.buffer, A.values.byteOffset, nnz), d, levels, 0);
}

/** Words of a skeleton laid out (without the header). */
function skeletonWords(skeleton: SkeletonNode | null, d: number): number {
  let words = 0;
  if (skeleton) for (const level of skeletonLevels(skeleton)) for (const node of level) words += skeletonNodeWords(node, d);
  return words;
}

/** A build's choice: node size and whether subtrees may collapse into region leaves. */
interface BuildChoice {
  readonly d: number;
  readonly regions: boolean;
}

/** Builds from a canonical CSR (sorted, no duplicates); the public functions validate first. */
function build(A: CsrMatrix, choice: BuildChoice | 'auto', regionLeaves: boolean | undefined): HiSparseHost {
  let best: { d: number; skeleton: SkeletonNode | null; words: number } | null = null;
  const candidates: BuildChoice[] =
    choice === 'auto'
      ? [false, true]
          .filter((r) => regionLeaves === undefined || r === regionLeaves)
          .flatMap((regions) => AUTO_NODE_SIZES.map((d) => ({ d, regions })))
      : [choice];
  // The census: each candidate's skeleton and its exact pool size; only the winner is laid out.
  for (const { d, regions } of candidates) {
    const levels = levelsFor(A.rows, A.cols, d);
    let skeleton = skeletonOf(A, d, levels);
    let words: number;
    if (regions && skeleton) {
      const collapsed = collapseRegions(skeleton, 0, d, levels);
      skeleton = collapsed.node;
      words = collapsed.words;
    } else {
      words = candidates.length > 1 ? skeletonWords(skeleton, d) : 0;
    }
    if (best === null || words < best.words) best = { d, skeleton, words };
  }
  const { d, skeleton } = best!;
  const levels = levelsFor(A.rows, A.cols, d);
  const { pool, root } = fillPool(skeleton, d);
  return makeHiSparse({ storedRows: A.rows, storedCols: A.cols, nodeSize: d, levels, pool, root, transposed: false, scale: 1 });
}

/** The validated options: the build choice and the `regionLeaves` option as given. */
function buildChoice(options: unknown): [BuildChoice | 'auto', boolean | undefined] {
  const o = checkOptions(options, ['nodeSize', 'regionLeaves']);
  const raw = o['regionLeaves'];
  const regionLeaves = raw === undefined ? undefined : checkBoolean(raw, 'options.regionLeaves', false);
  const nodeSize = o['nodeSize'];
  if (nodeSize === 'auto') return ['auto', regionLeaves];
  if (typeof nodeSize === 'string') invalidArgument('options.nodeSize', nodeSize, "expected a power of two from 4 to 256 or 'auto'");
  return [{ d: checkNodeSize(nodeSize, 'options.nodeSize'), regions: regionLeaves === true }, regionLeaves];
}

/**
 * Converts a CSR matrix to HiSparse (Derler et al., ICS 2017, §3.2) in a fresh pool: the entries
 * are first made canonical by `@scan/spmv`'s conversions (which validate `A` — a bad `rowPtr` or
 * column index is an `INVALID_ARGUMENT` ScanError naming the field — sort each row and sum
 * duplicates), then binned top-down into d×d nodes and laid out bottom-up, leaves first and the
 * root last (FORMAT.md, "Build order"). Deterministic: the same matrix and node size give the same
 * pool, word for word, which is what the GPU build is compared with. Explicit zeros are kept in
 * sparse leaves; a dense leaf cannot tell +0 from no entry. With `regionLeaves: true`, sparse
 * subtrees collapse into region leaves by the rule of FORMAT.md ("Region leaves"); with
 * `nodeSize: 'auto'` a census picks the node size (and region leaves) giving the smallest pool.
 * A bad option is an `INVALID_ARGUMENT` ScanError naming it (`options.nodeSize = 48: …`).
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
  return build(canonical, ...buildChoice(options));
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
  return build(canonical, ...buildChoice(options));
}
