// Core's own look-back text, for its two tile kernels only: the decoupled-fallback scan and the
// single-pass compaction (split, pack). Every other single-pass kernel takes its look-back from the
// kit's generator (`decoupledLookBack`, decoupled-look-back.ts), whose single-walker form now has
// the same structure as this one (state in workgroup memory, the fallback's offer before its
// barrier). Issue 47 asks for one look-back; this file is what is left of the second. It stays
// because the kernels on the generator's form are still slower at 2^28 on the H100 (2026-12-06,
// the bisection in benchmark-history/README.md): the scan by 1–1.5%, split by 2%, pack with u32
// flags by 3%, and no difference in the WGSL tried so far (the offer, the blocks, the walk's
// start, the function parameters) explains it. The constants and the status layout are shared
// with the generator; only the three blocks below are this file's own.
import { STATUS_WORDS_PER_TILE } from './decoupled-look-back.js';
import type { WgslOp } from './wgsl-ops.js';

export { decoupledFallbackStatusBytes, LOOK_BACK_STATUS, STATUS_WORDS_PER_TILE, TAKE_TILE_WGSL } from './decoupled-look-back.js';

/** What the look-back declarations depend on. */
export interface CoreLookBackSpec {
  /** Reads of a not-ready predecessor before the workgroup falls back to reducing its input. */
  readonly maxSpin: number;
  /** Test hook: every predecessor reads as not ready, so the fallback does all the work. */
  readonly forceFallback?: boolean;
}

/**
 * WGSL shared by every single-pass scan with decoupled look-back and fallback (Smith, Levien &
 * Owens, SPAA 2025) over the status buffer the kernel declares as `status` ({@link LOOK_BACK_STATUS}:
 * `[0]` the tile ticket, then one 128-byte line per tile): the flags, `read_status`/`publish`, and
 * the workgroup variables of the look-back: `wg_tile`, `wg_aggregate`, `wg_exclusive`, `lb_state`,
 * `lb_tile`, `lb_prefix`.
 *
 * A status is 32 bits of value and a 2-bit flag, which do not fit one atomic word: each tile has two
 * words, (flag << 16 | low half) and (flag << 16 | high half). A reader accepts a pair only when both
 * flags agree; flags only grow, so a torn read is just retried.
 *
 * @example
 * ```ts
 * const wgsl = lookBackDeclsWgsl(wgslOp('add', 'u32'), { maxSpin: 64 });
 * ```
 */
export function lookBackDeclsWgsl(o: WgslOp, spec: CoreLookBackSpec): string {
  const T = o.type;
  return `
const FLAG_NOT_READY: u32 = 0u;
const FLAG_AGGREGATE: u32 = 1u;
const FLAG_INCLUSIVE: u32 = 2u;
const MAX_SPIN: u32 = ${spec.maxSpin}u;
const NONE: u32 = 0xffffffffu;
const STATUS_LINE: u32 = ${STATUS_WORDS_PER_TILE}u; // words per tile status: one 128-byte line each

var<workgroup> wg_tile: u32;
var<workgroup> wg_aggregate: ${T};
var<workgroup> wg_exclusive: ${T};
var<workgroup> lb_state: u32;      // 0: resolved, 1: fall back on lb_tile
var<workgroup> lb_tile: u32;       // predecessor being examined, NONE once all are consumed
var<workgroup> lb_prefix: ${T};    // combined aggregates of the predecessors consumed so far


struct Status { flag: u32, bits: u32 }

${statusAccessWgsl({ read: 'read_status', publish: 'publish', word: 0, type: T, forceNotReady: spec.forceFallback })}
`;
}

/**
 * A reader and a writer of one status of every tile's line, words `word` and `word + 1`, in the
 * two-halves form of {@link lookBackDeclsWgsl}: `read(t) -> Status` (NOT_READY while the two flags
 * differ, or always with `forceNotReady`, the fallback test hook) and `publish(t, flag, value)`.
 */
