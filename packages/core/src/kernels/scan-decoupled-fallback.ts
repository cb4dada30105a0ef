import type { ElementType, ScanOp } from '../element-types.js';
import type { KernelSpec } from '../pipeline-cache.js';
import { groupIdentityWgsl, groupScanWgsl } from './group-scan.js';
import { slotWgsl } from './slots.js';
import { type WgslOp, wgslOp } from './wgsl-ops.js';

/** What a decoupled look-back + fallback scan kernel is specialized on. */
export interface DecoupledFallbackSpec {
  readonly type: ElementType;
  readonly op: ScanOp;
  readonly inclusive: boolean;
  readonly backward: boolean;
  readonly mapInput: 'none' | 'not';
  /** Use subgroup operations (else the workgroup-memory form). */
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  /** vec4 slots per invocation: a tile is workgroupSize × slotsPerThread × 4 elements. */
  readonly slotsPerThread: number;
  /** Spins on a not-ready predecessor before falling back to reducing its input ourselves. */
  readonly maxSpin: number;
  /** Test hook: treat every predecessor as not ready, so the fallback path does all the work. */
  readonly forceFallback?: boolean;
}

/**
 * u32 words of the status buffer per tile: each tile's two status words sit alone on a 128-byte
 * line (the ticket counter has line 0). Every tile in flight reads its predecessors' statuses;
 * packed two words apart, a few lines take all those reads and the look-back crawls — measured on
 * the H100, 2^28 u32: 0.75× copy packed, 0.91× with a line per tile (BENCHMARKS.md).
 */
export const STATUS_WORDS_PER_TILE = 32;

/** Bytes of the status buffer for `tiles` tiles. */
export function decoupledFallbackStatusBytes(tiles: number): number {
  return (tiles + 1) * STATUS_WORDS_PER_TILE * 4;
}

/** Elements per tile of a spec. */
export function decoupledFallbackTile(spec: Pick<DecoupledFallbackSpec, 'workgroupSize' | 'slotsPerThread'>): number {
  return spec.workgroupSize * spec.slotsPerThread * 4;
}

/**
 * Single-pass chained scan with decoupled look-back and fallback (Smith, Levien & Owens, SPAA 2025).
 *
 * Each workgroup takes the next tile from an atomic ticket (so tiles start roughly in order), and:
 * 1. **local scan** — each group (subgroup, or the workgroup) scans a contiguous run of the tile,
 *    vec4 at a time, keeping the results in registers;
 * 2. **tile reduce** — the groups' totals give the tile aggregate, published at once as
 *    AGGREGATE (tile 0 publishes INCLUSIVE, seeded with the carry from the previous chunk);
 * 3. **look-back** — walk back over predecessors' status words, combining AGGREGATEs until an
 *    INCLUSIVE is found; then publish this tile's INCLUSIVE;
 * 4. **fallback** — if a predecessor stays NOT_READY for `maxSpin` reads, the whole workgroup
 *    reduces that predecessor's input itself and continues past it. This needs no forward-progress
 *    guarantee between workgroups, so the scan terminates on any scheduler (SwiftShader included);
 *    for exact operators the result is also offered to the predecessor's status with atomicMax;
 * 5. **propagate** — add the tile's exclusive prefix and the group prefixes, store.
 *
 * A status is 32 bits of value and a 2-bit flag, which do not fit one atomic word: each tile has two
 * words, (flag << 16 | low half) and (flag << 16 | high half). A reader accepts a pair only when both
 * flags agree; flags only grow, so a torn read is just retried.
 *
 * Bindings: 0 src, 1 dst, 2 aux, 3 params (see `slotWgsl`), 4 status (`[0]` ticket; tile t's two words
 * at `STATUS_WORDS_PER_TILE · (t + 1)`).
 */
export function decoupledFallbackKernel(spec: DecoupledFallbackSpec): KernelSpec {
  const key = [
    'scan/decoupled-fallback',
    `${spec.type}.${spec.op}`,
    spec.inclusive ? 'inc' : 'exc',
    spec.backward ? 'bwd' : 'fwd',
    spec.mapInput,
    spec.subgroups ? 'sg' : 'wg',
    `${spec.workgroupSize}x${spec.slotsPerThread}`,
    `spin${spec.maxSpin}`,
    spec.forceFallback ? 'forced' : '',
  ].join('/');
  return { key, wgsl: () => decoupledFallbackWgsl(spec) };
}

