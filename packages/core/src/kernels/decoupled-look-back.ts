import { type BindingDecl, readWrite } from './define-kernel.js';
import { type BlockOp, recordSelectWgsl } from './group-scan.js';
import { unroll } from './unroll.js';
import { type ValueWords, valueWords } from './value-words.js';

// The single-pass tile prefix of the scan family: the decoupled look-back with fallback (Merrill &
// Garland 2016; the fallback from Smith, Levien & Owens, SPAA 2025) of every single-pass kernel:
// core's scan and compaction, segmented's, the onesweep sort's and tcu's chained scan.

/**
 * u32 words of the status buffer per tile: each tile's status words (two for a 32-bit value, up to
 * all 32 for a wider one) sit alone on a 128-byte line (the ticket counter has line 0). Every tile
 * in flight reads its predecessors' statuses; packed two words apart, a few lines take all those
 * reads and the look-back crawls — measured on the H100, 2^28 u32: 0.75× copy packed, 0.91× with
 * a line per tile (BENCHMARKS.md).
 */
export const STATUS_WORDS_PER_TILE = 32;

/**
 * Bytes of a status buffer in the line-per-tile layout for `tiles` tiles: the ticket line, then one
 * 128-byte line per tile.
 *
 * @example
 * ```ts
 * b.clear({ scratch: 'status', offset: 0, size: decoupledFallbackStatusBytes(tiles) });
 * ```
 */
export function decoupledFallbackStatusBytes(tiles: number): number {
  return (tiles + 1) * STATUS_WORDS_PER_TILE * 4;
}

/** The look-back's status buffer, as a kernel declares it under the name `status`. */
export const LOOK_BACK_STATUS: BindingDecl = readWrite('array<atomic<u32>>');

/**
 * The start of every single-pass tile kernel: invocation 0 takes the next tile from the ticket in
 * `status[0]` — tiles go out in the order workgroups start, not by `workgroup_id`, so a tile's
 * predecessors have usually started before it — and workgroups past the last tile leave. Defines
 * `tile`. Expects `lid`, `params.tiles` and `wg_tile` (declared by {@link lookBackCommonWgsl}).
 *
 * @example
 * ```ts
 * const body = `${TAKE_TILE_WGSL}\n  // … work on tile …`;
 * ```
 */
export const TAKE_TILE_WGSL = `if (lid == 0u) { wg_tile = atomicAdd(&status[0], 1u); }
  let tile = workgroupUniformLoad(&wg_tile);
  if (tile >= params.tiles) { return; }`;

/**
 * The declarations every kernel with a look-back includes once, whatever its chains: the flags a
 * status goes through (NOT_READY → AGGREGATE → INCLUSIVE, never back), `Status` (a flag and 32
 * bits of value; a look-back of wider values declares its own `NAME_Status`), `NONE`,
 * `STATUS_LINE` (the words of one tile's line) and the ticket `wg_tile` that
 * {@link TAKE_TILE_WGSL} reads. With `tileType`, also `wg_aggregate` and `wg_exclusive`, the
 * tile's own total and its exclusive prefix, of that WGSL type.
 *
 * @example
 * ```ts
 * const wgsl = `${lookBackCommonWgsl('u32')}\n${lookBack.decls}`;
 * ```
 */
export function lookBackCommonWgsl(tileType?: string): string {
  return `const FLAG_NOT_READY: u32 = 0u;
const FLAG_AGGREGATE: u32 = 1u;
const FLAG_INCLUSIVE: u32 = 2u;
const NONE: u32 = 0xffffffffu;
const STATUS_LINE: u32 = ${STATUS_WORDS_PER_TILE}u; // words per tile status: one 128-byte line each
struct Status { flag: u32, bits: u32 }
var<workgroup> wg_tile: u32;
${tileType ? `var<workgroup> wg_aggregate: ${tileType};\nvar<workgroup> wg_exclusive: ${tileType};\n` : ''}`;
}

/**
 * How a chain's statuses are stored in the `status` binding:
 * - `'split'`: 32 bits of value and a flag do not fit one atomic word, so a status is two words,
 *   (flag << 16 | low half) and (flag << 16 | high half). A reader accepts a pair only when both
 *   flags agree; flags only grow, so a torn read is just retried. Any 32-bit type; and wider
 *   values the same way, half by half: a value of W 32-bit words (a vector, or a record's
 *   members in order, each word low half first; an f16 is one half) is 2W consecutive words from
 *   `word(t, chain)`, each (flag << 16 | its half), and a reader accepts the status only when all
 *   2W flags agree, else it reads as NOT_READY. Every half is written once per flag value (a wider
 *   status is never offered, see {@link LookBackSpec.op}), so agreeing flags come from one write of
 *   each half: the same value. A tile's line holds up to 32 words (W ≤ 16; records have at most 8).
 * - `'packed'`: one word, the flag in the top two bits and a u32 below 2^30 (a count). Half the
 *   reads, for the radix sort's 256 chains per tile.
 */
