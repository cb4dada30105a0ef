import { checkBoolean, checkOptions, invalidArgument } from '@scan/core/kit';
import { type CooMatrix, type CsrMatrix, cooToCsr, csrToCoo } from '@scan/spmv/cpu';
import { checkNodeSize } from '../format/args.js';
import { levelsFor } from '../format/layout.js';
import { type HiSparseHost, makeHiSparse } from '../format/matrix.js';
import { AUTO_NODE_SIZES, censusOf, skeletonOf } from './census.js';
import { collapseRegions } from './region.js';
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
  /**
   * Node size d: a power of two from 4 to 256 (default `DEFAULT_NODE_SIZE`, 64), or `'auto'`: the
   * builder takes a census of the matrix (`hisparseCensus`) — its exact pool size for d = 64, 32
   * and 16, each without and with region leaves — and keeps the smallest pool (ties go to the earlier of 64, 32, 16
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

/** A build's choice: node size and whether subtrees may collapse into region leaves. */
interface BuildChoice {
  readonly d: number;
  readonly regions: boolean;
}

/** Builds from a canonical CSR (sorted, no duplicates); the public functions validate first. */
function build(A: CsrMatrix, choice: BuildChoice | 'auto', regionLeaves: boolean | undefined): HiSparseHost {
  let d: number;
  let skeleton: SkeletonNode | null;
  if (choice === 'auto') {
    // The census: each candidate's exact pool size; only the winner is laid out.
    const modes = [false, true].filter((r) => regionLeaves === undefined || r === regionLeaves);
    ({ d, skeleton } = censusOf(A, AUTO_NODE_SIZES, modes).best);
  } else {
    d = choice.d;
    skeleton = skeletonOf(A, d, levelsFor(A.rows, A.cols, d));
    if (choice.regions && skeleton) skeleton = collapseRegions(skeleton, 0, d, levelsFor(A.rows, A.cols, d)).node;
  }
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
