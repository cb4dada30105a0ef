import type { ElementType, ScanOp } from '../element-types.js';
import { defineKernel, readWrite } from './define-kernel.js';
import { groupIdentityWgsl, groupScanWgsl } from './group-scan.js';
import { LINEAR_WORKGROUP_WGSL, SLOT_PARAMS, slotBindings, slotFunctionsWgsl } from './slots.js';
import { wgslOp } from './wgsl-ops.js';

/** What the reduce kernels are specialized on. */
export type ReduceSpec = {
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
   * `result[0]` when `params.extra` is not 0 — the last chunk — so the plan needs no
   * copy from aux into the caller's output (which costs a transfer between passes).
   */
  readonly result?: boolean;
};

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
 * Bindings: the slot view's `src` and `aux` (without `final`, a `'direct'` tail reads nothing from
 * aux, and the kernel does not declare it), `partials` (u32 bits; not with `final`), `result`
 * (`final` with `result`); parameters {@link SLOT_PARAMS}.
 *
 * @example
 * ```ts
 * const k = reducePartialsKernel({ type: 'f32', op: 'max', subgroups: true, workgroupSize: 256, slotsPerThread: 4, tail: 'staged' });
 * b.dispatch(k, { src: input, aux, partials }, groups, chunkParamValues(chunk, groups, x, last));
 * ```
 */
export const reducePartialsKernel = defineKernel({
  name: 'core/reduce-partials',
  bindings: (spec: ReduceSpec) => ({
    ...slotBindings({ type: spec.type, writes: false, tail: spec.tail ?? 'staged', carry: spec.final === true }),
    partials: spec.final ? undefined : readWrite('array<u32>'),
    result: spec.final && spec.result ? readWrite('array<u32>') : undefined,
  }),
  params: SLOT_PARAMS,
  enable: (spec) => (spec.subgroups ? ['subgroups'] : []),
  wgsl: (spec) => {
    const o = wgslOp(spec.op, spec.type);
    const WG = spec.workgroupSize;
    const K = spec.slotsPerThread;
    const id = groupIdentityWgsl(spec.subgroups, WG);
    const c = o.combine;
    return `${slotFunctionsWgsl({ type: spec.type, identity: o.identity, backward: false, writes: false, tail: spec.tail ?? 'staged', carry: spec.final === true })}
${spec.final ? resultWgsl(spec) : ''}
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
`;
  },
});

/**
 * Reduce, phase 2 (**combine**): one workgroup reduces the `params.tiles` partials, combines the
 * carry from the previous chunk, and writes the running total to the carry slot.
 * Bindings: `aux`, `partials`, `result` (with `result`); parameters {@link SLOT_PARAMS}.
 *
 * @example
 * ```ts
 * const k = reduceCombineKernel({ type: 'u32', op: 'add', subgroups: false, workgroupSize: 256, slotsPerThread: 4, result: true });
 * b.dispatch(k, { aux, partials, result: output }, 1, params);
 * ```
 */
export const reduceCombineKernel = defineKernel({
  name: 'core/reduce-combine',
  bindings: (spec: ReduceSpec) => ({
    ...slotBindings({ type: spec.type, writes: false, reads: false }),
    partials: readWrite('array<u32>'),
    result: spec.result ? readWrite('array<u32>') : undefined,
  }),
  params: SLOT_PARAMS,
  enable: (spec) => (spec.subgroups ? ['subgroups'] : []),
  wgsl: (spec) => {
    const o = wgslOp(spec.op, spec.type);
    const WG = spec.workgroupSize;
    const id = groupIdentityWgsl(spec.subgroups, WG);
    return `${slotFunctionsWgsl({ type: spec.type, identity: o.identity, backward: false, writes: false, reads: false })}
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
`;
  },
});

/** `finish(total)`: the running total goes to the carry slot and, for the last chunk with `result`, to `result[0]`. */
function resultWgsl(spec: ReduceSpec): string {
  const T = spec.type;
  if (!spec.result) return `fn finish(total: ${T}) { store_carry_out(total); }`;
  return `fn finish(total: ${T}) {
  store_carry_out(total);
  if (params.extra != 0u) { result[0] = bitcast<u32>(total); }
}`;
}