function decoupledFallbackWgsl(spec: DecoupledFallbackSpec): string {
  const o = wgslOp(spec.op, spec.type);
  const T = spec.type;
  const WG = spec.workgroupSize;
  const K = spec.slotsPerThread;
  const V = `vec4<${T}>`;
  const maxGroups = spec.subgroups ? WG / 4 : 1;
  const id = groupIdentityWgsl(spec.subgroups, WG);
  const c = o.combine;
  const statusAccepted = spec.forceFallback ? 'false' : 'true';
  return `${spec.subgroups ? 'enable subgroups;\ndiagnostic(off, subgroup_uniformity);' : ''}
${slotWgsl({ type: T, identity: o.identity, backward: spec.backward, mapInput: spec.mapInput, writes: true })}

@group(0) @binding(4) var<storage, read_write> status: array<atomic<u32>>;

const WG: u32 = ${WG}u;
const K: u32 = ${K}u;                // vec4 slots per invocation
const TILE_SLOTS: u32 = ${WG * K}u;
const FLAG_NOT_READY: u32 = 0u;
const FLAG_AGGREGATE: u32 = 1u;
const FLAG_INCLUSIVE: u32 = 2u;
const MAX_SPIN: u32 = ${spec.maxSpin}u;
const NONE: u32 = 0xffffffffu;
const STATUS_LINE: u32 = ${STATUS_WORDS_PER_TILE}u; // words per tile status: one 128-byte line each

${groupScanWgsl(o, spec.subgroups, WG)}
${id.decls}
var<workgroup> wg_tile: u32;
var<workgroup> wg_group_total: array<${T}, ${maxGroups}>;
var<workgroup> wg_group_prefix: array<${T}, ${maxGroups}>;
var<workgroup> wg_aggregate: ${T};
var<workgroup> wg_exclusive: ${T};
var<workgroup> lb_state: u32;      // 0: resolved, 1: fall back on lb_tile
var<workgroup> lb_tile: u32;       // predecessor being examined, NONE once all are consumed
var<workgroup> lb_prefix: ${T};    // combined aggregates of the predecessors consumed so far

struct Status { flag: u32, bits: u32 }

fn read_status(t: u32) -> Status {
  let lo = atomicLoad(&status[STATUS_LINE * (t + 1u)]);
  let hi = atomicLoad(&status[STATUS_LINE * (t + 1u) + 1u]);
  let flag = lo >> 16u;
  if (flag != (hi >> 16u) || !${statusAccepted}) { return Status(FLAG_NOT_READY, 0u); }
  return Status(flag, (lo & 0xffffu) | (hi << 16u));
}

fn publish(t: u32, flag: u32, value: ${T}) {
  let bits = bitcast<u32>(value);
  atomicStore(&status[STATUS_LINE * (t + 1u)], (flag << 16u) | (bits & 0xffffu));
  atomicStore(&status[STATUS_LINE * (t + 1u) + 1u], (flag << 16u) | (bits >> 16u));
}

// Reduces tile t's input with the whole workgroup; the result is valid in the leader.
fn tile_reduce(t: u32, leader: bool, group: u32, lane: u32, gsize: u32, groups: u32) -> ${T} {
  let base = t * TILE_SLOTS + group * gsize * K;
  var acc = ${o.identity};
  for (var k = 0u; k < K; k++) {
    let x = load_slot(base + k * gsize + lane);
    acc = ${c('acc', c(c('x.x', 'x.y'), c('x.z', 'x.w')))};
  }
  let r = group_reduce(acc, lane, gsize);
  if (lane == 0u) { wg_group_total[group] = r; }
  workgroupBarrier();
  var total = ${o.identity};
  if (leader) {
    for (var g = 0u; g < groups; g++) { total = ${c('total', 'wg_group_total[g]')}; }
  }
  workgroupBarrier();
  return total;
}

${'' /* the entry point */}
@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32${id.builtins}) {
  // Tiles are handed out in the order workgroups start, not by workgroup_id, so a tile's
  // predecessors have usually started before it.
  if (lid == 0u) { wg_tile = atomicAdd(&status[0], 1u); }
  let tile = workgroupUniformLoad(&wg_tile);
  if (tile >= params.tiles) { return; }
  ${id.body}
  // One invocation, lane 0 of group 0, does all single-invocation bookkeeping: the windowed
  // look-back runs on group 0, and invocation 0 need not belong to it.
  let leader = group == 0u && lane == 0u;

  // 1. Local scan: this group's run of gsize × K slots, kept in registers.
  let base = tile * TILE_SLOTS + group * gsize * K;
  // The group's run in registers; after the scan, each element's ${spec.inclusive ? 'inclusive' : 'exclusive'} result within the run.
  var vals: array<${V}, ${K}>;
  // Issue all K loads before any group operation, so K vec4s per invocation are in flight.
  let whole = slots_whole(base + lane, base + (K - 1u) * gsize + lane);
  // Loops over K are unrolled here, with constant indices, so vals stays in registers.
  if (whole) {
${unroll(K, (k) => `    vals[${k}] = load_slot_whole(base + ${k}u * gsize + lane);`)}
  } else {
${unroll(K, (k) => `    vals[${k}] = load_slot(base + ${k}u * gsize + lane);`)}
  }
  // 2. Tile reduce, first: each invocation's K vec4s, then the group, then the groups. Publishing
  // the aggregate before the local scan lets successors look past this tile sooner.
  var mine = ${o.identity};
${unroll(K, (k) => `  mine = ${c('mine', c(c(`vals[${k}].x`, `vals[${k}].y`), c(`vals[${k}].z`, `vals[${k}].w`)))};`)}
  let group_total = group_reduce(mine, lane, gsize);
  if (lane == 0u) { wg_group_total[group] = group_total; }
  workgroupBarrier();
  if (leader) {
    var acc = ${o.identity};
    for (var g = 0u; g < groups; g++) {
      wg_group_prefix[g] = acc;
      acc = ${c('acc', 'wg_group_total[g]')};
    }
    wg_aggregate = acc;
    if (tile == 0u) {
      let carry = load_carry_in();
      wg_exclusive = carry;
      publish(0u, FLAG_INCLUSIVE, ${c('carry', 'acc')});
    } else {
      publish(tile, FLAG_AGGREGATE, acc);
      lb_tile = tile - 1u;
      lb_prefix = ${o.identity};
    }
  }
  // The leader's lb_tile / lb_prefix / wg_aggregate must be visible to the look-back group.
  workgroupBarrier();

  // 3. Look-back, first attempt. ${spec.subgroups ? 'Group 0 walks back while the other groups go on to their local scans, so the wait overlaps with work.' : "The leader walks back; the others wait at the local scan's first barrier."}
  if (tile > 0u) {
    ${spec.subgroups ? windowedLookBack(o) : serialLookBack(o)}
  }

  // 1'. Local scan of this group's run, in registers: results relative to the run's start.
  var running = ${o.identity};
${unroll(
  K,
  (k) => `  {
    var x = vals[${k}];
    x.y = ${c('x.x', 'x.y')};
    x.z = ${c('x.y', 'x.z')};
    x.w = ${c('x.z', 'x.w')};
    let s = group_scan(x.w, lane, gsize);
    let prefix = ${c('running', 's.exclusive')};
    ${spec.inclusive ? `vals[${k}] = ${c(`${V}(prefix)`, 'x')};` : `vals[${k}] = ${c(`${V}(prefix)`, `${V}(${o.identity}, x.x, x.y, x.z)`)};`}
    running = ${c('running', 's.total')};
  }`,
)}

  // 4. Fallback: while the look-back is stuck on a predecessor that is not ready, the whole
  // workgroup reduces that predecessor's input itself and the walk resumes past it.
  if (tile > 0u) {
    loop {
      if (workgroupUniformLoad(&lb_state) == 0u) { break; }
      let stalled = workgroupUniformLoad(&lb_tile);
      let agg = tile_reduce(stalled, leader, group, lane, gsize, groups);
      if (leader) {
        lb_prefix = ${c('agg', 'lb_prefix')};
        ${
          o.exact
            ? `// Exact operators give the same bits in any order, so our reduction may stand in for the
        // predecessor's own; atomicMax never lowers a flag.
        let bits = bitcast<u32>(agg);
        atomicMax(&status[STATUS_LINE * (stalled + 1u)], (FLAG_AGGREGATE << 16u) | (bits & 0xffffu));
        atomicMax(&status[STATUS_LINE * (stalled + 1u) + 1u], (FLAG_AGGREGATE << 16u) | (bits >> 16u));`
            : '// Float add/mul: another order gives other bits, so the result is kept private.'
        }
        lb_tile = select(stalled - 1u, NONE, stalled == 0u);
      }
      workgroupBarrier();
      ${spec.subgroups ? windowedLookBack(o) : serialLookBack(o)}
    }
  }
  workgroupBarrier();

  // 5. Propagate: tile prefix ⊕ group prefix ⊕ in-run values.
  let p = ${c('wg_exclusive', 'wg_group_prefix[group]')};
  if (whole) {
${unroll(K, (k) => `    store_slot_whole(base + ${k}u * gsize + lane, ${c(`${V}(p)`, `vals[${k}]`)});`)}
  } else {
${unroll(K, (k) => `    store_slot(base + ${k}u * gsize + lane, ${c(`${V}(p)`, `vals[${k}]`)});`)}
  }
  if (tile == params.tiles - 1u && leader) {
    store_carry_out(${c('wg_exclusive', 'wg_aggregate')});
  }
}
`;
}

