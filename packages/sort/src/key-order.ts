import type { ElementType } from '@scan/core';
import type { HalfKeyType, SortKeyType } from './types.js';

// The order of keys as unsigned 32-bit integers: every algorithm of the package sorts the "order
// bits" of its keys and moves the keys themselves untouched, so all of them (and the CPU reference)
// agree on one total order, and keys come back bit for bit.

/** The largest order value: every NaN maps here, so NaNs are equal and last (ascending). */
const NAN_ORDER = 0xffffffff;

/**
 * The function from a key's bits to its order bits: a u32 whose unsigned order is the key order of
 * `type` — i32 by its sign bit flipped, f32 by the total order −∞ < … < −0 < +0 < … < +∞ < NaN with
 * every NaN equal — reversed (bitwise not) when `descending`. Sorting the order bits ascending and
 * stably is sorting the keys.
 *
 * @example
 * ```ts
 * const order = orderBitsOf('f32', false);
 * order(0x80000000) < order(0x00000000); // −0 before +0: true
 * ```
 */
export function orderBitsOf(type: ElementType | HalfKeyType, descending: boolean): (bits: number) => number {
  if (type === 'u16' || type === 'f16') return halfOrderBitsOf(type, descending);
  const flip = descending ? 0xffffffff : 0;
  if (type === 'u32') return (b) => (b ^ flip) >>> 0;
  if (type === 'i32') return (b) => (b ^ 0x80000000 ^ flip) >>> 0;
  return (b) => {
    const ordered = (b & 0x7fffffff) > 0x7f800000 ? NAN_ORDER : b & 0x80000000 ? ~b : b | 0x80000000;
    return (ordered ^ flip) >>> 0;
  };
}

/**
 * The order bits of a 16-bit key (its bits in the low half of the argument): 16 bits whose unsigned
 * order is the key order — u16 as is, f16 like f32 (negatives inverted, positives with the sign bit
 * set, every NaN 0xffff) — reversed within the 16 bits when `descending`.
 *
 * @example
 * ```ts
 * halfOrderBitsOf('f16', false)(0x8000) < halfOrderBitsOf('f16', false)(0x0000); // −0 before +0: true
 * ```
 */
export function halfOrderBitsOf(type: HalfKeyType, descending: boolean): (bits: number) => number {
  const flip = descending ? 0xffff : 0;
  if (type === 'u16') return (b) => (b & 0xffff) ^ flip;
  return (b) => {
    const k = b & 0xffff;
    const ordered = (k & 0x7fff) > 0x7c00 ? 0xffff : k & 0x8000 ? ~k & 0xffff : k | 0x8000;
    return ordered ^ flip;
  };
}

/** Whether keys of `type` are 16 bits (two to a word in a buffer). */
export function isHalfKey(type: SortKeyType): type is HalfKeyType {
  return type === 'u16' || type === 'f16';
}

/**
 * WGSL of `fn order_bits(k: u32) -> u32`, the GPU twin of {@link orderBitsOf}: the key's bits in,
 * its order bits out. NaNs are found by their bits (a WGSL compiler may assume floats are never NaN).
 *
 * @example
 * ```ts
 * const wgsl = `${orderBitsWgsl('i32', true)}\nfn digit(k: u32) -> u32 { return order_bits(k) >> 24u; }`;
 * ```
 */
export function orderBitsWgsl(type: SortKeyType, descending: boolean): string {
  if (type === 'u64' || type === 'i64') {
    const flip = descending ? ' ^ vec2<u32>(0xffffffffu)' : '';
    const sign = type === 'i64' ? ' ^ vec2<u32>(0u, 0x80000000u)' : '';
    return `fn order_bits(k: vec2<u32>) -> vec2<u32> { return k${sign}${flip}; }`;
  }
  if (type === 'u16') return `fn order_bits(k: u32) -> u32 { return k${descending ? ' ^ 0xffffu' : ''}; }`;
  if (type === 'f16') {
    // A 16-bit key in the low half (the high half zero): f32's order on 16 bits.
    return `fn order_bits(k: u32) -> u32 {
  var o = select(k | 0x8000u, ~k & 0xffffu, (k & 0x8000u) != 0u);
  if ((k & 0x7fffu) > 0x7c00u) { o = 0xffffu; }
  return o${descending ? ' ^ 0xffffu' : ''};
}`;
  }
  const flip = descending ? ' ^ 0xffffffffu' : '';
  if (type === 'u32') return `fn order_bits(k: u32) -> u32 { return k${flip}; }`;
  if (type === 'i32') return `fn order_bits(k: u32) -> u32 { return k ^ 0x80000000u${flip}; }`;
  return `fn order_bits(k: u32) -> u32 {
  var o = select(k | 0x80000000u, ~k, (k & 0x80000000u) != 0u);
  if ((k & 0x7fffffffu) > 0x7f800000u) { o = 0x${NAN_ORDER.toString(16)}u; }
  return o${flip};
}`;
}

