import type { ElementType } from '../element-types.js';
import { defineKernel } from './define-kernel.js';
import { LINEAR_WORKGROUP_WGSL, SLOT_PARAMS, slotBindings, slotFunctionsWgsl } from './slots.js';

/** What the distribute kernel is specialized on. */
export type DistributeSpec = {
  readonly type: ElementType;
  /** Copy the last element everywhere instead of the first. */
  readonly backward: boolean;
  readonly workgroupSize: number;
};

/**
 * Unsegmented distribute: every element becomes the first (backward: the last) element. As the
 * paper notes, without segments a broadcast beats a scan: each invocation reads the one source
 * element and writes a vec4. Later chunks take the source from the carry written by the first.
 * Bindings: the slot view's `src`, `dst`, `aux`; parameters {@link SLOT_PARAMS}.
 *
 * @example
 * ```ts
 * b.dispatch(distributeKernel({ type: 'f32', backward: false, workgroupSize: 256 }), { src, dst, aux }, groups, chunkParamValues(chunk, groups, x));
 * ```
 */
export const distributeKernel = defineKernel({
  name: 'core/distribute',
  bindings: (spec: DistributeSpec) => slotBindings({ type: spec.type, writes: true }),
  params: SLOT_PARAMS,
  wgsl: ({
    type,
    backward,
    workgroupSize,
  }) => `${slotFunctionsWgsl({ type, identity: type === 'f32' ? '0.0f' : `0${type === 'u32' ? 'u' : 'i'}`, backward, writes: true })}
${LINEAR_WORKGROUP_WGSL}

@compute @workgroup_size(${workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let s = linear_workgroup(wid) * ${workgroupSize}u + lid;
  // A backward chunk whose length is not a multiple of 4 starts with identity padding lanes.
  let pad = ${backward ? '(4u - (params.count & 3u)) & 3u' : '0u'};
  var head = load_slot(0u)[pad];
  if (params.carry_in != 0xffffffffu) { head = load_carry_in(); }
  if (s == 0u) { store_carry_out(head); }
  store_slot(s, vec4<${type}>(head));
}
`,
});