/**
 * Look-back by invocation 0 alone, one predecessor per step (the workgroup-memory form).
 * Sets lb_state 0 (resolved: wg_exclusive set, INCLUSIVE published) or 1 (fall back on lb_tile).
 */
function serialLookBack(o: WgslOp): string {
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
          publish(tile, FLAG_INCLUSIVE, ${c('wg_exclusive', 'wg_aggregate')});
        }
      }`;
}

/**
 * Look-back by the whole first subgroup over a window of `subgroup_size` predecessors per step:
 * lane i inspects tile (cursor − i). The nearest INCLUSIVE ends the walk if no NOT_READY precedes
 * it; otherwise the AGGREGATEs before the first NOT_READY are consumed and the window moves on.
 * Lanes past tile 0 stand for the carry-in, as an INCLUSIVE.
 */
function windowedLookBack(o: WgslOp): string {
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
            publish(tile, FLAG_INCLUSIVE, ${c('prefix', 'wg_aggregate')});
            lb_state = 0u;
          } else {
            lb_state = 1u;
          }
        }
      }`;
}

/** `count` copies of `body(k)`, one per line: loop unrolling done by the generator. */
export function unroll(count: number, body: (k: number) => string): string {
  return Array.from({ length: count }, (_, k) => body(k)).join('\n');
}
