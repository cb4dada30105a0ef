import type { ElementType } from '@scan/core';
import {
  decoupledLookBack,
  defineKernel,
  groupIdentityWgsl,
  groupScanWgsl,
  lookBackCommonWgsl,
  type ParamFields,
  read,
  readWrite,
  tileIo,
  unroll,
  wgslOp,
} from '@scan/core/kit';
import { keyWgslType, keyWordsOf, lastKeyWgsl, orderBitsWgsl, orderShiftWgsl } from '../key-order.js';
import type { ValueWords } from '../plans/sort-shape.js';
import type { SortKeyType } from '../types.js';
import { RADIX, SORT_COUNT_PARAMS } from './radix-digits.js';

/**
 * Words before the first tile's statuses in a pass's status area (which starts at word
 * `params.status_base` of the status binding): its word 0 is the tile ticket, alone on its
 * 256-byte line.
 */
export const SORT_STATUS_BASE = 64;

/**
 * Bytes of one pass's look-back status area for `tiles` tiles: the ticket line, then a word per
 * digit per tile. A multiple of 256 bytes, so areas laid end to end keep every ticket on its own line.
 *
 * @example
 * ```ts
 * sortStatusBytes(3); // (64 + 3 · 256) · 4 = 3328
 * ```
 */
export function sortStatusBytes(tiles: number): number {
  return (SORT_STATUS_BASE + tiles * RADIX) * 4;
}

/**
 * The parameters of a one-sweep pass: the count ({@link SORT_COUNT_PARAMS}), its digit
 * (`(order_bits(key) >> shift) & mask`), `digit_starts` (the word of its digit starts in `digits`)
 * and `status_base` (the word of its ticket in `status`, its statuses following: every pass has its
 * own area, so one clear serves a whole sort). Digit and areas are parameters, so one pipeline
 * serves every pass.
 *
 * @example
 * ```ts
 * b.dispatch(kernel, bindings, tiles, { count, shift: 8, mask: 0xff, digit_starts, status_base });
 * ```
 */
export const ONESWEEP_PARAMS = {
  ...SORT_COUNT_PARAMS,
  shift: 'u32',
  mask: 'u32',
  digit_starts: 'u32',
  status_base: 'u32',
} as const satisfies ParamFields;

/** How the values of a pass are had: none, moved from `values_in`, or each key's index (argsort's first pass). */
export type ValueMode = 'none' | 'move' | 'index';

