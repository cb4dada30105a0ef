import type { ElementType } from '@scan/core';
import { orderBitsOf } from '../key-order.js';
import type { BitRange, SortArray } from '../types.js';

/**
 * The 32 bits of every element of a typed array, as a `Uint32Array` over the same memory (no
 * copy): reading keys this way keeps NaN payloads, which a read through a `Float32Array` would
 * not promise.
 *
 * @example
 * ```ts
 * bitsOf(new Float32Array([1]))[0]; // 0x3f800000
 * ```
 */
export function bitsOf(array: SortArray): Uint32Array {
  return new Uint32Array(array.buffer, array.byteOffset, array.length);
}

/**
 * What the CPU references sort on: for each key, its order bits (see `orderBitsOf`, which already
 * reverses them for `descending`) shifted down by `begin` and cut to `end - begin` bits. Sorting
 * these ascending and stably is sorting the keys on the bit range.
 *
 * @example
 * ```ts
 * orderValues(new Int32Array([-1, 1]), 'i32', false, [0, 32]); // Uint32Array [0x7fffffff, 0x80000001]
 * ```
 */
export function orderValues(keys: SortArray, type: ElementType, descending: boolean, bits: BitRange): Uint32Array {
  const order = orderBitsOf(type, descending);
  const [begin, end] = bits;
  const width = end - begin;
  // 32-bit shifts are mod 32 in JavaScript, so the full-width mask is spelled out.
  const mask = width >= 32 ? 0xffffffff : (1 << width) - 1;
  const src = bitsOf(keys);
  const out = new Uint32Array(src.length);
  for (let i = 0; i < src.length; i++) out[i] = (order(src[i]!) >>> begin) & mask;
  return out;
}

/**
 * A new array of the same type as `array` holding `array[permutation[i]]` at i, bit for bit.
 *
 * @example
 * ```ts
 * gather(new Float32Array([1, 2, 3]), new Uint32Array([2, 0, 1])); // Float32Array [3, 1, 2]
 * ```
 */
export function gather<T extends SortArray>(array: T, permutation: Uint32Array): T {
  const out = new (array.constructor as new (length: number) => T)(permutation.length);
  const src = bitsOf(array);
  const dst = bitsOf(out);
  for (let i = 0; i < permutation.length; i++) dst[i] = src[permutation[i]!]!;
  return out;
}
