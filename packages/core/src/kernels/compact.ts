import type { ElementType } from '../element-types.js';
import type { CompareOp } from '../predicate.js';
import { LOOK_BACK_STATUS, lookBackCommonWgsl, TAKE_TILE_WGSL, tileLookBack } from './decoupled-look-back.js';
import { defineKernel, read, readWrite } from './define-kernel.js';
import { groupIdentityWgsl, groupScanWgsl } from './group-scan.js';
import { type KeyCompare, keyDifferWgsl } from './key-differ.js';
import { SLOT_PARAMS } from './slots.js';
import { unroll } from './unroll.js';
import { WGSL_PRELUDE, wgslOp } from './wgsl-ops.js';

/**
 * Where an element's flag comes from: a u32 word per element, a byte per element (four to a word),
 * a comparison of the element itself with a constant (`params.extra` holds its bits), or whether
 * the element starts a run of equal consecutive elements (`heads`: the first element, and each one
 * unlike the element before it by `keyDifferWgsl`: a block discontinuity read from the data).
 * A flag is true when it is not zero.
 */
export type FlagSource =
  | { readonly kind: 'u32' }
  | { readonly kind: 'u8' }
  | { readonly kind: 'predicate'; readonly op: CompareOp }
  | { readonly kind: 'heads'; readonly compare: KeyCompare };

/** Whether the flags come from the data itself (a predicate, run heads): no flags buffer. */
export function flagsFromData(flags: FlagSource): boolean {
  return flags.kind === 'predicate' || flags.kind === 'heads';
}

/** What a one-pass split or pack kernel is specialized on. */
export type CompactSpec = {
  readonly mode: 'split' | 'pack';
  readonly flags: FlagSource;
  /** Element type: only the predicate compares values; elements move as raw 32-bit words. */
  readonly type: ElementType;
  readonly subgroups: boolean;
  /**
   * With subgroups, the largest subgroup the device may run (the adapter's `subgroupMaxSize`): at
   * most 32, a ballot has one word that matters, so each element's rank is two bit counts instead
   * of eight. Unknown (absent), the ballot's four words are counted.
   */
  readonly subgroupMaxSize?: number;
  readonly workgroupSize: number;
  /** Elements per invocation (at most 32: their flags are one bit mask); a tile is workgroupSize × this. */
  readonly elementsPerThread: number;
  readonly maxSpin: number;
  /** Test hook: every look-back falls back. */
  readonly forceFallback?: boolean;
  /**
   * What a pack writes beside each kept element, at the same rank (pack only): `indices`, its index
   * (`indices_out`); `companion`, the word of a second array at its index (`companion` into
   * `companion_out`: the values of a unique-by-key). Default neither.
   */
  readonly alongside?: CompactAlongside;
};

/** What a pack writes beside each kept element (see {@link CompactSpec.alongside}). */
export interface CompactAlongside {
  readonly indices: boolean;
  readonly companion: boolean;
}

/** What the count pass before a one-pass split is specialized on. */
export type FlagCountSpec = Pick<CompactSpec, 'flags' | 'type' | 'subgroups' | 'workgroupSize' | 'elementsPerThread'>;

/**
 * Functions every compaction kernel shares over its data (read as u32 words) and flags:
 * `load_word(e)` (with `readsData`) and `flag_of(e, x) -> bool`, the flag of element `e` whose bits
 * are `x` (false past `params.count`). A compiler may assume floats are never NaN in WGSL, so f32
 * NaNs are found by their bits: a NaN on either side makes every comparison false and `'ne'` true,
 * as in IEEE 754.
 */
function sourceWgsl(flags: FlagSource, type: ElementType, readsData: boolean): string {
  const data = readsData
    ? `// The element word at e, 0 past the end.
fn load_word(e: u32) -> u32 { return select(0u, src[min(e, params.count - 1u)], e < params.count); }`
    : '';
  const params = `${WGSL_PRELUDE}\n${data}`;
  if (flags.kind === 'u32') {
    return `${params}
fn flag_of(e: u32, x: u32) -> bool { return e < params.count && flags[e] != 0u; }`;
  }
  if (flags.kind === 'heads') {
    // The element before e is another lane's (or the previous group's): a second read, from cache.
    return `${params}
${keyDifferWgsl(flags.compare)}
fn flag_of(e: u32, x: u32) -> bool { return e < params.count && (e == 0u || key_differ(load_word(e - 1u), x)); }`;
  }
  if (flags.kind === 'u8') {
    // One word holds the flags of four consecutive elements, byte i of element 4w + i.
    return `${params}
fn flag_of(e: u32, x: u32) -> bool { return e < params.count && ((flags[e >> 2u] >> (8u * (e & 3u))) & 0xffu) != 0u; }`;
  }
  const cmp = { lt: '<', le: '<=', gt: '>', ge: '>=', eq: '==', ne: '!=' }[flags.op];
  const nan =
    type === 'f32'
      ? `\n  if ((x & 0x7fffffffu) > 0x7f800000u || (params.extra & 0x7fffffffu) > 0x7f800000u) { t = ${flags.op === 'ne'}; }`
      : '';
  return `${params}
fn flag_of(e: u32, x: u32) -> bool {
  var t = bitcast<${type}>(x) ${cmp} bitcast<${type}>(params.extra);${nan}
  return e < params.count && t;
}`;
}

