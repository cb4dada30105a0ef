import { halfOrderBitsOf, isHalfKey, keyWordsOf } from '../key-order.js';
import type { BitRange, SortArray, SortKeyArray, SortKeyType, SortValueArray } from '../types.js';
import { orderValues } from './order-values.js';
import { radixPermutation } from './radix-permutation.js';

/** Bits `[0, w)` set, for 0 ≤ w ≤ 32 (JavaScript's shifts are mod 32). */
const maskOf = (w: number) => (w >= 32 ? 0xffffffff : (1 << w) - 1) >>> 0;

/**
 * The stable permutation that sorts `keys` of any key type on order bits `bits` (reversed with
 * `descending`): `result[i]` is the input index of the i-th key. 32-bit keys go through
 * {@link orderValues}; 64-bit keys are read as two words (low first), their order bits (the high
 * word's sign bit flipped for i64, every bit for descending) shifted down by `begin` and cut to
 * `end − begin` bits, then sorted by the low 32 of those bits and stably again by the rest.
 *
 * @example
 * ```ts
 * keyPermutation(new BigInt64Array([5n, -7n, 0n]), 'i64', false, [0, 64]); // Uint32Array [1, 2, 0]
 * ```
 */
export function keyPermutation(keys: SortKeyArray, keyType: SortKeyType, descending: boolean, bits: BitRange): Uint32Array {
  const width = bits[1] - bits[0];
  if (isHalfKey(keyType)) {
    const order = halfOrderBitsOf(keyType, descending);
    const src = new Uint16Array(keys.buffer, keys.byteOffset, keys.length);
    const mask = (1 << width) - 1;
    return radixPermutation(
      Uint32Array.from(src, (k) => (order(k) >>> bits[0]) & mask),
      width,
    );
  }
  if (keyWordsOf(keyType) === 1) {
    return radixPermutation(orderValues(keys as SortArray, keyType as 'u32', descending, bits), width);
  }
  const n = keys.length;
  const words = new Uint32Array(keys.buffer, keys.byteOffset, 2 * n);
  const flip = descending ? 0xffffffff : 0;
  const sign = keyType === 'i64' ? 0x80000000 : 0;
  const begin = bits[0];
  const low = new Uint32Array(n);
  const high = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const lo = (words[2 * i]! ^ flip) >>> 0;
    const hi = (words[2 * i + 1]! ^ sign ^ flip) >>> 0;
    // (hi:lo) >> begin, as two words.
    let l: number;
    let h: number;
    if (begin >= 32) {
      l = hi >>> (begin - 32);
      h = 0;
    } else if (begin === 0) {
      l = lo;
      h = hi;
    } else {
      l = ((lo >>> begin) | (hi << (32 - begin))) >>> 0;
      h = hi >>> begin;
    }
    low[i] = (l & maskOf(Math.min(width, 32))) >>> 0;
    high[i] = (h & maskOf(Math.max(0, width - 32))) >>> 0;
  }
  const byLow = radixPermutation(low, Math.min(width, 32));
  if (width <= 32) return byLow;
  // LSD: a stable sort by the high bits of the order the low bits gave.
  const highInLowOrder = new Uint32Array(n);
  for (let i = 0; i < n; i++) highInLowOrder[i] = high[byLow[i]!]!;
  const byHigh = radixPermutation(highInLowOrder, width - 32);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = byLow[byHigh[i]!]!;
  return out;
}

/**
 * A new array of the same class as `values` whose record i is record `permutation[i]` of `values`,
 * a record being `width` bytes (4, 8, 12 or 16), bit for bit: values of any typed array class.
 *
 * @example
 * ```ts
 * gatherRecords(new Float64Array([1, 2]), new Uint32Array([1, 0]), 8); // Float64Array [2, 1]
 * ```
 */
export function gatherRecords<T extends SortValueArray>(values: T, permutation: Uint32Array, width: number): T {
  const n = permutation.length;
  const w = width / 4;
  // A copy of the bytes: the caller's view may start at an offset that is not a multiple of 4.
  const src = new Uint32Array(new Uint8Array(values.buffer, values.byteOffset, values.byteLength).slice().buffer);
  const dst = new Uint32Array(w * n);
  for (let i = 0; i < n; i++) {
    const from = w * permutation[i]!;
    for (let k = 0; k < w; k++) dst[w * i + k] = src[from + k]!;
  }
  return new (values.constructor as new (b: ArrayBuffer) => T)(dst.buffer);
}

/**
 * A new array of the same class as `array` holding `array[permutation[i]]` at i, bit for bit, for
 * 32- and 64-bit elements.
 *
 * @example
 * ```ts
 * gatherKeys(new BigUint64Array([1n, 2n]), new Uint32Array([1, 0])); // BigUint64Array [2n, 1n]
 * ```
 */
export function gatherKeys<T extends SortKeyArray>(array: T, permutation: Uint32Array): T {
  const out = new (array.constructor as new (length: number) => T)(permutation.length);
  if (array.BYTES_PER_ELEMENT === 2) {
    // 16-bit keys, moved as their bits (a Float16Array's NaN payloads kept).
    const src = new Uint16Array(array.buffer, array.byteOffset, array.length);
    const dst = new Uint16Array(out.buffer, out.byteOffset, out.length);
    for (let i = 0; i < permutation.length; i++) dst[i] = src[permutation[i]!]!;
    return out;
  }
  const w = array.BYTES_PER_ELEMENT / 4;
  const src = new Uint32Array(array.buffer, array.byteOffset, w * array.length);
  const dst = new Uint32Array(out.buffer, out.byteOffset, w * out.length);
  for (let i = 0; i < permutation.length; i++) {
    for (let k = 0; k < w; k++) dst[w * i + k] = src[w * permutation[i]! + k]!;
  }
  return out;
}