/** What a one-sweep digit pass is specialized on. */
export type OnesweepSpec = {
  /** The key type: a 64-bit one makes every key a `vec2<u32>` (low, high) in the kernel. */
  readonly keyType: SortKeyType;
  readonly descending: boolean;
  /**
   * Bits of the widest digit (8, fewer only when the whole range is narrower): the ballots of the
   * ranking. The digit itself (shift, mask) and where its starts are come from the uniform block, so
   * one pipeline serves every pass.
   */
  readonly width: number;
  readonly values: ValueMode;
  /**
   * 32-bit words of one value (1 to 4: a 4-, 8-, 12- or 16-byte record at word `i · valueWords` of
   * `values_in`/`values_out`); default 1. Argsort's indices are one word.
   */
  readonly valueWords?: ValueWords;
  /**
   * 16-bit keys (`'u16'`, `'f16'`) in a buffer two to a word: `packedIn` reads `keys_in` so (the
   * first pass, from the caller's buffer), `packedOut` writes `keys_out` so (the last pass, into a
   * buffer whose words before ⌊count / 2⌋ are zero: each key goes in with an `atomicOr` on its half,
   * since the two keys of a word come from different invocations). Between them keys are one a word.
   */
  readonly packedIn?: boolean;
  readonly packedOut?: boolean;
  readonly subgroups: boolean;
  /**
   * 1 when every subgroup has at most 32 invocations (a ballot fits its first word), else 4 (up to
   * 128): the peer masks of the ranking are then vec4s.
   */
  readonly maskWords: 1 | 4;
  readonly workgroupSize: number;
  readonly elementsPerThread: number;
  /** Invocation groups per workgroup at most: the per-group digit counters in workgroup memory. */
  readonly maxGroups: number;
  readonly maxSpin: number;
  /** Test hook: every predecessor reads as not ready, so the fallback counts every tile. */
  readonly forceFallback: boolean;
  /** Unroll the per-key steps (see `perKey`). */
  readonly unrolled: boolean;
  /**
   * Pad a partial tile with the key that sorts last ({@link lastKeyBits}) instead of testing every
   * key's index against the count in each phase: its digit is the largest of every pass, so the
   * ranking, the tile offsets and the staging need no test (CUB pads the same way), and only the early
   * counts take the padding back out of the largest digit. Ignored for descending f32, which has no
   * such key. Through Dawn on the H200 the sort got 5% faster at 2^24–2^28 and faster at every size
   * from 2^16 (benchmark-history/README.md, 2026-12-05).
   */
  readonly padLast: boolean;
  /** Predecessor statuses a digit's look-back reads per step. */
  readonly lookBackWindow: number;
  /**
   * Experiment (issue 32): the scatter reads all its staged keys, then their targets, then writes,
   * instead of one key after the other (the driver's SASS chained two workgroup loads per store).
   * Alone 1.7% faster at 2^28 on the H100 (2026-12-05); not yet timed beside the defaults.
   */
  readonly batchScatter: boolean;
  /**
   * How the ranking finds each key's leader lane (its lowest peer): true counts the bits below the
   * lowest set one, `countOneBits((peers & (0 − peers)) − 1)`; false calls `firstTrailingBit`, which
   * Tint's SPIR-V backend replaces by a five-step binary search (about 20 instructions a key in the
   * NVIDIA driver's SASS, against 3).
   */
  readonly leaderPopcount: boolean;
  /**
   * True leaves `counters` and `early_counts` to WGSL's zero-initialized workgroup memory: no clears
   * at the start of the tile and no barrier after them (see `clearsWgsl`). False clears them, for a
   * device whose workgroup memory is not zeroed (Dawn's unsafe `disable_workgroup_init` toggle).
   */
  readonly skipClears: boolean;
};

/** Bytes of workgroup memory a pass of this shape declares (to fit the device's limit). */
export function onesweepWorkgroupBytes(
  s: Pick<OnesweepSpec, 'workgroupSize' | 'elementsPerThread' | 'maxGroups' | 'subgroups'> & { readonly keyType?: SortKeyType },
): number {
  const tile = s.workgroupSize * s.elementsPerThread;
  // The staging holds a key per slot (values reuse it): two words each for 64-bit keys.
  const words =
    tile * keyWordsOf(s.keyType ?? 'u32') + s.maxGroups * RADIX + 2 * RADIX + s.maxGroups + 8 + (s.subgroups ? 0 : s.workgroupSize * 2);
  return words * 4;
}

/**
 * One ballot of the ranking, WGSL: `peers` keeps the lanes whose digit agrees with `d` on bit `b`
 * (`word` picks the ballot's first word for one-word masks). As nvcc compiles the CUDA port this
 * costs 7 instructions per bit against CUB's 3 (inline PTX); a sign-spread form took 5 there but
 * made the sort 1.7–2.8% slower through Dawn on the H200 (benchmark-history/README.md, 2026-12-05).
 */
function ballotBitWgsl(b: number, word: string): string {
  return `  { let bal = subgroupBallot(((d >> ${b}u) & 1u) != 0u)${word}; peers &= select(~bal, bal, ((d >> ${b}u) & 1u) != 0u); }`;
}

/**
 * The index of the lowest set bit of `peers` (per word), WGSL; `zero` and `one` are of its type.
 * With `leaderPopcount` the bits below it are counted (see `OnesweepSpec.leaderPopcount`).
 */
function lowestPeerWgsl(spec: OnesweepSpec, zero: string, one: string): string {
  return spec.leaderPopcount ? `countOneBits((peers & (${zero} - peers)) - ${one})` : 'firstTrailingBit(peers)';
}

/**
 * The rank of one key among its group's keys of the same digit, in WGSL: `peers` (the lanes of the
 * group whose key has digit `d`), `before` (how many of them precede this lane), `total`, and the
 * first of them (`leader`). With subgroups this is the warp-level multi-split of Onesweep: one
 * ballot per digit bit, the peers being the lanes that agree on every bit. Without subgroups the
 * group is the workgroup and the digits of the round are compared in workgroup memory. (CUB's
 * choice of the last peer as leader, whose count of peers before it plus one is the total, saves a
 * population count per key but measured 1.7% slower through Dawn on the H200: BENCHMARKS.md.)
 */