/**
 * The element type a kernel's code depends on: only a predicate compares values in their type
 * (elements move as raw words, run heads compare by `compare`), so the other flag sources share one
 * kernel for every type.
 */
function typeOfFlags(flags: FlagSource, type: ElementType): ElementType {
  return flags.kind === 'predicate' ? type : 'u32';
}

/**
 * `group_rank(bit, lane, gsize) -> vec2<u32>`: how many invocations of the group before this one
 * have `bit` set, and how many in all. With subgroups, one ballot (its first word alone when no
 * subgroup is wider than 32: the store phase ranks every element, so the other three words' bit
 * counts were most of its work); without, a workgroup scan.
 */
function groupRankWgsl(subgroups: boolean, subgroupMaxSize: number | undefined): string {
  if (subgroups && subgroupMaxSize !== undefined && subgroupMaxSize <= 32) {
    return `fn group_rank(bit: bool, lane: u32, gsize: u32) -> vec2<u32> {
  let b = subgroupBallot(bit).x;
  return vec2<u32>(countOneBits(b & ((1u << lane) - 1u)), countOneBits(b));
}`;
  }
  if (!subgroups) {
    return `fn group_rank(bit: bool, lane: u32, gsize: u32) -> vec2<u32> {
  let g = group_scan(select(0u, 1u, bit), lane, gsize);
  return vec2<u32>(g.exclusive, g.total);
}`;
  }
  // The ballot has one bit per invocation in up to four words (subgroups of up to 128).
  return `fn group_rank(bit: bool, lane: u32, gsize: u32) -> vec2<u32> {
  let b = subgroupBallot(bit);
  let below = vec4<u32>(lane) - vec4<u32>(0u, 32u, 64u, 96u);
  let full = select(vec4<u32>(0u), vec4<u32>(0xffffffffu), vec4<i32>(below) >= vec4<i32>(32));
  let part = select(vec4<u32>(0u), (vec4<u32>(1u) << min(below, vec4<u32>(31u))) - vec4<u32>(1u), (vec4<i32>(below) > vec4<i32>(0)) & (vec4<i32>(below) < vec4<i32>(32)));
  let mask = full | part;
  let c = countOneBits(b & mask);
  let t = countOneBits(b);
  return vec2<u32>(c.x + c.y + c.z + c.w, t.x + t.y + t.z + t.w);
}`;
}

/**
 * u8 flags of a whole run, read a word per lane: lane l loads words `base/4 + q·gsize + l` (q < E/4),
 * so each load instruction of the subgroup reads consecutive words. The flag of element
 * `j·gsize + lane` is byte `lane & 3` of word `q·gsize + ((j % 4)·gsize + lane) / 4` with q = j / 4,
 * fetched by one shuffle (subgroup sizes are powers of two from 4, so the byte is the lane's own).
 * Reading a byte per element instead makes four lanes share each word and four times the loads.
 */
function wordFlagsWgsl(E: number): string {
  const loads = unroll(E / 4, (q) => `    let fw${q} = flags[(base >> 2u) + ${q}u * gsize + lane];`);
  const bits = unroll(
    E,
    (j) =>
      `    m |= select(0u, ${(2 ** j) >>> 0}u, ((subgroupShuffle(fw${j >> 2}, (${j % 4}u * gsize + lane) >> 2u) >> (8u * (lane & 3u))) & 0xffu) != 0u);`,
  );
  return `${loads}
${bits}`;
}

/**
 * Run-head flags of a whole run with subgroups, the element before each one taken from a register
 * rather than read again: the element before `j·gsize + lane` is lane `lane − 1`'s of the same j,
 * or, for lane 0, lane `gsize − 1`'s of j − 1 — which is what lane 0 received in the previous j's
 * rotation. So one shuffle per element (a rotation of the lanes by one), and one load for the whole
 * run: the element before it (none before element 0, a head by definition).
 */
