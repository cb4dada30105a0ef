import { checkFinite, checkHiSparse } from '../format/args.js';
import { type HiSparseHost, makeHiSparse } from '../format/matrix.js';

/**
 * Aᵀ in O(1): a new state object with the transposed flag flipped, sharing the pool and the root
 * (§3.1: "a boolean in the matrix state is flipped, indicating whether a transposition is to be
 * applied when traversing the nodes").
 *
 * @example
 * ```ts
 * const T = transpose(H); // T.rows === H.cols, T.pool === H.pool, T.root === H.root
 * transpose(T).transposed === H.transposed; // true
 * ```
 */
export function transpose(H: HiSparseHost): HiSparseHost {
  const h = checkHiSparse(H, 'H');
  return makeHiSparse({ ...h, transposed: !h.transposed });
}

/**
 * s·A in O(1): a new state object whose scale is `H.scale · s` (§3.1: "a scaling factor, which is
 * applied to every leaf value when it is accessed"), sharing the pool and the root. `s` must be a
 * finite number (0 is allowed; edits of a matrix scaled by 0 are then refused).
 *
 * @example
 * ```ts
 * const B = scale(H, 2); // B.scale === 2 * H.scale
 * scale(H, Number.NaN); // throws: s = NaN: expected a finite number
 * ```
 */
export function scale(H: HiSparseHost, s: number): HiSparseHost {
  const h = checkHiSparse(H, 'H');
  return makeHiSparse({ ...h, scale: h.scale * checkFinite(s, 's') });
}