function statusAccessWgsl(spec: { read: string; publish: string; word: number; type: string; forceNotReady?: boolean }): string {
  const at = (half: number) => `STATUS_LINE * (t + 1u)${spec.word + half > 0 ? ` + ${spec.word + half}u` : ''}`;
  return `fn ${spec.read}(t: u32) -> Status {
  let lo = atomicLoad(&status[${at(0)}]);
  let hi = atomicLoad(&status[${at(1)}]);
  let flag = lo >> 16u;
  if (flag != (hi >> 16u) || ${spec.forceNotReady ? 'true' : 'false'}) { return Status(FLAG_NOT_READY, 0u); }
  return Status(flag, (lo & 0xffffu) | (hi << 16u));
}

fn ${spec.publish}(t: u32, flag: u32, value: ${spec.type}) {
  let bits = bitcast<u32>(value);
  atomicStore(&status[${at(0)}], (flag << 16u) | (bits & 0xffffu));
  atomicStore(&status[${at(1)}], (flag << 16u) | (bits >> 16u));
}
`;
}

/**
 * One look-back attempt as a WGSL block: walks back from `lb_tile`, combining AGGREGATEs into
 * `lb_prefix` until an INCLUSIVE (or the carry-in, past tile 0) resolves it — then sets
 * `wg_exclusive`, publishes this tile's INCLUSIVE (`wg_exclusive ⊕ wg_aggregate`) and sets
 * `lb_state` 0 — or gives up after `MAX_SPIN` reads of a not-ready predecessor with `lb_state` 1,
 * leaving `lb_tile` at the stalled tile for the caller's fallback. With subgroups the first group
 * walks over a window of `subgroup_size` predecessors per step; without, the leader walks alone.
 * Expects `tile`, `leader`, `group`, `lane`, `gsize` in scope. `inclusiveOf(exclusive)` gives the
 * tile's INCLUSIVE value (default `exclusive ⊕ wg_aggregate`).
 *
 * @example
 * ```ts
 * const code = `if (tile > 0u) { ${'$'}{lookBackStepWgsl(o, true)} }`;
 * ```
 */
export function lookBackStepWgsl(o: WgslOp, subgroups: boolean, inclusiveOf?: (exclusive: string) => string): string {
  // A segmented scan overrides this: a tile that holds a segment head does not depend on its past.
  const inclusive = inclusiveOf ?? ((exclusive: string) => o.combine(exclusive, 'wg_aggregate'));
  return subgroups ? windowedLookBack(o, inclusive) : serialLookBack(o, inclusive);
}

/**
 * Look-back by invocation 0 alone, one predecessor per step (the workgroup-memory form).
 * Sets lb_state 0 (resolved: wg_exclusive set, INCLUSIVE published) or 1 (fall back on lb_tile).
 */
function serialLookBack(o: WgslOp, inclusive: (exclusive: string) => string): string {
  const c = o.combine;
  const T = o.type;
  return `if (leader) {
        var spins = 0u;
        lb_state = 1u;
        loop {
          if (lb_tile == NONE) {
            wg_exclusive = ${c('load_carry_in()', 'lb_prefix')};
            lb_state = 0u;
            break;
          }
          let st = read_status(lb_tile);
          if (st.flag == FLAG_INCLUSIVE) {
            wg_exclusive = ${c(`bitcast<${T}>(st.bits)`, 'lb_prefix')};
            lb_state = 0u;
            break;
          }
          if (st.flag == FLAG_AGGREGATE) {
            lb_prefix = ${c(`bitcast<${T}>(st.bits)`, 'lb_prefix')};
            lb_tile = select(lb_tile - 1u, NONE, lb_tile == 0u);
            spins = 0u;
            continue;
          }
          spins++;
          if (spins >= MAX_SPIN) { break; }
        }
        if (lb_state == 0u) {
          publish(tile, FLAG_INCLUSIVE, ${inclusive('wg_exclusive')});
        }
      }`;
}

