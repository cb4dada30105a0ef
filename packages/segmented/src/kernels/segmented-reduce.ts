import {
  type ElementType,
  groupIdentityWgsl,
  groupScanWgsl,
  type KernelSpec,
  lookBackDeclsWgsl,
  type ScanOp,
  slotWgsl,
  TAKE_TILE_WGSL,
  unroll,
  wgslOp,
} from '@scan/core';
import { HEAD_COUNT_BLOCK } from './block-heads.js';
import { segGroupScanWgsl, segmentedLookBackWgsl, segmentedPublishWgsl } from './segmented-single-pass.js';

/** What the segmented reduce kernel is specialized on. */
export interface SegmentedReduceSpec {
  readonly type: ElementType;
  readonly op: ScanOp;
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  /** Contiguous elements per invocation: a multiple of 4 dividing 32 (one word of head bits). */
  readonly elementsPerThread: number;
  readonly maxSpin: number;
  /** Test hook: every predecessor reads as not ready, so the fallback does all the work. */
  readonly forceFallback?: boolean;
}

/** Elements per tile; a multiple of the head-count block, so a tile's first segment index is one lookup. */
export function segmentedReduceTile(spec: Pick<SegmentedReduceSpec, 'workgroupSize' | 'elementsPerThread'>): number {
  return spec.workgroupSize * spec.elementsPerThread;
}

/**
 * Segmented reduce in one pass (reduce-by-key). Each invocation owns `E` contiguous elements and
 * reduces them serially in registers, writing every segment that both starts and ends inside its
 * range at once. What crosses invocations is one (head, value) pair each — the value after its last
 * head, or its whole sum — scanned with the segmented operator across the tile; what crosses tiles
 * goes through core's decoupled look-back with fallback. A segment's index is the number of heads
 * before it: per tile from the pre-pass's head counts (`block_heads`), within the tile from a count
 * scan. Writes go to `seg_out[index]` as u32 bits.
 *
 * Bindings: 0 src, 1 seg_out, 2 aux, 3 params (`extra` = the chunk's first element), 4 status,
 * 5 head bits, 6 block heads (the last entry is the element count).
 *
 * @example
 * ```ts
 * const kernel = segmentedReduceKernel({ type: 'u32', op: 'add', subgroups: true, workgroupSize: 256,
 *   elementsPerThread: 16, maxSpin: 64 });
 * ```
 */
export function segmentedReduceKernel(spec: SegmentedReduceSpec): KernelSpec {
  const key = [
    'segmented/reduce',
    `${spec.type}.${spec.op}`,
    spec.subgroups ? 'sg' : 'wg',
    `${spec.workgroupSize}x${spec.elementsPerThread}`,
    `spin${spec.maxSpin}`,
    spec.forceFallback ? 'forced' : '',
  ].join('/');
  return { key, wgsl: () => segmentedReduceWgsl(spec) };
}

