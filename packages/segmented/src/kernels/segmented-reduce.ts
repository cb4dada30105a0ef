import {
  type ElementType,
  groupIdentityWgsl,
  groupScanWgsl,
  type KernelSpec,
  LINEAR_WORKGROUP_WGSL,
  type ScanOp,
  slotWgsl,
  unroll,
  wgslOp,
} from '@scan/core';
import { HEAD_COUNT_BLOCK } from './block-heads.js';
import { segGroupScanWgsl, segmentedValueWgsl } from './segmented-single-pass.js';

/** What the segmented reduce kernel is specialized on. */
export interface SegmentedReduceSpec {
  readonly type: ElementType;
  readonly op: ScanOp;
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  /** Contiguous vec4 slots each invocation reduces per step: 1, 2, 4 or 8 (4× that divides 32). */
  readonly slotsPerRow: number;
}

/**
 * Elements per tile: one step of every group of a workgroup. A range (one workgroup's share) is a
 * whole number of tiles.
 *
 * @example
 * ```ts
 * segmentedReduceTile({ workgroupSize: 256, slotsPerRow: 4 }); // 4096
 * ```
 */
export function segmentedReduceTile(spec: Pick<SegmentedReduceSpec, 'workgroupSize' | 'slotsPerRow'>): number {
  return spec.workgroupSize * spec.slotsPerRow * 4;
}

/** u32 words of one range's record for `segmentedReduceFixupKernel`. */
export const RANGE_RECORD_WORDS = 4;

/**
 * Segmented reduce, main pass (reduce-by-key over ranges). Each workgroup owns one contiguous range
 * of `steps` tiles, and each group in it (a subgroup, or the workgroup without subgroups) one
 * contiguous sub-range, which it walks in `steps` steps with nothing shared between groups until
 * the end — no look-back, no tile counter, no barrier per step. In a step every invocation owns
 * `4·slotsPerRow` contiguous elements (close-to-coalesced vec4 loads) and reduces them serially in
 * registers, writing every segment whose head it has seen the moment it meets the segment's tail
 * (its successor is a head, or it ends the array). The segment running into its elements — its
 * lead — is finished after the step's segmented scan of (head, value) pairs across the group,
 * carried from step to step; only the one lead per group with no head before it in the sub-range
 * waits, for the end, where the workgroup combines its groups in order. What still needs the ranges
 * before — the range's own first segment — goes into the range's record: (head seen, value since
 * the last head) and (lead index, lead value), which `segmentedReduceFixupKernel` finishes.
 * A segment's output index is the number of heads up to its tail minus one: before the sub-range
 * from the pre-pass's per-block head counts (`block_heads`, scanned over the whole array), within it
 * by a count scan per step.
 *
 * Bindings: 0 src, 1 seg_out (u32 bits), 2 aux, 3 params (`tiles` = ranges of this dispatch,
 * `extra` = the chunk's first element), 4 records, 5 head bits, 6 block heads, 7 range params
 * { steps, first_range, total (elements of the whole array) }.
 *
 * @example
 * ```ts
 * const kernel = segmentedReduceKernel({ type: 'u32', op: 'add', subgroups: true, workgroupSize: 256,
 *   slotsPerRow: 4 });
 * ```
 */
export function segmentedReduceKernel(spec: SegmentedReduceSpec): KernelSpec {
  const key = [
    'segmented/reduce-ranges',
    `${spec.type}.${spec.op}`,
    spec.subgroups ? 'sg' : 'wg',
    `${spec.workgroupSize}x${spec.slotsPerRow}`,
  ].join('/');
  return { key, wgsl: () => segmentedReduceWgsl(spec) };
}

