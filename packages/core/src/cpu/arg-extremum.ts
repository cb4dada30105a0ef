import { invalidArgument } from '../errors.js';
import { bitsOf, orderBitsOf } from '../key-order.js';
import { checkData } from '../validate.js';

/**
 * The least element of `data` and the lowest index where it occurs (CPU reference of `argMin`), in
 * core's element order: u32 and i32 by value; f32 by −∞ < … < −0 < +0 < … < +∞ < NaN with every
 * NaN equal, so a NaN is the result only when every element is NaN, and −0 is less than +0. An
 * empty array has no least element: `INVALID_ARGUMENT` naming `data`.
 *
 * @example
 * ```ts
 * argMin(new Float32Array([3, -1, 7, -1])); // { value: -1, index: 1 }
 * ```
 */
export function argMin(data: Uint32Array | Int32Array | Float32Array): { value: number; index: number } {
  return argExtremum(data, 'min');
}

/**
 * The greatest element of `data` and the lowest index where it occurs (CPU reference of
 * `argMax`), in core's element order (f32: NaN greatest, so the first NaN wins if there is one).
 * An empty array: `INVALID_ARGUMENT` naming `data`.
 *
 * @example
 * ```ts
 * argMax(new Int32Array([3, 7, -1, 7])); // { value: 7, index: 1 }
 * ```
 */
export function argMax(data: Uint32Array | Int32Array | Float32Array): { value: number; index: number } {
  return argExtremum(data, 'max');
}

function argExtremum(data: Uint32Array | Int32Array | Float32Array, which: 'min' | 'max'): { value: number; index: number } {
  const type = checkData(data, 'data');
  if (data.length === 0) invalidArgument('data', data, `an empty array has no ${which === 'min' ? 'least' : 'greatest'} element`);
  const order = orderBitsOf(type);
  const bits = bitsOf(data);
  let best = order(bits[0] as number);
  let index = 0;
  for (let i = 1; i < data.length; i++) {
    const k = order(bits[i] as number);
    if (which === 'min' ? k < best : k > best) {
      best = k;
      index = i;
    }
  }
  return { value: data[index] as number, index };
}
