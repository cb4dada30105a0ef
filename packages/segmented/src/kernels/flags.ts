import type { KernelSpec } from '@scan/core/kit';

// Kernels that convert between segment representations on the GPU. Every segmented plan reads
// head flags bit-packed (bit i % 32 of word ⌊i / 32⌋, see FLAG_BITS_PER_WORD); these build that
// layout from one-flag-per-element arrays and from offsets, and offsets from it. Dispatches may be
// 2-D (`dispatch_x` workgroups per row, see core's `dispatchShape`); every kernel bounds-checks its
// linear index, so the spare workgroups of a 2-D grid do nothing.

/** Element flags as the pack kernel reads them: four u8 flags per u32 word, or one flag per word. */
export type FlagType = 'u8' | 'u32';

/** Invocations per workgroup of every kernel here (WebGPU guarantees at least 256). */
export const FLAG_KERNEL_WORKGROUP = 256;

/**
 * Packs element flags into head bits. One invocation per input word (coalesced loads); each builds
 * the bits its word contributes and ORs them into a workgroup-memory word with an atomic, then the
 * first invocations store the workgroup's output words. No subgroup operation is used: WebGPU does
 * not promise that a subgroup is made of consecutive invocations, so a ballot would not map lanes
 * to bit positions without a detour through workgroup memory anyway, and this path runs everywhere.
 * Bits past `count` are 0; with `force_first` (the first chunk) bit 0 is set, since element 0
 * always starts a segment.
 *
 * Bindings: 0 flags (`array<u32>`), 1 bits (output words), 2 params
 * `{ count, in_words, out_words, dispatch_x, force_first }` (chunk-local).
 *
 * @example
 * ```ts
 * b.dispatch(packHeadFlagsKernel('u8'), [flagsRange, bitsRange, params], Math.ceil(inWords / FLAG_KERNEL_WORKGROUP));
 * ```
 */
export function packHeadFlagsKernel(flagType: FlagType): KernelSpec {
  const wg = FLAG_KERNEL_WORKGROUP;
  // Flags one input word carries, and so output words one workgroup fills.
  const perWord = flagType === 'u8' ? 4 : 1;
  const outPerWorkgroup = (wg * perWord) / 32;
  const contribution =
    flagType === 'u8'
      ? `  // Word w holds the flags of elements 4w .. 4w+3, one per byte, low byte first.
  var nibble = 0u;
  for (var k = 0u; k < 4u; k++) {
    let e = 4u * w + k;
    if (e < params.count && ((x >> (8u * k)) & 0xffu) != 0u) { nibble |= 1u << k; }
  }
  bits_of_word = nibble << ((4u * w) & 31u);`
      : `  bits_of_word = select(0u, 1u << (w & 31u), x != 0u);`;
  return {
    key: `segmented/flags/pack/${flagType}/${wg}`,
    wgsl: () => `
struct PackParams { count: u32, in_words: u32, out_words: u32, dispatch_x: u32, force_first: u32 }
@group(0) @binding(0) var<storage, read> flags: array<u32>;
@group(0) @binding(1) var<storage, read_write> bits: array<u32>;
@group(0) @binding(2) var<uniform> params: PackParams;

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
`,
  };
}

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

/**
 * Heads per word of head bits: `counts[w]` = the number of segments starting in word w, the input
 * of the scan that numbers the segments.
 *
 * Bindings: 0 bits, 1 counts, 2 params `{ count, words, dispatch_x }`.
 *
 * @example
 * ```ts
 * b.dispatch(countHeadsKernel(), [bitsRange, { scratch: 'counts' }, params], Math.ceil(words / FLAG_KERNEL_WORKGROUP));
 * ```
 */
export function countHeadsKernel(): KernelSpec {
  const wg = FLAG_KERNEL_WORKGROUP;
  return {
    key: `segmented/flags/count-heads/${wg}`,
    wgsl: () => `
struct CountParams { count: u32, words: u32, dispatch_x: u32 }
@group(0) @binding(0) var<storage, read> bits: array<u32>;
@group(0) @binding(1) var<storage, read_write> counts: array<u32>;
@group(0) @binding(2) var<uniform> params: CountParams;
${MASKED_WORD_WGSL}

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let w = (wid.x + wid.y * params.dispatch_x) * ${wg}u + lid;
  if (w < params.words) { counts[w] = countOneBits(masked_word(w)); }
}
`,
  };
}

