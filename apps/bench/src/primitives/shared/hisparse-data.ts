import type { HiSparseMatrix } from '@scan/hisparse';
import type { GpuCsrMatrix } from '@scan/spmv';
import type { MatrixFields } from '../../child/spmv-matrix.js';
import type { SpmvMatrixInfo } from '../../report.js';

// What the HiSparse modules (hisparse-spmv and -t, hisparse-add) share: the node sizes they run
// at, their case fields, and the report's matrix record.

/**
 * Node sizes the HiSparse cases run side by side: the format's default is chosen from these by
 * measurement (issue 15), so each product runs at each.
 */
export const HISPARSE_NODE_SIZES: readonly number[] = [16, 32, 64];

/**
 * Parses `--node-sizes`: the HiSparse node sizes d to run (each a power of two from 4 to 256, the
 * format's range), sorted and without repeats, so that a device call can time one d on many
 * matrices instead of every d.
 *
 * @example
 * ```ts
 * parseNodeSizes('64,16'); // [16, 64]
 * parseNodeSizes('2^5'); // [32]
 * ```
 */
export function parseNodeSizes(text: string): number[] {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new Error(`--node-sizes "${text}": expected a comma-separated list of node sizes`);
  const sizes = parts.map((part) => {
    const power = /^2\^(\d{1,2})$/.exec(part);
    const value = power ? 2 ** Number(power[1]) : /^\d+$/.test(part) ? Number(part) : Number.NaN;
    if (!(value >= 4 && value <= 256 && (value & (value - 1)) === 0)) {
      throw new Error(`--node-sizes "${part}": expected a power of two from 4 to 256 (or 2^k)`);
    }
    return value;
  });
  return [...new Set(sizes)].sort((a, b) => a - b);
}

/** The fields of every HiSparse case: the node size d and the matrix (as the SpMV cases name it). */
export type HiSparseFields = { readonly nodeSize: number } & MatrixFields;

/**
 * The report's matrix fields of a HiSparse case: the CSR it came from and the HiSparse bytes (its census).
 *
 * @example
 * ```ts
 * const info = hisparseMatrixInfo(c, A, matrix, `hisparse d ${matrix.nodeSize}`);
 * ```
 */
export function hisparseMatrixInfo(
  c: MatrixFields,
  A: Pick<GpuCsrMatrix, 'rows' | 'cols' | 'nnz'>,
  m: HiSparseMatrix,
  algorithm: string,
): SpmvMatrixInfo {
  const stats = m.stats();
  return {
    name: c.matrix,
    rows: A.rows,
    cols: A.cols,
    nnz: A.nnz,
    k: 1,
    algorithm,
    maxRowLength: Number.NaN,
    meanRowLength: A.rows > 0 ? A.nnz / A.rows : 0,
    memoryBytes: stats.memoryBytes,
    csrBytes: stats.csrBytes,
    levels: stats.levels,
  };
}
