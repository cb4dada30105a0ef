import type { BufferRef } from '@scan/core/kit';
import type { GpuCsrMatrix } from '../types.js';

/**
 * One algorithm bound to one matrix: what a plan delegates its products to. Created with the
 * matrix's analysis done (recorded and submitted once), so `encode` only records the product.
 */
export interface SpmvRunner {
  /** Records `y ← alpha·A·x + beta·y` (k right-hand sides, row-major). */
  encode(encoder: GPUCommandEncoder, x: GPUBuffer, y: GPUBuffer, alpha: number, beta: number): void;
  readonly scratchBytes: number;
  readonly allocations: number;
  destroy(): void;
}

/**
 * The caller-side buffers a runner's recipes bind, by role: the matrix's three arrays and x, y.
 *
 * @example
 * ```ts
 * exec.encode(encoder, key, build, matrixRoles(m, x, y));
 * ```
 */
export function matrixRoles(m: GpuCsrMatrix, x: GPUBuffer, y: GPUBuffer): Record<string, GPUBuffer> {
  return { rowPtr: m.rowPtr, colIdx: m.colIdx, values: m.values, x, y };
}

/**
 * Refs to the matrix arrays and the vectors with their exact sizes (a zero-sized range binds a
 * placeholder, so an empty matrix needs no special case).
 *
 * @example
 * ```ts
 * const r = matrixRefs(m, k);
 * b.dispatch(kernel, [params, r.rowPtr, r.colIdx, r.values, r.x, r.y], workgroups);
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

/** The recipe cache key of one product's scaling (alpha, beta as exact numbers). */
export const scaleKey = (alpha: number, beta: number): string => `${alpha}|${beta}`;