function matchWgsl(spec: OnesweepSpec): string {
  const width = spec.width;
  if (!spec.subgroups) {
    // Every invocation of the workgroup calls this (it has barriers): one key per invocation per round.
    return `fn match_digit(d: u32, lane: u32) -> vec2<u32> {
  round_digits[lane] = d;
  workgroupBarrier();
  var before = 0u;
  var total = 0u;
  for (var t = 0u; t < ${spec.workgroupSize}u; t++) {
    let same = round_digits[t] == d;
    before += select(0u, 1u, same && t < lane);
    total += select(0u, 1u, same);
  }
  workgroupBarrier();
  return vec2<u32>(before, total);
}`;
  }
  if (spec.maskWords === 1) {
    const bits = unroll(width, (b) => ballotBitWgsl(b, '.x'));
    return `// (before, total, leader lane) of digit d among the lanes of this subgroup (at most 32 lanes).
fn match_digit(d: u32, lane: u32, live: u32) -> vec3<u32> {
  var peers = live;
${bits}
  let below = (1u << lane) - 1u;
  return vec3<u32>(countOneBits(peers & below), countOneBits(peers), ${lowestPeerWgsl(spec, '0u', '1u')});
}`;
  }
  const bits = unroll(width, (b) => ballotBitWgsl(b, ''));
  return `// (before, total, leader lane) of digit d among the lanes of this subgroup (up to 128 lanes: vec4 masks).
fn match_digit(d: u32, lane: u32, live: vec4<u32>) -> vec3<u32> {
  var peers = live;
${bits}
  let below = vec4<u32>(lane) - vec4<u32>(0u, 32u, 64u, 96u);
  let full = select(vec4<u32>(0u), vec4<u32>(0xffffffffu), vec4<i32>(below) >= vec4<i32>(32));
  let part = select(vec4<u32>(0u), (vec4<u32>(1u) << min(below, vec4<u32>(31u))) - vec4<u32>(1u), (vec4<i32>(below) > vec4<i32>(0)) & (vec4<i32>(below) < vec4<i32>(32)));
  let c = countOneBits(peers & (full | part));
  let t = countOneBits(peers);
  let f = ${lowestPeerWgsl(spec, 'vec4<u32>(0u)', 'vec4<u32>(1u)')};
  let leader = select(select(select(96u + f.w, 64u + f.z, peers.z != 0u), 32u + f.y, peers.y != 0u), f.x, peers.x != 0u);
  return vec3<u32>(c.x + c.y + c.z + c.w, t.x + t.y + t.z + t.w, leader);
}`;
}

/** WGSL: whether key j of this invocation is one of the count's, not padding. */
function keyInCount(j: string): string {
  return `base + ${j} * gsize + lane < n`;
}

/** The pad key of this spec's partial tiles (`padLast`, a WGSL literal), or undefined where the phases test the index. */
function padKeyOf(spec: OnesweepSpec): string | undefined {
  return spec.padLast ? lastKeyWgsl(spec.keyType, spec.descending) : undefined;
}

/**
 * Key j's digit in the phases after the load, WGSL: padding past the count takes the largest digit,
 * so it ranks at the tail of the tile — by its own key when the tile is padded with the last key
 * (`padLast`), else by a test of its index.
 */
function keyDigit(spec: OnesweepSpec, j: string, slot: Slot): string {
  if (padKeyOf(spec) !== undefined) return `digit_of(${slot('keys')})`;
  return `select(params.mask, digit_of(${slot('keys')}), ${keyInCount(j)})`;
}

/**
 * Phase 7's key scatter with `batchScatter`: every staged key of the invocation is read, then every
 * target, then the keys are written, so that the loads of workgroup memory overlap.
 */
function batchedScatter(spec: OnesweepSpec): string {
  return `${perKeySlots(spec, 'staged', keyWgslType(spec.keyType))}
${perKey(spec, (i, slot) => `  ${slot('staged')} = stage[${i} * WG + lid];`)}
${perKey(spec, (i, slot) => `  ${slot('targets')} = wg_digit[digit_of(${slot('staged')})] + ${i} * WG + lid;`)}
${perKey(spec, (i, slot) => `  if (${i} * WG + lid < valid) { ${storeKey(spec, slot('targets'), slot('staged'))} }`)}`;
}