export type StatusEncoding = 'split' | 'packed';

/**
 * Who walks a chain back:
 * - `'leader'`: the invocation `leader` alone, `window` predecessors per read;
 * - `'first-subgroup'`: the lanes of group 0 together, lane i reading the i-th predecessor of a
 *   window of `subgroup_size` (needs subgroups);
 * - `'every-invocation'`: every invocation walks its own `chains` (the radix sort: a digit each),
 *   `window` predecessors per read.
 */
export type LookBackWalkers = 'leader' | 'first-subgroup' | 'every-invocation';

/** A decoupled look-back with fallback over one kind of status ({@link decoupledLookBack}). */
export interface LookBackSpec {
  /** Prefix of its WGSL names (functions `NAME_read`, `NAME_publish`, …; variables `NAME_prefix_0`, …). */
  readonly name: string;
  /**
   * The values chained: their type, combine and identity. A `WgslOp` (core's built-in operators on
   * u32, i32, f32), or any {@link BlockOp}: a scalar, a vector or a record (with its `fields`;
   * the module declares its struct and functions), whose `combine(a, b)` need only be associative
   * (`a` the value of the earlier tiles of the chain). Offered to a stalled tile's status are only the fallback's
   * aggregates of an `exact` `WgslOp`, one word wide: those are bit for bit what the owner
   * publishes. Any other operator may give other bits reduced in another order (float, or a user's
   * function), and a wider status offered half by half could mix two writes.
   */
  readonly op: BlockOp & { readonly exact?: boolean };
  readonly encoding: StatusEncoding;
  /**
   * The word of `status` holding tile `t`'s status of chain `chain` (WGSL u32 expressions); split:
   * the first of two, or of 2W for a value of W 32-bit words.
   */
  readonly word: (t: string, chain: string) => string;
  readonly walkers: LookBackWalkers;
  /** Predecessors a `'leader'` or `'every-invocation'` walker reads at once (default 1). */
  readonly window?: number;
  /** Reads of a not-ready predecessor before the workgroup falls back to reducing its input. */
  readonly maxSpin: number;
  /** Test hook: every predecessor reads as not ready, so the fallback does all the work. */
  readonly forceFallback?: boolean;
  /** What comes before tile 0, as a WGSL expression (the carry-in; default the identity). */
  readonly beforeFirst?: string;
  /** Chains walked per invocation (default 1); chain `r` is the WGSL u32 `chain(r)` (default `0u`). */
  readonly chains?: number;
  readonly chain?: (r: number) => string;
  /** WGSL bool: chain `r` needs a look-back in this tile (default `tile > 0u`). */
  readonly active?: (r: number) => string;
  /** The tile's own index, a WGSL u32 (default `tile`). */
  readonly tile?: string;
  /** The INCLUSIVE value the tile publishes for chain `r` once its prefix (a WGSL value) is known. */
  readonly inclusive: (prefix: string, r: number) => string;
  /** Statements run by chain `r`'s walker (lane 0 of a subgroup walker) once its prefix is known. */
  readonly resolved?: (prefix: string, r: number) => string;
  /** The fallback: how the workgroup reduces a stalled predecessor's input itself. */
  readonly fallback: {
    /**
     * Statements every invocation runs for the stalled tile `t` (a WGSL u32); may use barriers, and
     * ends with one when it leaves its result in workgroup memory.
     */
    readonly run: (t: string) => string;
    /**
     * The stalled tile's aggregate for chain `r`, read right after `run` by the chain's walker
     * (lane 0 of a subgroup walker: the value need not be valid in the other lanes).
     */
    readonly value: (r: number) => string;
    /**
     * WGSL bool, the same for all of a chain's walkers: that aggregate ends the walk (a segment
     * head: it is then the predecessor's INCLUSIVE value, and is not offered to its status).
     */
    readonly ends?: (t: string) => string;
  };
}

