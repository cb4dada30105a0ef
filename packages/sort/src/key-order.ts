import type { SortKeyType } from './types.js';

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
export function orderBitsOf(type: SortKeyType, descending: boolean): (bits: number) => number {
  const flip = descending ? 0xffffffff : 0;
  if (type === 'u32') return (b) => (b ^ flip) >>> 0;
  if (type === 'i32') return (b) => (b ^ 0x80000000 ^ flip) >>> 0;
  return (b) => {
    const ordered = (b & 0x7fffffff) > 0x7f800000 ? NAN_ORDER : b & 0x80000000 ? ~b : b | 0x80000000;
    return (ordered ^ flip) >>> 0;
  };
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
export function lastKeyBits(type: SortKeyType, descending: boolean): number | undefined {
  if (type === 'u32') return descending ? 0 : 0xffffffff;
  if (type === 'i32') return descending ? 0x80000000 : 0x7fffffff;
  return descending ? undefined : 0x7fffffff;
}
