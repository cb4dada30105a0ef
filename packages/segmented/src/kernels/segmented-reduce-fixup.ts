import { type ElementType, type KernelSpec, type ScanOp, unroll, WGSL_PRELUDE, wgslOp } from '@scan/core';
import { segGroupScanWgsl } from './segmented-single-pass.js';

/** What the segmented reduce fix-up is specialized on. */
export interface SegmentedReduceFixupSpec {
  readonly type: ElementType;
  readonly op: ScanOp;
  readonly workgroupSize: number;
}

/**
 * Segmented reduce, fix-up: one workgroup finishes the segments that cross range boundaries. The
 * range records (head seen, value since the last head) are scanned in order with the segmented
 * operator, in rounds of 4 records per invocation — each invocation folds its 4, one segmented scan
 * across the workgroup joins them, the round's total carries into the next — and every range's
 * lead (its first segment, begun in an earlier range) is written as the exclusive prefix before
 * the range ⊕ the lead's own value. There are a few thousand ranges, one or two rounds: this is
 * microseconds, and it replaces a look-back in the main pass.
 *
 * Bindings: 0 records (one vec4 per range: head, value bits, lead index, lead value bits),
 * 1 seg_out (u32 bits), 2 params { ranges }.
 *
 * @example
 * ```ts
 * const kernel = segmentedReduceFixupKernel({ type: 'f32', op: 'max', workgroupSize: 256 });
 * ```
 */
export function segmentedReduceFixupKernel(spec: SegmentedReduceFixupSpec): KernelSpec {
  const o = wgslOp(spec.op, spec.type);
  const T = spec.type;
  const WG = spec.workgroupSize;
  const PER = 4;
  return {
    key: `segmented/reduce-fixup/${T}.${spec.op}/${WG}`,
    wgsl: () => `${WGSL_PRELUDE}
struct FixupParams { ranges: u32, pad0: u32, pad1: u32, pad2: u32 }
@group(0) @binding(0) var<storage, read> records: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> seg_out: array<u32>;
@group(0) @binding(2) var<uniform> params: FixupParams;

const NONE: u32 = 0xffffffffu;
${segGroupScanWgsl(o, false, WG)}

// Record r, or an empty one (no head, the identity, no lead) past the last range.
fn record(r: u32) -> vec4<u32> {
  if (r >= params.ranges) { return vec4<u32>(0u, bitcast<u32>(${o.identity}), NONE, 0u); }
  return records[r];
}

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32) {
  var carry = Pair(0u, ${o.identity});
  for (var base = 0u; base < params.ranges; base += ${WG * PER}u) {
    let first = base + ${PER}u * lid;
    var rec: array<vec4<u32>, ${PER}>;
${unroll(PER, (k) => `    rec[${k}] = record(first + ${k}u);`)}
    var run = Pair(0u, ${o.identity});
${unroll(PER, (k) => `    run = seg(run, Pair(rec[${k}].x, bitcast<${T}>(rec[${k}].y)));`)}
    let scanned = seg_group_scan(run, lid, ${WG}u);
    var prefix = seg(carry, scanned.exclusive);
${unroll(
  PER,
  (k) => `    // A lead exists only after the range holding element 0's head, so prefix.head is set here.
    if (rec[${k}].z != NONE) { seg_out[rec[${k}].z] = bitcast<u32>(${o.combine('prefix.value', `bitcast<${T}>(rec[${k}].w)`)}); }
    prefix = seg(prefix, Pair(rec[${k}].x, bitcast<${T}>(rec[${k}].y)));`,
)}
    carry = seg(carry, scanned.total);
  }
}
`,
  };
}
