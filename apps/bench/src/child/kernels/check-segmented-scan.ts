import { COMMON_WGSL, ENTRY_ARGS, ERROR_WGSL, WG } from './common.js';
import { HEAD_FNS_WGSL } from './head-bits.js';

/**
 * WGSL that checks an exclusive u32 add segmented scan element by element against its recurrence:
 * forward `out[i] = is_head(i) ? 0 : out[i-1] + in[i-1]`; backward (each segment scanned from its
 * end) `out[i] = is_last(i) ? 0 : out[i+1] + in[i+1]`. Every segment then holds its exclusive scan
 * by induction from the element where it starts (its head, or its last element backward), so a
 * pass proves the whole output exact (u32 wraps the same way in both). A mismatch is reported at
 * its physical index. Bindings: 0 input, 1 output, 2 head bits, 3 error counters, 4 params (`p.n`).
 *
 * @example
 * ```ts
 * getPipeline(ctx, { key: 'bench/check-segmented-scan/bwd', wgsl: () => checkSegmentedScanWgsl(true) });
 * ```
 */
export function checkSegmentedScanWgsl(backward: boolean): string {
  // The neighbour the recurrence comes from, and the condition under which there is none.
  const [start, from] = backward ? ['is_last(i)', 'i + 1u'] : ['is_head(i)', 'i - 1u'];
  return `${COMMON_WGSL}
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read> out: array<u32>;
@group(0) @binding(2) var<storage, read> bits: array<u32>;
${ERROR_WGSL(3)}
@group(0) @binding(4) var<uniform> p: Params;
${HEAD_FNS_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i >= p.n) { return; }
  var expected = 0u;
  // A branch, not select(): select would read the neighbour even at the array's ends.
  if (!${start}) { expected = out[${from}] + inp[${from}]; }
  if (out[i] != expected) { mismatch(i); }
}
`;
}
