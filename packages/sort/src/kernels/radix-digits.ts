import { type BindingDecl, type ParamFields, read } from '@scan/core/kit';
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

/** WGSL of `fn digit_<name>(k: u32) -> u32`, the digit of a key's bits (expects `order_bits`). */
export function digitWgsl(name: string, pass: DigitPass): string {
  const mask = (2 ** pass.width - 1) >>> 0;
  return `fn ${name}(k: u32) -> u32 { return (order_bits(k) >> ${pass.shift}u) & ${mask}u; }`;
}

/**
 * The parameters every radix kernel reads first: `count` (the number of keys, or the capacity when
 * the count is read from `count_buf`) and `count_word` (its word index there); see
 * {@link elementCountWgsl}. The radix kernels' parameters extend it.
 *
 * @example
 * ```ts
 * const params = { ...SORT_COUNT_PARAMS, tiles: 'u32', dispatch_x: 'u32' } as const satisfies ParamFields;
 * ```
 */
export const SORT_COUNT_PARAMS = { count: 'u32', count_word: 'u32' } as const satisfies ParamFields;

/**
 * The binding of a count the GPU wrote, `count_buf` (read by {@link elementCountWgsl}): declared
 * only with an indirect count.
 *
 * @example
 * ```ts
 * const bindings = { keys: read('array<u32>'), count_buf: countBinding(spec.indirect) };
 * ```
 */
export function countBinding(indirect: boolean): BindingDecl | undefined {
  return indirect ? read('array<u32>') : undefined;
}

/**
 * WGSL of `fn element_count() -> u32`: `params.count`, or with an indirect count the u32 the GPU
 * wrote at `count_buf[params.count_word]` (see {@link countBinding}), capped at `params.count` (the
 * plan's capacity, so a count past it can never read or write past the buffers).
 *
 * @example
 * ```ts
 * const code = `${elementCountWgsl(spec.indirect)}\nfn last() -> u32 { return element_count() - 1u; }`;
 * ```
 */
export function elementCountWgsl(indirect: boolean): string {
  if (!indirect) return 'fn element_count() -> u32 { return params.count; }';
  return 'fn element_count() -> u32 { return min(count_buf[params.count_word], params.count); }';
}
