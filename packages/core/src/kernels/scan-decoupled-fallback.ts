import type { ElementType, ScanOp } from '../element-types.js';
import type { KernelSpec } from '../pipeline-cache.js';
import { groupIdentityWgsl, groupScanWgsl } from './group-scan.js';
import { slotWgsl } from './slots.js';
import { wgslOp } from './wgsl-ops.js';

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
 * Bindings: 0 src, 1 dst, 2 aux, 3 params (see `slotWgsl`), 4 status (`[0]` ticket, then 2 per tile).
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
  let lo = atomicLoad(&status[1u + 2u * t]);
  let hi = atomicLoad(&status[2u + 2u * t]);
  let flag = lo >> 16u;
  if (flag != (hi >> 16u) || !${statusAccepted}) { return Status(FLAG_NOT_READY, 0u); }
  return Status(flag, (lo & 0xffffu) | (hi << 16u));
}

fn publish(t: u32, flag: u32, value: ${T}) {
  let bits = bitcast<u32>(value);
  atomicStore(&status[1u + 2u * t], (flag << 16u) | (bits & 0xffffu));
  atomicStore(&status[2u + 2u * t], (flag << 16u) | (bits >> 16u));
}

// Reduces tile t's input with the whole workgroup; the result is valid in invocation 0.
fn tile_reduce(t: u32, lid: u32, group: u32, lane: u32, gsize: u32, groups: u32) -> ${T} {
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
  if (lid == 0u) {
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

  // 1. Local scan: this group's run of gsize × K slots, kept in registers.
  let base = tile * TILE_SLOTS + group * gsize * K;
  var vals: array<${V}, ${K}>;    // inclusive within the group's run
  var before: array<${T}, ${K}>;  // exclusive value of each invocation's first element
  var running = ${o.identity};
  for (var k = 0u; k < K; k++) {
    var x = load_slot(base + k * gsize + lane);
    x.y = ${c('x.x', 'x.y')};
    x.z = ${c('x.y', 'x.z')};
    x.w = ${c('x.z', 'x.w')};
    let s = group_scan(x.w, lane, gsize);
    let prefix = ${c('running', 's.exclusive')};
    vals[k] = ${c(`${V}(prefix)`, 'x')};
    before[k] = prefix;
    running = ${c('running', 's.total')};
  }

  // 2. Tile reduce: group totals → group prefixes and the tile aggregate; publish it.
  if (lane == 0u) { wg_group_total[group] = running; }
  workgroupBarrier();
  if (lid == 0u) {
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

  // 3–4. Look-back with fallback. Invocation 0 walks back; when it stalls, everyone reduces the
  // stalled predecessor's input and the walk resumes past it.
  if (tile > 0u) {
    loop {
      if (lid == 0u) {
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
      }
      if (workgroupUniformLoad(&lb_state) == 0u) { break; }
      let stalled = workgroupUniformLoad(&lb_tile);
      let agg = tile_reduce(stalled, lid, group, lane, gsize, groups);
      if (lid == 0u) {
        lb_prefix = ${c('agg', 'lb_prefix')};
        ${
          o.exact
            ? `// Exact operators give the same bits in any order, so our reduction may stand in for the
        // predecessor's own; atomicMax never lowers a flag.
        let bits = bitcast<u32>(agg);
        atomicMax(&status[1u + 2u * stalled], (FLAG_AGGREGATE << 16u) | (bits & 0xffffu));
        atomicMax(&status[2u + 2u * stalled], (FLAG_AGGREGATE << 16u) | (bits >> 16u));`
            : '// Float add/mul: another order gives other bits, so the result is kept private.'
        }
        lb_tile = select(stalled - 1u, NONE, stalled == 0u);
      }
    }
  }
  workgroupBarrier();

  // 5. Propagate: tile prefix ⊕ group prefix ⊕ in-run values.
  let p = ${c('wg_exclusive', 'wg_group_prefix[group]')};
  for (var k = 0u; k < K; k++) {
    let v = ${c(`${V}(p)`, 'vals[k]')};
    ${spec.inclusive ? 'let result = v;' : `let result = ${V}(${c('p', 'before[k]')}, v.x, v.y, v.z);`}
    store_slot(base + k * gsize + lane, result);
  }
  if (tile == params.tiles - 1u && lid == 0u) {
    store_carry_out(${c('wg_exclusive', 'wg_aggregate')});
  }
}
`;
}