function segmentedReduceWgsl(spec: SegmentedReduceSpec): string {
  const o = wgslOp(spec.op, spec.type);
  const T = spec.type;
  const V = `vec4<${T}>`;
  const WG = spec.workgroupSize;
  const M = spec.slotsPerRow;
  const E = 4 * M; // elements per invocation per step
  const maxGroups = spec.subgroups ? WG / 4 : 1;
  const id = groupIdentityWgsl(spec.subgroups, WG);
  const c = o.combine;
  const segValue = (hb: string, vb: string, va: string) => segmentedValueWgsl(o, hb, vb, va);
  const counts = wgslOp('add', 'u32');
  const element = (i: number) => `vals[${Math.floor(i / 4)}].${'xyzw'[i % 4]}`;
  return `${spec.subgroups ? 'enable subgroups;\ndiagnostic(off, subgroup_uniformity);' : ''}
${slotWgsl({ type: T, identity: o.identity, backward: false, writes: false })}
@group(0) @binding(1) var<storage, read_write> seg_out: array<u32>;
@group(0) @binding(4) var<storage, read_write> records: array<u32>;
@group(0) @binding(5) var<storage, read> head_bits: array<u32>;
@group(0) @binding(6) var<storage, read> block_heads: array<u32>;
struct RangeParams { steps: u32, first_range: u32, total: u32, pad: u32 }
@group(0) @binding(7) var<uniform> ranges: RangeParams;

const NONE: u32 = 0xffffffffu;
const WG: u32 = ${WG}u;
const M: u32 = ${M}u;
const E: u32 = ${E}u;
${LINEAR_WORKGROUP_WGSL}
${segGroupScanWgsl(o, spec.subgroups, WG)}
${groupScanWgsl(counts, spec.subgroups, WG)}
${id.decls}
// Each group's state after its last step, for the workgroup's in-order combine.
var<workgroup> wg_run_head: array<u32, ${maxGroups}>;
var<workgroup> wg_run_value: array<${T}, ${maxGroups}>;
var<workgroup> wg_open_index: array<u32, ${maxGroups}>;
var<workgroup> wg_open_value: array<${T}, ${maxGroups}>;

fn head_bit(i: u32) -> u32 {
  let w = i >> 5u;
  if (w >= arrayLength(&head_bits)) { return 0u; }
  return (head_bits[w] >> (i & 31u)) & 1u;
}

// Heads (x) and tails (y) of the E elements from chunk element e (a multiple of E, and E divides
// 32, so one word holds them): bit j of the tails when element j is the last of its segment — its
// successor is a head, or it ends the array (total). Element 0 of the array is always a head.
fn range_bits(e: u32, total: u32) -> vec2<u32> {
  if (e >= params.count) { return vec2<u32>(0u); }
  let g = params.extra + e;
  let valid = min(params.count - e, E);
  let live = select((1u << valid) - 1u, 0xffffffffu, valid == 32u);
  let word = head_bits[g >> 5u] >> (g & 31u);
  var h = word & live;
  if (g == 0u) { h = h | 1u; }
  let last = select(head_bit(g + valid), 1u, g + valid == total);
  let t = ((word >> 1u) & (live >> 1u)) | (last << (valid - 1u));
  return vec2<u32>(h, t);
}

// Heads before global element e (element 0 always counts as one): the pre-pass's count up to e's
// block, plus the bits of the block before e.
fn heads_before(e: u32) -> u32 {
  var n = block_heads[e / ${HEAD_COUNT_BLOCK}u];
  for (var w = (e / ${HEAD_COUNT_BLOCK}u) * ${HEAD_COUNT_BLOCK / 32}u; w < e / 32u; w++) { n = n + countOneBits(head_bits[w]); }
  if ((e & 31u) != 0u) { n = n + countOneBits(head_bits[e / 32u] & ((1u << (e & 31u)) - 1u)); }
  return n + select(0u, 1u - (head_bits[0] & 1u), e > 0u);
}

fn emit(index: u32, value: ${T}) { seg_out[index] = bitcast<u32>(value); }

// The M slots of one invocation in one step, from slot s; whole (group-uniform) skips the checks.
fn load_step(s: u32, whole: bool) -> array<${V}, ${M}> {
  var v: array<${V}, ${M}>;
  if (whole) {
${unroll(M, (m) => `    v[${m}] = load_slot_whole(s + ${m}u);`)}
  } else {
${unroll(M, (m) => `    v[${m}] = load_slot(s + ${m}u);`)}
  }
  return v;
}

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>${id.builtins}) {
  let range = linear_workgroup(wid);
  if (range >= params.tiles) { return; }
  ${id.body}
  if (lane == 0u) { wg_open_index[group] = NONE; }
  workgroupBarrier();
  let total = ranges.total;
  let steps = ranges.steps;
  let step_slots = gsize * M;
  // The group's sub-range: steps × step_slots slots, after the groups before it in the range.
  let sub = (range * groups + group) * steps * step_slots;
  let whole = slots_whole(sub, sub + steps * step_slots - 1u);

  var seen = heads_before(params.extra + 4u * sub);   // heads before the step, in the whole array
  var run = Pair(0u, ${o.identity});                  // (head seen, value since the last head) of the sub-range so far
  var open_index = NONE;                              // the lead with no head before it in the sub-range
  var open_value = ${o.identity};
  var vals = load_step(sub + lane * M, whole);
  for (var step = 0u; step < steps; step++) {
    let first_slot = sub + step * step_slots + lane * M;
    let bits = range_bits(4u * first_slot, total);
    let h = bits.x;
    let t = bits.y;
    let counted = group_scan(countOneBits(h), lane, gsize);
    let first = seen + counted.exclusive;   // index of the first segment headed in the lane's elements
    // Reduce: acc runs since the last head; tails after a head are written now, the lead's tail
    // (before any head of the lane's elements) is kept.
    var acc = ${o.identity};
    var lead = ${o.identity};
    if (h == 0u) {
      // No head (most lanes when segments are long): one segment runs through, so the values combine
      // as vectors; a tail can only be the last element, closing the lead.
      var all = vals[0];
${unroll(M - 1, (m) => `      all = ${c('all', `vals[${m + 1}]`)};`)}
      acc = ${c(c('all.x', 'all.y'), c('all.z', 'all.w'))};
      if (t != 0u) { lead = acc; }
    } else {
${unroll(
  E,
  (i) => `      acc = ${segValue(`(h & ${2 ** i}u) != 0u`, element(i), 'acc')};
      if ((t & ${2 ** i}u) != 0u) {
        let m = h & ${2 ** (i + 1) - 1}u;
        if (m != 0u) { emit(first + countOneBits(m) - 1u, acc); } else { lead = acc; }
      }`,
)}
    }
    // The lead: its prefix comes from the lanes and steps before (or, if none of them holds a head,
    // from before the sub-range: it waits in open_*).
    let s = seg_group_scan(Pair(select(0u, 1u, h != 0u), acc), lane, gsize);
    let into = seg(run, s.exclusive);
    if (firstTrailingBit(t) < firstTrailingBit(h)) {
      let v = ${c('into.value', 'lead')};
      if (into.head != 0u) { emit(first - 1u, v); } else { open_index = first - 1u; open_value = v; }
    }
    run = seg(run, s.total);
    seen = seen + counted.total;
    if (step + 1u < steps) { vals = load_step(first_slot + step_slots, whole); }
  }

  // Combine: the groups in order finish each other's open leads; the range's own first segment
  // (no head before it in the range) and its aggregate go to the record for the fix-up.
  if (lane == 0u) { wg_run_head[group] = run.head; wg_run_value[group] = run.value; }
  if (open_index != NONE) { wg_open_index[group] = open_index; wg_open_value[group] = open_value; }
  workgroupBarrier();
  if (lid == 0u) {
    var acc = Pair(0u, ${o.identity});
    var lead_index = NONE;
    var lead_value = ${o.identity};
    for (var g = 0u; g < groups; g++) {
      let oi = wg_open_index[g];
      if (oi != NONE) {
        let v = ${c('acc.value', 'wg_open_value[g]')};
        if (acc.head != 0u) { emit(oi, v); } else { lead_index = oi; lead_value = v; }
      }
      acc = seg(acc, Pair(wg_run_head[g], wg_run_value[g]));
    }
    let r = ${RANGE_RECORD_WORDS}u * (ranges.first_range + range);
    records[r] = acc.head;
    records[r + 1u] = bitcast<u32>(acc.value);
    records[r + 2u] = lead_index;
    records[r + 3u] = bitcast<u32>(lead_value);
  }
}
`;
}
