import type { CaseModule, SizedShape } from './case-module.js';
import { HISPARSE_PRIMITIVES } from './case-types.js';
import { DEFAULT_MATRICES, type MatrixSource, parseMatrixList } from './spmv-suite.js';

/**
 * Node sizes the HiSparse cases run side by side: the format's default is chosen from these by
 * measurement (issue 15), so each product runs at each.
 */
export const HISPARSE_NODE_SIZES: readonly number[] = [16, 32, 64];

/**
 * The HiSparse configurations, in report order: `hisparse-spmv` (A·x) then `hisparse-spmv-t`
 * (Aᵀ·x), each matrix at every node size of {@link HISPARSE_NODE_SIZES}. Each carries the
 * matrix's `n` (its nonzeros), as the SpMV cases do, so the two read side by side.
 *
 * @example
 * ```ts
 * hisparseShapes([{ name: 'poisson2d-64', n: 20224 }]).length; // 2 · 3
 * hisparseShapes([{ name: 'poisson2d-64', n: 20224 }])[0]; // { primitive: 'hisparse-spmv', type: 'f32', nodeSize: 16, matrix: 'poisson2d-64', n: 20224 }
 * ```
 */
export function hisparseShapes(matrices: readonly MatrixSource[]): SizedShape[] {
  return HISPARSE_PRIMITIVES.flatMap((primitive) =>
    matrices.flatMap((m) =>
      HISPARSE_NODE_SIZES.map(
        (nodeSize): SizedShape => ({
          primitive,
          type: 'f32',
          nodeSize,
          matrix: m.name,
          ...(m.path !== undefined ? { matrixPath: m.path } : {}),
          n: m.n,
        }),
      ),
    ),
  );
}

/**
 * `@scan/hisparse` in the case registry: the selection's matrices (else the SpMV suite), as the
 * SpMV cases take them.
 *
 * @example
 * ```ts
 * HISPARSE_CASES.shapes({ ...selection, matrices: parseMatrixList('biased-1K') }).length; // 6
 * ```
 */
export const HISPARSE_CASES: CaseModule = {
  package: '@scan/hisparse',
  primitives: HISPARSE_PRIMITIVES,
  shapes: (selection) => hisparseShapes(selection.matrices ?? parseMatrixList(DEFAULT_MATRICES.join(','))),
};
