import { ScanError } from '@scan/core';
import { checkBoolean, checkOneOf, checkOptions, invalidArgument } from '@scan/core/kit';
import { type CooMatrix, type CsrMatrix, type CsrStats, SPMV_ALGORITHMS, type SpmvAlgorithm } from './types.js';

// Argument validation shared by the GPU functions of `@scan/spmv` and their CPU references, so both
// reject the same inputs with the same messages (core's form `argument = value: why`). A matrix is
// checked before the vectors, the vectors before the options, so the first fault reported is the
// same on both sides. The checks over nonzeros are single loops over typed arrays with no
// allocation per element: a matrix of 100M nonzeros is validated in a fraction of a second.

/** Largest row or column count: indices are u32 on the GPU. */
export const MAX_DIMENSION = 0xffffffff;

/**
 * Largest number of right-hand sides `k` of `spmm` and of a plan: x and y hold `k` values per
 * row, and the kernels index them with u32 arithmetic, so k is kept far below where `rows·k`
 * could wrap for any matrix that fits in memory.
 */
export const MAX_K = 65536;

/** Segment-vector lengths `'branchless'` takes (powers of two; see `SpmvPlanOptions.segmentLength`). */
const MIN_SEGMENT_LENGTH = 32;
const MAX_SEGMENT_LENGTH = 256;

function fail(argument: string, message: string): never {
  throw new ScanError('INVALID_ARGUMENT', message, { argument });
}

function checkObject(value: unknown, argument: string, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || ArrayBuffer.isView(value)) {
    return invalidArgument(argument, value, `expected ${what}`);
  }
  return value as Record<string, unknown>;
}

function checkDimension(value: unknown, argument: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_DIMENSION) return value;
  return invalidArgument(argument, value, 'expected an integer from 0 to 2^32 − 1');
}

function checkU32Array(value: unknown, argument: string): Uint32Array {
  if (value instanceof Uint32Array) return value;
  return invalidArgument(argument, value, 'expected a Uint32Array');
}

function checkF32Array(value: unknown, argument: string): Float32Array {
  if (value instanceof Float32Array) return value;
  return invalidArgument(argument, value, 'expected a Float32Array');
}

/** Every index of `indices` below `limit`, else an error naming the first offender. */
function checkIndices(indices: Uint32Array, limit: number, argument: string, limitName: string): void {
  const n = indices.length;
  for (let k = 0; k < n; k++) {
    // One comparison per element on the hot path; the message is built only on failure.
    if (indices[k]! >= limit) fail(`${argument}[${k}]`, `${argument}[${k}] = ${indices[k]}: not below ${limitName} = ${limit}`);
  }
}

/**
 * Checks a CSR matrix and returns it (typed): an object with integer `rows` and `cols` (0 to
 * 2^32 − 1); `rowPtr` a `Uint32Array` of `rows + 1` entries, `colIdx` a `Uint32Array` and `values`
 * a `Float32Array` of the same length nnz; `rowPtr` starting at 0, never decreasing and ending at
 * nnz; every column index below `cols`. Columns within a row need not be sorted, duplicates are
 * allowed, extra fields are ignored. Anything else is an `INVALID_ARGUMENT` {@link ScanError} whose
 * message names the field (and the first bad index) with its value. One pass over `rowPtr` and one
 * over `colIdx`, allocating nothing.
 *
 * @example
 * ```ts
 * const A = { rows: 2, cols: 3, rowPtr: new Uint32Array([0, 2, 3]), colIdx: new Uint32Array([0, 2, 1]), values: new Float32Array([1, 2, 3]) };
 * checkCsr(A); // A
 * checkCsr({ ...A, rowPtr: new Uint32Array([0, 3, 2]) }); // throws: A.rowPtr[2] = 2: below A.rowPtr[1] = 3 (rowPtr must not decrease)
 * checkCsr({ ...A, colIdx: new Uint32Array([0, 3, 1]) }); // throws: A.colIdx[1] = 3: not below A.cols = 3
 * ```
 */
