import type { ElementType } from '@scan/core';
import { defineKernel, readWrite } from '@scan/core/kit';
import { COMMON_WGSL, ENTRY_ARGS, WG } from './common.js';
import { HASH_WGSL } from './fill.js';

/**
 * WGSL of `fn key_bits(i, seed) -> u32`: random 32-bit keys from the bench's seeded hash. The
 * `random` fill (`rand(i, seed)`) is a bijection of i, so its n values are all different; a sort
 * needs equal keys as often as uniformly random keys have them (about n²/2^33 equal pairs, 2^23 at
 * n = 2^28), or stability is never exercised. The XOR of two different hash streams of i is a
 * random function of i rather than a permutation.
 */
export const SORT_KEY_WGSL = `
fn key_bits(i: u32, seed: u32) -> u32 {
  return rand(i, seed) ^ pcg(rand(i, seed ^ 0x5bd1e995u) ^ 0x68e31da4u);
}
`;

/**
 * The sort-key generator: element i gets `key_bits(i, seed)` — random u32 keys, and the same bits
 * as i32 keys (half negative). For f32 keys, a word whose exponent is all ones (±∞ or NaN) gets
 * its top exponent bit cleared, so every key is a finite float (normal or subnormal, half negative,
 * spread over the whole exponent range). Parameters: `n` elements, `seed`.
 *
 * @example
 * ```ts
 * const kernel = sortKeysKernel({ type: 'f32' });
 * encodeKernel(ctx, encoder, kernel, { out: keys, params: pool.params(kernel, { n, seed }) }, { invocations: n });
 * ```
 */
export const sortKeysKernel = defineKernel({
  name: 'bench/sort-keys',
  bindings: { out: readWrite('array<u32>') },
  params: { n: 'u32', seed: 'u32' },
  wgsl: (spec: { type: ElementType }) => {
    const finite = spec.type === 'f32' ? '\n    if ((k & 0x7f800000u) == 0x7f800000u) { k ^= 0x40000000u; }' : '';
    return `${COMMON_WGSL}${HASH_WGSL}${SORT_KEY_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i < params.n) {
    var k = key_bits(i, params.seed);${finite}
    out[i] = k;
  }
}
`;
  },
});
