import { createStorageBuffer, type ScanContext, uploadArray } from '@scan/core';
import { withSession } from '@scan/core/kit';
import { type HiSparseHost, makeHiSparse } from '../format/matrix.js';
import { HiSparsePool } from '../format/pool.js';

/**
 * A HiSparse matrix whose pool lives in one GPU storage buffer: the same words as a host pool
 * (FORMAT.md), the same state outside the pool. Words `[0, poolWords)` are written; the buffer may
 * be larger (spare capacity for appended nodes). The buffer has `STORAGE | COPY_SRC | COPY_DST`.
 *
 * @example
 * ```ts
 * const parts = uploadHiSparse(ctx, hisparseFromCsr(A));
 * parts.pool.size >= 4 * parts.poolWords; // true
 * ```
 */
export interface GpuHiSparseParts {
  readonly storedRows: number;
  readonly storedCols: number;
  /** Node size d: a power of two from 4 to 256. */
  readonly nodeSize: number;
  /** Levels L (root at level 0, leaves at level L − 1). */
  readonly levels: number;
  /** Root pointer (word offset | node type); 0 for a matrix without entries. */
  readonly root: number;
  /** The pool: a storage buffer of at least `4 · poolWords` bytes. */
  readonly pool: GPUBuffer;
  /** Words written, header included (a multiple of 4). */
  readonly poolWords: number;
  readonly transposed: boolean;
  readonly scale: number;
}

/**
 * Uploads a host matrix's pool into a new storage buffer (the caller owns it). A matrix holding
 * region leaves (built by `@scan/hisparse/cpu` with `regionLeaves` or `nodeSize: 'auto'`) is
 * uploaded as it is: the GPU products and edits read them; the GPU add refuses such a matrix.
 *
 * @example
 * ```ts
 * const parts = uploadHiSparse(ctx, H);
 * parts.pool.destroy(); // when done
 * ```
 */
export function uploadHiSparse(ctx: ScanContext, H: HiSparseHost): GpuHiSparseParts {
  const words = H.pool.view();
  const pool = words.length > 0 ? uploadArray(ctx, words, 'hisparse pool') : createStorageBuffer(ctx, 16, 'hisparse pool');
  return {
    storedRows: H.storedRows,
    storedCols: H.storedCols,
    nodeSize: H.nodeSize,
    levels: H.levels,
    root: H.root,
    pool,
    poolWords: words.length,
    transposed: H.transposed,
    scale: H.scale,
  };
}

/**
 * Reads a GPU matrix's pool back into a host matrix (a fresh `HiSparsePool` holding the same
 * words), which the CPU reference can then read: `hisparseToCsr`, `hisparseSpmv`, statistics.
 *
 * @example
 * ```ts
 * const H = await downloadHiSparse(ctx, parts);
 * hisparseToCsr(H); // the matrix as CSR
 * ```
 */
export async function downloadHiSparse(ctx: ScanContext, parts: GpuHiSparseParts): Promise<HiSparseHost> {
  const bytes = await withSession(ctx, 'hisparse download', async (s) => {
    const read = s.readback(parts.pool, 4 * parts.poolWords);
    s.submit();
    return read();
  });
  const pool = new HiSparsePool(parts.poolWords);
  pool.words.set(new Uint32Array(bytes));
  pool.used = parts.poolWords;
  return makeHiSparse({ ...parts, pool });
}
