import { addCsr } from '../cpu/add.js';
import { transposeCsr } from '../cpu/transpose.js';
import type { CsrMatrix } from '../types.js';
import { checkDimension, checkInteger, checkNnz, generatorOptions } from './args.js';
import { powerLawMatrix } from './power-law.js';

/** Options of {@link rmatGraphMatrix}. */
export interface RmatGraphMatrixOptions {
  /** Vertices, and so rows and columns (a positive integer; Graph500 uses 2^scale). */
  rows: number;
  /** Edges drawn per vertex (default 16, Graph500's edge factor). */
  edgeFactor?: number;
  /** Seed (a u32, default 1). */
  seed?: number;
  /** Quadrant probabilities (default Graph500's a = 0.57, b = c = 0.19, d = 0.05). */
  a?: number;
  b?: number;
  c?: number;
}

/**
 * An undirected R-MAT graph as Graph500's Kronecker generator draws it (without its random
 * relabelling of the vertices, so the recursive block structure stays visible): `rows·edgeFactor`
 * edges of {@link powerLawMatrix} (Graph500's a = 0.57, b = c = 0.19, d = 0.05 by default), each
 * stored in both directions: the matrix is A + Aᵀ of the directed draw, duplicates summed, so it
 * is symmetric in pattern and values with sorted, unique columns. nnz ≤ 2·rows·edgeFactor (fewer
 * after merging); low-numbered vertices are the hubs and many vertices are isolated (empty rows).
 *
 * @throws ScanError `INVALID_ARGUMENT` for a bad size, edge factor, seed or probabilities (as
 *   {@link powerLawMatrix}); `TOO_LARGE` when 2·rows·edgeFactor passes 2^31 − 1.
 *
 * @example
 * ```ts
 * const G = rmatGraphMatrix({ rows: 1 << 16, seed: 2 }); // Graph500 scale 16, symmetric
 * ```
 */
export function rmatGraphMatrix(options: RmatGraphMatrixOptions): CsrMatrix {
  const o = generatorOptions(options, ['rows', 'edgeFactor', 'seed', 'a', 'b', 'c']);
  const rows = checkDimension(o['rows'], 'options.rows', 1, 'rows');
  const edgeFactor = checkInteger(o['edgeFactor'], 'options.edgeFactor', 1, 16);
  checkNnz(2 * rows * edgeFactor, 'options.edgeFactor', '2·rows·edgeFactor');
  const directed = powerLawMatrix({
    rows,
    nnzPerRow: edgeFactor,
    ...(o['seed'] !== undefined ? { seed: o['seed'] as number } : {}),
    ...(o['a'] !== undefined ? { a: o['a'] as number } : {}),
    ...(o['b'] !== undefined ? { b: o['b'] as number } : {}),
    ...(o['c'] !== undefined ? { c: o['c'] as number } : {}),
  });
  // Aᵀ's rows come out sorted (a stable counting sort visits A's rows in order), so A + Aᵀ is a merge.
  return addCsr(directed, transposeCsr(directed));
}