/** WGSL storing key `k` at position `t` of `keys_out`: a plain store, or (`packedOut`) `store_key`. */
function storeKey(spec: OnesweepSpec, t: string, k: string): string {
  return spec.packedOut ? `store_key(${t}, ${k});` : `keys_out[${t}] = ${k};`;
}

/**
 * WGSL of the packed 16-bit key access a pass needs: `load_key(e)` (`packedIn`: key e, the half of
 * word e / 2) and `store_key(t, k)` (`packedOut`: an \`atomicOr\` of k into its half of a zeroed word;
 * the word of an odd count's last key is not zeroed, since its other half is the caller's, so that
 * half is cleared first with an \`atomicAnd\`).
 */
function packedKeysWgsl(spec: OnesweepSpec): string {
  const load = spec.packedIn ? `fn load_key(e: u32) -> u32 { return (keys_in[e >> 1u] >> ((e & 1u) << 4u)) & 0xffffu; }` : '';
  const store = spec.packedOut
    ? `fn store_key(t: u32, k: u32) {
  let w = t >> 1u;
  let odd = (t & 1u) != 0u;
  if (!odd && t + 1u >= params.count) { atomicAnd(&keys_out[w], 0xffff0000u); }
  atomicOr(&keys_out[w], select(k, k << 16u, odd));
}`
    : '';
  return `${load}
${store}`;
}

/**
 * Phase 4's fix-up of key j: its rank in the group becomes its position in the tile, the group's
 * counter of its digit now holding where the group's keys of that digit start.
 */
function rankFixUp(spec: OnesweepSpec, j: string, slot: Slot): string {
  const counter = (d: string) => `atomicLoad(&counters[${spec.subgroups ? 'group * RADIX + ' : ''}${d}])`;
  return `  { let d = ${keyDigit(spec, j, slot)}; ${slot('ranks')} += ${counter('d')}; }`;
}

/**
 * Phase 4's per-digit part: the digit's count in each group is summed, the sums scanned over the
 * workgroup, and each group's counter of the digit replaced by where its keys of the digit start.
 * The counts stay in `G · R` registers across the workgroup scan; reading them again after it
 * instead was no faster on the H100 (+0.3% at 2^28; benchmark-history/README.md, 2026-12-05).
 */
function tileOffsets(G: number, R: number): string {
  return `  var group_counts: array<u32, ${G * R}>;
  var counts: array<u32, ${R}>;
  var own_total = 0u;
  for (var r = 0u; r < R; r++) {
    let d = me * R + r;
    var total = 0u;
    if (d < RADIX) {
      for (var g = 0u; g < ${G}u; g++) {
        group_counts[r * ${G}u + g] = atomicLoad(&counters[g * RADIX + d]);
        total += group_counts[r * ${G}u + g];
      }
    }
    counts[r] = total;
    own_total += total;
  }
  var start = workgroup_exclusive(own_total, lid, group, lane, gsize, groups);
  for (var r = 0u; r < R; r++) {
    let d = me * R + r;
    if (d < RADIX) {
      wg_digit[d] = start;
      var running = start;
      for (var g = 0u; g < ${G}u; g++) {
        atomicStore(&counters[g * RADIX + d], running);
        running += group_counts[r * ${G}u + g];
      }
      start += counts[r];
    }
  }`;
}

/**
 * Zeroes `counters` (its first `counterWords`) and `early_counts` at the start of the tile, the
 * invocations striding over them, and waits for all of it; with `skipClears`, nothing, not even the
 * barrier. WGSL zero-initializes workgroup memory when the workgroup starts (Dawn through Vulkan's
 * zero-initialization extension or its own code), and a workgroup sorts one tile, so these clears
 * repeat it. The loops also cost more than their stores: the index steps by the workgroup size, so
 * Tint cannot prove them finite and adds its 64-bit iteration counter (about 10 SASS instructions a
 * round, 8 rounds for the counters).
 */
