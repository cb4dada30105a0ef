import { ScanError } from '@scan/core';
import { checkBoolean, checkOptions, invalidArgument } from '@scan/core/kit';
import type { GpuCsrMatrix } from '@scan/spmv';
import { DEFAULT_NODE_SIZE, MAX_NODE_SIZE, MIN_NODE_SIZE } from './layout.js';
import type { HiSparseHost } from './matrix.js';
import { HiSparsePool } from './pool.js';

// Argument checks of the HiSparse functions, in core's form `argument = value: why`
// (INVALID_ARGUMENT ScanErrors). Matrices in CSR or COO form are validated by @scan/spmv's
// conversions, which the builder runs anyway; these are the checks that are HiSparse's own.

/**
 * The node size d: `DEFAULT_NODE_SIZE` when undefined, else a power of two from 4 to 256.
 *
 * @example
 * ```ts
 * checkNodeSize(undefined, 'options.nodeSize'); // 64, DEFAULT_NODE_SIZE
 * checkNodeSize(48, 'options.nodeSize'); // throws: options.nodeSize = 48: expected a power of two from 4 to 256
 * ```
 */
export function checkNodeSize(value: unknown, argument: string): number {
  if (value === undefined) return DEFAULT_NODE_SIZE;
  const ok =
    typeof value === 'number' && Number.isInteger(value) && value >= MIN_NODE_SIZE && value <= MAX_NODE_SIZE && (value & (value - 1)) === 0;
  if (!ok) invalidArgument(argument, value, `expected a power of two from ${MIN_NODE_SIZE} to ${MAX_NODE_SIZE}`);
  return value as number;
}

/**
 * The node size of a GPU build's options: as {@link checkNodeSize}, and `regionLeaves: true` or
 * `nodeSize: 'auto'` (which may choose region leaves) refused with an `UNSUPPORTED` ScanError —
 * the GPU build does not make region leaves yet (the CPU reference does; the GPU products read them).
 *
 * @example
 * ```ts
 * checkGpuBuildOptions({ nodeSize: 32 }); // 32
 * checkGpuBuildOptions({ regionLeaves: true }); // throws UNSUPPORTED: the GPU build does not make region leaves yet
 * ```
 */
export function checkGpuBuildOptions(options: unknown): number {
  const o = checkOptions(options, ['nodeSize', 'regionLeaves']);
  const regionLeaves = checkBoolean(o['regionLeaves'], 'options.regionLeaves', false);
  if (regionLeaves || o['nodeSize'] === 'auto') {
    const [argument, value] = regionLeaves ? ['options.regionLeaves', 'true'] : ['options.nodeSize', "'auto'"];
    throw new ScanError(
      'UNSUPPORTED',
      `${argument} = ${value}: the GPU build does not make region leaves yet (hisparseFromCsr from @scan/hisparse/cpu builds them, and HiSparseMatrix.fromHost uploads them for products); the GPU build takes a numeric nodeSize without regionLeaves`,
      { argument },
    );
  }
  return checkNodeSize(o['nodeSize'], 'options.nodeSize');
}

/**
 * Checks that `H` is a HiSparse matrix made by this package (a frozen state object pointing into a
 * {@link HiSparsePool}) and returns it typed.
 *
 * @example
 * ```ts
 * checkHiSparse(hisparseFromCsr(A), 'A'); // the matrix
 * checkHiSparse(A, 'A'); // throws: A = Object: expected a HiSparse matrix (from hisparseFromCsr or hisparseFromCoo)
 * ```
 */
export function checkHiSparse(H: unknown, argument: string): HiSparseHost {
  const ok = H !== null && typeof H === 'object' && (H as { pool?: unknown }).pool instanceof HiSparsePool && Object.isFrozen(H);
  if (!ok) invalidArgument(argument, H, 'expected a HiSparse matrix (from hisparseFromCsr or hisparseFromCoo)');
  return H as HiSparseHost;
}

/**
 * A dense vector: a `Float32Array` of exactly `length` elements; `lengthName` says where the
 * length comes from.
 *
 * @example
 * ```ts
 * checkVector(new Float32Array(2), 3, 'x', 'H.cols'); // throws: x = Float32Array(2): expected 3 elements (H.cols), got 2
 * ```
 */
export function checkVector(x: unknown, length: number, argument: string, lengthName: string): Float32Array {
  if (!(x instanceof Float32Array)) return invalidArgument(argument, x, 'expected a Float32Array');
  if (x.length !== length) invalidArgument(argument, x, `expected ${length} elements (${lengthName}), got ${x.length}`);
  return x;
}

/**
 * A row or column index: an integer from 0 to `limit − 1`.
 *
 * @example
 * ```ts
 * checkIndex(3, 3, 'row', 'H.rows'); // throws: row = 3: expected an integer from 0 to H.rows − 1 = 2
 * ```
 */
export function checkIndex(value: unknown, limit: number, argument: string, limitName: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= limit) {
    invalidArgument(
      argument,
      value,
      limit > 0 ? `expected an integer from 0 to ${limitName} − 1 = ${limit - 1}` : `out of range: ${limitName} = 0`,
    );
  }
  return value as number;
}

/**
 * A finite number (a scale factor or a value to store).
 *
 * @example
 * ```ts
 * checkFinite(Number.NaN, 's'); // throws: s = NaN: expected a finite number
 * ```
 */
export function checkFinite(value: unknown, argument: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) invalidArgument(argument, value, 'expected a finite number');
  return value as number;
}

/**
 * A CSR matrix whose arrays are GPU buffers: `rows`, `cols` and `nnz` integers from 0 to 2^32 − 1,
 * and `rowPtr`, `colIdx`, `values` buffers of at least 4·(rows + 1), 4·nnz and 4·nnz bytes. Only
 * the sizes can be checked from the host; the contents are the caller's to keep valid.
 *
 * @example
 * ```ts
 * checkGpuCsr({ rows: 2, cols: 2, nnz: 3, rowPtr, colIdx, values }, 'A');
 * // throws when colIdx is smaller: A.colIdx has 8 bytes: expected at least 12 (4·A.nnz)
 * ```
 */
export function checkGpuCsr(A: unknown, argument: string): GpuCsrMatrix {
  if (A === null || typeof A !== 'object')
    invalidArgument(argument, A, 'expected a GpuCsrMatrix { rows, cols, nnz, rowPtr, colIdx, values }');
  const m = A as Record<string, unknown>;
  for (const field of ['rows', 'cols', 'nnz']) {
    const v = m[field];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff) {
      invalidArgument(`${argument}.${field}`, v, 'expected an integer from 0 to 2^32 − 1');
    }
  }
  const rows = m['rows'] as number;
  const nnz = m['nnz'] as number;
  const need: [string, number, string][] = [
    ['rowPtr', 4 * (rows + 1), `4·(${argument}.rows + 1)`],
    ['colIdx', 4 * nnz, `4·${argument}.nnz`],
    ['values', 4 * nnz, `4·${argument}.nnz`],
  ];
  for (const [field, bytes, formula] of need) {
    const b = m[field] as { size?: unknown } | null | undefined;
    if (b === null || typeof b !== 'object' || typeof b.size !== 'number') {
      invalidArgument(`${argument}.${field}`, b, 'expected a GPUBuffer');
    }
    const size = (b as { size: number }).size;
    if (size < bytes) {
      throw new ScanError('INVALID_ARGUMENT', `${argument}.${field} has ${size} bytes: expected at least ${bytes} (${formula})`, {
        argument: `${argument}.${field}`,
      });
    }
  }
  return A as GpuCsrMatrix;
}
