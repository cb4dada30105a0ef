import type { ElementType } from '../element-types.js';
import type { KernelSpec } from '../pipeline-cache.js';
import type { CompareOp } from '../predicate.js';
import { groupIdentityWgsl, groupScanWgsl } from './group-scan.js';
import { lookBackDeclsWgsl, lookBackFallbackWgsl, lookBackStepWgsl, TAKE_TILE_WGSL } from './look-back.js';
import { AUX_FREE, slotWgsl } from './slots.js';
import { unroll } from './unroll.js';
import { wgslOp } from './wgsl-ops.js';

/**
 * Where an element's flag comes from: a u32 word per element, a byte per element (four to a word),
 * or a comparison of the element itself with a constant (`params.extra` holds its bits).
 * A flag is true when it is not zero.
 */
export type FlagSource = { readonly kind: 'u32' } | { readonly kind: 'u8' } | { readonly kind: 'predicate'; readonly op: CompareOp };

/** What a one-pass split or pack kernel is specialized on. */
export interface CompactSpec {
  readonly mode: 'split' | 'pack';
  readonly flags: FlagSource;
  /** Element type: only the predicate compares values; elements move as raw 32-bit words. */
  readonly type: ElementType;
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  /** vec4 slots per invocation: a tile is workgroupSize × slotsPerThread × 4 elements. */
  readonly slotsPerThread: number;
  /**
   * Gather the tile's moved elements in workgroup memory and store them as contiguous runs (true),
   * or store each element straight from registers to its destination (false).
   */
  readonly staging: boolean;
  readonly maxSpin: number;
  /** Test hook: every look-back falls back. */
  readonly forceFallback?: boolean;
}

/** Binding numbers of the compaction kernels (0 src, 2 aux, 3 params come from the slot view). */
export const COMPACT_BINDINGS = { src: 0, moved: 1, aux: 2, params: 3, status: 4, flags: 5, count: 6, trues: 7 } as const;

/** aux words of the u32 flags' partial last vec4 (the data's tail uses AUX_TAIL_IN). */
export const AUX_FLAG_TAIL = AUX_FREE;

/**
 * The WGSL of a flag source: the flags binding, `load_flags(s, x) -> vec4<u32>` giving the 0/1
 * flags of logical slot `s` whose data is `x` (elements past `params.count` are 0), and
 * `load_flags_whole(s, x)`, the same without bounds checks for slots that lie in whole vec4s.
 */
function flagSourceWgsl(flags: FlagSource, type: ElementType): string {
  const past = `let past = vec4<u32>(4u * s) + vec4<u32>(0u, 1u, 2u, 3u) >= vec4<u32>(params.count);`;
  if (flags.kind === 'u32') {
    return `@group(0) @binding(${COMPACT_BINDINGS.flags}) var<storage, read> flags: array<vec4<u32>>;
fn load_flags_whole(s: u32, x: vec4<u32>) -> vec4<u32> {
  return select(vec4<u32>(0u), vec4<u32>(1u), flags[s] != vec4<u32>(0u));
}
fn load_flags(s: u32, x: vec4<u32>) -> vec4<u32> {
  if (s < params.full_vecs) { return load_flags_whole(s, x); }
  // The partial last vec4, staged in aux by the plan; lanes past the end are 0.
  ${past}
  let f = vec4<u32>(aux[${AUX_FLAG_TAIL}u], aux[${AUX_FLAG_TAIL + 1}u], aux[${AUX_FLAG_TAIL + 2}u], aux[${AUX_FLAG_TAIL + 3}u]);
  return select(select(vec4<u32>(0u), vec4<u32>(1u), f != vec4<u32>(0u)), vec4<u32>(0u), past);
}`;
  }
  if (flags.kind === 'u8') {
    // One word holds the four flags of a slot, bytes in element order (little-endian).
    return `@group(0) @binding(${COMPACT_BINDINGS.flags}) var<storage, read> flags: array<u32>;
fn load_flags_whole(s: u32, x: vec4<u32>) -> vec4<u32> {
  let w = flags[s];
  return select(vec4<u32>(0u), vec4<u32>(1u), (vec4<u32>(w) & vec4<u32>(0xffu, 0xff00u, 0xff0000u, 0xff000000u)) != vec4<u32>(0u));
}
fn load_flags(s: u32, x: vec4<u32>) -> vec4<u32> {
  if (s >= params.slots) { return vec4<u32>(0u); }
  ${past}
  return select(load_flags_whole(s, x), vec4<u32>(0u), past);
}`;
  }
  const cmp = { lt: '<', le: '<=', gt: '>', ge: '>=', eq: '==', ne: '!=' }[flags.op];
  // WGSL lets a compiler assume floats are never NaN, so f32 NaNs are found by their bits: a NaN
  // on either side makes every comparison false and 'ne' true, as in IEEE 754 and JavaScript.
  const nan =
    type === 'f32'
      ? `
  let nan = ((x & vec4<u32>(0x7fffffffu)) > vec4<u32>(0x7f800000u)) | vec4<bool>((params.extra & 0x7fffffffu) > 0x7f800000u);
  t = select(t, vec4<bool>(${flags.op === 'ne'}), nan);`
      : '';
  return `fn load_flags_whole(s: u32, x: vec4<u32>) -> vec4<u32> {
  let v = bitcast<vec4<${type}>>(x);
  let c = bitcast<${type}>(params.extra);
  var t = v ${cmp} vec4<${type}>(c);${nan}
  return select(vec4<u32>(0u), vec4<u32>(1u), t);
}
fn load_flags(s: u32, x: vec4<u32>) -> vec4<u32> {
  ${past}
  return select(load_flags_whole(s, x), vec4<u32>(0u), past);
}`;
}

