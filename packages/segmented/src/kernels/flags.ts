import type { FlagType } from '@scan/core';
import { defineKernel, type Kernel, type ParamFields, read, readWrite } from '@scan/core/kit';

// Kernels that convert between segment representations on the GPU. Every segmented plan reads
// head flags bit-packed (bit i % 32 of word ⌊i / 32⌋, see FLAG_BITS_PER_WORD); these build that
// layout from one-flag-per-element arrays and from offsets, and offsets from it. Dispatches may be
// 2-D (`dispatch_x` workgroups per row, see core's `dispatchShape`); every kernel bounds-checks its
// linear index, so the spare workgroups of a 2-D grid do nothing.

/** Invocations per workgroup of every kernel here (WebGPU guarantees at least 256). */
export const FLAG_KERNEL_WORKGROUP = 256;

/**
 * Packs element flags into head bits. One invocation per input word (coalesced loads); each builds
 * the bits its word contributes and ORs them into a workgroup-memory word with an atomic, then the
 * first invocations store the workgroup's output words. No subgroup operation is used: WebGPU does
 * not promise that a subgroup is made of consecutive invocations, so a ballot would not map lanes
 * to bit positions without a detour through workgroup memory anyway, and this path runs everywhere.
 * (Not the kit's block reduce either: that gives one value per workgroup, where here each output word
 * gathers its own 32 flags.)
 * Bits past `count` are 0; with `force_first` (the first chunk) bit 0 is set, since element 0
 * always starts a segment.
 *
 * Bindings: `flags` (`array<u32>`), `bits` (output words); parameters
 * `{ count, in_words, out_words, dispatch_x, force_first }` (chunk-local).
 *
 * @example
 * ```ts
 * b.dispatch(packHeadFlagsKernel('u8'), { flags: flagsRange, bits: bitsRange }, workgroups,
 *   { count: n, in_words: inWords, out_words: outWords, dispatch_x: x, force_first: 1 });
 * ```
 */
export function packHeadFlagsKernel(flagType: FlagType): Kernel<'flags' | 'bits', typeof PACK_PARAMS> {
  return packHeadFlags({ flagType, workgroupSize: FLAG_KERNEL_WORKGROUP });
}

const PACK_PARAMS = {
  count: 'u32',
  in_words: 'u32',
  out_words: 'u32',
  dispatch_x: 'u32',
  force_first: 'u32',
} as const satisfies ParamFields;

const packHeadFlags = defineKernel({
  name: 'segmented/flags/pack',
  bindings: { flags: read('array<u32>'), bits: readWrite('array<u32>') },
  params: PACK_PARAMS,
  wgsl: (spec: { flagType: FlagType; workgroupSize: number }) => {
    const wg = spec.workgroupSize;
    // Flags one input word carries, and so output words one workgroup fills.
    const perWord = spec.flagType === 'u8' ? 4 : 1;
    const outPerWorkgroup = (wg * perWord) / 32;
    const contribution =
      spec.flagType === 'u8'
        ? `  // Word w holds the flags of elements 4w .. 4w+3, one per byte, low byte first.
  var nibble = 0u;
  for (var k = 0u; k < 4u; k++) {
    let e = 4u * w + k;
    if (e < params.count && ((x >> (8u * k)) & 0xffu) != 0u) { nibble |= 1u << k; }
  }
  bits_of_word = nibble << ((4u * w) & 31u);`
        : `  bits_of_word = select(0u, 1u << (w & 31u), x != 0u);`;
    return `
var<workgroup> acc: array<atomic<u32>, ${outPerWorkgroup}>;

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let group = wid.x + wid.y * params.dispatch_x;
  if (lid < ${outPerWorkgroup}u) { atomicStore(&acc[lid], 0u); }
  workgroupBarrier();
  let w = group * ${wg}u + lid;
  var bits_of_word = 0u;
  if (w < params.in_words) {
    let x = flags[w];
${contribution}
  }
  if (w == 0u && params.force_first != 0u) { bits_of_word |= 1u; }
  if (bits_of_word != 0u) { atomicOr(&acc[lid / ${32 / perWord}u], bits_of_word); }
  workgroupBarrier();
  let o = group * ${outPerWorkgroup}u + lid;
  if (lid < ${outPerWorkgroup}u && o < params.out_words) { bits[o] = atomicLoad(&acc[lid]); }
}
`;
  },
});

