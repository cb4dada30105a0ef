import type { ElementType, ScanOp } from '@scan/core';
import {
  composeBlocks,
  type DecoupledLookBack,
  defineKernel,
  groupIdentityWgsl,
  LOOK_BACK_STATUS,
  lookBackCommonWgsl,
  read,
  SLOT_PARAMS,
  TAKE_TILE_WGSL,
  type TileIoBlock,
  tileIo,
  tileLookBack,
  unroll,
  type WgslOp,
  wgslOp,
} from '@scan/core/kit';

/** What a single-pass segmented scan kernel is specialized on. */
export type SegmentedSinglePassSpec = {
  readonly type: ElementType;
  readonly op: ScanOp;
  readonly inclusive: boolean;
  readonly backward: boolean;
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  /** vec4 slots per invocation: a tile is workgroupSize × slotsPerThread × 4 elements. */
  readonly slotsPerThread: number;
  readonly maxSpin: number;
  /** Test hook: every predecessor reads as not ready, so the fallback does all the work. */
  readonly forceFallback?: boolean;
};

/**
 * Single-pass segmented scan: the decoupled look-back + fallback scan of `@scan/core` over pairs
 * (head, value) with the segmented operator (h₁, v₁) ⊕ (h₂, v₂) = (h₁ | h₂, h₂ ? v₂ : v₁ ⊕ v₂).
 *
 * The "segment started here" bit travels with every partial result: through the in-vector scan, the
 * group scans, the tile aggregate, and the look-back. A tile that holds a head publishes INCLUSIVE
 * at once — its last segment does not depend on its predecessors — so successors stop there; tiles
 * without heads publish plain AGGREGATEs, which is why the look-back itself is core's unchanged.
 * Head flags are read bit-packed (bit i % 32 of word ⌊i/32⌋); a backward scan reads each element's
 * *next* bit, the paper's "flags shifted by one when reversed".
 *
 * Bindings: `src`, `dst`, `aux` (core's slot view), `status` (look-back), `head_bits` (the whole
 * array's); parameters {@link SLOT_PARAMS}, `extra` being the chunk's first element.
 *
 * @example
 * ```ts
 * const kernel = segmentedSinglePassKernel({ type: 'u32', op: 'add', inclusive: false, backward: false,
 *   subgroups: true, workgroupSize: 256, slotsPerThread: 4, maxSpin: 64 });
 * b.dispatch(kernel, { src, dst, aux, status, head_bits: headBits }, tiles, chunkParamValues(chunk, tiles, x, chunk.start));
 * ```
 */
export const segmentedSinglePassKernel = defineKernel({
  name: 'segmented/single-pass',
  bindings: (spec: SegmentedSinglePassSpec) => {
    const { src, dst, aux } = segmentedTileIo(spec).bindings; // the slot view's, named so that recipes are typed
    return { src, dst, aux, status: LOOK_BACK_STATUS, head_bits: read('array<u32>') };
  },
  params: SLOT_PARAMS,
  enable: (spec) => (spec.subgroups ? ['subgroups'] : []),
  wgsl: (spec) => segmentedSinglePassWgsl(spec),
});

/**
 * The tile of the single-pass segmented scan (the kit's tile load and store): K vec4 slots per
 * invocation through core's slot view with its carry between chunks, group-striped — each group's
 * run of gsize × K slots contiguous, every load coalesced, all K in flight at once, the whole/partial
 * split and the tail the block's. The (head, value) scan itself stays hand-written: see
 * {@link segGroupScanWgsl}.
 */
function segmentedTileIo(spec: SegmentedSinglePassSpec): TileIoBlock {
  return tileIo({
    name: 'tile',
    type: spec.type,
    workgroupSize: spec.workgroupSize,
    itemsPerThread: spec.slotsPerThread,
    arrangement: 'group-striped',
    backward: spec.backward,
    fill: wgslOp(spec.op, spec.type).identity,
    source: { kind: 'slots', writes: true, carry: true },
  });
}