function segmentedReduceWgsl(spec: SegmentedReduceSpec): string {
  const o = wgslOp(spec.op, spec.type);
  const T = spec.type;
  const WG = spec.workgroupSize;
  const E = spec.elementsPerThread;
  const S = E / 4;
  const maxGroups = spec.subgroups ? WG / 4 : 1;
  const id = groupIdentityWgsl(spec.subgroups, WG);
  const c = o.combine;
  const counts = wgslOp('add', 'u32');
  // Element i of the invocation's range, from its vec4 slots.
  const element = (i: number) => `vals[${Math.floor(i / 4)}].${'xyzw'[i % 4]}`;
  return `${spec.subgroups ? 'enable subgroups;\ndiagnostic(off, subgroup_uniformity);' : ''}
${slotWgsl({ type: T, identity: o.identity, backward: false, writes: false })}
@group(0) @binding(1) var<storage, read_write> seg_out: array<u32>;
@group(0) @binding(5) var<storage, read> head_bits: array<u32>;
@group(0) @binding(6) var<storage, read> block_heads: array<u32>;

const WG: u32 = ${WG}u;
const E: u32 = ${E}u;
const TILE: u32 = ${WG * E}u;
${lookBackDeclsWgsl(o, spec)}
${segGroupScanWgsl(o, spec.subgroups, WG)}
${groupScanWgsl(counts, spec.subgroups, WG)}
${id.decls}
var<workgroup> wg_pair_head: array<u32, ${maxGroups}>;
var<workgroup> wg_pair_value: array<${T}, ${maxGroups}>;
var<workgroup> wg_pair_prefix_head: array<u32, ${maxGroups}>;
var<workgroup> wg_pair_prefix_value: array<${T}, ${maxGroups}>;
var<workgroup> wg_count: array<u32, ${maxGroups}>;
var<workgroup> wg_count_prefix: array<u32, ${maxGroups}>;
var<workgroup> wg_aggregate_head: u32;

fn emit(index: u32, value: ${T}) { seg_out[index] = bitcast<u32>(value); }

// Head bits of the E elements from chunk element e (one word: E divides 32 and e is a multiple of E).
fn range_heads(e: u32, valid: u32) -> u32 {
  let g = params.extra + e;
  let w = g >> 5u;
  var h = 0u;
  if (w < arrayLength(&head_bits)) { h = head_bits[w] >> (g & 31u); }
  h = h & select((1u << valid) - 1u, 0xffffffffu, valid >= 32u);
  return h;
}

// Segmented reduction of tile t, in order, for the fallback; valid in the leader.
fn tile_reduce(t: u32, leader: bool, group: u32, lane: u32, gsize: u32, groups: u32) -> Pair {
  let e0 = t * TILE + (group * gsize + lane) * E;
  var pair = Pair(0u, ${o.identity});
  if (e0 < params.count) {
    let valid = min(params.count - e0, E);
    var h = range_heads(e0, valid);
    if (params.carry_in == 0xffffffffu && e0 == 0u) { h = h | 1u; }
    for (var s = 0u; s < ${S}u; s++) {
      let x = load_slot(e0 / 4u + s);
      for (var j = 0u; j < 4u; j++) {
        let i = 4u * s + j;
        if (i < valid) { pair = seg(pair, Pair((h >> i) & 1u, x[j])); }
      }
    }
  }
  let scanned = seg_group_scan(pair, lane, gsize);
  if (lane == 0u) { wg_pair_head[group] = scanned.total.head; wg_pair_value[group] = scanned.total.value; }
  workgroupBarrier();
  var acc = Pair(0u, ${o.identity});
  if (leader) {
    for (var g = 0u; g < groups; g++) { acc = seg(acc, Pair(wg_pair_head[g], wg_pair_value[g])); }
  }
  workgroupBarrier();
  return acc;
}

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32${id.builtins}) {
  ${TAKE_TILE_WGSL}
  ${id.body}
  let leader = group == 0u && lane == 0u;
  let first_chunk = params.carry_in == 0xffffffffu;
  let total = block_heads[arrayLength(&block_heads) - 1u];

  // 1. Load this invocation's E contiguous elements (ranges follow the (group, lane) order the
  // group scans use) and their head bits.
  let e0 = tile * TILE + (group * gsize + lane) * E;
  let valid = select(0u, min(params.count - e0, E), e0 < params.count);
  var vals: array<vec4<${T}>, ${S}>;
  if (slots_whole(e0 / 4u, e0 / 4u + ${S - 1}u)) {
${unroll(S, (s) => `    vals[${s}] = load_slot_whole(e0 / 4u + ${s}u);`)}
  } else {
${unroll(S, (s) => `    vals[${s}] = load_slot(e0 / 4u + ${s}u);`)}
  }
  let raw = range_heads(e0, valid);
  var heads = raw;
  if (first_chunk && e0 == 0u && valid > 0u) { heads = heads | 1u; }

  // 2. Serial reduce: lead = before the first head, acc = since the last head. The segments that
  // start and end inside the range are written in step 4, once the count scan says their indices.
  var lead = ${o.identity};
  var acc = ${o.identity};
  var seen = false;
${unroll(
  E,
  (i) => `  if (${i}u < valid) {
    let x = ${element(i)};
    if (((heads >> ${i}u) & 1u) != 0u) {
      if (!seen) { lead = acc; }
      seen = true;
      acc = x;
    } else {
      acc = ${c('acc', 'x')};
    }
  }`,
)}
  if (!seen) { lead = acc; }

  // 3. Scans across the tile: (head, value) pairs with the segmented operator, and head counts.
  let mine = Pair(select(0u, 1u, seen), acc);
  let pairs = seg_group_scan(mine, lane, gsize);
  let counted = group_scan(countOneBits(raw), lane, gsize);
  if (lane == 0u) {
    wg_pair_head[group] = pairs.total.head;
    wg_pair_value[group] = pairs.total.value;
    wg_count[group] = counted.total;
  }
  workgroupBarrier();
  if (leader) {
    var agg = Pair(0u, ${o.identity});
    var n = 0u;
    for (var g = 0u; g < groups; g++) {
      wg_pair_prefix_head[g] = agg.head;
      wg_pair_prefix_value[g] = agg.value;
      wg_count_prefix[g] = n;
      agg = seg(agg, Pair(wg_pair_head[g], wg_pair_value[g]));
      n = n + wg_count[g];
    }
    wg_aggregate = agg.value;
    wg_aggregate_head = agg.head;
    ${segmentedPublishWgsl(o, 'agg')}
  }

  // Look-back with fallback for the tile's exclusive prefix.
  ${segmentedLookBackWgsl(o, spec.subgroups)}
  workgroupBarrier();

  // 4. Write the segments that end in this range. Heads before the range: the tile's (from the
  // pre-pass counts; tiles start on count blocks), the ranges' before it, and element 0's head when
  // its bit is clear.
  let g0 = params.extra + e0;
  let adjust = select(0u, 1u - (head_bits[0] & 1u), g0 > 0u);
  let before = block_heads[(params.extra + tile * TILE) / ${HEAD_COUNT_BLOCK}u] + wg_count_prefix[group] + counted.exclusive + adjust;
  // What flows into the range: from earlier ranges of the tile, else from the tile's prefix.
  let gp = Pair(wg_pair_prefix_head[group], wg_pair_prefix_value[group]);
  let into_group = select(${c('wg_exclusive', 'gp.value')}, gp.value, gp.head != 0u);
  let into = select(${c('into_group', 'pairs.exclusive.value')}, pairs.exclusive.value, pairs.exclusive.head != 0u);
  let ends_array = valid > 0u && g0 + valid == total;
  if (valid > 0u) {
    // The segment running into the range ends at its first head (or at the array's end).
    if (seen && g0 > 0u) { emit(before - 1u, ${c('into', 'lead')}); }
    if (!seen && ends_array) { emit(before - 1u, ${c('into', 'lead')}); }
    // Segments between heads of the range, then the last one if the array ends here.
    var rank = 0u;
    var run = ${o.identity};
${unroll(
  E,
  (i) => `    if (${i}u < valid) {
      if (((heads >> ${i}u) & 1u) != 0u) {
        if (rank > 0u) { emit(before + rank - 1u, run); }
        rank = rank + 1u;
        run = ${element(i)};
      } else {
        run = ${c('run', element(i))};
      }
    }`,
)}
    if (seen && ends_array) { emit(before + rank - 1u, run); }
  }
  if (tile == params.tiles - 1u && leader) {
    store_carry_out(select(${c('wg_exclusive', 'wg_aggregate')}, wg_aggregate, wg_aggregate_head != 0u));
  }
}
`;
}
