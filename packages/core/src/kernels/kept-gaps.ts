import { defineKernel, read, readWrite } from './define-kernel.js';
import { SLOT_PARAMS } from './slots.js';

/** What the gaps pass after a pack is specialized on. */
export interface KeptGapsSpec {
  readonly workgroupSize: number;
}

/**
 * The pass after a pack that wrote its kept elements' indices: for each kept rank r below
 * `kept_count[0]`, `gaps[r]` = the index of the next kept element (or `params.count` after the last)
 * minus its own — with run heads kept, each run's length (a run-length encode's `lengths`). An
 * adjacent difference of the indices, so the pack itself needs no second look-back for where each
 * run ends.
 *
 * One invocation per rank, dispatched indirectly from the kept count (`dispatchArgsKernel`, x × y
 * workgroups, so the rank uses `num_workgroups`). It takes the pack's parameter block
 * ({@link SLOT_PARAMS}; it reads `count` only), so a count the GPU wrote reaches both from one fixup.
 * Bindings: `indices` (the pack's `indices_out`), `kept_count` (the pack's `count_out`), `gaps`.
 *
 * @example
 * ```ts
 * b.dispatch(dispatchArgsKernel({}), { count: keptCount, args }, 1, { per_group: 256, max_dim: 65535, word: 0 });
 * b.dispatchIndirect(keptGapsKernel({ workgroupSize: 256 }), { indices, kept_count: keptCount, gaps: lengths }, args, params);
 * ```
 */
export const keptGapsKernel = defineKernel({
  name: 'core/kept-gaps',
  bindings: { indices: read('array<u32>'), kept_count: read('array<u32>'), gaps: readWrite('array<u32>') },
  params: SLOT_PARAMS,
  wgsl: (spec: KeptGapsSpec) => `
@compute @workgroup_size(${spec.workgroupSize})
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let r = (wg.y * groups.x + wg.x) * ${spec.workgroupSize}u + lid;
  let kept = kept_count[0];
  if (r >= kept) { return; }
  let next = select(params.count, indices[r + 1u], r + 1u < kept);
  gaps[r] = next - indices[r];
}
`,
});