function segmentedSinglePassWgsl(spec: SegmentedSinglePassSpec): string {
  const o = wgslOp(spec.op, spec.type);
  const T = spec.type;
  const WG = spec.workgroupSize;
  const K = spec.slotsPerThread;
  const V = `vec4<${T}>`;
  const maxGroups = spec.subgroups ? WG / 4 : 1;
  const id = groupIdentityWgsl(spec.subgroups, WG);
  const c = o.combine;
  const segValue = (hb: string, vb: string, va: string) => segmentedValueWgsl(o, hb, vb, va);
  const lb = segmentedLookBack(o, spec);
  const io = segmentedTileIo(spec);
  return `${composeBlocks(io).decls}
${lookBackCommonWgsl(T)}
${lb.decls}
${segGroupScanWgsl(o, spec.subgroups, WG)}
${id.decls}
${segmentedTileDeclsWgsl(T, maxGroups)}
var<workgroup> wg_aggregate_head: u32;   // 1 when the tile holds a segment head

${segmentedSlotsWgsl(o, spec.backward, io)}
@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32${id.builtins}) {
  ${TAKE_TILE_WGSL}
  ${id.body}
  let leader = group == 0u && lane == 0u;

  // 1. Tile load: the group's run of gsize × K slots, and their head bits.
  var vals = ${io.load('tile')};
  let first_slot = tile * tile_TILE;
  var heads: array<u32, ${K}>;
${unroll(K, (k) => `  heads[${k}] = slot_heads(first_slot + ${io.position(`${k}u`)});`)}

  // 2. Local scan over (head, value) pairs. open: bit 4k + j is set when element j of slot k has
  // no head at or before it in the group's run, so it still needs the prefix from before the run.
  // Not the kit's block scan: its operator is one shuffled type with items vec4 of it, where a
  // pair is two values, and it would lose seg_group_scan's integer-add path (one hardware
  // inclusive add corrected at the last head with one ballot); with the tile prefix as its seed it
  // would also combine every element twice, where the open bits combine the prefix once, in 5.
  var run = Pair(0u, ${o.identity});
  var open = 0u;
${unroll(
  K,
  (k) => `  {
    let x = vals[${k}];
    let h = heads[${k}];
    let c = h | (h << 1u) | (h << 2u) | (h << 3u);   // cumulative heads within the vec4
    let inc = vec_inclusive(x, h);
    let s = seg_group_scan(Pair(select(0u, 1u, h != 0u), inc.w), lane, gsize);
    let lp = seg(run, s.exclusive);   // everything in the run before this vec4
    // Elements with no head at or before them within the vec4 take the prefix lp.
    let closed = vec4<bool>((c & 1u) != 0u, (c & 2u) != 0u, (c & 4u) != 0u, (c & 8u) != 0u);
    let full = select(${c(`${V}(lp.value)`, 'inc')}, inc, closed);
    ${
      spec.inclusive
        ? `vals[${k}] = full;`
        : `let heads4 = vec4<bool>((h & 1u) != 0u, (h & 2u) != 0u, (h & 4u) != 0u, (h & 8u) != 0u);
    vals[${k}] = select(${V}(lp.value, full.x, full.y, full.z), ${V}(${o.identity}), heads4);`
    }
    if (lp.head == 0u) { open = open | ((~c & 0xfu) << ${4 * k}u); }
    run = seg(run, s.total);
  }`,
)}

  // 3. Tile reduce: group totals → group prefixes and the tile aggregate. A tile holding a head
  // publishes INCLUSIVE at once; its successors need not look past it. (Not the block scan's step
  // across groups: the leader alone combines the pairs and publishes, and the barrier after the
  // look-back orders the prefixes' reads, where the block's step needs one more barrier of its own.)
  ${segmentedTileReduceWgsl(o, 'run')}

  // 4. Look-back with fallback (core's look-back: only head-free tiles publish AGGREGATE).
  ${lb.start}
  ${lb.finish}
  workgroupBarrier();

  // 5. Propagate: open elements take tile prefix ⊕ group prefix; then the tile store.
  let gp = Pair(wg_group_prefix_head[group], wg_group_prefix[group]);
  let p = ${segValue('gp.head != 0u', 'gp.value', 'wg_exclusive')};
${unroll(
  K,
  (k) => `  {
    let m = open >> ${4 * k}u;
    let take = vec4<bool>((m & 1u) != 0u, (m & 2u) != 0u, (m & 4u) != 0u, (m & 8u) != 0u);
    vals[${k}] = select(vals[${k}], ${c(`${V}(p)`, `vals[${k}]`)}, take);
  }`,
)}
  ${io.store('tile', 'vals')}
  if (tile == params.tiles - 1u && leader) {
    store_carry_out(${segValue('wg_aggregate_head != 0u', 'wg_aggregate', 'wg_exclusive')});
  }
}
`;
}

