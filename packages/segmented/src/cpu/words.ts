import { type ScanTypedArray, typedArrayFor } from '@scan/core';

// The data-movement references (distribute, split-and-segment) copy 32-bit words rather than
// numbers, so every f32 bit pattern — NaN payloads, -0 — arrives as the GPU would move it; reading
// a NaN into a JavaScript number may canonicalize it.

/**
 * The 32-bit words of `data` (a view, no copy).
 *
 * @example
 * ```ts
 * wordsOf(new Float32Array([1])); // Uint32Array [0x3f800000]
 * ```
 */
export function wordsOf(data: ScanTypedArray): Uint32Array {
  return new Uint32Array(data.buffer, data.byteOffset, data.length);
}

/**
 * A new typed array of the same type as `like` with `length` elements, and a word view of it.
 *
 * @example
 * ```ts
 * const { array, words } = newLike(data, 3);
 * words[0] = wordsOf(data)[2]!;
 * ```
 */
export function newLike<T extends ScanTypedArray>(like: T, length: number): { array: T; words: Uint32Array } {
  const type = like instanceof Uint32Array ? 'u32' : like instanceof Int32Array ? 'i32' : 'f32';
  const array = typedArrayFor(type, length) as T;
  return { array, words: new Uint32Array(array.buffer, array.byteOffset, length) };
}