function clearsWgsl(spec: OnesweepSpec, counterWords: string): string {
  if (spec.skipClears) return "  // counters and early_counts: zero from WGSL's workgroup initialization (skipClears).";
  return `  for (var i = lid; i < ${counterWords}; i += WG) { atomicStore(&counters[i], 0u); }
  for (var i = lid; i < RADIX; i += WG) { atomicStore(&early_counts[i], 0u); }
  workgroupBarrier();`;
}

/** Phase 3 for one key j: its rank among the group's keys of its digit, counted in `counters`. */
function rankOne(spec: OnesweepSpec, j: string, slot: Slot): string {
  const digit = keyDigit(spec, j, slot);
  if (!spec.subgroups) {
    // The workgroup is one group: the round's counts go in after everyone has read them.
    return `  {
    let d = ${digit};
    let m = match_digit(d, lane);
    let prior = atomicLoad(&counters[d]);
    workgroupBarrier();
    if (m.x == 0u) { atomicStore(&counters[d], prior + m.y); }
    ${slot('ranks')} = prior + m.x;
    workgroupBarrier();
  }`;
  }
  return `  {
    let d = ${digit};
    let m = match_digit(d, lane, live);
    var prior = 0u;
    if (m.x == 0u) { prior = atomicAdd(&counters[group * RADIX + d], m.y); }
    ${slot('ranks')} = subgroupShuffle(prior, m.z) + m.x;
  }`;
}

/**
 * One digit pass of the one-sweep radix sort (Adinets & Merrill, *Onesweep*, 2022). Each tile of
 * `workgroupSize × elementsPerThread` keys is ranked, chained to its predecessors and scattered in
 * one kernel:
 *
 * 1. **load** — a group (subgroup, or the workgroup) owns a run of the tile; lane l holds keys
 *    `j · gsize + l` (j < E), so the keys of a group in (j, lane) order are in input order;
 * 2. **early counts** — the tile's digit counts, published at once (tile 0: INCLUSIVE, others:
 *    AGGREGATE), so that successors looking back need not wait for this tile's ranking;
 * 3. **rank** — for each j, the lanes with the same digit are matched (the warp-level multi-split)
 *    and the first of them adds their number to the group's counter of that digit; every key's rank
 *    is the counter's old value plus the peers before it, which keeps the sort stable;
 * 4. **tile offsets** — the digit totals of the tile are scanned (digit order), and each group's
 *    counter of a digit becomes the digit's start in the tile plus the counts of the groups before
 *    it (group order): every key gets its position in the tile sorted by digit with one read (3% of
 *    the sort at 2^28 on the H200 against two reads, one of them the digit's start; BENCHMARKS.md);
 * 5. **look-back** — invocation d walks back over the predecessors' statuses of digit d (the
 *    chained scan of digit counts), a window of predecessors per read, adding AGGREGATEs until an
 *    INCLUSIVE, and publishes its own;
 * 6. **fallback** — a predecessor that stays NOT_READY for `maxSpin` reads is counted by the whole
 *    workgroup from its keys (Smith, Levien & Owens, SPAA 2025), so no forward progress between
 *    workgroups is needed (SwiftShader has none);
 * 7. **scatter** — the keys go to workgroup memory in digit order, then out: consecutive
 *    invocations write consecutive positions of a digit's run, at `digit start + tile prefix +
 *    position − tile's digit start`. Values follow through the same staging.
 *
 * Padding past the count takes the largest digit: it ranks after every real key and is never written.
 *
 * @example
 * ```ts
 * const kernel = onesweepKernel({ ...config.pass, width: 8, values: 'none' });
 * b.dispatch(kernel, { keys_in: keys, keys_out: altKeys, status, digits }, tiles, passValues);
 * ```
 */
export const onesweepKernel = defineKernel({
  name: 'sort/onesweep',
  bindings: (spec: OnesweepSpec) => ({
    keys_in: read(`array<${keyWgslType(spec.keyType)}>`),
    keys_out: readWrite(spec.packedOut ? 'array<atomic<u32>>' : `array<${keyWgslType(spec.keyType)}>`),
    values_in: spec.values === 'move' ? read('array<u32>') : undefined,
    values_out: spec.values === 'none' ? undefined : readWrite('array<u32>'),
    status: readWrite('array<atomic<u32>>'),
    // read_write although only read: the plan binds it from the buffer that holds the statuses (a
    // disjoint range), and WebGPU forbids read-only and writable bindings of one buffer in a dispatch.
    digits: readWrite('array<u32>'),
  }),
  params: ONESWEEP_PARAMS,
  enable: (spec) => (spec.subgroups ? ['subgroups'] : []),
  wgsl: (spec) => onesweepWgsl(spec),
});