/**
 * `Pair`, the segmented operator `seg(a, b)`, and `seg_group_scan(x, lane, size)` → inclusive,
 * exclusive and total pairs over a subgroup (shuffles) or the workgroup (workgroup memory).
 */
export function segGroupScanWgsl(o: WgslOp, subgroups: boolean, workgroupSize: number): string {
  const T = o.type;
  const header = `struct Pair { head: u32, value: ${T} }
struct SegScan { inclusive: Pair, exclusive: Pair, total: Pair }

fn seg(a: Pair, b: Pair) -> Pair {
  return Pair(a.head | b.head, select(${o.combine('a.value', 'b.value')}, b.value, b.head != 0u));
}
`;
  if (subgroups && o.op === 'add' && T !== 'f32') {
    // Integer add is invertible and exact (wrapping), so a segment's sum over lanes [h, i] is
    // inc(i) − exc(h): one hardware inclusive add, a ballot of the head lanes, and two shuffles
    // replace the pair-wise Kogge–Stone. (Not for f32: the difference would cancel badly.)
    return `${header}
// Highest lane ≤ lane whose bit is set in a subgroup ballot, or NONE.
fn last_set_lane(mask: vec4<u32>, lane: u32) -> u32 {
  let w = lane >> 5u;
  let keep = 0xffffffffu >> (31u - (lane & 31u));
  var r = NONE;
  for (var k = 0u; k < 4u; k++) {
    var m = mask[k];
    if (k == w) { m = m & keep; }
    if (k <= w && m != 0u) { r = 32u * k + firstLeadingBit(m); }
  }
  return r;
}

fn seg_group_scan(x: Pair, lane: u32, size: u32) -> SegScan {
  let inc = subgroupInclusiveAdd(x.value);
  let exc = inc - x.value;
  let heads = subgroupBallot(x.head != 0u);
  let h = last_set_lane(heads, lane);
  let base = subgroupShuffle(exc, select(h, 0u, h == NONE));
  let seg_inc = inc - select(base, ${o.identity}, h == NONE);
  let any_head = select(0u, 1u, h != NONE);
  let prev_value = subgroupShuffleUp(seg_inc, 1u);
  let prev_head = subgroupShuffleUp(any_head, 1u);
  let exclusive = Pair(select(0u, prev_head, lane > 0u), select(${o.identity}, prev_value, lane > 0u));
  let last = size - 1u;
  let total = Pair(select(0u, 1u, any(heads != vec4<u32>(0u))), subgroupShuffle(seg_inc, last));
  return SegScan(Pair(any_head, seg_inc), exclusive, total);
}
`;
  }
  if (subgroups) {
    return `${header}
fn seg_group_scan(x: Pair, lane: u32, size: u32) -> SegScan {
  var inc = x;
  for (var d = 1u; d < size; d = d << 1u) {
    let up = Pair(subgroupShuffleUp(inc.head, d), subgroupShuffleUp(inc.value, d));
    if (lane >= d) { inc = seg(up, inc); }
  }
  let prev = Pair(subgroupShuffleUp(inc.head, 1u), subgroupShuffleUp(inc.value, 1u));
  let exc = Pair(select(0u, prev.head, lane > 0u), select(${o.identity}, prev.value, lane > 0u));
  let total = Pair(subgroupShuffle(inc.head, size - 1u), subgroupShuffle(inc.value, size - 1u));
  return SegScan(inc, exc, total);
}
`;
  }
  return `${header}
var<workgroup> seg_heads: array<u32, ${workgroupSize}>;
var<workgroup> seg_values: array<${T}, ${workgroupSize}>;

fn seg_group_scan(x: Pair, lane: u32, size: u32) -> SegScan {
  var inc = x;
  for (var d = 1u; d < ${workgroupSize}u; d = d << 1u) {
    seg_heads[lane] = inc.head;
    seg_values[lane] = inc.value;
    workgroupBarrier();
    if (lane >= d) { inc = seg(Pair(seg_heads[lane - d], seg_values[lane - d]), inc); }
    workgroupBarrier();
  }
  seg_heads[lane] = inc.head;
  seg_values[lane] = inc.value;
  workgroupBarrier();
  let j = max(lane, 1u) - 1u;
  let exc = Pair(select(0u, seg_heads[j], lane > 0u), select(${o.identity}, seg_values[j], lane > 0u));
  let total = Pair(seg_heads[${workgroupSize - 1}u], seg_values[${workgroupSize - 1}u]);
  workgroupBarrier();
  return SegScan(inc, exc, total);
}
`;
}