export function checkCsr(A: unknown, argument = 'A'): CsrMatrix {
  const m = checkObject(A, argument, 'a CSR matrix { rows, cols, rowPtr, colIdx, values }');
  const rows = checkDimension(m['rows'], `${argument}.rows`);
  const cols = checkDimension(m['cols'], `${argument}.cols`);
  const rowPtr = checkU32Array(m['rowPtr'], `${argument}.rowPtr`);
  const colIdx = checkU32Array(m['colIdx'], `${argument}.colIdx`);
  const values = checkF32Array(m['values'], `${argument}.values`);
  if (rowPtr.length !== rows + 1) {
    invalidArgument(`${argument}.rowPtr`, rowPtr, `expected rows + 1 = ${rows + 1} entries, got ${rowPtr.length}`);
  }
  const nnz = colIdx.length;
  if (values.length !== nnz) {
    invalidArgument(`${argument}.values`, values, `length ${values.length} does not match ${argument}.colIdx.length = ${nnz}`);
  }
  if (rowPtr[0] !== 0) fail(`${argument}.rowPtr[0]`, `${argument}.rowPtr[0] = ${rowPtr[0]}: rowPtr must start at 0`);
  let previous = 0;
  for (let r = 1; r <= rows; r++) {
    const p = rowPtr[r]!;
    if (p < previous) {
      fail(
        `${argument}.rowPtr[${r}]`,
        `${argument}.rowPtr[${r}] = ${p}: below ${argument}.rowPtr[${r - 1}] = ${previous} (rowPtr must not decrease)`,
      );
    }
    previous = p;
  }
  if (previous !== nnz) {
    fail(
      `${argument}.rowPtr[${rows}]`,
      `${argument}.rowPtr[${rows}] = ${previous}: rowPtr must end at nnz = ${nnz} (the length of ${argument}.colIdx and ${argument}.values)`,
    );
  }
  checkIndices(colIdx, cols, `${argument}.colIdx`, `${argument}.cols`);
  return A as CsrMatrix;
}

/**
 * Checks a COO matrix and returns it (typed): integer `rows` and `cols` (0 to 2^32 − 1); `rowIdx`
 * and `colIdx` `Uint32Array`s and `values` a `Float32Array`, all of one length nnz (at most
 * 2^32 − 1, so that it fits a CSR `rowPtr`); every row index below `rows`, every column index below
 * `cols`. Order and duplicates are free. Errors name the field and the first bad index.
 *
 * @example
 * ```ts
 * const coo = { rows: 2, cols: 2, rowIdx: new Uint32Array([1, 0]), colIdx: new Uint32Array([0, 1]), values: new Float32Array([5, 6]) };
 * checkCoo(coo); // coo
 * checkCoo({ ...coo, rowIdx: new Uint32Array([2, 0]) }); // throws: coo.rowIdx[0] = 2: not below coo.rows = 2
 * ```
 */
export function checkCoo(coo: unknown, argument = 'coo'): CooMatrix {
  const m = checkObject(coo, argument, 'a COO matrix { rows, cols, rowIdx, colIdx, values }');
  const rows = checkDimension(m['rows'], `${argument}.rows`);
  const cols = checkDimension(m['cols'], `${argument}.cols`);
  const rowIdx = checkU32Array(m['rowIdx'], `${argument}.rowIdx`);
  const colIdx = checkU32Array(m['colIdx'], `${argument}.colIdx`);
  const values = checkF32Array(m['values'], `${argument}.values`);
  const nnz = values.length;
  if (rowIdx.length !== nnz) {
    invalidArgument(`${argument}.rowIdx`, rowIdx, `length ${rowIdx.length} does not match ${argument}.values.length = ${nnz}`);
  }
  if (colIdx.length !== nnz) {
    invalidArgument(`${argument}.colIdx`, colIdx, `length ${colIdx.length} does not match ${argument}.values.length = ${nnz}`);
  }
  if (nnz > MAX_DIMENSION) invalidArgument(`${argument}.values`, values, 'more than 2^32 − 1 nonzeros do not fit a u32 rowPtr');
  checkIndices(rowIdx, rows, `${argument}.rowIdx`, `${argument}.rows`);
  checkIndices(colIdx, cols, `${argument}.colIdx`, `${argument}.cols`);
  return coo as CooMatrix;
}

/**
 * Checks a dense vector: a `Float32Array` of exactly `length` elements (a view into a larger buffer
 * is fine). `lengthName` says where the length comes from (`'A.cols'`), for the message.
 *
 * @example
 * ```ts
 * checkVector(new Float32Array(3), 3, 'x'); // the array
 * checkVector(new Float32Array(2), 3, 'x', 'A.cols'); // throws: x = Float32Array(2): expected 3 elements (A.cols), got 2
 * checkVector([1, 2, 3], 3, 'x'); // throws: x = Array(3): expected a Float32Array
 * ```
 */