/** The WGSL of one look-back: module-scope declarations, the first attempt and the fallback loop. */
export interface DecoupledLookBack {
  /**
   * Module scope: `NAME_load/read/publish/offer` (no `NAME_offer` for a value wider than 32 bits,
   * which then has its status struct `NAME_Status { flag, value }`) and the fallback's workgroup state.
   */
  readonly decls: string;
  /**
   * The first attempt (no barriers, in the entry point's top scope): declares every chain's state
   * and walks once; a chain that resolves publishes its INCLUSIVE and runs `resolved`.
   */
  readonly start: string;
  /**
   * The fallback loop, run by the whole workgroup (uniform control flow): while a chain is stuck on
   * a predecessor that is not ready, the workgroup runs `fallback.run` on it, the chains stuck there
   * take its aggregate (offering it to the predecessor's status for exact built-in operators of one
   * word) and walk on.
   * Ends with every chain resolved.
   */
  readonly finish: string;
  /**
   * Statements that publish a tile's aggregate (a WGSL value) as its AGGREGATE status and set up the
   * walk: run by one invocation (the leader) of a tile past the first, before a barrier that comes
   * before `start`.
   */
  readonly aggregate: (value: string) => string;
  /** The WGSL variable holding chain `r`'s prefix (complete after `finish`). */
  readonly prefix: (r: number) => string;
}

/**
 * The decoupled look-back with fallback (Merrill & Garland 2016; the fallback from Smith, Levien &
 * Owens, SPAA 2025) as one generator, serving every single-pass kernel: core's scan and compaction
 * (through {@link tileLookBack}), segmented scan and reduce, the onesweep sort and tcu's chained
 * scan. Each tile
 * publishes its aggregate per chain (AGGREGATE), walks back over its predecessors' statuses —
 * combining AGGREGATEs, nearest first, until an INCLUSIVE — and publishes its own INCLUSIVE. A
 * walker that reads the same predecessor as not ready `maxSpin` times stops; the whole workgroup
 * then reduces that predecessor's input itself (the fallback) and the walk resumes past it, so no
 * forward progress between workgroups is needed (SwiftShader has none).
 *
 * The kernels differ only in what the spec says: the status encoding (two half-words of any 32-bit
 * type, 2W of a value of W words, or one word of flag and count), who walks (the leader, the first
 * subgroup over a window of `subgroup_size` predecessors, or every invocation over its own chains,
 * as the radix sort's 256 digit counts per tile), and what the fallback reduces. Expects {@link lookBackCommonWgsl}, the
 * binding `status`, and `tile`, `lid`, `leader`, `group`, `lane` and `gsize` in the entry point.
 *
 * @example
 * ```ts
 * const o = wgslOp('add', 'u32');
 * const lb = decoupledLookBack({
 *   name: 'lb', op: o, encoding: 'split', word: (t) => `STATUS_LINE * (${t} + 1u)`,
 *   walkers: 'first-subgroup', maxSpin: 64,
 *   inclusive: (p) => o.combine(p, 'wg_aggregate'), resolved: (p) => `wg_exclusive = ${p};`,
 *   fallback: { run: (t) => `let found = tile_reduce(${t});`, value: () => 'found' },
 * });
 * const wgsl = `${lookBackCommonWgsl('u32')}${lb.decls}\n…${lb.start}…${lb.finish}`;
 * ```
 */