/**
 * WGSL reading word `w` of head bits as the offsets kernels see it: element 0's bit set (element 0
 * always starts a segment) and bits past `params.count` cleared, so stray bits in the caller's
 * last word cannot add segments. Needs `bits: array<u32>` and `params.count`.
 */
const MASKED_WORD_WGSL = `
fn masked_word(w: u32) -> u32 {
  var x = bits[w];
  if (w == 0u) { x |= 1u; }
  let rest = params.count - 32u * w;
  if (rest < 32u) { x &= (1u << rest) - 1u; }
  return x;
}`;

/** Parameters of the offsets kernels ({@link countHeadsKernel}, {@link scatterOffsetsKernel}). */
const WORDS_PARAMS = { count: 'u32', words: 'u32', dispatch_x: 'u32' } as const satisfies ParamFields;

/** What the flag kernels without other choices are specialized on. */
type FlagKernelSpec = { workgroupSize: number };

/**
 * Heads per word of head bits: `counts[w]` = the number of segments starting in word w, the input
 * of the scan that numbers the segments.
 *
 * Bindings: `bits`, `counts`; parameters `{ count, words, dispatch_x }`.
 *
 * @example
 * ```ts
 * b.dispatch(countHeadsKernel(), { bits: bitsRange, counts: { scratch: 'counts' } }, workgroups, { count, words, dispatch_x: x });
 * ```
 */
export function countHeadsKernel(): Kernel<'bits' | 'counts', typeof WORDS_PARAMS> {
  return countHeads({ workgroupSize: FLAG_KERNEL_WORKGROUP });
}

const countHeads = defineKernel({
  name: 'segmented/flags/count-heads',
  bindings: { bits: read('array<u32>'), counts: readWrite('array<u32>') },
  params: WORDS_PARAMS,
  wgsl: (spec: FlagKernelSpec) => `${MASKED_WORD_WGSL}

@compute @workgroup_size(${spec.workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let w = (wid.x + wid.y * params.dispatch_x) * ${spec.workgroupSize}u + lid;
  if (w < params.words) { counts[w] = countOneBits(masked_word(w)); }
}
`,
});

/**
 * Writes segment offsets from head bits and `bases` (the exclusive scan of the per-word head
 * counts): one invocation per element, so that dense heads give coalesced stores; a head at element
 * i is segment `bases[i / 32] + (heads below it in its word)` and writes `offsets[segment] = i`.
 * Invocation 0 also writes `offsets[segments] = count` and the number of segments. It runs with at
 * least one workgroup, so a count of 0 yields `offsets = [0]` and 0 segments.
 *
 * Bindings: `bits`, `bases`, `offsets` (output), `segment_count` (one u32); parameters
 * `{ count, words, dispatch_x }`.
 *
 * @example
 * ```ts
 * b.dispatch(scatterOffsetsKernel(), { bits, bases: { scratch: 'bases' }, offsets, segment_count: countRange }, workgroups,
 *   { count, words, dispatch_x: x });
 * ```
 */
export function scatterOffsetsKernel(): Kernel<'bits' | 'bases' | 'offsets' | 'segment_count', typeof WORDS_PARAMS> {
  return scatterOffsets({ workgroupSize: FLAG_KERNEL_WORKGROUP });
}