export function checkVector(x: unknown, length: number, argument: string, lengthName?: string): Float32Array {
  if (!(x instanceof Float32Array)) return invalidArgument(argument, x, 'expected a Float32Array');
  if (x.length !== length) {
    invalidArgument(argument, x, `expected ${length} elements${lengthName ? ` (${lengthName})` : ''}, got ${x.length}`);
  }
  return x;
}

/**
 * A scale factor: `fallback` when undefined, else a number that is not NaN (±Infinity allowed).
 * The array level and the plan's `encode` share it, so both take the same alpha and beta.
 *
 * @example
 * ```ts
 * checkScale(undefined, 'args.beta', 0); // 0
 * checkScale(Number.NaN, 'args.alpha', 1); // throws: args.alpha = NaN: expected a number (not NaN)
 * ```
 */
export function checkScale(value: unknown, argument: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && !Number.isNaN(value)) return value;
  return invalidArgument(argument, value, 'expected a number (not NaN)');
}

/** Options of `spmv` after validation, every default filled in. */
export interface NormalizedSpmvOptions {
  readonly alpha: number;
  readonly beta: number;
  readonly transpose: boolean;
  readonly algorithm: SpmvAlgorithm;
  /** The `y` given (checked for length), or undefined. Only to be read when `beta ≠ 0`. */
  readonly y?: Float32Array;
}

/** The keys `spmv` accepts (CPU and GPU alike). */
export const SPMV_OPTION_KEYS: readonly string[] = ['y', 'alpha', 'beta', 'transpose', 'algorithm'];

/**
 * Validates `x` and the options of `spmv` for a matrix `A` that has already passed {@link checkCsr}:
 * unknown keys are rejected; `transpose` a boolean (default false); `x` a `Float32Array` of
 * `A.cols` elements (`A.rows` transposed); `y`, when given, one of `A.rows` (`A.cols` transposed);
 * `alpha` (default 1) and `beta` (default 0) numbers that are not NaN; `beta ≠ 0` needs `y`;
 * `algorithm` one of {@link SPMV_ALGORITHMS} (default `'auto'`; the CPU reference ignores it).
 *
 * @example
 * ```ts
 * normalizeSpmvOptions(A, x, { alpha: 2 }); // { alpha: 2, beta: 0, transpose: false, algorithm: 'auto', y: undefined }
 * normalizeSpmvOptions(A, x, { beta: 1 }); // throws: options.beta = 1: needs options.y (beta·y is added to the product)
 * normalizeSpmvOptions(A, x, { alpha: NaN }); // throws: options.alpha = NaN: expected a number (not NaN)
 * ```
 */
export function normalizeSpmvOptions(A: CsrMatrix, x: unknown, options: unknown): NormalizedSpmvOptions {
  const o = checkOptions(options, SPMV_OPTION_KEYS);
  // transpose first: it decides the lengths that x and y are checked against.
  const transpose = checkBoolean(o['transpose'], 'options.transpose', false);
  const [inLength, inName, outLength, outName] = transpose ? [A.rows, 'A.rows', A.cols, 'A.cols'] : [A.cols, 'A.cols', A.rows, 'A.rows'];
  checkVector(x, inLength, 'x', transpose ? `${inName}, transposed` : inName);
  const y = o['y'] === undefined ? undefined : checkVector(o['y'], outLength, 'options.y', transpose ? `${outName}, transposed` : outName);
  const alpha = checkScale(o['alpha'], 'options.alpha', 1);
  const beta = checkScale(o['beta'], 'options.beta', 0);
  if (beta !== 0 && y === undefined) invalidArgument('options.beta', beta, 'needs options.y (beta·y is added to the product)');
  const algorithm = checkOneOf<SpmvAlgorithm>(o['algorithm'], SPMV_ALGORITHMS, 'options.algorithm', 'auto');
  return { alpha, beta, transpose, algorithm, y };
}

/** Options of `spmm` after validation. */
export interface NormalizedSpmmOptions {
  readonly k: number;
  readonly transpose: boolean;
}

/** `k`: an integer from 1 to {@link MAX_K}; `fallback` when undefined (none: required). */
function checkK(value: unknown, argument: string, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_K) return value;
  return invalidArgument(argument, value, `expected an integer from 1 to ${MAX_K} (the number of columns of X)`);
}