/**
 * The look-back with fallback of a segmented tile: core's tile look-back (head-free tiles publish
 * AGGREGATEs, so the walk is unchanged) with the segmented INCLUSIVE (a tile holding a head ignores
 * its past), and a fallback over `tile_reduce(...) -> Pair` whose head ends the walk: that
 * predecessor's aggregate is then its INCLUSIVE value. Expects `wg_aggregate_head` and
 * `tile_reduce`; leaves `wg_exclusive` set after `finish`.
 *
 * @example
 * ```ts
 * const lb = segmentedLookBack(wgslOp('add', 'u32'), { subgroups: true, maxSpin: 64 });
 * const body = `${lb.start}\n${lb.finish}`;
 * ```
 */
export function segmentedLookBack(o: WgslOp, spec: { subgroups: boolean; maxSpin: number; forceFallback?: boolean }): DecoupledLookBack {
  const lb = tileLookBack(o, {
    subgroups: spec.subgroups,
    maxSpin: spec.maxSpin,
    forceFallback: spec.forceFallback,
    beforeFirst: 'load_carry_in()',
    inclusive: (p) => `select(${o.combine(p, 'wg_aggregate')}, wg_aggregate, wg_aggregate_head != 0u)`,
    fallback: {
      // tile_reduce's pair is valid in the leader; its head, which every walker must agree on, goes
      // through workgroup memory.
      run: (t) => `let found = tile_reduce(${t}, leader, group, lane, gsize, groups);
    if (leader) { wg_found_head = found.head; }`,
      value: () => 'found.value',
      ends: () => 'wg_found_head != 0u',
    },
  });
  return { ...lb, decls: `${lb.decls}var<workgroup> wg_found_head: u32;   // the fallback's stalled tile holds a head\n` };
}

/**
 * The leader's publication of a segmented tile's aggregate pair `agg` (a WGSL `Pair`): tile 0
 * publishes INCLUSIVE seeded with the carry; a tile holding a head publishes INCLUSIVE at once (its
 * last segment does not depend on the past); others publish AGGREGATE.
 *
 * @example
 * ```ts
 * const code = `if (leader) { ${segmentedPublishWgsl(wgslOp('add', 'u32'), 'acc')} }`;
 * ```
 */
export function segmentedPublishWgsl(o: WgslOp, agg: string): string {
  return `if (tile == 0u) {
      let carry = load_carry_in();
      wg_exclusive = carry;
      lb_publish(0u, 0u, FLAG_INCLUSIVE, select(${o.combine('carry', `${agg}.value`)}, ${agg}.value, ${agg}.head != 0u));
    } else {
      lb_publish(tile, 0u, select(FLAG_AGGREGATE, FLAG_INCLUSIVE, ${agg}.head != 0u), ${agg}.value);
    }`;
}