/**
 * The bits of a key whose order bits are all ones, so that it sorts after every key in every digit
 * pass (the radix pass pads a tile with it), or `undefined` where there is none: descending f32,
 * whose largest order (−∞ reversed) has low bits that are not all ones (NaNs, all equal, come first).
 *
 * @example
 * ```ts
 * lastKeyBits('i32', false); // 0x7fffffff
 * orderBitsOf('f32', false)(lastKeyBits('f32', false) ?? 0); // 0xffffffff: a NaN
 * lastKeyBits('f32', true); // undefined
 * ```
 */
export function lastKeyBits(type: ElementType | HalfKeyType, descending: boolean): number | undefined {
  if (type === 'u16') return descending ? 0 : 0xffff;
  if (type === 'f16') return descending ? undefined : 0x7fff;
  if (type === 'u32') return descending ? 0 : 0xffffffff;
  if (type === 'i32') return descending ? 0x80000000 : 0x7fffffff;
  return descending ? undefined : 0x7fffffff;
}

/**
 * 32-bit words per key: 2 for the 64-bit types (word 0 the low half, as a `BigUint64Array` lies in
 * memory), else 1.
 *
 * @example
 * ```ts
 * keyWordsOf('i64'); // 2
 * ```
 */
export function keyWordsOf(type: SortKeyType): 1 | 2 {
  // A 16-bit key is one word in a kernel's registers (see keyBytesOf for a buffer's).
  return type === 'u64' || type === 'i64' ? 2 : 1;
}

/**
 * Bytes of one key of `type` in a buffer: 2, 4 or 8.
 *
 * @example
 * ```ts
 * keyBytesOf('f16'); // 2
 * ```
 */
export function keyBytesOf(type: SortKeyType): 2 | 4 | 8 {
  return isHalfKey(type) ? 2 : keyWordsOf(type) === 2 ? 8 : 4;
}

/**
 * Bits of a key of `type`: what `bits` ranges over, and the order bits' width.
 *
 * @example
 * ```ts
 * keyBitsOf('u64'); // 64
 * ```
 */
export function keyBitsOf(type: SortKeyType): number {
  return isHalfKey(type) ? 16 : 32 * keyWordsOf(type);
}

/**
 * The WGSL type of one key in a kernel: `u32`, or `vec2<u32>` (low word, high word) for 64-bit keys.
 *
 * @example
 * ```ts
 * keyWgslType('u64'); // 'vec2<u32>'
 * ```
 */
export function keyWgslType(type: SortKeyType): 'u32' | 'vec2<u32>' {
  return keyWordsOf(type) === 2 ? 'vec2<u32>' : 'u32';
}

/**
 * WGSL of `fn order_shift(o: K, s: u32) -> u32`: the low 32 bits of the order bits `o` shifted
 * right by `s` (0 ≤ s < the key's bits), K the key's WGSL type. For a two-word key a digit may
 * straddle the words (`bits` need not start on a multiple of 8), so the high word's bits are
 * shifted in; WGSL masks a shift count to 5 bits, so s = 0 and s ≥ 32 are their own cases.
 *
 * @example
 * ```ts
 * const wgsl = `${orderBitsWgsl('u64', false)}\n${orderShiftWgsl('u64')}`;
 * ```
 */
export function orderShiftWgsl(type: SortKeyType): string {
  if (keyWordsOf(type) === 1) return 'fn order_shift(o: u32, s: u32) -> u32 { return o >> s; }';
  return `fn order_shift(o: vec2<u32>, s: u32) -> u32 {
  if (s >= 32u) { return o.y >> (s - 32u); }
  if (s == 0u) { return o.x; }
  return (o.x >> s) | (o.y << (32u - s));
}`;
}

/**
 * The key that sorts after every key in every digit pass, as a WGSL literal of the key's type
 * (see {@link lastKeyBits}), or `undefined` where there is none (descending f32).
 *
 * @example
 * ```ts
 * lastKeyWgsl('i64', false); // 'vec2<u32>(0xffffffffu, 0x7fffffffu)'
 * ```
 */
export function lastKeyWgsl(type: SortKeyType, descending: boolean): string | undefined {
  if (type === 'u64') return descending ? 'vec2<u32>(0u, 0u)' : 'vec2<u32>(0xffffffffu, 0xffffffffu)';
  if (type === 'i64') return descending ? 'vec2<u32>(0u, 0x80000000u)' : 'vec2<u32>(0xffffffffu, 0x7fffffffu)';
  const bits = lastKeyBits(type, descending);
  return bits === undefined ? undefined : `0x${bits.toString(16)}u`;
}
