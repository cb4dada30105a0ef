/**
 * `@scan/spmv/cpu`: synchronous CPU references of the `@scan/spmv` functions — `spmv`, `spmm`,
 * `transposeCsr` — with the same names, options and validation, minus the `ctx`, accumulating in
 * f64; the CSR/COO conversions and row-length statistics; and `spmvErrorBound`, the per-output
 * tolerance within which an f32 result of any algorithm must match the reference. Tests use them
 * as oracles; users may use them as fallbacks or to check GPU results.
 *
 * @example
 * ```ts
 * import { cooToCsr, spmv, spmvErrorBound } from '@scan/spmv/cpu';
 * const A = cooToCsr({ rows: 2, cols: 2, rowIdx: new Uint32Array([0, 1]), colIdx: new Uint32Array([1, 0]), values: new Float32Array([2, 3]) });
 * spmv(A, new Float32Array([1, 10])); // Float32Array [20, 3]
 * spmvErrorBound(A, new Float32Array([1, 10])); // Float64Array of two tiny tolerances
 * ```
 * @module
 */

export { ScanError } from '@scan/core';
export { cooToCsr, csrToCoo } from '../convert.js';
export { csrStats } from '../stats.js';
export type { CooMatrix, CsrMatrix, CsrStats, SpmmOptions, SpmvAlgorithm, SpmvOptions } from '../types.js';
export { SPMV_ALGORITHMS } from '../types.js';
export { addCsr } from './add.js';
export { spmvErrorBound } from './error-bound.js';
export { spmm, spmv } from './spmv.js';
export { transposeCsr } from './transpose.js';
