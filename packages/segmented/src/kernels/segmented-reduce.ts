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
import {
  segGroupScanWgsl,
  segmentedLookBackWgsl,
  segmentedSlotsWgsl,
  segmentedTileDeclsWgsl,
  segmentedTileReduceWgsl,
  segmentedValueWgsl,
} from './segmented-single-pass.js';

/** What the segmented reduce kernel is specialized on. */
export interface SegmentedReduceSpec {
  readonly type: ElementType;
  readonly op: ScanOp;
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  /** Contiguous vec4 slots each invocation reduces per row: 1, 2, 4 or 8 (4× that divides 32). */
  readonly slotsPerRow: number;
  /** Rows per tile. A tile is workgroupSize × slotsPerRow × rows × 4 elements. */
  readonly rows: number;
  readonly maxSpin: number;
  /** Test hook: every predecessor reads as not ready, so the fallback does all the work. */
  readonly forceFallback?: boolean;
}

/** Elements per tile; a multiple of the head-count block, so a tile's first segment index is one lookup. */
export function segmentedReduceTile(spec: Pick<SegmentedReduceSpec, 'workgroupSize' | 'slotsPerRow' | 'rows'>): number {
  return spec.workgroupSize * spec.slotsPerRow * spec.rows * 4;
}

/**
 * Segmented reduce in one pass (reduce-by-key). A group (a subgroup, or the workgroup without
 * subgroups) takes a contiguous run of the tile and goes through it in rows; in each row every
 * invocation owns `4·slotsPerRow` contiguous elements, so the loads stay close to coalesced while
 * the reduction itself is serial, in registers, a few instructions per element. In its range an
 * invocation writes every segment whose head it has seen the moment it meets the segment's tail
 * (its successor is a head, or it ends the array). The segment running into the range — its lead —
 * is finished after the row's segmented scan of (head, value) pairs across the group; if no head
 * precedes it in the group's run, it still needs the prefix from earlier groups and tiles, which
 * core's decoupled look-back with fallback provides, so that one write (at most one per run) waits.
 * A segment's output index is the number of heads up to its tail minus one: before the run from the
 * pre-pass's per-block head counts (`block_heads`), within the run by a count scan per row.
 *
 * Bindings: 0 src, 1 seg_out (u32 bits), 2 aux, 3 params (`extra` = the chunk's first element),
 * 4 status, 5 head bits, 6 block heads (the last entry is the element count).
 *
 * @example
 * ```ts
 * const kernel = segmentedReduceKernel({ type: 'u32', op: 'add', subgroups: true, workgroupSize: 256,
 *   slotsPerRow: 4, rows: 2, maxSpin: 64 });
 * ```
 */
export function segmentedReduceKernel(spec: SegmentedReduceSpec): KernelSpec {
  const key = [
    'segmented/reduce',
    `${spec.type}.${spec.op}`,
    spec.subgroups ? 'sg' : 'wg',
    `${spec.workgroupSize}x${spec.slotsPerRow}x${spec.rows}`,
    `spin${spec.maxSpin}`,
    spec.forceFallback ? 'forced' : '',
  ].join('/');
  return { key, wgsl: () => segmentedReduceWgsl(spec) };
}

