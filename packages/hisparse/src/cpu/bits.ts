// f32 ↔ u32 bit casts through one shared scratch word (the pool stores values as f32 bits).
const word = new Uint32Array(1);
const float = new Float32Array(word.buffer);

/**
 * The bits of `v` rounded to f32.
 *
 * @example
 * ```ts
 * f32Bits(1); // 0x3f800000
 * ```
 */
export function f32Bits(v: number): number {
  float[0] = v;
  return word[0]!;
}

/**
 * The f32 whose bits are `b`.
 *
 * @example
 * ```ts
 * bitsF32(0x3f800000); // 1
 * ```
 */
export function bitsF32(b: number): number {
  word[0] = b;
  return float[0]!;
}
