import type { ElementType, ScanOp } from '../element-types.js';
import { defineKernel } from './define-kernel.js';
import { groupIdentityWgsl, groupScanWgsl } from './group-scan.js';

export { decoupledFallbackStatusBytes, STATUS_WORDS_PER_TILE } from './decoupled-look-back.js';

import { LOOK_BACK_STATUS, lookBackCommonWgsl, TAKE_TILE_WGSL, tileLookBack } from './decoupled-look-back.js';
import { SLOT_PARAMS, slotBindings, slotFunctionsWgsl } from './slots.js';
import { unroll } from './unroll.js';
import { wgslOp } from './wgsl-ops.js';

/** What a decoupled look-back + fallback scan kernel is specialized on. */
export type DecoupledFallbackSpec = {
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
  /**
   * One workgroup walks every tile in order, carrying the running total from tile to tile: no
   * ticket, no status, no look-back, so no status clear before it. For small counts, where a
   * clear and a dispatch cost more than the few tiles take.
   */
  readonly oneWorkgroup?: boolean;
  /** Where the partial last vec4 goes (see `SlotSpec.tail`; default `'staged'`). */
  readonly tail?: 'staged' | 'direct';
};

/**
 * Single-pass chained scan with decoupled look-back and fallback (Smith, Levien & Owens, SPAA 2025),
 * or, with `oneWorkgroup`, the same tile code walked by one workgroup in order (for small counts).
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
 * Bindings: the slot view's `src`, `dst`, `aux`, and `status` (`[0]` ticket; tile t's two words at
 * `STATUS_WORDS_PER_TILE · (t + 1)`; not with `oneWorkgroup`); parameters {@link SLOT_PARAMS}.
 *
 * @example
 * ```ts
 * const k = decoupledFallbackKernel({ type: 'u32', op: 'add', inclusive: false, backward: false, mapInput: 'none',
 *   subgroups: true, workgroupSize: 1024, slotsPerThread: 4, maxSpin: 64 });
 * b.dispatch(k, { src: input, dst: output, aux, status }, tiles, chunkParamValues(chunk, tiles, x));
 * ```
 */
export const decoupledFallbackKernel = defineKernel({
  name: 'core/scan-decoupled-fallback',
  bindings: (spec: DecoupledFallbackSpec) => ({
    ...slotBindings({ type: spec.type, writes: true }),
    status: spec.oneWorkgroup ? undefined : LOOK_BACK_STATUS,
  }),
  params: SLOT_PARAMS,
  enable: (spec) => (spec.subgroups ? ['subgroups'] : []),
  wgsl: (spec) => decoupledFallbackWgsl(spec),
});

