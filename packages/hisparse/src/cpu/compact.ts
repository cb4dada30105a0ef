import { checkHiSparse } from '../format/args.js';
import { type HiSparseHost, makeHiSparse } from '../format/matrix.js';
import { copySubtree } from './copy.js';
import { fillPool } from './tree.js';

/**
 * The matrix alone in a fresh pool, laid out canonically (the words `hisparseFromCsr` gives the
 * stored matrix): drops the nodes of other matrices and the old paths that copy-on-write edits
 * left in a shared pool. The state (transposed flag, scale) is kept as it is.
 *
 * @example
 * ```ts
 * const B = hisparseCompact(hisparseInsert(H, 0, 0, 1)); // B.pool holds only B's nodes
 * 4 * B.pool.used === hisparseMemoryBytes(B); // true
 * ```
 */
export function hisparseCompact(H: HiSparseHost): HiSparseHost {
  const h = checkHiSparse(H, 'H');
  const skeleton = h.root === 0 ? null : copySubtree({ h, swap: false, s: 1 }, h.root, 0);
  const { pool, root } = fillPool(skeleton, h.nodeSize);
  return makeHiSparse({ ...h, pool, root });
}
