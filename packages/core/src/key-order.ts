import type { ElementType } from './element-types.js';

// The order in which core's arg-min/max and sorted search compare elements: the key order of
// @scan/sort (packages/sort/src/key-order.ts), replicated here because core cannot import sort.
// u32 as is, i32 by value, f32 by the total order −∞ < … < −0 < +0 < … < +∞ < NaN with every NaN
// equal (the order of `Float32Array.prototype.sort` too). Keeping one order everywhere means an
// array sorted by @scan/sort (or by JavaScript) is "sorted" for lowerBound and upperBound, and
// arg-min/max agree with both.

/** The order of every NaN: the largest, so NaNs are equal and last. */
const NAN_ORDER = 0xffffffff;

/**
 * The function from an element's 32-bit pattern to its order bits: a u32 whose unsigned order is
 * the element order of `type` described above.
 *
 * @example
 * ```ts
 * const order = orderBitsOf('f32');
 * order(0x80000000) < order(0x00000000); // −0 before +0: true
 * order(0x7fc00000) === order(0xffc00000); // every NaN equal, and last: true
 * ```
 */
export function orderBitsOf(type: ElementType): (bits: number) => number {
  if (type === 'u32') return (b) => b >>> 0;
  if (type === 'i32') return (b) => (b ^ 0x80000000) >>> 0;
  return (b) => ((b & 0x7fffffff) > 0x7f800000 ? NAN_ORDER : b & 0x80000000 ? ~b >>> 0 : (b | 0x80000000) >>> 0);
}

/**
 * WGSL expression of the order bits (see {@link orderBitsOf}) of the u32 bit pattern `bits` (a WGSL
 * expression, evaluated more than once for f32: pass a name). NaNs are found by their bits: a WGSL
 * compiler may assume floats are never NaN.
 *
 * @example
 * ```ts
 * orderBitsWgsl('i32', 'k'); // '(k ^ 0x80000000u)'
 * ```
 */
export function orderBitsWgsl(type: ElementType, bits: string): string {
  if (type === 'u32') return bits;
  if (type === 'i32') return `(${bits} ^ 0x80000000u)`;
  return `select(select(${bits} | 0x80000000u, ~${bits}, (${bits} & 0x80000000u) != 0u), 0x${NAN_ORDER.toString(16)}u, (${bits} & 0x7fffffffu) > 0x7f800000u)`;
}

/**
 * The 32-bit patterns of a typed array's elements (a view of the same memory).
 *
 * @example
 * ```ts
 * bitsOf(new Float32Array([1]))[0]; // 0x3f800000
 * ```
 */
export function bitsOf(data: Uint32Array | Int32Array | Float32Array): Uint32Array {
  return new Uint32Array(data.buffer, data.byteOffset, data.length);
}
