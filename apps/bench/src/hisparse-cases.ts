import type { CaseModule, SizedShape } from './case-module.js';
import { HISPARSE_ADD_PRIMITIVES, HISPARSE_PRIMITIVES, type HiSparseCombineName, type HiSparsePrimitive } from './case-types.js';
import { DEFAULT_MATRICES, type MatrixSource, parseMatrixList } from './spmv-suite.js';

/**
 * Node sizes the HiSparse cases run side by side: the format's default is chosen from these by
 * measurement (issue 15), so each product runs at each.
 */
export const HISPARSE_NODE_SIZES: readonly number[] = [16, 32, 64];

/**
 * Node sizes at which the products also run the `'segmented'` combine (records sorted by key and
 * reduced by a segmented scan) beside the default `'atomic'` one (compare-and-swap into y), so the
 * two ways of combining without float atomics can be compared.
 *
 * @example
 * ```ts
 * HISPARSE_SEGMENTED_NODE_SIZES.includes(32); // true
 * ```
 */
export const HISPARSE_SEGMENTED_NODE_SIZES: readonly number[] = [32, 64];

/** The combines a product runs at node size d: atomic always, segmented at {@link HISPARSE_SEGMENTED_NODE_SIZES}. */
function combinesAt(primitive: HiSparsePrimitive, d: number): (HiSparseCombineName | undefined)[] {
  return primitive !== 'hisparse-add' && HISPARSE_SEGMENTED_NODE_SIZES.includes(d) ? [undefined, 'segmented'] : [undefined];
}

/**
 * The HiSparse configurations of `primitives`, in report order: by default `hisparse-spmv` (A·x)
 * then `hisparse-spmv-t` (Aᵀ·x); `hisparse-add` (C = A + 2A) for the add module. Each matrix runs at
 * every node size of {@link HISPARSE_NODE_SIZES} and carries the matrix's `n` (its nonzeros), as the
 * SpMV cases do, so they read side by side. A product runs with the default (atomic) combine at
 * every node size and, right after it, with `combine: 'segmented'` at
 * {@link HISPARSE_SEGMENTED_NODE_SIZES}.
 *
 * @example
 * ```ts
 * hisparseShapes([{ name: 'poisson2d-64', n: 20224 }]).length; // 2 · (3 + 2)
 * hisparseShapes([{ name: 'poisson2d-64', n: 20224 }])[0]; // { primitive: 'hisparse-spmv', type: 'f32', nodeSize: 16, matrix: 'poisson2d-64', n: 20224 }
 * hisparseShapes([{ name: 'poisson2d-64', n: 20224 }], ['hisparse-add']).length; // 3
 * ```
 */
export function hisparseShapes(
  matrices: readonly MatrixSource[],
  primitives: readonly HiSparsePrimitive[] = HISPARSE_PRIMITIVES,
): SizedShape[] {
  return primitives.flatMap((primitive) =>
    matrices.flatMap((m) =>
      HISPARSE_NODE_SIZES.flatMap((nodeSize) =>
        combinesAt(primitive, nodeSize).map(
          (combine): SizedShape => ({
            primitive,
            type: 'f32',
            nodeSize,
            ...(combine !== undefined ? { combine } : {}),
            matrix: m.name,
            ...(m.path !== undefined ? { matrixPath: m.path } : {}),
            n: m.n,
          }),
        ),
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
 * HISPARSE_CASES.shapes({ ...selection, matrices: parseMatrixList('biased-1K') }).length; // 10
 * ```
 */
export const HISPARSE_CASES: CaseModule = {
  package: '@scan/hisparse',
  primitives: HISPARSE_PRIMITIVES,
  shapes: (selection) => hisparseShapes(selection.matrices ?? parseMatrixList(DEFAULT_MATRICES.join(','))),
};

/**
 * `hisparse-add` in the case registry, a module of its own because it is opt-in (run only when
 * `--only` names it): each case process compiles the add's many kernels and every run reads counts
 * back between submissions, slow on a software adapter. Same matrices and node sizes as
 * {@link HISPARSE_CASES}.
 *
 * @example
 * ```ts
 * HISPARSE_ADD_CASES.shapes({ ...selection, matrices: parseMatrixList('biased-1K') }).length; // 3
 * ```
 */
export const HISPARSE_ADD_CASES: CaseModule = {
  package: '@scan/hisparse',
  primitives: HISPARSE_ADD_PRIMITIVES,
  optIn: true,
  shapes: (selection) => hisparseShapes(selection.matrices ?? parseMatrixList(DEFAULT_MATRICES.join(',')), HISPARSE_ADD_PRIMITIVES),
};
