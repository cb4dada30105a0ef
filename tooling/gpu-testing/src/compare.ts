import { isPoison } from './poison.js';

// Oracle comparison with messages that say where and how a GPU result differs, so a failing
// test of a million elements points at the first bad index instead of printing the arrays.

/** A numeric array as the comparisons take it (typed arrays or plain arrays). */
export type NumericArray = ArrayLike<number>;

const F32_MAX = 3.4028234663852886e38;

function wordOf(array: NumericArray, i: number): number | undefined {
  if (array instanceof Float32Array) return new Uint32Array(array.buffer, array.byteOffset + 4 * i, 1)[0];
  if (array instanceof Uint32Array || array instanceof Int32Array) return array[i]! >>> 0;
  return undefined;
}

function show(array: NumericArray, i: number): string {
  const value = array[i]!;
  const text = Object.is(value, -0) ? '-0' : String(value);
  const word = wordOf(array, i);
  if (word === undefined) return text;
  const hex = `0x${word.toString(16).padStart(8, '0')}`;
  return isPoison(word) ? `${text} (${hex}, the poison sentinel: never written)` : `${text} (${hex})`;
}

function checkLengths(actual: NumericArray, expected: NumericArray, label: string): void {
  if (actual.length !== expected.length) {
    throw new Error(`${label}: length ${actual.length}, expected ${expected.length}`);
  }
}

/** Finds mismatches with `bad(i)` and throws one message naming the first and how many. */
function report(
  actual: NumericArray,
  expected: NumericArray,
  label: string,
  bad: (i: number) => boolean,
  bound?: (i: number) => number,
): void {
  let first = -1;
  let count = 0;
  for (let i = 0; i < expected.length; i++) {
    if (bad(i)) {
      if (first < 0) first = i;
      count++;
    }
  }
  if (first < 0) return;
  const tolerance = bound ? ` (tolerance ${bound(first)})` : '';
  throw new Error(
    `${label}: ${count} of ${expected.length} elements differ; first at index ${first}: ` +
      `actual ${show(actual, first)}, expected ${show(expected, first)}${tolerance}`,
  );
}

const sameValue = (a: number, b: number): boolean => a === b || (Number.isNaN(a) && Number.isNaN(b));

/**
 * Exact comparison: every element equal, where NaN equals NaN and -0 equals +0 (WGSL leaves NaN
 * payloads and the sign of a zero min/max unspecified). On a mismatch throws an Error naming
 * `label`, the first bad index, both values (with their bits, flagging the poison sentinel) and the
 * number of mismatches.
 *
 * @example
 * ```ts
 * expectEqualArrays(await scan(ctx, data), cpu.scan(data), `scan u32 add n=${n}`);
 * ```
 */
export function expectEqualArrays(actual: NumericArray, expected: NumericArray, label: string): void {
  checkLengths(actual, expected, label);
  report(actual, expected, label, (i) => !sameValue(actual[i]!, expected[i]!));
}

/** Tolerances of {@link expectCloseArrays}. */
export interface CloseOptions {
  /** Relative tolerance (default 1e-6). */
  rtol?: number;
  /** Absolute tolerance (default 0). */
  atol?: number;
  /** Names the comparison in the error message. */
  label: string;
}

/**
 * Comparison within `|actual - expected| <= atol + rtol·|expected|`; NaN must meet NaN and an
 * infinity the same infinity.
 *
 * @example
 * ```ts
 * expectCloseArrays(await spmv(ctx, A, x), cpu.spmv(A, x), { rtol: 1e-5, atol: 1e-6, label: 'spmv' });
 * ```
 */
export function expectCloseArrays(actual: NumericArray, expected: NumericArray, options: CloseOptions): void {
  const { rtol = 1e-6, atol = 0, label } = options;
  checkLengths(actual, expected, label);
  const bound = (i: number) => atol + rtol * Math.abs(expected[i]!);
  report(actual, expected, label, (i) => !closeEnough(actual[i]!, expected[i]!, bound(i)), bound);
}

function closeEnough(a: number, b: number, tolerance: number): boolean {
  if (sameValue(a, b)) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= tolerance;
}

/** Options of {@link expectScanClose}. */
export interface ScanCloseOptions {
  /** The scan ran from the end (the error bound then accumulates from the end too). */
  backward?: boolean;
  /**
   * f32 add: tolerance as a fraction of the running sum of |input| (default 1e-6, about 16 units
   * of f32 rounding; a reordered sum measured here stays within ~1 unit). f32 mul: the relative
   * error allowed per factor (default 2^-23, the worst case of two orders each rounding once).
   */
  rtol?: number;
  /** Absolute slack added to every bound (default 0 for add, 2^-126 for mul: flushed subnormals). */
  atol?: number;
}

/**
 * Compares a GPU scan with the CPU reference. Integer results and f32 min/max must match exactly
 * (as {@link expectEqualArrays}); f32 add and mul are computed in a different order on the GPU, so
 * element `i` may differ by `rtol × Σ|input[j]|` over the elements up to `i` (add; the natural bound
 * of a reordered float sum) or by `rtol × k × |expected|` for a product of `k` factors (mul).
 * Non-finite results must match unless the bound itself overflows f32.
 *
 * @example
 * ```ts
 * const expected = cpu.scan(data, { inclusive: true });
 * expectScanClose(await scan(ctx, data, { inclusive: true }), data, expected, 'add', 'scan f32 add');
 * ```
 */
export function expectScanClose(
  actual: NumericArray,
  input: NumericArray,
  expected: NumericArray,
  op: string,
  label: string,
  options: ScanCloseOptions = {},
): void {
  const isFloat = actual instanceof Float32Array || expected instanceof Float32Array;
  if (!isFloat || (op !== 'add' && op !== 'mul')) {
    expectEqualArrays(actual, expected, label);
    return;
  }
  checkLengths(actual, expected, label);
  checkLengths(input, expected, `${label} (input)`);
  const n = expected.length;
  // Running magnitude (add: Σ|x|) or factor count (mul) up to and including each element.
  const scale = new Float64Array(n);
  let running = 0;
  for (let k = 0; k < n; k++) {
    const i = options.backward ? n - 1 - k : k;
    running += op === 'add' ? Math.abs(input[i]!) : 1;
    scale[i] = running;
  }
  const bound =
    op === 'add'
      ? (i: number) => (options.atol ?? 0) + (options.rtol ?? 1e-6) * scale[i]!
      : (i: number) => (options.atol ?? 2 ** -126) + (options.rtol ?? 2 ** -23) * scale[i]! * Math.abs(expected[i]!);
  report(
    actual,
    expected,
    label,
    (i) => {
      const a = actual[i]!;
      const b = expected[i]!;
      if (sameValue(a, b)) return false;
      if (!Number.isFinite(a) || !Number.isFinite(b)) return !(op === 'add' && scale[i]! > F32_MAX);
      return Math.abs(a - b) > bound(i);
    },
    bound,
  );
}
