import type { ElementType, ScanOp } from '../element-types.js';
import { composeBlocks } from './blocks/block.js';
import { blockReduce } from './blocks/block-reduce.js';
import { defineKernel, readWrite } from './define-kernel.js';
import { groupIdentityWgsl } from './group-scan.js';
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

/**
 * The workgroup's total of one value per invocation: the kit's block reduce, named `workgroup`
 * (`workgroup_reduce(x, group, lane, gsize)`: a group reduction per subgroup, or over the workgroup
 * in workgroup memory, then the leader combines the groups' totals), valid in the leader (group 0,
 * lane 0), which writes it: nothing runs after it, so no barrier follows.
 */
function workgroupReduce(spec: ReduceSpec) {
  return blockReduce({
    name: 'workgroup',
    op: wgslOp(spec.op, spec.type),
    subgroups: spec.subgroups,
    workgroupSize: spec.workgroupSize,
    result: 'leader',
  });
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
    const reduce = workgroupReduce(spec);
    return `${slotFunctionsWgsl({ type: spec.type, identity: o.identity, backward: false, writes: false, tail: spec.tail ?? 'staged', carry: spec.final === true })}
${spec.final ? resultWgsl(spec) : ''}
${LINEAR_WORKGROUP_WGSL}
${id.decls}
${composeBlocks(reduce).decls}
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
  // Block reduce: the workgroup's total, in the leader, which writes it.
  let total = ${reduce.reduce('mine')};
  ${spec.final ? `if (group == 0u && lane == 0u) { finish(${o.combine('load_carry_in()', 'total')}); }` : 'if (group == 0u && lane == 0u) { partials[w] = bitcast<u32>(total); }'}
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
    const reduce = workgroupReduce(spec);
    return `${slotFunctionsWgsl({ type: spec.type, identity: o.identity, backward: false, writes: false, reads: false })}
${resultWgsl(spec)}
${id.decls}
${composeBlocks(reduce).decls}
@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32${id.builtins}) {
  ${id.body}
  var acc = ${o.identity};
  for (var i = lid; i < params.tiles; i += ${WG}u) {
    acc = ${o.combine('acc', `bitcast<${spec.type}>(partials[i])`)};
  }
  // Block reduce: the total of the partials, in the leader, which finishes.
  let total = ${reduce.reduce('acc')};
  if (group == 0u && lane == 0u) { finish(${o.combine('load_carry_in()', 'total')}); }
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