/** Key j's slot of a per-key register (`keys`, `ranks`, `targets`), as WGSL. */
type Slot = (name: string) => string;

/**
 * The E per-key steps of a phase, `body(j, slot)` with j a WGSL u32 expression and `slot(name)` key
 * j's element of a per-key register: unrolled (what the GPU build wants) or as a loop (far smaller
 * WGSL: SwiftShader compiles it in a fraction of the time).
 */
function perKey(spec: OnesweepSpec, body: (j: string, slot: Slot) => string): string {
  if (spec.unrolled) {
    return unroll(spec.elementsPerThread, (k) => body(`${k}u`, (name) => `${name}[${k}u]`));
  }
  return `  for (var j = 0u; j < ${spec.elementsPerThread}u; j++) {\n${body('j', (name) => `${name}[j]`)}\n  }`;
}

/**
 * Declares a per-key register, an array of E. On the H200 the pass falls off a cliff past 13 keys
 * per invocation through Dawn (10.7 ms at 13, 15.9 at 14 with `padLast`) while a CUDA port of it is
 * fastest at 16; E scalars instead of the arrays changed nothing (measured 2026-12-05), so the cliff
 * is not the arrays.
 */
function perKeySlots(spec: OnesweepSpec, name: string, type = 'u32'): string {
  return `  var ${name}: array<${type}, ${spec.elementsPerThread}>;`;
}

