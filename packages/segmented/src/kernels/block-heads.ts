import type { KernelSpec } from '@scan/core';

/** Elements per block of the head counts that locate segment indices (8 words of head bits). */
export const HEAD_COUNT_BLOCK = 256;

/**
 * Segmented reduce, pre-pass: the number of head bits in each block of 256 elements (8 words), so
 * that after an exclusive scan of these counts, the index of the segment an element belongs to is
 * one lookup plus at most 8 popcounts. Invocation 0 also writes the element count after the last
 * block's entry of `block_heads` (the scan fills the entries before it).
 * Bindings: 0 head_bits, 1 counts (one per block), 2 block_heads, 3 params { count, blocks, dispatch_x }.
 *
 * @example
 * ```ts
 * const kernel = blockHeadCountKernel(256);
 * ```
 */
export function blockHeadCountKernel(workgroupSize: number): KernelSpec {
  return {
    key: `segmented/block-head-count/${workgroupSize}`,
    wgsl: () => `
struct CountParams { count: u32, blocks: u32, dispatch_x: u32 }
@group(0) @binding(0) var<storage, read> head_bits: array<u32>;
@group(0) @binding(1) var<storage, read_write> counts: array<u32>;
@group(0) @binding(2) var<storage, read_write> block_heads: array<u32>;
@group(0) @binding(3) var<uniform> params: CountParams;

@compute @workgroup_size(${workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let b = (wid.x + wid.y * params.dispatch_x) * ${workgroupSize}u + lid;
  if (b == 0u) { block_heads[params.blocks] = params.count; }
  if (b >= params.blocks) { return; }
  let words = (params.count + 31u) / 32u;
  var c = 0u;
  for (var w = b * 8u; w < min(words, b * 8u + 8u); w++) {
    var bits = head_bits[w];
    // Bits past the last element do not count.
    if (w == words - 1u && (params.count & 31u) != 0u) { bits = bits & ((1u << (params.count & 31u)) - 1u); }
    c = c + countOneBits(bits);
  }
  counts[b] = c;
}
`,
  };
}