export function decoupledLookBack(spec: LookBackSpec): DecoupledLookBack {
  if (spec.encoding === 'packed' && spec.op.type !== 'u32') {
    throw new Error(`decoupledLookBack: the packed encoding holds u32 counts, not ${spec.op.type}`);
  }
  const form = statusForm(spec);
  const n = spec.name;
  const chains = spec.chains ?? 1;
  const state = (r: number) => ({ left: `${n}_left_${r}`, prefix: `${n}_prefix_${r}`, done: `${n}_done_${r}` });
  const chain = (r: number) => spec.chain?.(r) ?? '0u';
  const walkers = { leader: 'leader', 'first-subgroup': 'group == 0u', 'every-invocation': 'true' }[spec.walkers];
  // The walker that holds a chain's complete prefix and publishes: lane 0 of a subgroup walker.
  const rep = spec.walkers === 'first-subgroup' ? 'lane == 0u' : 'true';
  const tile = spec.tile ?? 'tile';
  // What the walker that holds chain r's prefix does once it is complete.
  const publishResolved = (r: number) => {
    const p = state(r).prefix;
    return `${n}_publish(${tile}, ${chain(r)}, FLAG_INCLUSIVE, ${spec.inclusive(p, r)});
      ${spec.resolved?.(p, r) ?? ''}`;
  };
  const resolve = (r: number) => `if (${rep}) {
      ${publishResolved(r)}
    }`;
  const walk = (r: number) => `${walkWgsl(spec, state(r), chain(r))}
    if (${state(r).done}) { ${resolve(r)} }`;

  const many = spec.walkers === 'every-invocation';
  if (!many && chains !== 1) throw new Error(`decoupledLookBack: ${spec.walkers} walkers walk one chain, not ${chains}`);
  const ends = spec.fallback.ends;
  // A chain's aggregate from the fallback: combined into the prefix; it ends the walk (then the
  // chain resolves) or is offered to the stalled tile's status (exact operators only).
  const takeFound = (r: number) => {
    const s = state(r);
    const offer = form.offers ? `if (${rep}) { ${n}_offer(stalled, ${chain(r)}, ${n}_found); }` : '';
    return `let ${n}_found = ${spec.fallback.value(r)};
      ${s.prefix} = ${spec.op.combine(`${n}_found`, s.prefix)};
      ${s.left} = stalled;
      ${
        ends
          ? `if (${ends('stalled')}) {
        ${s.done} = true;
        ${resolve(r)}
      } else {
        ${offer}
      }`
          : offer
      }`;
  };
  const fallbackHead = (report: string) => `loop {
    // Fallback: is a chain stuck on a predecessor (stall = that tile + 1)?
${report}
    if (stall == 0u) { break; }
    let stalled = stall - 1u;
    ${spec.fallback.run('stalled')}
    // The chains stuck there take its aggregate and walk on.`;

  let start: string;
  let finish: string;
  let prefix: (r: number) => string;
  if (many) {
    // Every invocation keeps its chains' state in registers; the farthest stall is taken with
    // atomicMax and read by the workgroup as one value.
    start = unroll(chains, (r) => {
      const s = state(r);
      return `  var ${s.left} = ${tile};
  var ${s.prefix} = ${spec.op.identity};
  var ${s.done} = !(${spec.active?.(r) ?? `${tile} > 0u`});
  if (!${s.done}) {
    ${walk(r)}
  }`;
    });
    finish = `${fallbackHead(`${unroll(chains, (r) => `    if (!${state(r).done}) { atomicMax(&${n}_stall, ${state(r).left}); }`)}
    workgroupBarrier();
    if (lid == 0u) {
      ${n}_stall_seen = atomicLoad(&${n}_stall);
      atomicStore(&${n}_stall, 0u);
    }
    let stall = workgroupUniformLoad(&${n}_stall_seen);`)}
${unroll(
  chains,
  (r) => `    if (!${state(r).done} && ${state(r).left} == stall) {
      ${takeFound(r)}
    }
    if (!${state(r).done}) {
      ${walk(r)}
    }`,
)}
  }`;
    prefix = (r) => state(r).prefix;
  } else {
    // One walker (the leader, or the first subgroup). Its state between attempts — the
    // predecessor it is stuck on, the prefix so far, resolved or not — lives in workgroup memory,
    // written by the walker's lane 0 and reloaded by each attempt; every invocation sees it for the
    // fallback. This is the structure core's scan and compaction had in their own look-back
    // (look-back.ts, removed on 2026-12-06 when they moved here: benchmark-history/README.md,
    // "issue 47", has the bisection and the A/B that let the two become one).
    const active = spec.active?.(0) ?? `${tile} > 0u`;
    // What lane 0 of the walker does once the prefix (a WGSL value) is complete.
    const settle = (p: string) => `${spec.resolved?.(p, 0) ?? ''}
          ${n}_publish(${tile}, ${chain(0)}, FLAG_INCLUSIVE, ${spec.inclusive(p, 0)});`;
    start = `  if (${active}) {
    ${singleStep(spec, chain(0), `${tile} - 1u`, spec.op.identity, settle)}
  }`;
    const offerCall = `${n}_offer(stalled, ${chain(0)}, ${n}_found);`;
    // A stalled tile that ends the walk (a segment head) gave its INCLUSIVE value: the chain
    // resolves here, and that value is not offered as the tile's AGGREGATE.
    const take = ends
      ? `if (${ends('stalled')}) {
          ${settle(`${n}_prefix`)}
          ${n}_state = 0u;
        } else {
          ${form.offers ? offerCall : ''}
        }`
      : form.offers
        ? offerCall
        : spec.op.exact === false
          ? '// Float add/mul: another order gives other bits, so the aggregate is kept private.'
          : '// Not an exact built-in of one word: the aggregate is kept private (see LookBackSpec.op).';
    finish = `if (${active}) {
  loop {
    // Fallback: while the walk is stuck on a predecessor that is not ready, the whole workgroup
    // reduces that predecessor's input itself and the walk resumes past it.
    if (workgroupUniformLoad(&${n}_state) == 0u) { break; }
    let stalled = workgroupUniformLoad(&${n}_tile);
    ${spec.fallback.run('stalled')}
    // The walker's lane 0 takes the stalled tile's aggregate and offers it, before the barrier.
    if (${walkers} && ${rep}) {
      let ${n}_found = ${spec.fallback.value(0)};
      ${n}_prefix = ${spec.op.combine(`${n}_found`, `${n}_prefix`)};
      ${take}
      ${n}_tile = select(stalled - 1u, NONE, stalled == 0u);
    }
    workgroupBarrier();
    ${ends ? `if (!(${ends('stalled')})) {` : '{'}
      ${singleStep(spec, chain(0), `${n}_tile`, `${n}_prefix`, settle)}
    }
  }
  }`;
    prefix = () => `${n}_prefix`;
  }
  // A tile past the first publishes its aggregate and, for a single walker, also stores the walk's
  // starting state in workgroup memory before the barrier that precedes `start` (the first attempt
  // starts from registers and does not read it). The stores look redundant but are not free to
  // drop: without them core's scan and compaction measured 1–3% slower at 2^28 on the H100
  // (pack, u32 flags: 3.1%); with them every case of scan, split and pack at 2^20–2^28 is within
  // 1% of core's former look-back (H100, 2026-12-06, geometric mean 0.9999).
  const aggregate = (value: string) =>
    many
      ? `${n}_publish(${tile}, ${chain(0)}, FLAG_AGGREGATE, ${value});`
      : `${n}_publish(${tile}, ${chain(0)}, FLAG_AGGREGATE, ${value});
      ${n}_tile = ${tile} - 1u;
      ${n}_prefix = ${spec.op.identity};`;

  return {
    aggregate,
    decls: `${
      many
        ? `var<workgroup> ${n}_stall: atomic<u32>;\nvar<workgroup> ${n}_stall_seen: u32;`
        : `var<workgroup> ${n}_state: u32;   // 0: resolved, 1: stuck on ${n}_tile (the fallback's turn)
var<workgroup> ${n}_tile: u32;    // the nearest predecessor not consumed yet; NONE past tile 0
var<workgroup> ${n}_prefix: ${spec.op.type};  // the predecessors consumed so far, combined (the prefix once resolved)`
    }
${statusAccessWgsl(spec, form)}${walkHelpersWgsl(spec)}`,
    start,
    finish,
    prefix,
  };
}

/**
 * How a look-back's statuses look in WGSL. One 32-bit word of value (u32, i32, f32; every kernel
 * of the kit so far): the common `Status { flag, bits }`, the value bitcast from `bits` — this
 * form's WGSL is kept as it was, byte for byte, as the single-pass kernels were timed with it.
 * Anything wider (or an f16): the look-back's own `NAME_Status { flag, value: T }`.
 */
interface StatusForm {
  /** The value is wider than one 32-bit scalar (or an f16): `NAME_Status`, 2W halves. */
  readonly wide: boolean;
  /** The status struct's WGSL name. */
  readonly struct: string;
  /** The value type's halves. */
  readonly words: ValueWords;
  /** The fallback's aggregate is offered to the stalled tile's status (see {@link LookBackSpec.op}). */
  readonly offers: boolean;
  /** The value of the status `st` (a WGSL expression), of the value type. */
  value(st: string): string;
  /** What the status struct's second member holds for the value `v` (a WGSL expression of the value type). */
  member(v: string): string;
}

function statusForm(spec: LookBackSpec): StatusForm {
  const o = spec.op;
  const words = valueWords(o.type, o.fields);
  const wide = !words.word32;
  if (wide && spec.encoding !== 'split') {
    throw new Error(`decoupledLookBack: the ${spec.encoding} encoding holds one word, not ${o.type}`);
  }
  return {
    wide,
    struct: wide ? `${spec.name}_Status` : 'Status',
    words,
    offers: !wide && o.exact === true && o.commutative !== false,
    value: (st) => (wide ? `${st}.value` : `bitcast<${o.type}>(${st}.bits)`),
    member: (v) => (wide ? v : `bitcast<u32>(${v})`),
  };
}

/**
 * `NAME_load(t, chain) -> Status` (the status as stored; NOT_READY while split halves disagree),
 * `NAME_read` (the same, or always NOT_READY with `forceFallback`), `NAME_publish(t, chain, flag,
 * value)` and `NAME_offer(t, chain, value)`: a fallback's aggregate stored with atomicMax, which
 * never lowers a flag, so an owner's INCLUSIVE survives and its AGGREGATE has the same bits. A
 * wide value: `struct NAME_Status`, its halves in 2W words, and no `NAME_offer`.
 */
function statusAccessWgsl(spec: LookBackSpec, form: StatusForm): string {
  if (form.wide) return wideStatusAccessWgsl(spec, form);
  const n = spec.name;
  const T = spec.op.type;
  const at = (half: number) => `${spec.word('t', 'chain')}${half ? ' + 1u' : ''}`;
  const access =
    spec.encoding === 'split'
      ? {
          load: `let lo = atomicLoad(&status[${at(0)}]);
  let hi = atomicLoad(&status[${at(1)}]);
  let flag = lo >> 16u;
  return Status(select(FLAG_NOT_READY, flag, flag == (hi >> 16u)), (lo & 0xffffu) | (hi << 16u));`,
          store: (op: string, flag: string) => `let bits = bitcast<u32>(value);
  ${op}(&status[${at(0)}], (${flag} << 16u) | (bits & 0xffffu));
  ${op}(&status[${at(1)}], (${flag} << 16u) | (bits >> 16u));`,
        }
      : {
          load: `let s = atomicLoad(&status[${at(0)}]);
  return Status(s >> 30u, s & 0x3fffffffu);`,
          store: (op: string, flag: string) => `${op}(&status[${at(0)}], (${flag} << 30u) | (value & 0x3fffffffu));`,
        };
  return `fn ${n}_load(t: u32, chain: u32) -> Status {
  ${access.load}
}

fn ${n}_read(t: u32, chain: u32) -> Status {
  ${spec.forceFallback ? 'return Status(FLAG_NOT_READY, 0u);' : access.load}
}

fn ${n}_publish(t: u32, chain: u32, flag: u32, value: ${T}) {
  ${access.store('atomicStore', 'flag')}
}

fn ${n}_offer(t: u32, chain: u32, value: ${T}) {
  ${access.store('atomicMax', 'FLAG_AGGREGATE')}
}
`;
}

/**
 * The split encoding of a wide value (see {@link StatusEncoding}): word k from `word(t, chain)`
 * holds (flag << 16 | half k); the status reads as NOT_READY unless all the flags agree. No
 * `NAME_offer`: only the owner writes a wide status, each half once per flag.
 */
function wideStatusAccessWgsl(spec: LookBackSpec, form: StatusForm): string {
  const n = spec.name;
  const T = spec.op.type;
  const S = form.struct;
  const H = form.words.halves;
  const at = (k: number) => `${spec.word('t', 'chain')}${k ? ` + ${k}u` : ''}`;
  const w = Array.from({ length: H }, (_, k) => `w${k}`);
  const notReady = `return ${S}(FLAG_NOT_READY, ${T}());`;
  const agree = w
    .slice(1)
    .map((x) => `(${x} >> 16u) == flag`)
    .join(' && ');
  // Halves of different writes (a status being published) read as not ready yet — chosen, not
  // returned early (see recordSelectWgsl: the walk's subgroup operations follow this read).
  const flag = agree ? `select(FLAG_NOT_READY, flag, ${agree})` : 'flag';
  const load = `${w.map((x, k) => `let ${x} = atomicLoad(&status[${at(k)}]);`).join('\n  ')}
  let flag = w0 >> 16u;
  return ${S}(${flag}, ${form.words.fromHalves(w)});`;
  const halves = form.words.halvesOf('value');
  return `// A status of ${T}: a flag and the value, stored as ${H} words (flag << 16 | a 16-bit half).
struct ${S} { flag: u32, value: ${T} }

fn ${n}_load(t: u32, chain: u32) -> ${S} {
  ${load}
}

fn ${n}_read(t: u32, chain: u32) -> ${S} {
  ${spec.forceFallback ? notReady : load}
}

fn ${n}_publish(t: u32, chain: u32, flag: u32, value: ${T}) {
  ${halves.map((h, k) => `atomicStore(&status[${at(k)}], (flag << 16u) | ${h});`).join('\n  ')}
}
`;
}

/**
 * What a wide or user's operator needs in a subgroup walk (nothing for a `WgslOp`):
 * `NAME_select` in place of `select` for a struct, and `NAME_reduce(x, lane, size)`, the subgroup's
 * reduction from its last lane to its first (lane i holds predecessor cursor − i, so the higher
 * lanes come first) by a butterfly of shuffles, for an operator without a reduction built-in.
 */
function walkHelpersWgsl(spec: LookBackSpec): string {
  if (spec.walkers !== 'first-subgroup') return '';
  const o = spec.op;
  const T = o.type;
  const n = spec.name;
  const out: string[] = [];
  if (o.fields) out.push(recordSelectWgsl(`${n}_select`, T, o.fields));
  if (!o.subgroupReduce) {
    const shuffle = o.fields ? `${T}(${o.fields.map((f) => `subgroupShuffleXor(r.${f.name}, d)`).join(', ')})` : 'subgroupShuffleXor(r, d)';
    out.push(`// The subgroup's reduction from its last lane to its first, in order (the operator need not commute).
fn ${n}_reduce(x: ${T}, lane: u32, size: u32) -> ${T} {
  var r = x;
  for (var d = 1u; d < size; d = d << 1u) {
    let y = ${shuffle};
    if ((lane & d) == 0u) { r = ${o.combine('y', 'r')}; } else { r = ${o.combine('r', 'y')}; }
  }
  return r;
}`);
  }
  return out.length > 0 ? `\n${out.join('\n')}\n` : '';
}

/**
 * One attempt of a single walker, as a block: walks back from predecessor `cursor` (a WGSL u32;
 * NONE past tile 0) with `prefix` combined so far, and leaves the state in `NAME_tile`,
 * `NAME_prefix`, `NAME_state` — resolved (0: the prefix is complete, `resolved` ran) or stuck (1:
 * `NAME_tile` is not ready after `maxSpin` reads). The first subgroup reads a window of
 * `subgroup_size` predecessors per step (lane i reads cursor − i); the leader reads one. Inline, not
 * a WGSL function: called through a function, the same walk made the scan and the sort 1.4× slower
 * on the H200 (2026-11-28).
 */
function singleStep(spec: LookBackSpec, chain: string, cursor: string, prefix: string, settle: (prefix: string) => string): string {
  const n = spec.name;
  const o = spec.op;
  const f = statusForm(spec);
  const S = f.struct;
  // What a read past tile 0 holds, as the status struct's member, and as a value.
  const before = f.member(spec.beforeFirst ?? o.identity);
  const beforeValue = f.wide ? before : `bitcast<${o.type}>(${before})`;
  if (spec.walkers === 'first-subgroup') {
    // The subgroup's reduction (lanes from the last to the first) of the values of the lanes where `cond` holds.
    const part = (cond: string) => {
      const x = o.fields ? `${n}_select(${o.identity}, value, ${cond})` : `select(${o.identity}, value, ${cond})`;
      return o.subgroupReduce ? `${o.subgroupReduce}(${x})` : `${n}_reduce(${x}, lane, gsize)`;
    };
    return `if (group == 0u) {
      var spins = 0u;
      var cursor = ${cursor};
      var prefix = ${prefix};
      var resolved = false;
      loop {
        // The nearest INCLUSIVE ends the walk if no NOT_READY precedes it; otherwise the
        // AGGREGATEs before the first NOT_READY are consumed. Lanes past tile 0 read the carry-in.
        var st = ${S}(FLAG_INCLUSIVE, ${before});
        // Every lane reads (past the window: tile 0's status, unused), so that no branch comes
        // between the reads and the subgroup operations below.
        let in_window = cursor != NONE && lane <= cursor;
        let seen = ${n}_read(select(0u, cursor - lane, in_window), ${chain});
        if (in_window) { st = seen; }
        let first_inclusive = subgroupMin(select(NONE, lane, st.flag == FLAG_INCLUSIVE));
        let first_not_ready = subgroupMin(select(NONE, lane, st.flag == FLAG_NOT_READY));
        let value = ${f.value('st')};
        if (first_inclusive < first_not_ready) {
          let part = ${part('lane <= first_inclusive')};
          prefix = ${o.combine('part', 'prefix')};
          resolved = true;
          break;
        }
        if (first_not_ready > 0u) {
          let part = ${part('lane < first_not_ready')};
          prefix = ${o.combine('part', 'prefix')};
          // A window of AGGREGATEs only (first_not_ready == NONE) advances by the window size.
          let consumed = min(first_not_ready, gsize);
          cursor = select(cursor - consumed, NONE, cursor < consumed);
          spins = 0u;
          continue;
        }
        spins++;
        if (spins >= ${spec.maxSpin}u) { break; }
      }
      if (lane == 0u) {
        ${n}_tile = cursor;
        ${n}_prefix = prefix;
        if (resolved) {
          ${settle('prefix')}
          ${n}_state = 0u;
        } else {
          ${n}_state = 1u;
        }
      }
    }`;
  }
  return `if (leader) {
      var spins = 0u;
      ${n}_tile = ${cursor};
      ${n}_prefix = ${prefix};
      ${n}_state = 1u;
      loop {
        if (${n}_tile == NONE) {
          ${n}_prefix = ${o.combine(beforeValue, `${n}_prefix`)};
          ${n}_state = 0u;
          break;
        }
        let st = ${n}_read(${n}_tile, ${chain});
        if (st.flag == FLAG_INCLUSIVE) {
          ${n}_prefix = ${o.combine(f.value('st'), `${n}_prefix`)};
          ${n}_state = 0u;
          break;
        }
        if (st.flag == FLAG_AGGREGATE) {
          ${n}_prefix = ${o.combine(f.value('st'), `${n}_prefix`)};
          ${n}_tile = select(${n}_tile - 1u, NONE, ${n}_tile == 0u);
          spins = 0u;
          continue;
        }
        spins++;
        if (spins >= ${spec.maxSpin}u) { break; }
      }
      if (${n}_state == 0u) {
        ${settle(`${n}_prefix`)}
      }
    }`;
}

/**
 * The walk of an every-invocation walker (the radix sort's digit chains, each invocation its own),
 * as a block over one chain's state in registers (WGSL variables `left`, `prefix`, `done`): `left` predecessors (tiles left − 1 … 0) remain; their values are combined into
 * `prefix`, nearest first, until an INCLUSIVE (done), or until `maxSpin` reads in a row made no
 * progress (not done: tile left − 1 is stalled). Reads past tile 0 stand for an INCLUSIVE
 * `beforeFirst`. Inline, not a WGSL function: called through a function, the same walk made the
 * scan and the sort 1.4× slower on the H200 (2026-11-28).
 */
function walkWgsl(spec: LookBackSpec, v: { left: string; prefix: string; done: string }, chain: string): string {
  const n = spec.name;
  const o = spec.op;
  const f = statusForm(spec);
  const before = f.member(spec.beforeFirst ?? o.identity);
  const { left, prefix, done } = v;
  const W = spec.window ?? 1;
  // Statuses past tile 0 stand for an INCLUSIVE `beforeFirst` (a struct of a wide value takes no `select`).
  const keep = f.wide
    ? `window[i] = s;
          if (i >= ${left}) { window[i] = ${f.struct}(FLAG_INCLUSIVE, ${before}); }`
    : `window[i] = Status(select(FLAG_INCLUSIVE, s.flag, i < ${left}), select(${before}, s.bits, i < ${left}));`;
  return `{
      var spins = 0u;
      loop {
        // ${W === 1 ? 'One predecessor per read' : `A window of ${W} predecessors read at once (independent loads, one latency), then consumed nearest first`}: AGGREGATEs add up until an INCLUSIVE ends the walk or a NOT_READY stops this step.
        // The loads are unconditional (a read past tile 0 is discarded), so that they go out together.
        var window: array<${f.struct}, ${W}>;
        for (var i = 0u; i < ${W}u; i++) {
          let s = ${n}_read(${left} - 1u - i, ${chain});
          ${keep}
        }
        var consumed = 0u;
        for (var i = 0u; i < ${W}u; i++) {
          let s = window[i];
          if (s.flag == FLAG_NOT_READY) { break; }
          ${prefix} = ${o.combine(f.value('s'), prefix)};
          if (s.flag == FLAG_INCLUSIVE) { ${done} = true; break; }
          consumed++;
        }
        if (${done}) { break; }
        ${left} -= consumed;
        if (consumed > 0u) {
          spins = 0u;
        } else {
          spins++;
          if (spins >= ${spec.maxSpin}u) { break; }
        }
      }
    }`;
}

/**
 * The look-back of a tile's one value (a scan's prefix, a compaction's count), as the single-pass
 * kernels of core, segmented and tcu use it: statuses `lb` in words 0–1 of each tile's line (split
 * encoding; words 0 to 2W − 1 for a value of W 32-bit words, W ≤ 16), walked by the first subgroup
 * (or the leader without subgroups); once resolved the tile publishes `inclusive(prefix)` (default
 * `prefix ⊕ wg_aggregate`) and sets `wg_exclusive`. Expects {@link lookBackCommonWgsl} with the
 * tile's type. Publish with `lb_publish(tile, 0u, flag, value)`.
 *
 * @example
 * ```ts
 * const lb = tileLookBack(wgslOp('add', 'u32'), {
 *   subgroups: true, maxSpin: 64,
 *   fallback: { run: (t) => `let found = tile_reduce(${t}, leader, group, lane, gsize, groups);`, value: () => 'found' },
 * });
 * ```
 */
export function tileLookBack(
  o: LookBackSpec['op'],
  spec: Pick<LookBackSpec, 'maxSpin' | 'forceFallback' | 'beforeFirst' | 'fallback'> & {
    readonly subgroups: boolean;
    readonly inclusive?: (prefix: string) => string;
  },
): DecoupledLookBack {
  const halves = valueWords(o.type, o.fields).halves;
  if (halves > STATUS_WORDS_PER_TILE) {
    throw new Error(`tileLookBack: a status of ${o.type} takes ${halves} words, more than a tile's line of ${STATUS_WORDS_PER_TILE}`);
  }
  return decoupledLookBack({
    name: 'lb',
    op: o,
    encoding: 'split',
    word: (t) => `STATUS_LINE * (${t} + 1u)`,
    walkers: spec.subgroups ? 'first-subgroup' : 'leader',
    maxSpin: spec.maxSpin,
    forceFallback: spec.forceFallback,
    beforeFirst: spec.beforeFirst,
    inclusive: spec.inclusive ?? ((p) => o.combine(p, 'wg_aggregate')),
    resolved: (p) => `wg_exclusive = ${p};`,
    fallback: spec.fallback,
  });
}
