import { ScanError } from '../errors.js';
import { bitsOf, orderBitsOf } from '../key-order.js';
import { checkData } from '../validate.js';

/**
 * For each needle, the first index i with `sorted[i] >= needle`, or `sorted.length` if none (CPU
 * reference of `lowerBound`). Keys compare in core's element order (f32: −∞ < … < −0 < +0 < … <
 * +∞ < NaN, every NaN equal: the order of `Float32Array.prototype.sort`); `sorted` must be
 * ascending in it, which is not checked: unsorted keys give unspecified indices. `needles` must be
 * of `sorted`'s class (else `INVALID_ARGUMENT` naming `needles`).
 *
 * @example
 * ```ts
 * lowerBound(new Float32Array([1, 2, 2, 5]), new Float32Array([2, 0, 9])); // Uint32Array [1, 0, 4]
 * ```
 */
export function lowerBound(sorted: Uint32Array | Int32Array | Float32Array, needles: Uint32Array | Int32Array | Float32Array): Uint32Array {
  return bound(sorted, needles, 'lower');
}

/**
 * For each needle, the first index i with `sorted[i] > needle`, or `sorted.length` if none (CPU
 * reference of `upperBound`); otherwise as {@link lowerBound}.
 *
 * @example
 * ```ts
 * upperBound(new Int32Array([1, 2, 2, 5]), new Int32Array([2, 0, 9])); // Uint32Array [3, 0, 4]
 * ```
 */
export function upperBound(sorted: Uint32Array | Int32Array | Float32Array, needles: Uint32Array | Int32Array | Float32Array): Uint32Array {
  return bound(sorted, needles, 'upper');
}

/**
 * The checks of `lowerBound`/`upperBound` (CPU and GPU): both typed arrays of one class. Returns the
 * element type.
 *
 * @example
 * ```ts
 * checkSearchArgs(new Uint32Array(4), new Uint32Array(2)); // 'u32'
 * ```
 */
export function checkSearchArgs(sorted: unknown, needles: unknown): 'u32' | 'i32' | 'f32' {
  const type = checkData(sorted, 'sorted');
  const needleType = checkData(needles, 'needles');
  if (needleType !== type) {
    const name = (sorted as object).constructor.name;
    throw new ScanError(
      'INVALID_ARGUMENT',
      `needles = ${(needles as object).constructor.name}(${(needles as ArrayLike<number>).length}): expected a ${name}, the class of sorted`,
      {
        argument: 'needles',
      },
    );
  }
  return type;
}

function bound(
  sorted: Uint32Array | Int32Array | Float32Array,
  needles: Uint32Array | Int32Array | Float32Array,
  side: 'lower' | 'upper',
): Uint32Array {
  const type = checkSearchArgs(sorted, needles);
  const order = orderBitsOf(type);
  const keys = bitsOf(sorted);
  const wanted = bitsOf(needles);
  const out = new Uint32Array(needles.length);
  for (let i = 0; i < needles.length; i++) {
    const v = order(wanted[i] as number);
    // The first index whose key does not come before the needle (lower: key < v; upper: key <= v).
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = order(keys[mid] as number);
      if (side === 'lower' ? k < v : k <= v) lo = mid + 1;
      else hi = mid;
    }
    out[i] = lo;
  }
  return out;
}
