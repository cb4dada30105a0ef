import { defineKernel, read, readWrite } from '@scan/core/kit';
import { ELEMENTWISE_PARAMS, elementwiseWgsl } from './elementwise.js';

/**
 * One u32 per element from bit-packed head flags (bit `i % 32` of word `⌊i / 32⌋`): 1 at a segment
 * head, 0 elsewhere and at element 0 (which always starts the first segment) — so that an
 * inclusive scan numbers the segments from 0.
 *
 * Bindings: `packed` (the flags), `heads` (out); parameters `{ count, dispatch_x }`.
 *
 * @example
 * ```ts
 * b.dispatch(unpackHeadsKernel({}), { packed: { role: 'headFlags', offset: 0 }, heads }, groups, { count, dispatch_x });
 * ```
 */
export const unpackHeadsKernel = defineKernel({
  name: 'sort/unpack-heads',
  bindings: { packed: read('array<u32>'), heads: readWrite('array<u32>') },
  params: ELEMENTWISE_PARAMS,
  wgsl: () => elementwiseWgsl('', 'heads[i] = select((packed[i >> 5u] >> (i & 31u)) & 1u, 0u, i == 0u);'),
});

/**
 * A gather: `out[i] = src[outer[inner[i]]]` (`twoLevels`) or `src[inner[i]]`.
 *
 * Bindings: `src`, `out`, `inner`, and `outer` (two levels); parameters `{ count, dispatch_x }`.
 *
 * @example
 * ```ts
 * const k = gatherKernel({ twoLevels: false });
 * b.dispatch(k, { src, out, inner }, groups, { count, dispatch_x });
 * ```
 */
export const gatherKernel = defineKernel({
  name: 'sort/gather',
  // `words` (2 to 4): elements of that many u32 words (wide values), moved word by word.
  bindings: (spec: { readonly twoLevels: boolean; readonly wide?: boolean; readonly words?: number }) => ({
    // Two-word elements (64-bit keys) move as vec2s.
    src: read(spec.wide ? 'array<vec2<u32>>' : 'array<u32>'),
    out: readWrite(spec.wide ? 'array<vec2<u32>>' : 'array<u32>'),
    inner: read('array<u32>'),
    outer: spec.twoLevels ? read('array<u32>') : undefined,
  }),
  params: ELEMENTWISE_PARAMS,
  wgsl: (spec) => {
    const from = spec.twoLevels ? 'outer[inner[i]]' : 'inner[i]';
    const w = spec.words ?? 1;
    if (w === 1) return elementwiseWgsl('', `out[i] = src[${from}];`);
    return elementwiseWgsl('', `let j = ${from};\nfor (var c = 0u; c < ${w}u; c++) { out[i * ${w}u + c] = src[j * ${w}u + c]; }`);
  },
});
