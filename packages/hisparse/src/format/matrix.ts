import type { HiSparsePool } from './pool.js';

/**
 * A HiSparse matrix on the host: the nodes in a shared {@link HiSparsePool} plus the matrix
 * state, which lives outside the pool so that `transpose` and `scale` are O(1) (Derler et al.
 * §3.1: "we propose to decouple the matrix content and its state"). The logical matrix is
 * `scale · S` or `scale · Sᵀ` (when `transposed`), where S is the `storedRows`×`storedCols` matrix
 * the nodes describe. Objects are frozen; every operation returns a new one.
 *
 * @example
 * ```ts
 * const H = hisparseFromCsr(A, { nodeSize: 16 });
 * H.rows === A.rows; // true
 * transpose(H).rows === A.cols; // true: same pool, same root, flipped state
 * ```
 */
export interface HiSparseHost {
  /** Rows of the logical matrix (storedCols when transposed). */
  readonly rows: number;
  /** Columns of the logical matrix (storedRows when transposed). */
  readonly cols: number;
  /** Shape of the matrix the nodes describe, independent of the state. */
  readonly storedRows: number;
  readonly storedCols: number;
  /** Node size d: a power of two from 4 to 256. */
  readonly nodeSize: number;
  /** Levels L of the hierarchy (root at level 0, leaves at level L − 1). */
  readonly levels: number;
  /** The pool holding the nodes (possibly shared with other matrices). */
  readonly pool: HiSparsePool;
  /** Pointer to the root: word offset | node type; 0 (null) for a matrix without entries. */
  readonly root: number;
  /** State: read the stored matrix transposed. */
  readonly transposed: boolean;
  /** State: factor applied to every stored value when it is read. */
  readonly scale: number;
}

/**
 * Fields that define a matrix; the logical shape is derived.
 *
 * @example
 * ```ts
 * const parts: HiSparseParts = { ...H, root: newRoot };
 * ```
 */
export interface HiSparseParts {
  storedRows: number;
  storedCols: number;
  nodeSize: number;
  levels: number;
  pool: HiSparsePool;
  root: number;
  transposed: boolean;
  scale: number;
}

/**
 * A frozen {@link HiSparseHost} from its parts (the logical shape follows from the stored one and
 * `transposed`).
 *
 * @example
 * ```ts
 * const T = makeHiSparse({ ...H, transposed: !H.transposed });
 * ```
 */
export function makeHiSparse(parts: HiSparseParts): HiSparseHost {
  const { storedRows, storedCols, nodeSize, levels, pool, root, transposed, scale } = parts;
  return Object.freeze({
    rows: transposed ? storedCols : storedRows,
    cols: transposed ? storedRows : storedCols,
    storedRows,
    storedCols,
    nodeSize,
    levels,
    pool,
    root,
    transposed,
    scale,
  });
}
