import type { ElementType, ScanOp } from '../element-types.js';
import type { KernelSpec } from '../pipeline-cache.js';
import { groupIdentityWgsl, groupScanWgsl } from './group-scan.js';
import { LINEAR_WORKGROUP_WGSL, slotWgsl } from './slots.js';
import { wgslOp } from './wgsl-ops.js';

/** What the reduce kernels are specialized on. */
export interface ReduceSpec {
  readonly type: ElementType;
  readonly op: ScanOp;
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  /** vec4 loads in flight per invocation and iteration (memory-level parallelism). */
  readonly slotsPerThread: number;
  /**
   * The partials kernel run by one workgroup over the whole chunk, writing the running total itself
   * (no partials, no combine): one dispatch, for small counts.
   */
  readonly final?: boolean;
  /** Where the partial last vec4 is read from (see `SlotSpec.tail`; default `'staged'`). */
  readonly tail?: 'staged' | 'direct';
  /**
   * The kernel that finishes a chunk (combine, or `final`) also writes the running total to
   * `result[0]` (binding 5) when `params.extra` is not 0 — the last chunk — so the plan needs no
   * copy from aux into the caller's output (which costs a transfer between passes).
   */
  readonly result?: boolean;
}

function keyOf(phase: string, spec: ReduceSpec): string {
  return `reduce/${phase}/${spec.type}.${spec.op}/${spec.subgroups ? 'sg' : 'wg'}/${spec.workgroupSize}x${spec.slotsPerThread}${spec.final ? '/final' : ''}${spec.tail === 'direct' ? '/direct-tail' : ''}${spec.result ? '/result' : ''}`;
}

function groupReduceToWorkgroup(spec: ReduceSpec): string {
  const o = wgslOp(spec.op, spec.type);
  const maxGroups = spec.subgroups ? spec.workgroupSize / 4 : 1;
  return `${groupScanWgsl(o, spec.subgroups, spec.workgroupSize)}
${groupIdentityWgsl(spec.subgroups, spec.workgroupSize).decls}
var<workgroup> wg_group_total: array<${spec.type}, ${maxGroups}>;

// Reduces one value per invocation to one value per workgroup, valid in invocation 0.
fn workgroup_reduce(x: ${spec.type}, lid: u32, group: u32, lane: u32, gsize: u32, groups: u32) -> ${spec.type} {
  let r = group_reduce(x, lane, gsize);
  if (lane == 0u) { wg_group_total[group] = r; }
  workgroupBarrier();
  var total = ${o.identity};
  if (lid == 0u) {
    for (var g = 0u; g < groups; g++) { total = ${o.combine('total', 'wg_group_total[g]')}; }
  }
  return total;
}`;
}

/**
 * Reduce, phase 1 (**partials**): `params.tiles` workgroups stride over the chunk's vec4 slots,
 * each invocation keeping `slotsPerThread` loads in flight, and each workgroup writes one partial.
 * With `final`, one workgroup strides over everything and combines its total with the carry
 * itself, as the combine phase would (a small count then takes one dispatch).
 * Bindings: 0 src, 2 aux, 3 params (slotWgsl), 4 partials (u32 bits; not with `final`), 5 result
 * (`final` with `result`).
 */
export function reducePartialsKernel(spec: ReduceSpec): KernelSpec {
  const o = wgslOp(spec.op, spec.type);
  const WG = spec.workgroupSize;
  const K = spec.slotsPerThread;
  const id = groupIdentityWgsl(spec.subgroups, WG);
  const c = o.combine;
  return {
    key: keyOf('partials', spec),
    wgsl: () => `${spec.subgroups ? 'enable subgroups;\ndiagnostic(off, subgroup_uniformity);' : ''}
${slotWgsl({ type: spec.type, identity: o.identity, backward: false, writes: false, tail: spec.tail ?? 'staged' })}
${spec.final ? resultWgsl(spec) : '@group(0) @binding(4) var<storage, read_write> partials: array<u32>;'}
${LINEAR_WORKGROUP_WGSL}
${groupReduceToWorkgroup(spec)}

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>${id.builtins}) {
  let w = linear_workgroup(wid);
  if (w >= params.tiles) { return; }
  ${id.body}
  var acc = vec4<${spec.type}>(${o.identity});
  // Grid-stride over blocks of ${WG * K} slots; a block's K loads are independent, so they overlap.
  let stride = params.tiles * ${WG * K}u;
  for (var block = w * ${WG * K}u; block < params.slots; block += stride) {
    for (var k = 0u; k < ${K}u; k++) {
      acc = ${c('acc', `load_slot(block + k * ${WG}u + lid)`)};
    }
  }
  let mine = ${c(c('acc.x', 'acc.y'), c('acc.z', 'acc.w'))};
  let total = workgroup_reduce(mine, lid, group, lane, gsize, groups);
  ${spec.final ? `if (lid == 0u) { finish(${o.combine('load_carry_in()', 'total')}); }` : 'if (lid == 0u) { partials[w] = bitcast<u32>(total); }'}
}
`,
  };
}

/**
 * Reduce, phase 2 (**combine**): one workgroup reduces the `params.tiles` partials, combines the
 * carry from the previous chunk, and writes the running total to the carry slot.
 * Bindings: 2 aux, 3 params, 4 partials, 5 result (with `result`).
 */
export function reduceCombineKernel(spec: ReduceSpec): KernelSpec {
  const o = wgslOp(spec.op, spec.type);
  const WG = spec.workgroupSize;
  const id = groupIdentityWgsl(spec.subgroups, WG);
  return {
    key: keyOf('combine', spec),
    wgsl: () => `${spec.subgroups ? 'enable subgroups;\ndiagnostic(off, subgroup_uniformity);' : ''}
${slotWgsl({ type: spec.type, identity: o.identity, backward: false, writes: false, reads: false })}
@group(0) @binding(4) var<storage, read_write> partials: array<u32>;
${resultWgsl(spec)}
${groupReduceToWorkgroup(spec)}

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32${id.builtins}) {
  ${id.body}
  var acc = ${o.identity};
  for (var i = lid; i < params.tiles; i += ${WG}u) {
    acc = ${o.combine('acc', `bitcast<${spec.type}>(partials[i])`)};
  }
  let total = workgroup_reduce(acc, lid, group, lane, gsize, groups);
  if (lid == 0u) { finish(${o.combine('load_carry_in()', 'total')}); }
}
`,
  };
}

/** `finish(total)`: the running total goes to the carry slot and, for the last chunk with `result`, to `result[0]`. */
function resultWgsl(spec: ReduceSpec): string {
  const T = spec.type;
  if (!spec.result) return `fn finish(total: ${T}) { store_carry_out(total); }`;
  return `@group(0) @binding(5) var<storage, read_write> result: array<u32>;
fn finish(total: ${T}) {
  store_carry_out(total);
  if (params.extra != 0u) { result[0] = bitcast<u32>(total); }
}`;
}