/**
 * Validates `X` and the options of `spmm` for a checked matrix `A`: `options` is required,
 * `{ k, transpose? }` and nothing else; `k` an integer from 1 to {@link MAX_K}; `X` a
 * `Float32Array` of `A.cols·k` elements (`A.rows·k` transposed), row-major.
 *
 * @example
 * ```ts
 * normalizeSpmmOptions(A, new Float32Array(A.cols * 4), { k: 4 }); // { k: 4, transpose: false }
 * normalizeSpmmOptions(A, X, { k: 0 }); // throws: options.k = 0: expected an integer from 1 to 65536 …
 * normalizeSpmmOptions(A, X, undefined); // throws: options.k = undefined: …
 * ```
 */
export function normalizeSpmmOptions(A: CsrMatrix, X: unknown, options: unknown): NormalizedSpmmOptions {
  const o = checkOptions(options, ['k', 'transpose']);
  const transpose = checkBoolean(o['transpose'], 'options.transpose', false);
  const k = checkK(o['k'], 'options.k');
  const [inLength, inName] = transpose ? [A.rows, 'A.rows'] : [A.cols, 'A.cols'];
  checkVector(X, inLength * k, 'X', `${inName} · k = ${inLength} · ${k}${transpose ? ', transposed' : ''}`);
  return { k, transpose };
}

/** Options of `createSpmvPlan` after validation (the public ones). */
export interface NormalizedPlanOptions {
  readonly algorithm: SpmvAlgorithm;
  readonly transpose: boolean;
  readonly k: number;
  /** As given, or undefined for the kernel's default. */
  readonly segmentLength: number | undefined;
  readonly stats: CsrStats | undefined;
}

/** The keys `createSpmvPlan` accepts. */
export const PLAN_OPTION_KEYS: readonly string[] = ['algorithm', 'transpose', 'k', 'segmentLength', 'stats'];

const STATS_FIELDS = ['rows', 'cols', 'nnz', 'meanRowLength', 'maxRowLength', 'rowLengthStdDev', 'emptyRows'] as const;

/**
 * Validates the options of `createSpmvPlan` (`SpmvPlanOptions`): `algorithm` one of
 * {@link SPMV_ALGORITHMS} (default `'auto'`), `transpose` a boolean (default false), `k` an
 * integer from 1 to {@link MAX_K} (default 1), `segmentLength` a power of two from 32 to 256,
 * `stats` an object with the numeric fields of `CsrStats`. Unknown keys are rejected; `extraKeys`
 * lets the plan accept internal tuning keys, which are left for it to check.
 *
 * @example
 * ```ts
 * checkPlanOptions({ k: 4 }); // { algorithm: 'auto', transpose: false, k: 4, segmentLength: undefined, stats: undefined }
 * checkPlanOptions({ segmentLength: 48 }); // throws: options.segmentLength = 48: expected a power of two from 32 to 256
 * checkPlanOptions({ lanes: 8 }, ['lanes']); // ok: lanes is the caller's to check
 * ```
 */
export function checkPlanOptions(options: unknown, extraKeys: readonly string[] = []): NormalizedPlanOptions {
  const o = checkOptions(options, extraKeys.length > 0 ? [...PLAN_OPTION_KEYS, ...extraKeys] : PLAN_OPTION_KEYS);
  const algorithm = checkOneOf<SpmvAlgorithm>(o['algorithm'], SPMV_ALGORITHMS, 'options.algorithm', 'auto');
  const transpose = checkBoolean(o['transpose'], 'options.transpose', false);
  const k = checkK(o['k'], 'options.k', 1);
  let segmentLength: number | undefined;
  const s = o['segmentLength'];
  if (s !== undefined) {
    const ok = typeof s === 'number' && Number.isInteger(s) && s >= MIN_SEGMENT_LENGTH && s <= MAX_SEGMENT_LENGTH && (s & (s - 1)) === 0;
    if (!ok) invalidArgument('options.segmentLength', s, `expected a power of two from ${MIN_SEGMENT_LENGTH} to ${MAX_SEGMENT_LENGTH}`);
    segmentLength = s as number;
  }
  let stats: CsrStats | undefined;
  if (o['stats'] !== undefined) {
    const st = checkObject(o['stats'], 'options.stats', 'a CsrStats object (from gpuCsrStats or csrStats)');
    for (const field of STATS_FIELDS) {
      if (typeof st[field] !== 'number') invalidArgument(`options.stats.${field}`, st[field], 'expected a number');
    }
    stats = st as unknown as CsrStats;
  }
  return { algorithm, transpose, k, segmentLength, stats };
}