function headsFlagsWgsl(E: number): string {
  const steps = unroll(
    E,
    (j) => `    {
      let rot = subgroupShuffle(vals[${j}], from_lane);
      m |= select(0u, ${(2 ** j) >>> 0}u, base + ${j}u * gsize + lane == 0u || key_differ(select(rot, carried, lane == 0u), vals[${j}]));
      carried = rot;
    }`,
  );
  return `    let from_lane = select(lane - 1u, gsize - 1u, lane == 0u);
    var carried = src[max(base, 1u) - 1u];
${steps}`;
}

/**
 * The one-pass split and pack (stream compaction) kernel. Each tile counts its flags and takes
 * its output offset through the decoupled look-back with fallback (Smith, Levien & Owens, SPAA 2025)
 * over the counts of trues, then moves its elements in the same kernel — no scan written to memory,
 * no second pass over the data.
 *
 * Layout: a group (subgroup, or the workgroup) owns a run of `gsize × E` elements of the tile, and
 * invocation `lane` holds elements `j · gsize + lane` of it, j < E. Element j of all lanes is then a
 * contiguous piece of the input, so the kept elements of one j (and the falses of one j) go to a
 * contiguous piece of the output: every store instruction writes whole runs, without staging in
 * workgroup memory. Phases, per tile:
 *
 * 1. **load** — each invocation loads its E data words (and flags) into registers, its flags
 *    becoming one E-bit mask;
 * 2. **tile reduce** — the count of trues of the invocation, its group and the tile; the tile's
 *    count is published at once as AGGREGATE (tile 0: INCLUSIVE);
 * 3. **look-back** — group 0 walks back over the predecessors' counts;
 * 4. **fallback** — a predecessor that stays NOT_READY is counted by the whole workgroup from its
 *    flags, so the kernel needs no forward progress between workgroups;
 * 5. **store** — for each j, one ballot (or group scan) ranks the lanes' trues, and each element
 *    goes to its place.
 *
 * Pack writes the trues from 0; the last tile writes their number to `count_out[0]`. Split writes
 * the falses from 0 and the trues from the total count of falses, which no tile can know from its
 * predecessors alone (it depends on the last flag): a count pass ({@link flagCountKernel}) puts the
 * number of trues in `trues_total[0]` first, and tile 0 writes the falses' number to `count_out[0]`.
 *
 * Bindings: `src` (data, u32 words), `moved` (output, u32 words), `status`, `flags` (absent when the
 * flags come from the data: predicate, run heads), `count_out`, `trues_total` (split), and what
 * `alongside` asks (`indices_out`; `companion` and `companion_out`); parameters
 * {@link SLOT_PARAMS} (`count`, `tiles`, `dispatch_x`, and `extra`: the predicate's constant).
 *
 * @example
 * ```ts
 * const k = compactKernel({ mode: 'pack', flags: { kind: 'u8' }, type: 'u32', subgroups: true, workgroupSize: 256, elementsPerThread: 32, maxSpin: 64 });
 * b.dispatch(k, { src: input, moved: output, status, flags, count_out: count }, tiles, params);
 * ```
 */
export function compactKernel(spec: CompactSpec) {
  const type = typeOfFlags(spec.flags, spec.type);
  return compact(type === spec.type ? spec : { ...spec, type });
}

const compact = defineKernel({
  name: 'core/compact',
  bindings: (spec: CompactSpec) => ({
    src: read('array<u32>'),
    moved: readWrite('array<u32>'),
    status: LOOK_BACK_STATUS,
    flags: flagsFromData(spec.flags) ? undefined : read('array<u32>'),
    count_out: readWrite('array<u32>'),
    trues_total: spec.mode === 'split' ? read('array<u32>') : undefined,
    indices_out: spec.alongside?.indices ? readWrite('array<u32>') : undefined,
    companion: spec.alongside?.companion ? read('array<u32>') : undefined,
    companion_out: spec.alongside?.companion ? readWrite('array<u32>') : undefined,
  }),
  params: SLOT_PARAMS,
  enable: (spec) => (spec.subgroups ? ['subgroups'] : []),
  wgsl: (spec) => compactWgsl(spec),
});

