import type { ElementType, ScanOp } from '@scan/core';
import {
  defineKernel,
  groupIdentityWgsl,
  groupScanWgsl,
  LOOK_BACK_STATUS,
  lookBackCommonWgsl,
  type ParamFields,
  read,
  readWrite,
  SLOT_PARAMS,
  slotBindings,
  slotFunctionsWgsl,
  uniform,
  unroll,
  wgslOp,
} from '@scan/core/kit';
import { headCountLookBack } from './head-count-look-back.js';
import { segGroupScanWgsl, segJoinWgsl, segmentedLookBack, segmentedPublishWgsl, segmentedValueWgsl } from './segmented-single-pass.js';

/** What the segmented reduce kernel is specialized on. */
export type SegmentedReduceSpec = {
  readonly type: ElementType;
  readonly op: ScanOp;
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  /** Contiguous vec4 slots each invocation reduces per step: 1, 2, 4 or 8 (4× that divides 32). */
  readonly slotsPerRow: number;
  /** Reads of a not-ready predecessor before a look-back falls back to its own reading. */
  readonly maxSpin: number;
  /** Test hook: every predecessor reads as not ready, so both fallbacks do all the work. */
  readonly forceFallback?: boolean;
};

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

/**
 * The fields of the segmented reduce's second uniform, `ranges`, in struct order (its own
 * parameters are core's {@link SLOT_PARAMS}, all eight words): tiles per range, the first range of
 * the dispatch in the whole array, and the whole array's elements.
 *
 * @example
 * ```ts
 * const fields = Object.keys(RANGE_PARAMS); // ['steps', 'first_range', 'total']
 * ```
 */
export const RANGE_PARAMS = { steps: 'u32', first_range: 'u32', total: 'u32' } as const satisfies ParamFields;

/**
 * Segmented reduce as one pass (reduce-by-key over ranges). Each workgroup takes the next range of
 * `steps` tiles from a ticket, and each group in it (a subgroup, or the workgroup without subgroups)
 * one contiguous sub-range. The phases:
 *
 * 1. **Count.** Every group counts the heads in its sub-range (its head bits only, 1/32 of its
 *    data); the range publishes its total, and a decoupled look-back with fallback over the ranges'
 *    counts (`headCountLookBack`) gives the heads before it. A segment's output index is the
 *    number of heads up to its tail minus one, so every index in the range follows.
 * 2. **Reduce.** Each group walks its sub-range in `steps` steps with nothing shared between groups
 *    — no barrier per step. In a step every invocation owns `4·slotsPerRow` contiguous elements
 *    (close-to-coalesced vec4 loads) and reduces them serially in registers; the segments it both
 *    starts and ends are written at once (their values picked from the in-register segmented scan).
 *    The segment running into its elements — its lead — is finished after the step's segmented
 *    scan of (head, value) pairs across the group; only a lead with no head before it in the
 *    sub-range waits, for the end.
 * 3. **Join.** The workgroup combines its groups in order, finishing their waiting leads, and
 *    publishes the range's (head, value) aggregate — INCLUSIVE at once when it holds a head.
 * 4. **Look-back.** The range's own first segment, begun in an earlier range, takes its prefix from
 *    the ranges before. Usually the one before has published INCLUSIVE by the end of the join, and
 *    one read of its status finishes the segment; otherwise the segmented look-back with fallback of
 *    the single-pass scan (`segmentedLookBack`) runs. A range that starts with a head skips it.
 *
 * Bindings: `src`, `aux` (core's slot view), `seg_out` (u32 bits), `status` (`status[0]` the
 * ticket, then one 128-byte line per range of the whole array: words 0–1 the value status, 2–3 the
 * head count), `head_bits`, and `ranges`, a second uniform ({@link RANGE_PARAMS}: `steps`,
 * `first_range`, `total` = elements of the whole array). Parameters {@link SLOT_PARAMS}: `tiles` =
 * ranges of this dispatch, `extra` = the chunk's first element.
 *
 * @example
 * ```ts
 * const kernel = segmentedReduceKernel({ type: 'u32', op: 'add', subgroups: true, workgroupSize: 256,
 *   slotsPerRow: 4, maxSpin: 64 });
 * b.dispatch(kernel, { src, seg_out, aux, status, head_bits, ranges }, ranges, chunkParamValues(chunk, ranges, x, chunk.start));
 * ```
 */