/**
 * The one-pass split and pack (stream compaction) kernel. Each tile counts its flags and takes
 * its output offset through the decoupled look-back with fallback (Smith, Levien & Owens, SPAA 2025)
 * over the counts of trues, then moves its elements in the same kernel — no scan written to memory,
 * no second pass over the data. Phases, per tile:
 *
 * 1. **load** — each invocation loads its K vec4 slots of data and their flags into registers;
 * 2. **tile reduce** — the count of trues of the invocation, its group and the tile; the tile's
 *    count is published at once as AGGREGATE (tile 0: INCLUSIVE);
 * 3. **look-back** — group 0 walks back over the predecessors' counts while the others rank;
 * 4. **rank and stage** — a group scan of the counts gives each element its rank among the tile's
 *    trues (and falses); with `staging`, the tile's moved elements are written to workgroup memory
 *    in output order (pack: the trues; split: the falses, then the trues);
 * 5. **fallback** — a predecessor that stays NOT_READY is counted by the whole workgroup from its
 *    flags, so the kernel needs no forward progress between workgroups;
 * 6. **store** — with `staging`, consecutive invocations store consecutive elements of the staged
 *    runs (contiguous global writes); without, each element goes from registers to its place.
 *
 * Pack writes the trues from 0; the last tile writes their number to `count_out[0]`. Split writes
 * the falses from 0 and the trues from the total count of falses, which no tile can know from its
 * predecessors alone (it depends on the last flag): a count pass ({@link flagCountKernel}) puts the
 * number of trues in `trues_total[0]` first, and tile 0 writes the falses' number to `count_out[0]`.
 *
 * Bindings: 0 src (data, vec4 slots; tail in aux), 1 moved (output, u32 words), 2 aux, 3 params
 * (`extra`: the predicate's constant), 4 status, 5 flags (absent for the predicate), 6 count_out,
 * 7 trues_total (split).
 */
export function compactKernel(spec: CompactSpec): KernelSpec {
  const key = [
    `compact/${spec.mode}`,
    spec.flags.kind === 'predicate' ? `pred-${spec.flags.op}-${spec.type}` : spec.flags.kind,
    spec.subgroups ? 'sg' : 'wg',
    `${spec.workgroupSize}x${spec.slotsPerThread}`,
    spec.staging ? 'staged' : 'direct',
    `spin${spec.maxSpin}`,
    spec.forceFallback ? 'forced' : '',
  ].join('/');
  return { key, wgsl: () => compactWgsl(spec) };
}

