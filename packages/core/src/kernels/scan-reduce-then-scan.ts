import type { ElementType, ScanOp } from '../element-types.js';
import { defineKernel, read, readWrite } from './define-kernel.js';
import { groupIdentityWgsl, groupScanWgsl } from './group-scan.js';
import type { ScanLevel } from './scan-blelloch.js';
import {
  LINEAR_WORKGROUP_WGSL,
  SLOT_PARAMS,
  scratchSlotBindings,
  scratchSlotFunctionsWgsl,
  slotBindings,
  slotFunctionsWgsl,
} from './slots.js';
import { wgslOp } from './wgsl-ops.js';

/** What the reduce-then-scan kernels are specialized on. */
export type ReduceThenScanSpec = {
  readonly type: ElementType;
  readonly op: ScanOp;
  /** Ignored (always exclusive) at the `'sums'` level and by the reduce pass. */
  readonly inclusive: boolean;
  /** Ignored (always forward) at the `'sums'` level. */
  readonly backward: boolean;
  /** Ignored (always `'none'`) at the `'sums'` level. */
  readonly mapInput: 'none' | 'not';
  /** Use subgroup operations (else the workgroup-memory form). */
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  /** vec4 slots per invocation: a tile is `workgroupSize × slotsPerThread` slots. */
  readonly slotsPerThread: number;
  readonly level: ScanLevel;
};

/** vec4 slots of one tile. */
export function reduceThenScanTileSlots(spec: Pick<ReduceThenScanSpec, 'workgroupSize' | 'slotsPerThread'>): number {
  return spec.workgroupSize * spec.slotsPerThread;
}

/**
 * The specialization a kernel's code depends on: the sums level is always a forward exclusive scan
 * without mapping, and the reduce pass is the same for inclusive and exclusive scans, so one kernel
 * serves them all.
 */
function normalized(spec: ReduceThenScanSpec, withInclusive: boolean): ReduceThenScanSpec {
  const chunk = spec.level === 'chunk';
  const inclusive = withInclusive && chunk && spec.inclusive;
  const backward = chunk && spec.backward;
  const mapInput = chunk ? spec.mapInput : 'none';
  if (inclusive === spec.inclusive && backward === spec.backward && mapInput === spec.mapInput) return spec;
  return { ...spec, inclusive, backward, mapInput };
}

/**
 * Pass 1 of reduce-then-scan: each workgroup reduces one tile of the input (vec4 loads, a group
 * reduction per subgroup or over the workgroup, then the group totals in order) into
 * `partials[tile]`.
 *
 * Bindings, `'chunk'`: the slot view's `src` and `aux` (no `dst`), and `partials`. `'sums'`: `data`,
 * `partials`. Parameters {@link SLOT_PARAMS}.
 *
 * @example
 * ```ts
 * const k = reduceThenScanReduceKernel({ type: 'u32', op: 'add', inclusive: false, backward: false, mapInput: 'none',
 *   subgroups: true, workgroupSize: 256, slotsPerThread: 4, level: 'chunk' });
 * b.dispatch(k, { src: input, aux, partials }, tiles, params);
 * ```
 */
export function reduceThenScanReduceKernel(spec: ReduceThenScanSpec) {
  return rtsReduce(normalized(spec, false));
}

const rtsReduce = defineKernel({
  name: 'core/scan-reduce-then-scan-reduce',
  bindings: (spec: ReduceThenScanSpec) => ({
    ...(spec.level === 'chunk'
      ? { ...slotBindings({ type: spec.type, writes: false }), data: undefined }
      : { src: undefined, dst: undefined, ...scratchSlotBindings({ type: spec.type, writes: false, carry: false }) }),
    partials: readWrite(`array<${spec.type}>`),
  }),
  params: SLOT_PARAMS,
  enable: (spec) => (spec.subgroups ? ['subgroups'] : []),
  wgsl: (spec) => reduceWgsl(spec),
});

function reduceWgsl(spec: ReduceThenScanSpec): string {
  const o = wgslOp(spec.op, spec.type);
  const T = spec.type;
  const WG = spec.workgroupSize;
  const K = spec.slotsPerThread;
  const c = o.combine;
  const id = groupIdentityWgsl(spec.subgroups, WG);
  const maxGroups = spec.subgroups ? WG / 4 : 1;
  const access =
    spec.level === 'chunk'
      ? slotFunctionsWgsl({ type: T, identity: o.identity, backward: spec.backward, mapInput: spec.mapInput, writes: false })
      : scratchSlotFunctionsWgsl({ type: T, identity: o.identity, writes: false, carry: false });
  return `${access}

${LINEAR_WORKGROUP_WGSL}

const K: u32 = ${K}u;
const TILE_SLOTS: u32 = ${WG * K}u;

${groupScanWgsl(o, spec.subgroups, WG)}
${id.decls}
var<workgroup> wg_group_total: array<${T}, ${maxGroups}>;

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>${id.builtins}) {
  let tile = linear_workgroup(wid);
  if (tile >= params.tiles) { return; }
  ${id.body}

  // A reduction needs no element order, so invocations stride over the tile by lid: consecutive
  // invocations read consecutive vec4s.
  let base = tile * TILE_SLOTS;
  var acc = ${o.identity};
  for (var k = 0u; k < K; k++) {
    let x = load_slot(base + k * ${WG}u + lid);
    acc = ${c('acc', c(c('x.x', 'x.y'), c('x.z', 'x.w')))};
  }
  let r = group_reduce(acc, lane, gsize);
  if (lane == 0u) { wg_group_total[group] = r; }
  workgroupBarrier();
  if (lid == 0u) {
    var total = ${o.identity};
    for (var g = 0u; g < groups; g++) { total = ${c('total', 'wg_group_total[g]')}; }
    partials[tile] = total;
  }
}
`;
}