const scatterOffsets = defineKernel({
  name: 'segmented/flags/scatter-offsets',
  bindings: {
    bits: read('array<u32>'),
    bases: read('array<u32>'),
    offsets: readWrite('array<u32>'),
    segment_count: readWrite('array<u32>'),
  },
  params: WORDS_PARAMS,
  wgsl: (spec: FlagKernelSpec) => `${MASKED_WORD_WGSL}

@compute @workgroup_size(${spec.workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let i = (wid.x + wid.y * params.dispatch_x) * ${spec.workgroupSize}u + lid;
  if (i == 0u) {
    var total = 0u;
    if (params.words > 0u) {
      let last = params.words - 1u;
      total = bases[last] + countOneBits(masked_word(last));
    }
    offsets[total] = params.count;
    segment_count[0] = total;
  }
  if (i >= params.count) { return; }
  let w = i >> 5u;
  let x = masked_word(w);
  let bit = 1u << (i & 31u);
  if ((x & bit) != 0u) { offsets[bases[w] + countOneBits(x & (bit - 1u))] = i; }
}
`,
});

const ZERO_PARAMS = { words: 'u32', dispatch_x: 'u32' } as const satisfies ParamFields;

/**
 * Zeroes `words` u32 words (the head bits before the offsets are ORed in), so the plan needs no
 * `COPY_DST` usage on the caller's buffer.
 *
 * Bindings: `data`; parameters `{ words, dispatch_x }`.
 *
 * @example
 * ```ts
 * b.dispatch(zeroWordsKernel(), { data: bitsRange }, workgroups, { words, dispatch_x: x });
 * ```
 */
export function zeroWordsKernel(): Kernel<'data', typeof ZERO_PARAMS> {
  return zeroWords({ workgroupSize: FLAG_KERNEL_WORKGROUP });
}

const zeroWords = defineKernel({
  name: 'segmented/flags/zero',
  bindings: { data: readWrite('array<u32>') },
  params: ZERO_PARAMS,
  wgsl: (spec: FlagKernelSpec) => `
@compute @workgroup_size(${spec.workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let w = (wid.x + wid.y * params.dispatch_x) * ${spec.workgroupSize}u + lid;
  if (w < params.words) { data[w] = 0u; }
}
`,
});

const OFFSETS_PARAMS = { count: 'u32', segments: 'u32', dispatch_x: 'u32', force_first: 'u32' } as const satisfies ParamFields;

/**
 * Sets the head bit of every segment start: one invocation per offset `offsets[k]` (k below
 * `segments`, chunk-local) ORs bit `offsets[k]` into the bits with an atomic — several segments may
 * share a word, and empty segments share a bit, which OR makes harmless. Offsets at or past `count`
 * (trailing empty segments) set nothing. With `force_first`, bit 0 is set (element 0 always starts
 * a segment). The bits must be zeroed first ({@link zeroWordsKernel}).
 *
 * Bindings: `offsets`, `bits` (`array<atomic<u32>>`); parameters `{ count, segments, dispatch_x, force_first }`.
 *
 * @example
 * ```ts
 * b.dispatch(offsetsToBitsKernel(), { offsets: offsetsRange, bits: bitsRange }, workgroups,
 *   { count, segments: n, dispatch_x: x, force_first: 1 });
 * ```
 */
export function offsetsToBitsKernel(): Kernel<'offsets' | 'bits', typeof OFFSETS_PARAMS> {
  return offsetsToBits({ workgroupSize: FLAG_KERNEL_WORKGROUP });
}

const offsetsToBits = defineKernel({
  name: 'segmented/flags/offsets-to-bits',
  bindings: { offsets: read('array<u32>'), bits: readWrite('array<atomic<u32>>') },
  params: OFFSETS_PARAMS,
  wgsl: (spec: FlagKernelSpec) => `
@compute @workgroup_size(${spec.workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let k = (wid.x + wid.y * params.dispatch_x) * ${spec.workgroupSize}u + lid;
  if (k == 0u && params.force_first != 0u) { atomicOr(&bits[0], 1u); }
  if (k >= params.segments) { return; }
  let o = offsets[k];
  if (o < params.count) { atomicOr(&bits[o >> 5u], 1u << (o & 31u)); }
}
`,
});