function compactWgsl(spec: CompactSpec): string {
  const o = wgslOp('add', 'u32');
  const WG = spec.workgroupSize;
  const E = spec.elementsPerThread;
  const maxGroups = spec.subgroups ? WG / 4 : 1;
  const id = groupIdentityWgsl(spec.subgroups, WG);
  const split = spec.mode === 'split';
  // u8 flags with subgroups: a word per lane, the bytes passed around by shuffles (below).
  const wordFlags = spec.flags.kind === 'u8' && spec.subgroups && E % 4 === 0;
  // Run heads with subgroups: the element before each one by a shuffle (below).
  const shuffledHeads = spec.flags.kind === 'heads' && spec.subgroups;
  if (split && spec.alongside && (spec.alongside.indices || spec.alongside.companion)) {
    throw new Error('internal error: only a pack writes indices or a companion beside its elements');
  }
  // A pack's writes beside the element, at the same rank.
  const beside = [
    spec.alongside?.indices ? 'indices_out[t] = e;' : '',
    spec.alongside?.companion ? 'companion_out[t] = companion[e];' : '',
  ].join(' ');
  const moveOne = (j: number) => {
    const bit = `((m >> ${j}u) & 1u) != 0u`;
    const target = split
      ? `select(wg_falses_before + (e - tile_start) - before, false_total + wg_exclusive + before, kept)`
      : 'wg_exclusive + before';
    return `  {
    let e = base + ${j}u * gsize + lane;
    let kept = ${bit};
    let r = group_rank(kept, lane, gsize);
    let before = running + r.x;
    running += r.y;
    if (${split ? 'e < params.count' : 'kept'}) { let t = ${target}; moved[t] = vals[${j}]; ${beside}}
  }`;
  };
  // 3–4. The tile prefix over the counts of trues: look-back, the fallback counting a stalled tile.
  const lb = tileLookBack(o, {
    subgroups: spec.subgroups,
    maxSpin: spec.maxSpin,
    forceFallback: spec.forceFallback,
    fallback: { run: (t) => `let found = tile_count(${t}, leader, group, lane, gsize, groups);`, value: () => 'found' },
  });
  return `${sourceWgsl(spec.flags, spec.type, true)}

const WG: u32 = ${WG}u;
const E: u32 = ${E}u;                // elements per invocation
const TILE: u32 = ${WG * E}u;
${groupScanWgsl(o, spec.subgroups, WG)}
${groupRankWgsl(spec.subgroups, spec.subgroupMaxSize)}
${id.decls}
var<workgroup> wg_group_total: array<u32, ${maxGroups}>;
var<workgroup> wg_group_prefix: array<u32, ${maxGroups}>;
${split ? 'var<workgroup> wg_falses_before: u32;' : ''}
${lookBackCommonWgsl('u32')}
${lb.decls}
// The carry-in of the look-back: the compaction is never chunked, so nothing comes before tile 0.
fn load_carry_in() -> u32 { return 0u; }

// Counts the trues of tile t with the whole workgroup (the fallback); the result is valid in the leader.
fn tile_count(t: u32, leader: bool, group: u32, lane: u32, gsize: u32, groups: u32) -> u32 {
  let base = t * TILE + group * gsize * E;
  var acc = 0u;
  for (var j = 0u; j < E; j++) {
    let e = base + j * gsize + lane;
    acc += select(0u, 1u, flag_of(e, ${flagsFromData(spec.flags) ? 'load_word(e)' : '0u'}));
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

  // 1. Load: E words per invocation, strided by the group size (coalesced), and their flags as a mask.
  let base = tile * TILE + group * gsize * E;
  var vals: array<u32, ${E}>;
  var m = 0u;
  if (base + E * gsize <= params.count) {
${unroll(E, (j) => `    vals[${j}] = src[base + ${j}u * gsize + lane];`)}
${wordFlags ? wordFlagsWgsl(E) : shuffledHeads ? headsFlagsWgsl(E) : unroll(E, (j) => `    m |= select(0u, ${(2 ** j) >>> 0}u, flag_of(base + ${j}u * gsize + lane, vals[${j}]));`)}
  } else {
${unroll(E, (j) => `    vals[${j}] = load_word(base + ${j}u * gsize + lane);`)}
${unroll(E, (j) => `    m |= select(0u, ${(2 ** j) >>> 0}u, flag_of(base + ${j}u * gsize + lane, vals[${j}]));`)}
  }

  // 2. Tile reduce: trues of this invocation, its group, the tile; publish the tile's count.
  let group_total = group_reduce(countOneBits(m), lane, gsize);
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
      lb_publish(0u, 0u, FLAG_INCLUSIVE, acc);
    } else {
      ${lb.aggregate('acc')}
    }
  }
  workgroupBarrier();
  let tile_start = tile * TILE;

  // 3. Look-back over the counts of trues. ${spec.subgroups ? 'Group 0 walks back; the others wait at the fallback check.' : 'The leader walks back.'}
${lb.start}

  // 4. Fallback: while the look-back is stuck on a predecessor that is not ready, the whole
  // workgroup counts that predecessor's trues itself and the walk resumes past it.
  ${lb.finish}
  if (leader) {
    ${split ? 'wg_falses_before = tile_start - wg_exclusive;\n    if (tile == 0u) { count_out[0] = false_total; }' : 'if (tile == params.tiles - 1u) { count_out[0] = wg_exclusive + wg_aggregate; }'}
  }
  workgroupBarrier();

  // 5. Store: for each j, the lanes' trues ranked by one ballot; \`before\` counts the tile's trues
  // before this element.${split ? ' A false goes after the falses before it: its index in the tile minus `before`.' : ''}
  var running = wg_group_prefix[group];
${unroll(E, moveOne)}
}
`;
}

