import type { ParamFields } from '@scan/core/kit';
import type { BitRange } from '../types.js';

/** Bits per digit of the radix sort: 8, so a pass ranks into 256 buckets (Onesweep's choice for 32-bit keys). */
export const RADIX_BITS = 8;
/** Buckets per pass. */
export const RADIX = 1 << RADIX_BITS;

/** One digit pass: the digit is `(order_bits(key) >> shift) & ((1 << width) - 1)`. */
export type DigitPass = {
  readonly shift: number;
  readonly width: number;
};

/**
 * The digit passes that sort on order bits `[begin, end)`, least significant first: 8 bits each,
 * the last one narrower when the range is not a multiple of 8 (`[0, 32)` is four passes).
 *
 * @example
 * ```ts
 * digitPasses([0, 32]); // [{ shift: 0, width: 8 }, { shift: 8, width: 8 }, { shift: 16, width: 8 }, { shift: 24, width: 8 }]
 * digitPasses([4, 16]); // [{ shift: 4, width: 8 }, { shift: 12, width: 4 }]
 * ```
 */
export function digitPasses(bits: BitRange): DigitPass[] {
  const passes: DigitPass[] = [];
  for (let shift = bits[0]; shift < bits[1]; shift += RADIX_BITS) {
    passes.push({ shift, width: Math.min(RADIX_BITS, bits[1] - shift) });
  }
  return passes;
}

/**
 * WGSL of `fn digit_<name>(k: K) -> u32`, the digit of a key's bits, K the key's WGSL type
 * (expects `order_bits` and `order_shift`, see `orderShiftWgsl`).
 */
export function digitWgsl(name: string, pass: DigitPass, keyType: 'u32' | 'vec2<u32>' = 'u32'): string {
  const mask = (2 ** pass.width - 1) >>> 0;
  return `fn ${name}(k: ${keyType}) -> u32 { return order_shift(order_bits(k), ${pass.shift}u) & ${mask}u; }`;
}

/**
 * The parameter every radix kernel reads first: `count`, the number of keys — with a count the GPU
 * wrote, filled in by the plan's count fixup (`recordCountFixup` of `@scan/core/kit`) from
 * min(that count, the plan's capacity), so the kernels are the same for a host and a GPU count. The
 * radix kernels' parameters extend it.
 *
 * @example
 * ```ts
 * const params = { ...SORT_COUNT_PARAMS, tiles: 'u32', dispatch_x: 'u32' } as const satisfies ParamFields;
 * ```
 */
export const SORT_COUNT_PARAMS = { count: 'u32' } as const satisfies ParamFields;