function onesweepWgsl(spec: OnesweepSpec): string {
  const WG = spec.workgroupSize;
  const E = spec.elementsPerThread;
  const TILE = WG * E;
  const G = spec.subgroups ? spec.maxGroups : 1;
  // Digits owned per invocation in the per-digit phases (more than one when the workgroup is small).
  const R = Math.max(1, RADIX / WG);
  const id = groupIdentityWgsl(spec.subgroups, WG);
  const o = wgslOp('add', 'u32');
  const moves = spec.values !== 'none';
  const live = spec.maskWords === 1 ? 'subgroupBallot(true).x' : 'subgroupBallot(true)';
  const K = keyWgslType(spec.keyType);
  const wide = K !== 'u32';
  // Values are staged in the keys' staging: in the first word of a 64-bit key's slot.
  const stagedValue = (p: string) => (wide ? `stage[${p}].x` : `stage[${p}]`);
  // Values of VW words move one word a round through the keys' staging (it holds a tile of keys,
  // not of records): round c stages word c of every value at its key's rank, then writes it out
  // next to the key's target. The staging stays a tile of keys (no more workgroup memory, so wide
  // values keep the tile size); a record costs VW rounds of two barriers, and its VW words go out
  // in VW writes whose lanes are VW words apart (each round touches the same lines, which the L2
  // merges). Reads and writes of the records are what a copy of them moves: 2 · n · 4 · VW bytes a pass.
  const VW = spec.values === 'move' ? (spec.valueWords ?? 1) : 1;
  const word = (i: string, c: number) => (VW === 1 ? i : `${i} * ${VW}u${c === 0 ? '' : ` + ${c}u`}`);
  const valueRound = (c: number) => {
    const read = spec.values === 'index' ? 'e' : `values_in[${word('e', c)}]`;
    const staged = wide ? `vec2<u32>(${read}, 0u)` : read;
    return `  workgroupBarrier();
${perKey(spec, (j, slot) => `  { let e = base + ${j} * gsize + lane; if (e < n) { stage[${slot('ranks')}] = ${staged}; } }`)}
  workgroupBarrier();
${perKey(spec, (i, slot) => `  { let p = ${i} * WG + lid; if (p < valid) { values_out[${word(slot('targets'), c)}] = ${stagedValue('p')}; } }`)}`;
  };
  // A partial tile's keys past the count: the last key (padLast: it ranks at the tail by its own
  // digit, and the staging may write it there), else 0 (never counted nor staged: the phases test
  // the index instead).
  const pad = padKeyOf(spec);
  // Phase 1's tile load: lane l of a group holds keys j · gsize + l of the group's run
  // (group-striped), so the keys of a group in (j, lane) order are in input order.
  const keyTile = tileIo({
    name: 'key_tile',
    // The elements source only names its type in WGSL, so a two-word key loads as a vec2.
    type: K as ElementType,
    workgroupSize: WG,
    itemsPerThread: E,
    arrangement: 'group-striped',
    fill: pad ?? `${K}()`,
    source: { kind: 'elements', load: 'keys_in' },
  });
  // Padded with the last key, a tile counts its padding as the largest digit: taken back out of the
  // early counts before they are published.
  const paddingUncounted = pad === undefined ? '' : ' - select(0u, TILE - valid, d == params.mask)';
  // A statement for key j that padding must skip, unless the padding is the last key.
  const realKeysOnly = (j: string, statement: string) =>
    pad === undefined ? `  if (${keyInCount(j)}) { ${statement} }` : `  ${statement}`;
  // The look-back: 256 chains per tile, a digit's count each, walked by the invocation owning the
  // digit over a window of predecessors per read; a stalled tile is counted from its keys.
  const lb = decoupledLookBack({
    name: 'digit',
    op: o,
    encoding: 'packed',
    word: (t, d) => `params.status_base + STATUS_BASE + ${t} * RADIX + ${d}`,
    walkers: 'every-invocation',
    window: spec.lookBackWindow,
    maxSpin: spec.maxSpin,
    forceFallback: spec.forceFallback,
    chains: R,
    chain: (r) => `me * R + ${r}u`,
    active: (r) => `tile > 0u && me * R + ${r}u < RADIX`,
    inclusive: (p, r) => `${p} + real[${r}]`,
    fallback: {
      run: (t) => `for (var i = lid; i < RADIX; i += WG) { atomicStore(&counters[i], 0u); }
    workgroupBarrier();
    for (var j = 0u; j < E; j++) {
      let e = ${t} * TILE + j * WG + lid;
      if (e < n) { atomicAdd(&counters[digit_of(${spec.packedIn ? 'load_key(e)' : 'keys_in[e]'})], 1u); }
    }
    workgroupBarrier();`,
      value: (r) => `atomicLoad(&counters[me * R + ${r}u])`,
    },
  });
  return `${orderBitsWgsl(spec.keyType, spec.descending)}
${orderShiftWgsl(spec.keyType)}
// The digit of this pass (shift and mask from the uniform block: one pipeline for every pass).
fn digit_of(k: ${K}) -> u32 { return order_shift(order_bits(k), params.shift) & params.mask; }

const WG: u32 = ${WG}u;
const E: u32 = ${E}u;
const TILE: u32 = ${TILE}u;
const RADIX: u32 = ${RADIX}u;
const R: u32 = ${R}u;                       // digits per invocation in the per-digit phases
const STATUS_BASE: u32 = ${SORT_STATUS_BASE}u;
${spec.packedIn ? '' : keyTile.decls}
${packedKeysWgsl(spec)}
${lookBackCommonWgsl()}
${lb.decls}

${groupScanWgsl(o, spec.subgroups, WG)}
${id.decls}
var<workgroup> counters: array<atomic<u32>, ${G * RADIX}>; // per group and digit; reused by the fallback
var<workgroup> wg_digit: array<u32, ${RADIX}>;        // the tile's digit starts, then the scatter bases
var<workgroup> early_counts: array<atomic<u32>, ${RADIX}>; // the tile's keys per digit
var<workgroup> wg_group_total: array<u32, ${spec.subgroups ? spec.maxGroups : 1}>;
var<workgroup> stage: array<${K}, ${TILE}>;
${spec.subgroups ? '' : `var<workgroup> round_digits: array<u32, ${WG}>;`}

${matchWgsl(spec)}

// Exclusive sum of x over the workgroup (every invocation calls it).
fn workgroup_exclusive(x: u32, lid: u32, group: u32, lane: u32, gsize: u32, groups: u32) -> u32 {
  let s = group_scan(x, lane, gsize);
  if (lane == gsize - 1u) { wg_group_total[group] = s.inclusive; }
  workgroupBarrier();
  var before = 0u;
  for (var g = 0u; g < group; g++) { before += wg_group_total[g]; }
  workgroupBarrier();
  return before + s.exclusive;
}

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32${id.builtins}) {
  // Tiles go out in the order workgroups start (a ticket), so a tile's predecessors have started.
  if (lid == 0u) { wg_tile = atomicAdd(&status[params.status_base], 1u); }
  let tile = workgroupUniformLoad(&wg_tile);
  let n = params.count;
  if (tile * TILE >= n) { return; }
  ${id.body}
${clearsWgsl(spec, `${G * RADIX}u`)}
  let tile_start = tile * TILE;
  let valid = min(TILE, n - tile_start);

  // 1. Load: the tile load, E keys per lane, strided by the group size (coalesced).
  let base = tile_start + group * gsize * E;
  ${
    spec.packedIn
      ? `// Two keys a word: adjacent lanes read the halves of one word (2 bytes a key).
  var keys: array<u32, E>;
${perKey(spec, (j, slot) => `  { let e = base + ${j} * gsize + lane; ${slot('keys')} = ${pad ?? '0u'}; if (e < n) { ${slot('keys')} = load_key(e); } }`)}`
      : `var keys = ${keyTile.load('tile')};`
  }

  // 2. Early counts (Onesweep's): the tile's digit counts, published at once as AGGREGATE (tile 0:
  // INCLUSIVE) so that successors waiting in their look-back need not wait for this tile's ranking.
  // Invocation \`me\` owns digits me·R … me·R + R − 1, numbered in (group, lane) order: the order of
  // the workgroup scan of phase 4 (subgroups need not hold consecutive invocations).
  let me = group * gsize + lane;
${perKey(spec, (j, slot) => realKeysOnly(j, `atomicAdd(&early_counts[digit_of(${slot('keys')})], 1u);`))}
  workgroupBarrier();
  var real: array<u32, ${R}>;
  for (var r = 0u; r < R; r++) {
    let d = me * R + r;
    if (d < RADIX) {
      real[r] = atomicLoad(&early_counts[d])${paddingUncounted};
      digit_publish(tile, d, select(FLAG_AGGREGATE, FLAG_INCLUSIVE, tile == 0u), real[r]);
    }
  }

  // 3. Rank: each key's rank among its group's keys of the same digit, in (j, lane) order.
${perKeySlots(spec, 'ranks')}
  ${spec.subgroups ? `let live = ${live};` : ''}
${perKey(spec, (j, slot) => rankOne(spec, j, slot))}
  workgroupBarrier();

  // 4. Tile offsets: per digit, the digit totals of the tile are scanned (digit order; padding
  // included: it is the tail of the largest digit), then each group's counter becomes the digit's
  // start in the tile plus the counts of the groups before it (group order), so that every key's
  // position in the tile sorted by digit is one read away.
${tileOffsets(G, R)}
  workgroupBarrier();
${perKey(spec, (j, slot) => rankFixUp(spec, j, slot))}
  workgroupBarrier();

  // 5. Look-back over the digit counts of the predecessors, one digit per invocation.
${lb.start}
  // 6. Fallback: the whole workgroup counts the digits of a stalled tile from its keys.
  ${lb.finish}

  // The scatter base of each digit: its global start, plus the predecessors' keys of that digit,
  // minus its start in the tile.
${unroll(R, (r) => `  { let d = me * R + ${r}u; if (d < RADIX) { wg_digit[d] = digits[params.digit_starts + d] + ${lb.prefix(r)} - wg_digit[d]; } }`)}

  // 7. Scatter: stage the keys in digit order, then write runs out.
${perKey(spec, (j, slot) => realKeysOnly(j, `stage[${slot('ranks')}] = ${slot('keys')};`))}
  workgroupBarrier();
${perKeySlots(spec, 'targets')}
${
  spec.batchScatter
    ? batchedScatter(spec)
    : perKey(
        spec,
        (i, slot) => `  {
    let p = ${i} * WG + lid;
    if (p < valid) {
      let k = stage[p];
      ${slot('targets')} = wg_digit[digit_of(k)] + p;
      ${storeKey(spec, slot('targets'), 'k')}
    }
  }`,
      )
}
${moves ? unroll(VW, (c) => valueRound(c)) : ''}
}
`;
}