/**
 * The count pass before a one-pass split: the number of trues of the whole array, added into
 * `trues_total[0]` (cleared by the plan) with one atomic per workgroup. Workgroup w counts tile w
 * (the tiles of {@link compactKernel}), its E flags per invocation loaded at once (u8 flags a word,
 * four flags, per load); the pass reads only the flags (a quarter of the data's bytes for u8 flags),
 * or the data for a predicate or run heads.
 *
 * Bindings as {@link compactKernel}: `src` (flags from the data only), `flags` (the others),
 * `trues_total`; parameters {@link SLOT_PARAMS}.
 *
 * @example
 * ```ts
 * const k = flagCountKernel({ flags: { kind: 'u32' }, type: 'u32', subgroups: false, workgroupSize: 256, elementsPerThread: 24 });
 * b.dispatch(k, { flags, trues_total: trues }, tiles, params);
 * ```
 */
export function flagCountKernel(spec: FlagCountSpec) {
  // Only these fields (a compaction's whole shape may be given), and the type only for a predicate.
  return flagCount({
    flags: spec.flags,
    type: typeOfFlags(spec.flags, spec.type),
    subgroups: spec.subgroups,
    workgroupSize: spec.workgroupSize,
    elementsPerThread: spec.elementsPerThread,
  });
}

const flagCount = defineKernel({
  name: 'core/compact-count',
  bindings: (spec: FlagCountSpec) => ({
    src: flagsFromData(spec.flags) ? read('array<u32>') : undefined,
    flags: flagsFromData(spec.flags) ? undefined : read('array<u32>'),
    trues_total: readWrite('array<atomic<u32>>'),
  }),
  params: SLOT_PARAMS,
  enable: (spec) => (spec.subgroups ? ['subgroups'] : []),
  wgsl: (spec) => {
    const o = wgslOp('add', 'u32');
    const WG = spec.workgroupSize;
    const E = spec.elementsPerThread;
    const id = groupIdentityWgsl(spec.subgroups, WG);
    const maxGroups = spec.subgroups ? WG / 4 : 1;
    const predicate = flagsFromData(spec.flags);
    return `${sourceWgsl(spec.flags, spec.type, predicate)}
${groupScanWgsl(o, spec.subgroups, WG)}
${id.decls}
var<workgroup> wg_group_total: array<u32, ${maxGroups}>;

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>${id.builtins}) {
  ${id.body}
  let w = wid.x + wid.y * params.dispatch_x;
  if (w >= params.tiles) { return; }
  // The flags of tile w, E per invocation, consecutive invocations on consecutive elements.
  var acc = 0u;
${
  spec.flags.kind === 'u8' && E % 4 === 0
    ? `  // A word (four flags) per load: the high bit of each nonzero byte, bytes past the end masked off.
${unroll(
  E / 4,
  (q) => `  {
    let t = w * ${(WG * E) / 4}u + ${q * WG}u + lid;
    let left = select(0u, params.count - 4u * t, 4u * t < params.count);
    let f = flags[min(t, (params.count - 1u) >> 2u)];
    let nonzero = (((f & 0x7f7f7f7fu) + 0x7f7f7f7fu) | f) & 0x80808080u;
    acc += countOneBits(nonzero & select(0xffffffffu, (1u << (8u * left)) - 1u, left < 4u));
  }`,
)}`
    : unroll(
        E,
        (j) => `  { let e = w * ${WG * E}u + ${j * WG}u + lid; acc += select(0u, 1u, flag_of(e, ${predicate ? 'load_word(e)' : '0u'})); }`,
      )
}
  let r = group_reduce(acc, lane, gsize);
  if (lane == 0u) { wg_group_total[group] = r; }
  workgroupBarrier();
  if (lid == 0u) {
    var total = 0u;
    for (var g = 0u; g < groups; g++) { total += wg_group_total[g]; }
    if (total > 0u) { atomicAdd(&trues_total[0], total); }
  }
}
`;
  },
});