export const segmentedReduceKernel = defineKernel({
  name: 'segmented/reduce-ranges',
  bindings: (spec: SegmentedReduceSpec) => ({
    ...slotBindings({ type: spec.type, writes: false }),
    seg_out: readWrite('array<u32>'),
    status: LOOK_BACK_STATUS,
    head_bits: read('array<u32>'),
    ranges: uniform('RangeParams', RANGE_PARAMS),
  }),
  params: SLOT_PARAMS,
  enable: (spec) => (spec.subgroups ? ['subgroups'] : []),
  wgsl: (spec) => segmentedReduceWgsl(spec),
});

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
  // The lane's segmented scan over its E elements in place, acc ending as the value since the last head.
  const laneScan = unroll(E, (i) => `      acc = ${segValue(`(h & ${2 ** i}u) != 0u`, element(i), 'acc')}; ${element(i)} = acc;`);
  // Two look-backs over the same status lines: the range's value (words 0–1) and its heads (2–3).
  const lb = segmentedLookBack(o, spec);
  const heads = headCountLookBack({ ...spec, tileElements: segmentedReduceTile(spec) });
  return `${slotFunctionsWgsl({ type: T, identity: o.identity, backward: false, writes: false })}

const WG: u32 = ${WG}u;
const M: u32 = ${M}u;
const E: u32 = ${E}u;
${lookBackCommonWgsl(T)}
${lb.decls}
${heads.decls}
${segGroupScanWgsl(o, spec.subgroups, WG)}
${groupScanWgsl(counts, spec.subgroups, WG)}
${id.decls}
var<workgroup> wg_group_heads: array<u32, ${maxGroups}>;   // heads in each group's sub-range, then before it in the range
var<workgroup> wg_range_heads: u32;
var<workgroup> wg_heads_before: u32;                        // heads in the ranges before this one
// Each group's state after its last step, for the join.
var<workgroup> wg_run_head: array<u32, ${maxGroups}>;
var<workgroup> wg_run_value: array<${T}, ${maxGroups}>;
var<workgroup> wg_open_index: array<u32, ${maxGroups}>;
var<workgroup> wg_open_value: array<${T}, ${maxGroups}>;
var<workgroup> wg_aggregate_head: u32;
var<workgroup> wg_lead_index: u32;
var<workgroup> wg_lead_value: ${T};

// Head bit of global element i; 0 past the array (ranges.total elements). The binding is the
// caller's whole buffer (one bind group serves every count), so the count bounds the reads, not
// arrayLength: words past the data may hold anything.
fn head_bit(i: u32) -> u32 {
  let w = i >> 5u;
  if (w >= (ranges.total + 31u) / 32u) { return 0u; }
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

fn emit(index: u32, value: ${T}) { seg_out[index] = bitcast<u32>(value); }

// The bits below x's lowest set bit (all of them when x is 0).
fn below_lowest_bit(x: u32) -> u32 { return (x & (0u - x)) - 1u; }

// The index of x's lowest set bit, 32 when x is 0. Not firstTrailingBit: Tint writes that as a
// five-step binary search (about 20 instructions on NVIDIA), where the population count of the bits
// below the lowest one is 3. H100, 2^28 u32 add: −4.5% at mean segment 16, −2.5% at 256, but +0.4%
// (+4.6% at 2^24) with one-element segments (benchmark history, 2026-12-05 fifth).
fn lowest_bit(x: u32) -> u32 { return countOneBits(below_lowest_bit(x)); }

// The M slots of one invocation in one step, from slot s; whole (group-uniform) skips the checks.
// Not the kit's tile load: a group's steps lie in one contiguous sub-range, not in tiles of a
// workgroup arrangement, and whole is decided once for the whole sub-range, out of the step loop,
// where the tile load decides again at every call in every invocation.
fn load_step(s: u32, whole: bool) -> array<${V}, ${M}> {
  var v: array<${V}, ${M}>;
  if (whole) {
${unroll(M, (m) => `    v[${m}] = load_slot_whole(s + ${m}u);`)}
  } else {
${unroll(M, (m) => `    v[${m}] = load_slot(s + ${m}u);`)}
  }
  return v;
}

// Element p (0 … E−1) of one invocation's step, by a tree of selects: a dynamic index into the array
// would move it out of registers.
fn pick(v: array<${V}, ${M}>, p: u32) -> ${T} {
${pickTreeWgsl(M)}
}

// The (head, value) aggregate of global range t, for the look-back's fallback; valid in the leader.
fn tile_reduce(t: u32, leader: bool, group: u32, lane: u32, gsize: u32, groups: u32) -> Pair {
  if (t < ranges.first_range) {
    // A range of an earlier chunk, whose data this dispatch does not bind. That dispatch has
    // finished, so its status is final (only forced fallbacks get here): an INCLUSIVE value holds
    // all that came before, so it ends the walk as a head would.
    let st = lb_load(t, 0u);
    return Pair(select(0u, 1u, st.flag == FLAG_INCLUSIVE), bitcast<${T}>(st.bits));
  }
  let step_slots = gsize * M;
  let sub = ((t - ranges.first_range) * groups + group) * ranges.steps * step_slots;
  var run = Pair(0u, ${o.identity});
  for (var step = 0u; step < ranges.steps; step++) {
    let first_slot = sub + step * step_slots + lane * M;
    var vals = load_step(first_slot, false);
    let h = range_bits(4u * first_slot, ranges.total).x;
    var acc = ${o.identity};
${laneScan}
    run = seg(run, seg_group_scan(Pair(select(0u, 1u, h != 0u), acc), lane, gsize).total);
  }
  return join_groups(run, leader, group, lane, groups);
}

${segJoinWgsl(o, 'wg_run_head', 'wg_run_value')}

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32${id.builtins}) {
  // Ranges go out in the order workgroups start, so a range's predecessors have usually started.
  if (lid == 0u) { wg_tile = atomicAdd(&status[0], 1u); }
  let local = workgroupUniformLoad(&wg_tile);
  if (local >= params.tiles) { return; }
  let tile = ranges.first_range + local;   // statuses are numbered over the whole array
  ${id.body}
  let leader = group == 0u && lane == 0u;
  if (lane == 0u) { wg_open_index[group] = NONE; }
  let total = ranges.total;
  let steps = ranges.steps;
  let step_slots = gsize * M;
  // The group's sub-range: steps × step_slots slots, after the groups before it in the range.
  let sub = (local * groups + group) * steps * step_slots;
  let whole = slots_whole(sub, sub + steps * step_slots - 1u);
  var vals = load_step(sub + lane * M, whole);   // in flight while the heads are counted

  // 1. Count: the heads of each group's sub-range, of the range, and — by look-back — before the
  // range. (Not the kit's block scan: the steps need each group's prefix, not each invocation's, and
  // the leader's loop publishes at once; the block's step across groups takes one barrier more.)
  let e0 = params.extra + 4u * sub;
  let mine = heads_in(e0, min(e0 + 4u * steps * step_slots, total), lane, gsize);
  let here = group_scan(mine, lane, gsize).total;
  if (lane == 0u) { wg_group_heads[group] = here; }
  workgroupBarrier();
  if (leader) {
    var sum = 0u;
    for (var g = 0u; g < groups; g++) {
      let n = wg_group_heads[g];
      wg_group_heads[g] = sum;
      sum = sum + n;
    }
    wg_range_heads = sum;
    wg_heads_before = 0u;
    heads_publish(tile, 0u, select(FLAG_AGGREGATE, FLAG_INCLUSIVE, tile == 0u), sum);
  }
  ${heads.start}
  ${heads.finish}
  workgroupBarrier();

  // 2. Reduce, step by step.
  var seen = wg_heads_before + wg_group_heads[group];   // heads before the step, in the whole array
  var run = Pair(0u, ${o.identity});                      // (head seen, value since the last head) of the sub-range so far
  var open_index = NONE;                                  // the lead with no head before it in the sub-range
  var open_value = ${o.identity};
  for (var step = 0u; step < steps; step++) {
    let first_slot = sub + step * step_slots + lane * M;
    let bits = range_bits(4u * first_slot, total);
    let h = bits.x;
    let t = bits.y;
    let counted = group_scan(countOneBits(h), lane, gsize);
    let first = seen + counted.exclusive;   // index of the first segment headed in the lane's elements
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
      // The lane's segmented scan, then the segment ends: the one before the first head closes the
      // lead; every later tail closes a segment headed here, written at the next index.
${laneScan}
      let before_head = below_lowest_bit(h);
      if ((t & before_head) != 0u) { lead = pick(vals, lowest_bit(t & before_head)); }
      var ends = t & ~before_head;
      var index = first;
      loop {
        if (ends == 0u) { break; }
        emit(index, pick(vals, lowest_bit(ends)));
        index = index + 1u;
        ends = ends & (ends - 1u);
      }
    }
    // The lead: its prefix comes from the lanes and steps before (or, if none of them holds a head,
    // from before the sub-range: it waits in open_*). The (head, value) pairs are scanned by
    // seg_group_scan, not a block scan, whose operator is one shuffled type (see the single-pass scan).
    let s = seg_group_scan(Pair(select(0u, 1u, h != 0u), acc), lane, gsize);
    let into = seg(run, s.exclusive);
    if (lowest_bit(t) < lowest_bit(h)) {   // 32 for no bit, past any element
      let v = ${c('into.value', 'lead')};
      if (into.head != 0u) { emit(first - 1u, v); } else { open_index = first - 1u; open_value = v; }
    }
    run = seg(run, s.total);
    seen = seen + counted.total;
    if (step + 1u < steps) { vals = load_step(first_slot + step_slots, whole); }
  }

  // 3. Join: the groups in order finish each other's open leads; what is left open is the range's
  // own first segment, and the range's aggregate is published. (The leader's loop, not a block
  // reduce: it emits the open leads on the way, and a block reduce's result in every invocation
  // would cost one barrier more.)
  if (lane == 0u) { wg_run_head[group] = run.head; wg_run_value[group] = run.value; }
  if (open_index != NONE) { wg_open_index[group] = open_index; wg_open_value[group] = open_value; }
  workgroupBarrier();
  if (leader) {
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
    wg_aggregate = acc.value;
    wg_aggregate_head = acc.head;
    ${segmentedPublishWgsl(o, 'acc')}
    // 4. The range's first segment, when it began in an earlier range, needs the ranges before:
    // usually the one before has published its INCLUSIVE value by now, and it ends here.
    if (tile > 0u && lead_index != NONE) {
      let st = lb_read(tile - 1u, 0u);
      if (st.flag == FLAG_INCLUSIVE) {
        let before = bitcast<${T}>(st.bits);
        emit(lead_index, ${c('before', 'lead_value')});
        lead_index = NONE;
        if (acc.head == 0u) { lb_publish(tile, 0u, FLAG_INCLUSIVE, ${c('before', 'acc.value')}); }
      }
    }
    wg_lead_index = lead_index;
    wg_lead_value = lead_value;
  }

  // Otherwise the segmented look-back with fallback.
  if (workgroupUniformLoad(&wg_lead_index) != NONE) {
    ${lb.start}
    ${lb.finish}
    if (leader) { emit(wg_lead_index, ${c('wg_exclusive', 'wg_lead_value')}); }
  }
}
`;
}

/** The body of `pick(v, p)`: halve the M vec4s by the high bits of p, then the last vec4 by the low two. */
function pickTreeWgsl(M: number): string {
  const lines: string[] = [];
  let names = Array.from({ length: M }, (_, m) => `v[${m}]`);
  for (let level = 0; names.length > 1; level++) {
    const next: string[] = [];
    for (let j = 0; j < names.length; j += 2) {
      lines.push(`  let q${level}_${j / 2} = select(${names[j]}, ${names[j + 1]}, (p & ${4 << level}u) != 0u);`);
      next.push(`q${level}_${j / 2}`);
    }
    names = next;
  }
  lines.push(`  let half = select(${names[0]}.xy, ${names[0]}.zw, (p & 2u) != 0u);`);
  lines.push('  return select(half.x, half.y, (p & 1u) != 0u);');
  return lines.join('\n');
}
