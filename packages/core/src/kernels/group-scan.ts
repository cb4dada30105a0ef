import type { WgslOp } from './wgsl-ops.js';

/**
 * Cooperative scans and reductions over a "group" of invocations, in two interchangeable forms:
 * a subgroup (hardware shuffles; its size is read at run time, never assumed) or the whole
 * workgroup (workgroup memory and barriers, for devices without the `subgroups` feature).
 * Kernels are written once against `group_scan`/`group_reduce` and get either form.
 *
 * Emits: `struct GroupScan { inclusive, exclusive, total }`, `fn group_scan(x, lane, size)`,
 * `fn group_reduce(x, lane, size)`. In the workgroup form every invocation must call them
 * (they contain barriers); in the subgroup form every invocation of the subgroup must.
 */
export function groupScanWgsl(o: WgslOp, subgroups: boolean, workgroupSize: number): string {
  const T = o.type;
  const header = `struct GroupScan { inclusive: ${T}, exclusive: ${T}, total: ${T} }\n`;
  if (subgroups) {
    const inclusive = o.subgroupInclusive
      ? `let inc = ${o.subgroupInclusive}(x);`
      : `var inc = x;
  // Kogge–Stone over the subgroup with shuffles (WGSL has inclusive built-ins for add and mul only).
  for (var d = 1u; d < size; d = d << 1u) {
    let y = subgroupShuffleUp(inc, d);
    if (lane >= d) { inc = ${o.combine('y', 'inc')}; }
  }`;
    return `${header}
fn group_scan(x: ${T}, lane: u32, size: u32) -> GroupScan {
  ${inclusive}
  let up = subgroupShuffleUp(inc, 1u);
  let exc = select(${o.identity}, up, lane > 0u);
  let total = subgroupShuffle(inc, size - 1u);
  return GroupScan(inc, exc, total);
}

fn group_reduce(x: ${T}, lane: u32, size: u32) -> ${T} {
  return ${o.subgroupReduce}(x);
}
`;
  }
  return `${header}
var<workgroup> group_buf: array<${T}, ${workgroupSize}>;

fn group_scan(x: ${T}, lane: u32, size: u32) -> GroupScan {
  // Kogge–Stone over the workgroup in workgroup memory.
  var inc = x;
  for (var d = 1u; d < ${workgroupSize}u; d = d << 1u) {
    group_buf[lane] = inc;
    workgroupBarrier();
    if (lane >= d) { inc = ${o.combine(`group_buf[lane - d]`, 'inc')}; }
    workgroupBarrier();
  }
  group_buf[lane] = inc;
  workgroupBarrier();
  let exc = select(${o.identity}, group_buf[max(lane, 1u) - 1u], lane > 0u);
  let total = group_buf[${workgroupSize - 1}u];
  workgroupBarrier();
  return GroupScan(inc, exc, total);
}

fn group_reduce(x: ${T}, lane: u32, size: u32) -> ${T} {
  // Tree reduction (the up-sweep of the paper's Algorithm 1) in workgroup memory.
  group_buf[lane] = x;
  workgroupBarrier();
  for (var d = ${workgroupSize / 2}u; d > 0u; d = d >> 1u) {
    if (lane < d) { group_buf[lane] = ${o.combine('group_buf[lane]', 'group_buf[lane + d]')}; }
    workgroupBarrier();
  }
  let r = group_buf[0];
  workgroupBarrier();
  return r;
}
`;
}

/**
 * WGSL that gives each invocation its group index, lane and group size, and the group count.
 * With subgroups the group index comes from a per-workgroup ticket rather than
 * `local_invocation_index / subgroup_size`, because WebGPU does not promise that subgroups are made
 * of consecutive invocations.
 */
export function groupIdentityWgsl(subgroups: boolean, workgroupSize: number): { decls: string; body: string; builtins: string } {
  if (!subgroups) {
    return {
      decls: '',
      builtins: '',
      body: `let group = 0u; let lane = lid; let gsize = ${workgroupSize}u; let groups = 1u;`,
    };
  }
  return {
    decls: 'var<workgroup> group_ticket: atomic<u32>;',
    builtins: ', @builtin(subgroup_invocation_id) sg_lane: u32, @builtin(subgroup_size) sg_size: u32',
    body: `var ticket = 0u;
  if (subgroupElect()) { ticket = atomicAdd(&group_ticket, 1u); }
  let group = subgroupBroadcastFirst(ticket);
  let lane = sg_lane; let gsize = sg_size; let groups = ${workgroupSize}u / sg_size;`,
  };
}