/**
 * The pieces the single-pass segmented scan reads its tiles with, as WGSL:
 * `bits_at(i)` (4 head bits from global bit i), `slot_heads(s)` (the heads of logical slot s in the
 * scan's direction, element 0 of the array forced to a head), `vec_total(x, h)` (the (head, value)
 * total of one vec4) and `tile_reduce(...)`, the in-order segmented reduction of a whole tile that
 * the look-back's fallback runs. Expects the tile block `io` (its slot view and positions),
 * `Pair`/`seg`/`seg_group_scan` and the workgroup arrays `wg_group_total`/`wg_group_head`.
 *
 * @example
 * ```ts nocheck
 * const code = segmentedSlotsWgsl(wgslOp('add', 'u32'), false, segmentedTileIo(spec));
 * ```
 */
function segmentedSlotsWgsl(o: WgslOp, backward: boolean, io: TileIoBlock): string {
  const T = o.type;
  const V = `vec4<${T}>`;
  const segValue = (hb: string, vb: string, va: string) => segmentedValueWgsl(o, hb, vb, va);
  // The head bits a chunk needs end at its last element's bit (forward), or one past it (backward:
  // the next chunk's first head), except in the array's last chunk, whose last element always ends
  // a segment. The binding is the caller's whole buffer (one bind group serves every count), so
  // this bound, not arrayLength, keeps reads inside the data; every bit past it is masked anyway.
  const end = backward ? 'params.extra + params.count + select(1u, 0u, params.carry_in == 0xffffffffu)' : 'params.extra + params.count';
  return `// 4 bits of the head flags from global bit i (they may straddle two words); words past the
// chunk's head bits read as 0.
fn bits_at(i: u32) -> u32 {
  let w = i >> 5u;
  let sh = i & 31u;
  let n = (${end} + 31u) / 32u;
  var x = 0u;
  if (w < n) { x = head_bits[w] >> sh; }
  if (sh > 28u && w + 1u < n) { x = x | (head_bits[w + 1u] << (32u - sh)); }
  return x & 0xfu;
}

// Heads of logical slot s, bit l for logical lane l, in the scan's direction. Element 0 of the array
// always starts a segment (forward), and its last element always ends one (backward).
fn slot_heads(s: u32) -> u32 {
  if (s >= params.slots) { return 0u; }
  let first_chunk = params.carry_in == 0xffffffffu;
  let v = ${backward ? 'params.slots - 1u - s' : 's'};
  let valid = min(params.count - 4u * v, 4u);
  let live = (1u << valid) - 1u;
${
  backward
    ? `  // Backward: element p is a head in scan order when it is the last of its segment, i.e. when
  // element p + 1 starts one — the paper's flags shifted by one.
  var h = bits_at(params.extra + 4u * v + 1u) & live;
  if (first_chunk && 4u * v + valid == params.count) { h = h | (1u << (valid - 1u)); }
  return ((h & 1u) << 3u) | ((h & 2u) << 1u) | ((h & 4u) >> 1u) | ((h & 8u) >> 3u);`
    : `  var h = bits_at(params.extra + 4u * v) & live;
  if (first_chunk && v == 0u) { h = h | 1u; }
  return h;`
}
}

// Segmented reduction of tile t, in order, for the fallback; valid in the leader. One slot at a
// time, not the tile load's K at once: the scanning tile's items stay live across the look-back,
// and K more vec4s there would add to its registers.
fn tile_reduce(t: u32, leader: bool, group: u32, lane: u32, gsize: u32, groups: u32) -> Pair {
  let first = t * tile_TILE;
  var run = Pair(0u, ${o.identity});
  for (var k = 0u; k < tile_K; k++) {
    let slot = first + ${io.position('k')};
    let lanePair = vec_total(load_slot(slot), slot_heads(slot));
    let s = seg_group_scan(lanePair, lane, gsize);
    run = seg(run, s.total);
  }
  return join_groups(run, leader, group, lane, groups);
}

${segJoinWgsl(o, 'wg_group_head', 'wg_group_total')}

// The segmented inclusive scan of one vec4 with head bits h, in logical order.
fn vec_inclusive(x: ${V}, h: u32) -> ${V} {
  var inc = x;
  inc.y = ${segValue('(h & 2u) != 0u', 'x.y', 'inc.x')};
  inc.z = ${segValue('(h & 4u) != 0u', 'x.z', 'inc.y')};
  inc.w = ${segValue('(h & 8u) != 0u', 'x.w', 'inc.z')};
  return inc;
}

// The (head, value) total of one vec4 with head bits h.
fn vec_total(x: ${V}, h: u32) -> Pair {
  return Pair(select(0u, 1u, h != 0u), vec_inclusive(x, h).w);
}
`;
}