/**
 * Writes segment offsets from head bits and `bases` (the exclusive scan of the per-word head
 * counts): one invocation per element, so that dense heads give coalesced stores; a head at element
 * i is segment `bases[i / 32] + (heads below it in its word)` and writes `offsets[segment] = i`.
 * Invocation 0 also writes `offsets[segments] = count` and the number of segments. It runs with at
 * least one workgroup, so a count of 0 yields `offsets = [0]` and 0 segments.
 *
 * Bindings: 0 bits, 1 bases, 2 offsets (output), 3 segment_count (one u32), 4 params
 * `{ count, words, dispatch_x }`.
 *
 * @example
 * ```ts
 * b.dispatch(scatterOffsetsKernel(), [bitsRange, { scratch: 'bases' }, offsetsRange, countRange, params], workgroups);
 * ```
 */
export function scatterOffsetsKernel(): KernelSpec {
  const wg = FLAG_KERNEL_WORKGROUP;
  return {
    key: `segmented/flags/scatter-offsets/${wg}`,
    wgsl: () => `
struct ScatterParams { count: u32, words: u32, dispatch_x: u32 }
@group(0) @binding(0) var<storage, read> bits: array<u32>;
@group(0) @binding(1) var<storage, read> bases: array<u32>;
@group(0) @binding(2) var<storage, read_write> offsets: array<u32>;
@group(0) @binding(3) var<storage, read_write> segment_count: array<u32>;
@group(0) @binding(4) var<uniform> params: ScatterParams;
${MASKED_WORD_WGSL}

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let i = (wid.x + wid.y * params.dispatch_x) * ${wg}u + lid;
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
  };
}

/**
 * Zeroes `words` u32 words (the head bits before the offsets are ORed in), so the plan needs no
 * `COPY_DST` usage on the caller's buffer.
 *
 * Bindings: 0 data, 1 params `{ words, dispatch_x }`.
 *
 * @example
 * ```ts
 * b.dispatch(zeroWordsKernel(), [bitsRange, params], Math.ceil(words / FLAG_KERNEL_WORKGROUP));
 * ```
 */
export function zeroWordsKernel(): KernelSpec {
  const wg = FLAG_KERNEL_WORKGROUP;
  return {
    key: `segmented/flags/zero/${wg}`,
    wgsl: () => `
struct ZeroParams { words: u32, dispatch_x: u32 }
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<uniform> params: ZeroParams;

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let w = (wid.x + wid.y * params.dispatch_x) * ${wg}u + lid;
  if (w < params.words) { data[w] = 0u; }
}
`,
  };
}

/**
 * Sets the head bit of every segment start: one invocation per offset `offsets[k]` (k below
 * `segments`, chunk-local) ORs bit `offsets[k]` into the bits with an atomic — several segments may
 * share a word, and empty segments share a bit, which OR makes harmless. Offsets at or past `count`
 * (trailing empty segments) set nothing. With `force_first`, bit 0 is set (element 0 always starts
 * a segment). The bits must be zeroed first ({@link zeroWordsKernel}).
 *
 * Bindings: 0 offsets, 1 bits (`array<atomic<u32>>`), 2 params `{ count, segments, dispatch_x, force_first }`.
 *
 * @example
 * ```ts
 * b.dispatch(offsetsToBitsKernel(), [offsetsRange, bitsRange, params], Math.ceil(segments / FLAG_KERNEL_WORKGROUP));
 * ```
 */
export function offsetsToBitsKernel(): KernelSpec {
  const wg = FLAG_KERNEL_WORKGROUP;
  return {
    key: `segmented/flags/offsets-to-bits/${wg}`,
    wgsl: () => `
struct OffsetParams { count: u32, segments: u32, dispatch_x: u32, force_first: u32 }
@group(0) @binding(0) var<storage, read> offsets: array<u32>;
@group(0) @binding(1) var<storage, read_write> bits: array<atomic<u32>>;
@group(0) @binding(2) var<uniform> params: OffsetParams;

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let k = (wid.x + wid.y * params.dispatch_x) * ${wg}u + lid;
  if (k == 0u && params.force_first != 0u) { atomicOr(&bits[0], 1u); }
  if (k >= params.segments) { return; }
  let o = offsets[k];
  if (o < params.count) { atomicOr(&bits[o >> 5u], 1u << (o & 31u)); }
}
`,
  };
}