/**
 * Look-back by the whole first subgroup over a window of `subgroup_size` predecessors per step:
 * lane i inspects tile (cursor − i). The nearest INCLUSIVE ends the walk if no NOT_READY precedes
 * it; otherwise the AGGREGATEs before the first NOT_READY are consumed and the window moves on.
 * Lanes past tile 0 stand for the carry-in, as an INCLUSIVE.
 */
function windowedLookBack(o: WgslOp, inclusive: (exclusive: string) => string): string {
  const c = o.combine;
  const T = o.type;
  return `if (group == 0u) {
        var spins = 0u;
        var cursor = lb_tile;
        var prefix = lb_prefix;
        var resolved = false;
        loop {
          var st = Status(FLAG_INCLUSIVE, bitcast<u32>(load_carry_in()));
          if (cursor != NONE && lane <= cursor) { st = read_status(cursor - lane); }
          let first_inclusive = subgroupMin(select(NONE, lane, st.flag == FLAG_INCLUSIVE));
          let first_not_ready = subgroupMin(select(NONE, lane, st.flag == FLAG_NOT_READY));
          let value = bitcast<${T}>(st.bits);
          if (first_inclusive < first_not_ready) {
            let part = ${o.subgroupReduce}(select(${o.identity}, value, lane <= first_inclusive));
            prefix = ${c('part', 'prefix')};
            resolved = true;
            break;
          }
          if (first_not_ready > 0u) {
            let part = ${o.subgroupReduce}(select(${o.identity}, value, lane < first_not_ready));
            prefix = ${c('part', 'prefix')};
            // A window of AGGREGATEs only (first_not_ready == NONE) advances by the window size.
            let consumed = min(first_not_ready, gsize);
            cursor = select(cursor - consumed, NONE, cursor < consumed);
            spins = 0u;
            continue;
          }
          spins++;
          if (spins >= MAX_SPIN) { break; }
        }
        if (lane == 0u) {
          lb_tile = cursor;
          lb_prefix = prefix;
          if (resolved) {
            wg_exclusive = prefix;
            publish(tile, FLAG_INCLUSIVE, ${inclusive('prefix')});
            lb_state = 0u;
          } else {
            lb_state = 1u;
          }
        }
      }`;
}

/**
 * The fallback phase as a WGSL block: while the look-back is stuck (`lb_state` 1) on a predecessor
 * that is not ready, the whole workgroup reduces that predecessor's input itself with
 * `tileReduce(stalled)` (a call every invocation makes, valid in `leader`), adds it to `lb_prefix`
 * and walks on past it. For exact operators the result is also offered to the predecessor's status
 * with atomicMax (same bits in any order; atomicMax never lowers a flag); float add and mul keep it
 * private. This needs no forward progress between workgroups. Expects what
 * {@link lookBackStepWgsl} expects, plus `groups`.
 *
 * @example
 * ```ts
 * const code = `if (tile > 0u) { ${lookBackFallbackWgsl(o, true, (t) => `tile_reduce(${t}, leader, group, lane, gsize, groups)`)} }`;
 * ```
 */
export function lookBackFallbackWgsl(o: WgslOp, subgroups: boolean, tileReduce: (stalled: string) => string): string {
  return `loop {
      if (workgroupUniformLoad(&lb_state) == 0u) { break; }
      let stalled = workgroupUniformLoad(&lb_tile);
      let agg = ${tileReduce('stalled')};
      if (leader) {
        lb_prefix = ${o.combine('agg', 'lb_prefix')};
        ${
          o.exact
            ? `let bits = bitcast<u32>(agg);
        atomicMax(&status[STATUS_LINE * (stalled + 1u)], (FLAG_AGGREGATE << 16u) | (bits & 0xffffu));
        atomicMax(&status[STATUS_LINE * (stalled + 1u) + 1u], (FLAG_AGGREGATE << 16u) | (bits >> 16u));`
            : '// Float add/mul: another order gives other bits, so the result is kept private.'
        }
        lb_tile = select(stalled - 1u, NONE, stalled == 0u);
      }
      workgroupBarrier();
      ${lookBackStepWgsl(o, subgroups)}
    }`;
}