function compactWgsl(spec: CompactSpec): string {
  const o = wgslOp('add', 'u32');
  const WG = spec.workgroupSize;
  const K = spec.slotsPerThread;
  const TILE = 4 * WG * K;
  const maxGroups = spec.subgroups ? WG / 4 : 1;
  const id = groupIdentityWgsl(spec.subgroups, WG);
  const split = spec.mode === 'split';
  // Moves element c of slot k: its rank among the tile's trues is rb[k] plus the trues before it in
  // the slot (`before`); among the falses, its index in the tile minus that. Staged: to its place in
  // the tile's output order (split: falses, then trues); direct: to its place in the output.
  const moveOne = (k: number, c: number) => {
    const bit = `((m[${k}] >> ${c}u) & 1u)`;
    const rt = `(rb[${k}] + countOneBits(m[${k}] & ${(1 << c) - 1}u))`;
    const local = `(4u * s + ${c}u - tile_start)`;
    const rf = `(${local} - ${rt})`;
    const value = `vals[${k}][${c}]`;
    if (!split) {
      const at = spec.staging ? `stage[${rt}]` : `moved[wg_exclusive + ${rt}]`;
      return `if (${bit} != 0u) { ${at} = ${value}; }`;
    }
    const at = spec.staging
      ? `stage[select(${rf}, tile_falses + ${rt}, ${bit} != 0u)]`
      : `moved[select(wg_falses_before + ${rf}, false_total + wg_exclusive + ${rt}, ${bit} != 0u)]`;
    return `if (4u * s + ${c}u < params.count) { ${at} = ${value}; }`;
  };
  const moveSlot = (k: number) => `  {
    let s = base + ${k}u * gsize + lane;
    ${[0, 1, 2, 3].map((c) => moveOne(k, c)).join('\n    ')}
  }`;
  return `${spec.subgroups ? 'enable subgroups;\ndiagnostic(off, subgroup_uniformity);' : ''}
${slotWgsl({ type: 'u32', identity: '0u', backward: false, writes: false, bindings: { src: COMPACT_BINDINGS.src, dst: COMPACT_BINDINGS.moved, aux: COMPACT_BINDINGS.aux, params: COMPACT_BINDINGS.params } })}
@group(0) @binding(${COMPACT_BINDINGS.moved}) var<storage, read_write> moved: array<u32>;
@group(0) @binding(${COMPACT_BINDINGS.count}) var<storage, read_write> count_out: array<u32>;
${split ? `@group(0) @binding(${COMPACT_BINDINGS.trues}) var<storage, read> trues_total: array<u32>;` : ''}
${flagSourceWgsl(spec.flags, spec.type)}

const WG: u32 = ${WG}u;
const K: u32 = ${K}u;                // vec4 slots per invocation
const TILE_SLOTS: u32 = ${WG * K}u;
${groupScanWgsl(o, spec.subgroups, WG)}
${id.decls}
var<workgroup> wg_group_total: array<u32, ${maxGroups}>;
var<workgroup> wg_group_prefix: array<u32, ${maxGroups}>;
${spec.staging ? `var<workgroup> stage: array<u32, ${TILE}>;` : ''}
${split ? 'var<workgroup> wg_falses_before: u32;' : ''}
${lookBackDeclsWgsl(o, spec)}
// The four 0/1 flags of a slot as a 4-bit mask (bit c: element c), so a slot's flags take one register.
fn mask_of(f: vec4<u32>) -> u32 { return f.x | (f.y << 1u) | (f.z << 2u) | (f.w << 3u); }

// Counts the trues of tile t with the whole workgroup (the fallback); the result is valid in the leader.
fn tile_count(t: u32, leader: bool, group: u32, lane: u32, gsize: u32, groups: u32) -> u32 {
  let base = t * TILE_SLOTS + group * gsize * K;
  var acc = 0u;
  for (var k = 0u; k < K; k++) {
    let s = base + k * gsize + lane;
    acc += countOneBits(mask_of(load_flags(s, ${spec.flags.kind === 'predicate' ? 'load_slot(s)' : 'vec4<u32>(0u)'})));
  }
  let r = group_reduce(acc, lane, gsize);
  if (lane == 0u) { wg_group_total[group] = r; }
  workgroupBarrier();
  var total = 0u;
  if (leader) {
    for (var g = 0u; g < groups; g++) { total += wg_group_total[g]; }
  }
  workgroupBarrier();
  return total;
}

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32${id.builtins}) {
  ${TAKE_TILE_WGSL}
  ${id.body}
  let leader = group == 0u && lane == 0u;
  ${split ? 'let false_total = params.count - trues_total[0];' : ''}

  // 1. Load: this group's run of gsize × K slots, data and flags, into registers. The checks are
  // hoisted out of the common case, so all 2K loads can be in flight together.
  let base = tile * TILE_SLOTS + group * gsize * K;
  var vals: array<vec4<u32>, ${K}>;
  var m: array<u32, ${K}>;
  let whole = slots_whole(base + lane, base + (K - 1u) * gsize + lane);
  if (whole) {
${unroll(K, (k) => `    vals[${k}] = load_slot_whole(base + ${k}u * gsize + lane);`)}
${unroll(K, (k) => `    m[${k}] = mask_of(load_flags_whole(base + ${k}u * gsize + lane, vals[${k}]));`)}
  } else {
${unroll(K, (k) => `    vals[${k}] = load_slot(base + ${k}u * gsize + lane);`)}
${unroll(K, (k) => `    m[${k}] = mask_of(load_flags(base + ${k}u * gsize + lane, vals[${k}]));`)}
  }

  // 2. Tile reduce: trues of this invocation, its group, the tile; publish the tile's count.
  var mine = 0u;
${unroll(K, (k) => `  mine += countOneBits(m[${k}]);`)}
  let group_total = group_reduce(mine, lane, gsize);
  if (lane == 0u) { wg_group_total[group] = group_total; }
  workgroupBarrier();
  if (leader) {
    var acc = 0u;
    for (var g = 0u; g < groups; g++) {
      wg_group_prefix[g] = acc;
      acc += wg_group_total[g];
    }
    wg_aggregate = acc;
    if (tile == 0u) {
      wg_exclusive = 0u;
      publish(0u, FLAG_INCLUSIVE, acc);
    } else {
      publish(tile, FLAG_AGGREGATE, acc);
      lb_tile = tile - 1u;
      lb_prefix = 0u;
    }
  }
  workgroupBarrier();
  let tile_start = tile * TILE_SLOTS * 4u;
  ${split ? 'let tile_falses = min(TILE_SLOTS * 4u, params.count - tile_start) - wg_aggregate;' : ''}

  // 3. Look-back over the counts of trues. ${spec.subgroups ? 'Group 0 walks back while the other groups rank.' : "The leader walks back; the others wait at the ranking's first barrier."}
  if (tile > 0u) {
    ${lookBackStepWgsl(o, spec.subgroups)}
  }

  // 4. Rank: rb[k], the trues of the tile before slot k of this invocation (element order).
  var rb: array<u32, ${K}>;
  var running = wg_group_prefix[group];
${unroll(
  K,
  (k) => `  {
    let g = group_scan(countOneBits(m[${k}]), lane, gsize);
    rb[${k}] = running + g.exclusive;
    running += g.total;
  }`,
)}
${spec.staging ? `  // Stage: the tile's moved elements in output order in workgroup memory.\n${unroll(K, moveSlot)}` : ''}

  // 5. Fallback: while the look-back is stuck on a predecessor that is not ready, the whole
  // workgroup counts that predecessor's trues itself and the walk resumes past it.
  if (tile > 0u) {
    ${lookBackFallbackWgsl(o, spec.subgroups, (t) => `tile_count(${t}, leader, group, lane, gsize, groups)`)}
  }
  if (leader) {
    ${split ? 'wg_falses_before = tile_start - wg_exclusive;\n    if (tile == 0u) { count_out[0] = false_total; }' : 'if (tile == params.tiles - 1u) { count_out[0] = wg_exclusive + wg_aggregate; }'}
  }
  workgroupBarrier();

  // 6. Store.
${
  spec.staging
    ? `  // The staged runs, consecutive invocations on consecutive elements.
  ${
    split
      ? `let tile_elems = min(TILE_SLOTS * 4u, params.count - tile_start);
  for (var i = lid; i < tile_elems; i += WG) {
    moved[select(wg_falses_before + i, false_total + wg_exclusive + i - tile_falses, i >= tile_falses)] = stage[i];
  }`
      : `for (var i = lid; i < wg_aggregate; i += WG) {
    moved[wg_exclusive + i] = stage[i];
  }`
  }`
    : unroll(K, moveSlot)
}
}
`;
}

/**
 * The count pass before a one-pass split: the number of trues of the whole array, added into
 * `trues_total[0]` (cleared by the plan) with one atomic per workgroup. Workgroup w counts tile w
 * (the tiles of {@link compactKernel}), its K slots per invocation loaded at once; the pass reads
 * only the flags (a quarter of the data's bytes for u8 flags), or the data for a predicate.
 *
 * Bindings as {@link compactKernel}: 0 src (the predicate only), 2 aux (tails), 3 params, 5 flags,
 * 7 trues_total.
 */
export function flagCountKernel(spec: Pick<CompactSpec, 'flags' | 'type' | 'subgroups' | 'workgroupSize' | 'slotsPerThread'>): KernelSpec {
  const key = [
    'compact/count',
    spec.flags.kind === 'predicate' ? `pred-${spec.flags.op}-${spec.type}` : spec.flags.kind,
    spec.subgroups ? 'sg' : 'wg',
    `${spec.workgroupSize}x${spec.slotsPerThread}`,
  ].join('/');
  const o = wgslOp('add', 'u32');
  const WG = spec.workgroupSize;
  const K = spec.slotsPerThread;
  const id = groupIdentityWgsl(spec.subgroups, WG);
  const maxGroups = spec.subgroups ? WG / 4 : 1;
  const predicate = spec.flags.kind === 'predicate';
  const slot = (k: number) => `w * ${WG * K}u + ${k * WG}u + lid`;
  return {
    key,
    wgsl: () => `${spec.subgroups ? 'enable subgroups;\ndiagnostic(off, subgroup_uniformity);' : ''}