function segmentedReduceWgsl(spec: SegmentedReduceSpec): string {
  const o = wgslOp(spec.op, spec.type);
  const T = spec.type;
  const V = `vec4<${T}>`;
  const WG = spec.workgroupSize;
  const M = spec.slotsPerRow;
  const R = spec.rows;
  const E = 4 * M; // elements per invocation per row
  const maxGroups = spec.subgroups ? WG / 4 : 1;
  const id = groupIdentityWgsl(spec.subgroups, WG);
  const c = o.combine;
  const segValue = (hb: string, vb: string, va: string) => segmentedValueWgsl(o, hb, vb, va);
  const counts = wgslOp('add', 'u32');
  const element = (r: number, i: number) => `vals[${r * M + Math.floor(i / 4)}].${'xyzw'[i % 4]}`;
  return `${spec.subgroups ? 'enable subgroups;\ndiagnostic(off, subgroup_uniformity);' : ''}
${slotWgsl({ type: T, identity: o.identity, backward: false, writes: false })}
@group(0) @binding(1) var<storage, read_write> seg_out: array<u32>;
@group(0) @binding(5) var<storage, read> head_bits: array<u32>;
@group(0) @binding(6) var<storage, read> block_heads: array<u32>;

const WG: u32 = ${WG}u;
const K: u32 = ${M * R}u;   // slots per invocation per tile (the fallback's tile_reduce reads them in order)
const TILE_SLOTS: u32 = ${WG * M * R}u;
const M: u32 = ${M}u;
const E: u32 = ${E}u;
${lookBackDeclsWgsl(o, spec)}
${segGroupScanWgsl(o, spec.subgroups, WG)}
${groupScanWgsl(counts, spec.subgroups, WG)}
${id.decls}
${segmentedTileDeclsWgsl(T, maxGroups)}
var<workgroup> wg_aggregate_head: u32;   // 1 when the tile holds a segment head

${segmentedSlotsWgsl(o, false)}

fn head_bit(i: u32) -> u32 {
  let w = i >> 5u;
  if (w >= arrayLength(&head_bits)) { return 0u; }
  return (head_bits[w] >> (i & 31u)) & 1u;
}

// Heads (x) and tails (y) of the E elements from chunk element e (a multiple of E, and E divides
// 32, so one word holds them): bit j of the tails when element j is the last of its segment — its
// successor is a head, or it ends the array (\`total\`). Element 0 of the array is always a head.
fn range_bits(e: u32, total: u32) -> vec2<u32> {
  if (e >= params.count) { return vec2<u32>(0u); }
  let g = params.extra + e;
  let valid = min(params.count - e, E);
  let live = select((1u << valid) - 1u, 0xffffffffu, valid == 32u);
  let word = head_bits[g >> 5u] >> (g & 31u);
  var h = word & live;
  if (params.carry_in == 0xffffffffu && e == 0u) { h = h | 1u; }
  let last = select(head_bit(g + valid), 1u, g + valid == total);
  let t = ((word >> 1u) & (live >> 1u)) | (last << (valid - 1u));
  return vec2<u32>(h, t);
}

// Heads before global element e (element 0 always counts as one): the pre-pass's count up to e's
// block, plus the bits of the block before e (none when e starts a block, as runs usually do).
fn heads_before(e: u32) -> u32 {
  var n = block_heads[e / ${HEAD_COUNT_BLOCK}u];
  for (var w = (e / ${HEAD_COUNT_BLOCK}u) * ${HEAD_COUNT_BLOCK / 32}u; w < e / 32u; w++) { n = n + countOneBits(head_bits[w]); }
  if ((e & 31u) != 0u) { n = n + countOneBits(head_bits[e / 32u] & ((1u << (e & 31u)) - 1u)); }
  return n + select(0u, 1u - (head_bits[0] & 1u), e > 0u);
}

fn emit(index: u32, value: ${T}) { seg_out[index] = bitcast<u32>(value); }

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32${id.builtins}) {
  ${TAKE_TILE_WGSL}
  ${id.body}
  let leader = group == 0u && lane == 0u;
  let total = block_heads[arrayLength(&block_heads) - 1u];

  // 1. Load: row r of the group's run is gsize × M slots; this invocation's are M contiguous ones.
  let base = tile * TILE_SLOTS + group * gsize * K;
  var vals: array<${V}, ${M * R}>;
  if (slots_whole(base, base + gsize * K - 1u)) {
${unroll(R, (r) => unroll(M, (m) => `    vals[${r * M + m}] = load_slot_whole(base + ${r}u * gsize * M + lane * M + ${m}u);`))}
  } else {
${unroll(R, (r) => unroll(M, (m) => `    vals[${r * M + m}] = load_slot(base + ${r}u * gsize * M + lane * M + ${m}u);`))}
  }

  // 2. Reduce, row by row. seen: heads before this row in the whole array; run: the (head, value)
  // pair of the run so far. The open lead (no head before it in the run) waits in open_*.
  var seen = heads_before(params.extra + 4u * base);
  var run = Pair(0u, ${o.identity});
  var open_index = NONE;
  var open_value = ${o.identity};
${unroll(
  R,
  (r) => `  {
    let bits = range_bits(4u * (base + ${r}u * gsize * M + lane * M), total);
    let h = bits.x;
    let t = bits.y;
    let counted = group_scan(countOneBits(h), lane, gsize);
    let first = seen + counted.exclusive;   // index of the first segment headed in the range
    // Serial reduce: acc runs since the last head; tails after a head are written now, the lead's
    // tail (before any head of the range) is kept.
    var acc = ${o.identity};
    var lead = ${o.identity};
    if (h == 0u) {
      // No head in the range (most ranges when segments are long): one segment runs through it, so
      // its values combine as vectors; a tail can only be the last element, closing the lead.
      var all = vals[${r * M}];
${unroll(M - 1, (m) => `      all = ${c('all', `vals[${r * M + m + 1}]`)};`)}
      acc = ${c(c('all.x', 'all.y'), c('all.z', 'all.w'))};
      if (t != 0u) { lead = acc; }
    } else {
${unroll(
  E,
  (i) => `      acc = ${segValue(`(h & ${2 ** i}u) != 0u`, element(r, i), 'acc')};
      if ((t & ${2 ** i}u) != 0u) {
        let m = h & ${2 ** (i + 1) - 1}u;
        if (m != 0u) { emit(first + countOneBits(m) - 1u, acc); } else { lead = acc; }
      }`,
)}
    }
    // The lead: its prefix comes from the lanes and rows before (or, if none of them holds a head,
    // from before the run).
    let s = seg_group_scan(Pair(select(0u, 1u, h != 0u), acc), lane, gsize);
    let into = seg(run, s.exclusive);
    if (firstTrailingBit(t) < firstTrailingBit(h)) {
      let v = ${c('into.value', 'lead')};
      if (into.head != 0u) { emit(first - 1u, v); } else { open_index = first - 1u; open_value = v; }
    }
    run = seg(run, s.total);
    seen = seen + counted.total;
  }`,
)}

  // 3. Tile reduce: group totals → group prefixes and the tile aggregate, published at once when
  // the tile holds a head.
  ${segmentedTileReduceWgsl(o, 'run')}

  // 4. Look-back with fallback for the tile's exclusive prefix.
  ${segmentedLookBackWgsl(o, spec.subgroups)}
  workgroupBarrier();

  // 5. The run's open lead takes tile prefix ⊕ group prefix.
  if (open_index != NONE) {
    let gp = Pair(wg_group_prefix_head[group], wg_group_prefix[group]);
    let p = ${segValue('gp.head != 0u', 'gp.value', 'wg_exclusive')};
    emit(open_index, ${c('p', 'open_value')});
  }
  if (tile == params.tiles - 1u && leader) {
    store_carry_out(${segValue('wg_aggregate_head != 0u', 'wg_aggregate', 'wg_exclusive')});
  }
}
`;
}
