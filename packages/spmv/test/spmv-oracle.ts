import { createRng, isPoison } from '@scan/gpu-testing';
import type { CsrMatrix } from '../src/types.js';

// Helpers for the SpMV tests: a tolerance comparison against the f64 CPU reference with the
// per-output bounds of `spmvErrorBound`, and seeded vectors.

/** How many bad indices a failure lists. */
const SHOWN = 5;

function wordOf(a: Float32Array, i: number): number {
  return new Uint32Array(a.buffer, a.byteOffset + 4 * i, 1)[0]!;
}

function show(a: Float32Array, i: number): string {
  const v = a[i]!;
  const text = Object.is(v, -0) ? '-0' : String(v);
  const word = wordOf(a, i);
  const hex = `0x${word.toString(16).padStart(8, '0')}`;
  return isPoison(word) ? `${text} (${hex}, the poison sentinel: never written)` : text;
}

/**
 * Whether `actual` is acceptable for `expected` within `bound`: NaN matches NaN only; a
 * non-finite expected value (±Infinity) must be matched exactly; a finite one within the bound.
 * The poison sentinel never matches (unless it is the expected value bit for bit): an output the
 * kernel never wrote must fail even where the bound is infinite.
 */
function matches(actual: Float32Array, expected: Float32Array, bound: Float64Array, i: number): boolean {
  const a = actual[i]!;
  const e = expected[i]!;
  if (Number.isNaN(e)) return Number.isNaN(a);
  if (isPoison(wordOf(actual, i)) && wordOf(actual, i) !== wordOf(expected, i)) return false;
  if (a === e) return true;
  if (!Number.isFinite(e)) return false;
  return Math.abs(a - e) <= bound[i]!; // false for a NaN actual
}

/**
 * Throws an Error naming `what` unless every `actual[i]` is within `bound[i]` of `expected[i]`
 * (see `spmvErrorBound`); the message gives the number of bad outputs and, for the first few,
 * the index, actual value (flagging the poison sentinel), expected value and bound.
 *
 * @example
 * ```ts
 * expectCloseToReference(await spmv(ctx, A, x), cpu.spmv(A, x), cpu.spmvErrorBound(A, x), `spmv ${algorithm} n=${n}`);
 * ```
 */
export function expectCloseToReference(actual: Float32Array, expected: Float32Array, bound: Float64Array, what: string): void {
  if (!(actual instanceof Float32Array)) throw new Error(`${what}: actual is ${String(actual)}, expected a Float32Array`);
  if (actual.length !== expected.length) throw new Error(`${what}: length ${actual.length}, expected ${expected.length}`);
  if (bound.length !== expected.length) throw new Error(`${what}: ${bound.length} bounds for ${expected.length} outputs`);
  const bad: number[] = [];
  let count = 0;
  for (let i = 0; i < expected.length; i++) {
    if (!matches(actual, expected, bound, i)) {
      if (bad.length < SHOWN) bad.push(i);
      count++;
    }
  }
  if (count === 0) return;
  const lines = bad.map((i) => `  [${i}] actual ${show(actual, i)}, expected ${show(expected, i)}, bound ${bound[i]}`);
  throw new Error(
    `${what}: ${count} of ${expected.length} outputs outside the error bound${count > SHOWN ? ` (first ${SHOWN})` : ''}:\n${lines.join('\n')}`,
  );
}

/**
 * `n` values uniform in [-1, 1), reproducible from `seed`: multiples of 2^-23, so exact in f32
 * (a 32-bit fraction scaled to [-1, 1) could round up to 1).
 *
 * @example
 * ```ts
 * const x = randomVector(A.cols, 11);
 * ```
 */
export function randomVector(n: number, seed: number): Float32Array<ArrayBuffer> {
  const rng = createRng(seed);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (rng.u32() >>> 8) / 2 ** 23 - 1;
  return out;
}

/** Shape of the matrices {@link randomTestCsr} makes. */
export interface RandomCsrOptions {
  /** Row lengths are uniform in [0, maxRowLength] (default 8). */
  maxRowLength?: number;
  /** Fraction of rows forced empty (default 0.2). */
  emptyRows?: number;
  /** Columns within a row in increasing order, no duplicates (default false: any order, duplicates likely). */
  sorted?: boolean;
  /**
   * Values on a coarse dyadic grid, multiples of 1/8 in [-4, 4) (see {@link dyadicVector}): with
   * such vectors every product and sum of a small matrix is exact in f64 and in f32, so results
   * can be compared bit for bit whatever the summation order (default false: [-1, 1)).
   */
  dyadic?: boolean;
}

/**
 * A seeded CSR matrix for tests, built directly (not through `cooToCsr`, so the conversions can be
 * tested against it): random row lengths with some empty rows, columns in any order with
 * duplicates unless `sorted`. With `cols = 0` every row is empty.
 *
 * @example
 * ```ts
 * const A = randomTestCsr(13, 7, 1, { dyadic: true });
 * ```
 */
export function randomTestCsr(rows: number, cols: number, seed: number, options: RandomCsrOptions = {}): CsrMatrix {
  const { maxRowLength = 8, emptyRows = 0.2, sorted = false, dyadic = false } = options;
  const rng = createRng(seed);
  const rowPtr = new Uint32Array(rows + 1);
  const colIdx: number[] = [];
  const values: number[] = [];
  for (let r = 0; r < rows; r++) {
    let length = cols === 0 || rng.float() < emptyRows ? 0 : rng.int(0, maxRowLength);
    if (sorted) {
      length = Math.min(length, cols);
      const chosen = new Set<number>();
      while (chosen.size < length) chosen.add(rng.int(0, cols - 1));
      for (const c of [...chosen].sort((a, b) => a - b)) colIdx.push(c);
    } else {
      for (let j = 0; j < length; j++) colIdx.push(rng.int(0, cols - 1));
    }
    for (let j = 0; j < length; j++) values.push(dyadic ? rng.int(-32, 31) / 8 : (rng.u32() >>> 8) / 2 ** 23 - 1);
    rowPtr[r + 1] = colIdx.length;
  }
  return { rows, cols, rowPtr, colIdx: Uint32Array.from(colIdx), values: Float32Array.from(values) };
}

/**
 * The dense form of a CSR matrix, row-major, in f64, duplicates added up.
 *
 * @example
 * ```ts
 * const D = denseOf(A); // D[r * A.cols + c]
 * ```
 */
export function denseOf(A: CsrMatrix): Float64Array {
  const D = new Float64Array(A.rows * A.cols);
  for (let r = 0; r < A.rows; r++) {
    for (let k = A.rowPtr[r]!; k < A.rowPtr[r + 1]!; k++) D[r * A.cols + A.colIdx[k]!]! += A.values[k]!;
  }
  return D;
}

/**
 * `n` values on the grid of multiples of 1/8 in [-4, 4), seeded: with a `dyadic` {@link randomTestCsr}
 * matrix every product is a multiple of 1/64 below 16 in magnitude, so sums of up to 2^14 of them are
 * exact in f32 in any order.
 *
 * @example
 * ```ts
 * const x = dyadicVector(A.cols, 3);
 * ```
 */
export function dyadicVector(n: number, seed: number): Float32Array<ArrayBuffer> {
  const rng = createRng(seed);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.int(-32, 31) / 8;
  return out;
}
