// What the block reduce and the block scan share: their group level (core's group scan under the
// block's names) and the step that combines the groups' totals across the workgroup.
import { type BlockOp, groupLevelWgsl } from '../group-scan.js';
import { order } from './arrangement.js';

/**
 * The group level of block `name`: `NAME_group_scan`, `NAME_group_reduce`, `NAME_GroupScan`, and in
 * the workgroup form `NAME_group_buf` (see `groupLevelWgsl`).
 *
 * @example
 * ```ts
 * const wgsl = groupLevelOf('tile_scan', wgslOp('add', 'u32'), true, 256, false);
 * ```
 */
export function groupLevelOf(name: string, op: BlockOp, subgroups: boolean, workgroupSize: number, backward: boolean): string {
  return groupLevelWgsl({
    names: { scan: `${name}_group_scan`, reduce: `${name}_group_reduce`, struct: `${name}_GroupScan`, buf: `${name}_group_buf` },
    op,
    subgroups,
    workgroupSize,
    backward,
  });
}

/**
 * The most groups a workgroup may hold: subgroups have at least 4 invocations in WebGPU (the
 * actual size is read at run time); without subgroups the workgroup is one group.
 *
 * @example
 * ```ts
 * maxGroups(256, true); // 64
 * ```
 */
export function maxGroups(workgroupSize: number, subgroups: boolean): number {
  return subgroups ? Math.max(1, workgroupSize / 4) : 1;
}

/**
 * Statements (subgroup form, in the scope of a block function with `group`, `lane`, `gsize` and
 * `groups`) that combine values uniform within each group across the workgroup: `values[r]` is the
 * group's total of round r (rounds in the scan's order, the groups ordered within each round).
 * Lane 0 of each group writes its totals to `NAME_totals[r · maxGroups + group]`; after a barrier
 * every invocation reads them all (broadcast reads: groups are few) and has `NAME_before_r`, the
 * combination of everything before its group's total of round r, and `NAME_all`, of everything.
 * The caller places a barrier before the totals are written again. In order, or from the last group
 * to the first (`backward`), so the operator need not commute.
 *
 * @example
 * ```ts
 * const body = acrossGroupsWgsl('tile_scan', wgslOp('add', 'u32'), 64, false, ['s.total']);
 * // … then `tile_scan_before_0` and `tile_scan_all` are in scope.
 * ```
 */
export function acrossGroupsWgsl(name: string, op: BlockOp, groupsMax: number, backward: boolean, values: readonly string[]): string {
  const c = op.combine;
  const writes = values.map((v, r) => `${name}_totals[${r * groupsMax}u + group] = ${v};`).join(' ');
  const precedes = backward ? 'g > group' : 'g < group';
  const rounds = order(values.length, backward)
    .map(
      (r) => `  var ${name}_before_${r} = ${name}_all;
  for (var i = 0u; i < groups; i++) {
    let g = ${backward ? 'groups - 1u - i' : 'i'};
    let t = ${name}_totals[${r * groupsMax}u + g];
    if (${precedes}) { ${name}_before_${r} = ${c(`${name}_before_${r}`, 't')}; }
    ${name}_all = ${c(`${name}_all`, 't')};
  }`,
    )
    .join('\n');
  return `// Across the groups: each group's total${values.length > 1 ? 's' : ''} through workgroup memory, read by everyone.
  if (lane == 0u) { ${writes} }
  workgroupBarrier();
  var ${name}_all = ${op.identity};
${rounds}`;
}
