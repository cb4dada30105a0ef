// What the block reduce and the block scan share: their group level (core's group scan under the
// block's names) and the step that combines the groups' totals across the workgroup.
import { type BlockOp, groupLevelWgsl, scanOrderCombine } from '../group-scan.js';
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
 * to the first (`backward`: "before" is then "after in the tile"), and in the tile's order either
 * way (backward, each total goes on the left of what came after it), so the operator need not
 * commute.
 *
 * @example
 * ```ts
 * const body = acrossGroupsWgsl('tile_scan', wgslOp('add', 'u32'), 64, false, ['s.total']);
 * // … then `tile_scan_before_0` and `tile_scan_all` are in scope.
 * ```
 */
export function acrossGroupsWgsl(name: string, op: BlockOp, groupsMax: number, backward: boolean, values: readonly string[]): string {
  // Backward, each total read lies before (in the tile) everything combined so far: `c` puts it on the left.
  const c = scanOrderCombine(op, backward);
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

/**
 * The leader's form of {@link acrossGroupsWgsl} (CUB's: the result in the first invocation only):
 * lane 0 of each group writes its totals to `NAME_totals`, and after a barrier only the leader
 * (group 0, lane 0) reads them, so `NAME_all` is the combination of everything in the leader alone
 * (the identity elsewhere). With `keepBefore` (one round), the leader also leaves in
 * `NAME_totals[group]` the combination of everything before each group, which a group reads after
 * a barrier of the caller. While the leader combines, the other invocations go on to that barrier
 * instead of reading every total themselves — which, in a single-pass kernel, delays the tile's
 * publication (measured: a scan 40% slower at 2^28 on the H100, 2026-12-06).
 *
 * @example
 * ```ts
 * const body = leaderAcrossGroupsWgsl('tile', wgslOp('add', 'u32'), 64, false, ['s.total'], true);
 * // … then `tile_all` is in scope, complete in the leader.
 * ```
 */
export function leaderAcrossGroupsWgsl(
  name: string,
  op: BlockOp,
  groupsMax: number,
  backward: boolean,
  values: readonly string[],
  keepBefore: boolean,
): string {
  if (keepBefore && values.length !== 1) throw new Error(`internal error: block "${name}" keeps the groups' prefixes of one round only`);
  // As in acrossGroupsWgsl: backward, each total read goes on the left of what came after it.
  const c = scanOrderCombine(op, backward);
  const writes = values.map((v, r) => `${name}_totals[${r * groupsMax}u + group] = ${v};`).join(' ');
  const rounds = order(values.length, backward)
    .map(
      (r) => `    for (var i = 0u; i < groups; i++) {
      let at = ${r * groupsMax}u + ${backward ? 'groups - 1u - i' : 'i'};
      let t = ${name}_totals[at];${keepBefore ? `\n      ${name}_totals[at] = ${name}_all;` : ''}
      ${name}_all = ${c(`${name}_all`, 't')};
    }`,
    )
    .join('\n');
  return `// Across the groups: each group's total${values.length > 1 ? 's' : ''} through workgroup memory, combined by the leader.
  if (lane == 0u) { ${writes} }
  workgroupBarrier();
  var ${name}_all = ${op.identity};
  if (group == 0u && lane == 0u) {
${rounds}
  }`;
}
