import { type BufferRef, type Recipe, StructureVariants } from '@scan/core/kit';
import type { GpuCsrMatrix } from '../types.js';

/**
 * One algorithm bound to one matrix: what a plan delegates its products to. Created with the
 * matrix's analysis done (recorded and submitted once), so `encode` only records the product.
 * alpha and beta go into the parameter blocks written at every encode; only whether y is read
 * (`beta ≠ 0`) chooses other kernels, so any scalars share two structures (see {@link scaleVariants}).
 */
export interface SpmvRunner {
  /** Records `y ← alpha·A·x + beta·y` (k right-hand sides, row-major). */
  encode(encoder: GPUCommandEncoder, x: GPUBuffer, y: GPUBuffer, alpha: number, beta: number): void;
  /** Resolves when the kernels of both variants (beta = 0 and beta ≠ 0) are compiled. */
  readonly ready: Promise<void>;
  readonly scratchBytes: number;
  /** Bytes of every GPU buffer the runner holds (analysis, scratch, parameter rings, inner plans). */
  readonly memoryBytes: number;
  readonly allocations: number;
  destroy(): void;
}

/**
 * The caller-side buffers a runner's recipes bind, by role: the matrix's three arrays and x, y.
 *
 * @example
 * ```ts
 * exec.encode(encoder, build, matrixRoles(m, x, y));
 * ```
 */
export function matrixRoles(m: GpuCsrMatrix, x: GPUBuffer, y: GPUBuffer): Record<string, GPUBuffer> {
  return { rowPtr: m.rowPtr, colIdx: m.colIdx, values: m.values, x, y };
}

/**
 * Refs to the matrix arrays and the vectors with their exact sizes (a zero-sized range binds a
 * placeholder, so an empty matrix needs no special case). The sizes are the plan's matrix and k,
 * fixed for its life: the bindings never depend on an encode's scalars, and x and y may be any
 * buffers that are large enough.
 *
 * @example
 * ```ts
 * const r = matrixRefs(m, k);
 * b.dispatch(kernel, { row_ptr: r.rowPtr, col_idx: r.colIdx, values: r.values, x: r.x, y: r.y }, workgroups, params);
 * ```
 */
export function matrixRefs(m: GpuCsrMatrix, k: number): Record<'rowPtr' | 'colIdx' | 'values' | 'x' | 'y', BufferRef> {
  return {
    rowPtr: { role: 'rowPtr', offset: 0, size: 4 * (m.rows + 1) },
    colIdx: { role: 'colIdx', offset: 0, size: 4 * m.nnz },
    values: { role: 'values', offset: 0, size: 4 * m.nnz },
    x: { role: 'x', offset: 0, size: 4 * m.cols * k },
    y: { role: 'y', offset: 0, size: 4 * m.rows * k },
  };
}

/** Most right-hand sides one dispatch computes (partial sums live in registers). */
export const MAX_COLUMNS_PER_PASS = 8;

/**
 * The column blocks of `k` right-hand sides: `[c0, columns]` pairs of at most
 * {@link MAX_COLUMNS_PER_PASS} columns.
 *
 * @example
 * ```ts
 * columnBlocks(20); // [[0, 8], [8, 8], [16, 4]]
 * ```
 */
export function columnBlocks(k: number): [number, number][] {
  const blocks: [number, number][] = [];
  for (let c0 = 0; c0 < k; c0 += MAX_COLUMNS_PER_PASS) blocks.push([c0, Math.min(MAX_COLUMNS_PER_PASS, k - c0)]);
  return blocks;
}

/** Both scalings a runner compiles ahead (`ready`): beta = 0 (y not read) and beta ≠ 0. */
export const SCALE_VARIANTS: readonly (readonly [alpha: number, beta: number])[] = [
  [1, 0],
  [1, 1],
];

/**
 * The two structures a product step takes: beta = 0 (y not read) and beta ≠ 0, whose kernels
 * differ. Passed to the executor's `encode`, so that the first encode with a pair of x and y makes
 * the bind groups of both, and an encode that first switches beta to or from 0 creates nothing (new
 * scalars are new parameters only).
 *
 * @example
 * ```ts
 * declare function gatherRecipe(alpha: number, beta: number): Recipe; // the product's steps for these scalars
 * declare const exec: RecipeExecutor, roles: Record<string, GPUBuffer>, alpha: number, beta: number; // the runner's
 * const variants = scaleVariants(gatherRecipe);
 * exec.encode(encoder, () => gatherRecipe(alpha, beta), roles, variants);
 * ```
 */
export function scaleVariants(build: (alpha: number, beta: number) => Recipe): StructureVariants {
  return new StructureVariants(() => SCALE_VARIANTS.map(([alpha, beta]) => build(alpha, beta)));
}