function decoupledFallbackWgsl(spec: DecoupledFallbackSpec): string {
  const o = wgslOp(spec.op, spec.type);
  const T = spec.type;
  const WG = spec.workgroupSize;
  const K = spec.slotsPerThread;
  const V = `vec4<${T}>`;
  const maxGroups = spec.subgroups ? WG / 4 : 1;
  const id = groupIdentityWgsl(spec.subgroups, WG);
  const c = o.combine;

  // 1. Local loads: this group's run of gsize × K slots of the tile, into registers.
  const loads = `let base = tile * TILE_SLOTS + group * gsize * K;
  // The group's run in registers; after the scan, each element's ${spec.inclusive ? 'inclusive' : 'exclusive'} result within the run.
  var vals: array<${V}, ${K}>;
  // Issue all K loads before any group operation, so K vec4s per invocation are in flight.
  let whole = slots_whole(base + lane, base + (K - 1u) * gsize + lane);
  // Loops over K are unrolled here, with constant indices, so vals stays in registers.
  if (whole) {
${unroll(K, (k) => `    vals[${k}] = load_slot_whole(base + ${k}u * gsize + lane);`)}
  } else {
${unroll(K, (k) => `    vals[${k}] = load_slot(base + ${k}u * gsize + lane);`)}
  }`;
  // 2. Tile reduce: each invocation's K vec4s, then the group, then the groups; the leader lays out
  // the group prefixes and the tile aggregate, then runs `publishing` (the chained form publishes).
  const tileReduce = (publishing: string) => `var mine = ${o.identity};
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
    wg_aggregate = acc;${publishing}
  }
  workgroupBarrier();`;
  // 1'. Local scan of the group's run, in registers: results relative to the run's start.
  const localScan = `var running = ${o.identity};
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
)}`;
  // 5. Propagate: tile prefix ⊕ group prefix ⊕ in-run values.
  const propagate = `let p = ${c('wg_exclusive', 'wg_group_prefix[group]')};
  if (whole) {
${unroll(K, (k) => `    store_slot_whole(base + ${k}u * gsize + lane, ${c(`${V}(p)`, `vals[${k}]`)});`)}
  } else {
${unroll(K, (k) => `    store_slot(base + ${k}u * gsize + lane, ${c(`${V}(p)`, `vals[${k}]`)});`)}
  }`;

  const header = `${slotFunctionsWgsl({ type: T, identity: o.identity, backward: spec.backward, mapInput: spec.mapInput, writes: true, tail: spec.tail ?? 'staged' })}


const WG: u32 = ${WG}u;
const K: u32 = ${K}u;                // vec4 slots per invocation
const TILE_SLOTS: u32 = ${WG * K}u;
${groupScanWgsl(o, spec.subgroups, WG)}
${id.decls}
var<workgroup> wg_group_total: array<${T}, ${maxGroups}>;
var<workgroup> wg_group_prefix: array<${T}, ${maxGroups}>;`;

  if (spec.oneWorkgroup) {
    return `${header}
var<workgroup> wg_aggregate: ${T};
var<workgroup> wg_exclusive: ${T};

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32${id.builtins}) {
  ${id.body}
  let leader = group == 0u && lane == 0u;
  // The running total: the carry from the previous chunk, then each tile's aggregate in turn.
  if (leader) { wg_exclusive = load_carry_in(); }
  for (var tile = 0u; tile < params.tiles; tile++) {
    // 1. Local loads.
    ${loads}
    // 2. Tile reduce: the tile's prefix is the running total, nothing to publish or look back on.
    ${tileReduce('')}
    // 1'. Local scan.
    ${localScan}
    // 5. Propagate.
    ${propagate}
    // Everyone has read the running total before the leader moves it past this tile.
    workgroupBarrier();
    if (leader) { wg_exclusive = ${c('wg_exclusive', 'wg_aggregate')}; }
  }
  if (leader) { store_carry_out(wg_exclusive); }
}
`;
  }

  // 3–4. The tile prefix: look-back over the predecessors, the fallback reducing a stalled one's input.
  const lb = tileLookBack(o, {
    subgroups: spec.subgroups,
    maxSpin: spec.maxSpin,
    forceFallback: spec.forceFallback,
    beforeFirst: 'load_carry_in()',
    fallback: { run: (t) => `let found = tile_reduce(${t}, leader, group, lane, gsize, groups);`, value: () => 'found' },
  });
  return `${header}
${lookBackCommonWgsl(T)}
${lb.decls}
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
  ${TAKE_TILE_WGSL}
  ${id.body}
  // One invocation, lane 0 of group 0, does all single-invocation bookkeeping: the windowed
  // look-back runs on group 0, and invocation 0 need not belong to it.
  let leader = group == 0u && lane == 0u;

  // 1. Local loads.
  ${loads}
  // 2. Tile reduce, first. Publishing the aggregate before the local scan lets successors look
  // past this tile sooner.
  ${tileReduce(`
    if (tile == 0u) {
      let carry = load_carry_in();
      wg_exclusive = carry;
      lb_publish(0u, 0u, FLAG_INCLUSIVE, ${c('carry', 'acc')});
    } else {
      ${lb.aggregate('acc')}
    }`)}

  // 3. Look-back, first attempt. ${spec.subgroups ? 'Group 0 walks back while the other groups go on to their local scans, so the wait overlaps with work.' : "The leader walks back; the others wait at the local scan's first barrier."}
${lb.start}

  // 1'. Local scan.
  ${localScan}

  // 4. Fallback: while the look-back is stuck on a predecessor that is not ready, the whole
  // workgroup reduces that predecessor's input itself and the walk resumes past it.
  ${lb.finish}
  workgroupBarrier();

  // 5. Propagate.
  ${propagate}
  if (tile == params.tiles - 1u && leader) {
    store_carry_out(${c('wg_exclusive', 'wg_aggregate')});
  }
}
`;
}