/**
 * `join_groups(run, leader, group, lane, groups) -> Pair`: every group's (head, value) pair `run`
 * combined in group order with the segmented operator, through the workgroup arrays `heads` and
 * `values` (one entry per group); valid in the leader. Every invocation calls it (barriers).
 *
 * @example
 * ```ts
 * const code = segJoinWgsl(wgslOp('add', 'u32'), 'wg_group_head', 'wg_group_total');
 * ```
 */
export function segJoinWgsl(o: WgslOp, heads: string, values: string): string {
  return `fn join_groups(run: Pair, leader: bool, group: u32, lane: u32, groups: u32) -> Pair {
  if (lane == 0u) { ${heads}[group] = run.head; ${values}[group] = run.value; }
  workgroupBarrier();
  var acc = Pair(0u, ${o.identity});
  if (leader) {
    for (var g = 0u; g < groups; g++) { acc = seg(acc, Pair(${heads}[g], ${values}[g])); }
  }
  workgroupBarrier();
  return acc;
}`;
}

/**
 * The value half of the segmented operator on a pair held in separate variables, as a WGSL
 * expression: `vb` when the right operand holds a head (`hb`), else `va ⊕ vb`.
 *
 * @example
 * ```ts
 * const expr = segmentedValueWgsl(wgslOp("add", "u32"), "h != 0u", "x", "acc"); // acc + x, or x after a head
 * ```
 */
export function segmentedValueWgsl(o: WgslOp, hb: string, vb: string, va: string): string {
  return `select(${o.combine(va, vb)}, ${vb}, ${hb})`;
}

/**
 * Workgroup arrays of a segmented tile's reduction: each group's (head, value) total and, after
 * {@link segmentedTileReduceWgsl}, its exclusive prefix within the tile.
 *
 * @example
 * ```ts nocheck
 * const decls = segmentedTileDeclsWgsl('u32', 64);
 * ```
 */
function segmentedTileDeclsWgsl(type: string, maxGroups: number): string {
  return `var<workgroup> wg_group_total: array<${type}, ${maxGroups}>;
var<workgroup> wg_group_head: array<u32, ${maxGroups}>;
var<workgroup> wg_group_prefix: array<${type}, ${maxGroups}>;
var<workgroup> wg_group_prefix_head: array<u32, ${maxGroups}>;`;
}

/**
 * The tile reduce of the single-pass segmented scan, as a WGSL block: every group's running
 * pair \`run\` (a \`Pair\`) → group prefixes and the tile aggregate, which the leader publishes
 * (INCLUSIVE at once when the tile holds a head: its successors need not look past it).
 *
 * @example
 * ```ts nocheck
 * const code = segmentedTileReduceWgsl(wgslOp('add', 'u32'), 'run');
 * ```
 */
function segmentedTileReduceWgsl(o: WgslOp, run: string): string {
  return `if (lane == 0u) { wg_group_total[group] = ${run}.value; wg_group_head[group] = ${run}.head; }
  workgroupBarrier();
  if (leader) {
    var acc = Pair(0u, ${o.identity});
    for (var g = 0u; g < groups; g++) {
      wg_group_prefix[g] = acc.value;
      wg_group_prefix_head[g] = acc.head;
      acc = seg(acc, Pair(wg_group_head[g], wg_group_total[g]));
    }
    wg_aggregate = acc.value;
    wg_aggregate_head = acc.head;
    ${segmentedPublishWgsl(o, 'acc')}
  }`;
}
