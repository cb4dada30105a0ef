import { defineKernel, read, readWrite } from '@scan/core/kit';
import { orderBitsWgsl } from '../key-order.js';
import type { SortKeyType } from '../types.js';

/** Invocations per workgroup of the flag kernel; each invocation writes one word (four flags). */
export const SPLIT_RADIX_WORKGROUP = 256;

/**
 * The flag step of the paper's split radix sort (Sengupta et al. 2007, §4.1, after Blelloch):
 * before each split, every key's flag is bit `params.bit` of its order bits — 0 keys go first,
 * 1 keys after, which is one stable LSD pass on that bit.
 *
 * The flags are written as bytes, four to a word (byte j of word w is the flag of key 4w + j),
 * the `'u8'` layout of `@scan/core`'s split plan, which reads a word per lane: a quarter of the
 * flag traffic of u32 flags, and whole-word stores here with no byte atomics. Bytes of a partial
 * last word past `count` are written 0 (the split ignores them anyway).
 *
 * Bindings: `keys` (u32 words, read), `flags` (⌈count/4⌉ words); parameters `{ count, bit,
 * dispatch_x }`. One invocation per flag word; a 2-D dispatch has `dispatch_x` workgroups a row.
 *
 * @example
 * ```ts
 * const groups = Math.ceil(Math.ceil(count / 4) / SPLIT_RADIX_WORKGROUP);
 * b.dispatch(splitRadixFlagsKernel({ keyType: 'f32', descending: false }), { keys, flags }, groups, { count, bit, dispatch_x: dispatchShape(groups, maxDim).x });
 * ```
 */
export const splitRadixFlagsKernel = defineKernel({
  name: 'sort/split-radix/flags',
  bindings: { keys: read('array<u32>'), flags: readWrite('array<u32>') },
  params: { count: 'u32', bit: 'u32', dispatch_x: 'u32' },
  wgsl: ({ keyType, descending }: { readonly keyType: SortKeyType; readonly descending: boolean }) => {
    const wg = SPLIT_RADIX_WORKGROUP;
    return `
${orderBitsWgsl(keyType, descending)}

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let w = (wid.x + wid.y * params.dispatch_x) * ${wg}u + lid;
  let first = 4u * w;
  if (first >= params.count) { return; }
  var word = 0u;
  for (var j = 0u; j < 4u; j++) {
    let e = first + j;
    if (e < params.count) {
      word |= ((order_bits(keys[e]) >> params.bit) & 1u) << (8u * j);
    }
  }
  flags[w] = word;
}
`;
  },
});