${slotWgsl({ type: 'u32', identity: '0u', backward: false, writes: false, reads: predicate, bindings: { src: COMPACT_BINDINGS.src, dst: COMPACT_BINDINGS.moved, aux: COMPACT_BINDINGS.aux, params: COMPACT_BINDINGS.params } })}
@group(0) @binding(${COMPACT_BINDINGS.trues}) var<storage, read_write> trues_total: array<atomic<u32>>;
${flagSourceWgsl(spec.flags, spec.type)}
${groupScanWgsl(o, spec.subgroups, WG)}
${id.decls}
var<workgroup> wg_group_total: array<u32, ${maxGroups}>;

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>${id.builtins}) {
  ${id.body}
  let w = wid.x + wid.y * params.dispatch_x;
  if (w >= params.tiles) { return; }
  var f: array<vec4<u32>, ${K}>;
  // All K loads at once in whole tiles; the checked path only in the last one.
  if (${slot(K - 1)} < params.full_vecs) {
${unroll(K, (k) => `    f[${k}] = load_flags_whole(${slot(k)}, ${predicate ? `load_slot_whole(${slot(k)})` : 'vec4<u32>(0u)'});`)}
  } else {
${unroll(K, (k) => `    f[${k}] = load_flags(${slot(k)}, ${predicate ? `load_slot(${slot(k)})` : 'vec4<u32>(0u)'});`)}
  }
  var acc = 0u;
${unroll(K, (k) => `  acc += f[${k}].x + f[${k}].y + f[${k}].z + f[${k}].w;`)}
  let r = group_reduce(acc, lane, gsize);
  if (lane == 0u) { wg_group_total[group] = r; }
  workgroupBarrier();
  if (lid == 0u) {
    var total = 0u;
    for (var g = 0u; g < groups; g++) { total += wg_group_total[g]; }
    if (total > 0u) { atomicAdd(&trues_total[0], total); }
  }
}
`,
  };
}