/**
 * Pass 3 of reduce-then-scan (and pass 2 when the array is one tile): each workgroup scans one
 * tile again, seeded with its tile prefix, and writes the output.
 *
 * Each group (subgroup, or the whole workgroup without subgroups) scans a contiguous run of the
 * tile a vec4 per invocation at a time, keeping results in registers; the group totals give the
 * group prefixes. The seed is `tile_prefix[tile]` (the exclusive scan of the partials, which
 * already starts from the chunk's carry-in), or, when the dispatch is a single tile
 * (`params.tiles == 1`, the last recursion level), the carry-in itself, and then the tile total
 * is also published as the carry-out.
 *
 * Bindings, `'chunk'`: the slot view's `src`, `dst`, `aux`, and `tile_prefix`. `'sums'`: `data`
 * (scanned in place), `tile_prefix`, `aux`. Parameters {@link SLOT_PARAMS}.
 *
 * @example
 * ```ts
 * const k = reduceThenScanScanKernel({ type: 'i32', op: 'min', inclusive: true, backward: true, mapInput: 'none',
 *   subgroups: false, workgroupSize: 256, slotsPerThread: 4, level: 'chunk' });
 * b.dispatch(k, { src: input, dst: output, aux, tile_prefix: partials }, tiles, params);
 * ```
 */
export function reduceThenScanScanKernel(spec: ReduceThenScanSpec) {
  return rtsScan(normalized(spec, true));
}

const rtsScan = defineKernel({
  name: 'core/scan-reduce-then-scan-scan',
  bindings: (spec: ReduceThenScanSpec) => ({
    ...(spec.level === 'chunk'
      ? { ...slotBindings({ type: spec.type, writes: true }), data: undefined }
      : { src: undefined, dst: undefined, ...scratchSlotBindings({ type: spec.type, writes: true, carry: true }) }),
    tile_prefix: read(`array<${spec.type}>`),
  }),
  params: SLOT_PARAMS,
  enable: (spec) => (spec.subgroups ? ['subgroups'] : []),
  wgsl: (spec) => scanWgsl(spec),
});

function scanWgsl(spec: ReduceThenScanSpec): string {
  const o = wgslOp(spec.op, spec.type);
  const T = spec.type;
  const V = `vec4<${T}>`;
  const WG = spec.workgroupSize;
  const K = spec.slotsPerThread;
  const c = o.combine;
  const id = groupIdentityWgsl(spec.subgroups, WG);
  const maxGroups = spec.subgroups ? WG / 4 : 1;
  const chunk = spec.level === 'chunk';
  const inclusive = chunk && spec.inclusive;
  const access = chunk
    ? slotFunctionsWgsl({ type: T, identity: o.identity, backward: spec.backward, mapInput: spec.mapInput, writes: true })
    : scratchSlotFunctionsWgsl({ type: T, identity: o.identity, writes: true, carry: true });
  return `${access}

${LINEAR_WORKGROUP_WGSL}

const K: u32 = ${K}u;
const TILE_SLOTS: u32 = ${WG * K}u;

${groupScanWgsl(o, spec.subgroups, WG)}
${id.decls}
var<workgroup> wg_group_total: array<${T}, ${maxGroups}>;
var<workgroup> wg_group_prefix: array<${T}, ${maxGroups}>;

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>${id.builtins}) {
  let tile = linear_workgroup(wid);
  if (tile >= params.tiles) { return; }
  ${id.body}

  // Local scan of this group's run of gsize × K slots.
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

  // Group prefixes, from the tile's seed.
  if (lane == 0u) { wg_group_total[group] = running; }
  workgroupBarrier();
  if (lid == 0u) {
    var acc: ${T};
    if (params.tiles == 1u) { acc = load_carry_in(); } else { acc = tile_prefix[tile]; }
    for (var g = 0u; g < groups; g++) {
      wg_group_prefix[g] = acc;
      acc = ${c('acc', 'wg_group_total[g]')};
    }
    if (params.tiles == 1u) { store_carry_out(acc); }
  }
  workgroupBarrier();

  let p = wg_group_prefix[group];
  for (var k = 0u; k < K; k++) {
    let v = ${c(`${V}(p)`, 'vals[k]')};
    ${inclusive ? 'let result = v;' : `let result = ${V}(${c('p', 'before[k]')}, v.x, v.y, v.z);`}
    store_slot(base + k * gsize + lane, result);
  }
}
`;
}
