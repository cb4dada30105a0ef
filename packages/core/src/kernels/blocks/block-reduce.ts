import { commutes, scanOrderCombine } from '../group-scan.js';
import { acrossGroupsWgsl, groupLevelOf, leaderAcrossGroupsWgsl, maxGroups } from './across-groups.js';
import { type BlockCombineSpec, checkShape, elementOf, order, valueBytes } from './arrangement.js';
import type { WgslBlock } from './block.js';

/** What a {@link blockReduce} block is specialized on (the order of combination follows the arrangement). */
export interface BlockReduceSpec extends BlockCombineSpec {
  /**
   * Where the result is valid: in every invocation (`'all'`, the default), or, as CUB's
   * `BlockReduce`, in the leader alone (`'leader'`: group 0, lane 0; without subgroups every
   * invocation still has it). The leader's form skips every invocation's reads of the groups'
   * totals and the barrier after them; the caller then places a barrier before the block runs
   * again. A kernel that writes one value per workgroup wants it.
   */
  readonly result?: 'all' | 'leader';
}

/** A block reduce: its declarations and the WGSL calls it offers. */
export interface BlockReduceBlock extends WgslBlock {
  /** `NAME_reduce(x, group, lane, gsize)`: the combination of every invocation's `x` (where: `result`). */
  reduce(x: string, group?: string, lane?: string, gsize?: string): string;
  /** `NAME_reduce_items(items, group, lane, gsize)`: of every invocation's items (where: `result`). */
  reduceItems(items: string, group?: string, lane?: string, gsize?: string): string;
}

/**
 * A block reduce (CUB's `BlockReduce`): the combination of one value per invocation
 * (`NAME_reduce`) or of `itemsPerThread` items per invocation (`NAME_reduce_items`: each
 * invocation's own first, then across the block), valid in every invocation (or in the leader
 * alone, with `result: 'leader'`). The block is made of
 * groups — subgroups, or the whole workgroup in workgroup memory — each reduced with the group
 * level of core's group scan (`groupLevelWgsl`: built-ins, or shuffles for an operator that names
 * none), and the groups' totals are combined through workgroup memory.
 *
 * Every invocation of the workgroup must call the functions, in uniform control flow (they hold
 * barriers), with its `group`, `lane` and `gsize` (`groupIdentityWgsl`; without subgroups `0u`,
 * `lid` and the workgroup size); they may be called again at once. The order of combination
 * follows the tile (the arrangement, `backward`) unless the operator commutes, so any associative
 * operator reduces correctly. Identities of f32 min and max call `WGSL_PRELUDE`'s functions, which
 * the kernel includes once (the slot view does).
 *
 * @example
 * ```ts
 * // The maximum of each tile of 1024 f32 (256 invocations × 4 items).
 * const max = blockReduce({ name: 'tile_max', op: wgslOp('max', 'f32'), subgroups: true, workgroupSize: 256, itemsPerThread: 4, arrangement: 'striped' });
 * const io = tileIo({ name: 'io', type: 'f32', workgroupSize: 256, itemsPerThread: 4, arrangement: 'striped', fill: 'f32_neg_inf()', source: { kind: 'elements', load: 'input' } });
 * const needs = composeBlocks(io, max);
 * const id = groupIdentityWgsl(true, 256);
 * const tileMax = defineKernel({
 *   name: 'example/tile-max',
 *   bindings: { ...needs.bindings, maxima: readWrite('array<f32>') },
 *   params: { count: 'u32' },
 *   enable: () => needs.enable,
 *   wgsl: () => `${WGSL_PRELUDE}${id.decls}\n${needs.decls}
 * @compute @workgroup_size(256)
 * fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>${id.builtins}) {
 *   ${id.body}
 *   let m = ${max.reduceItems(io.load('wid.x'))};
 *   if (lid == 0u) { maxima[wid.x] = m; }
 * }`,
 * });
 * ```
 */
export function blockReduce(spec: BlockReduceSpec): BlockReduceBlock {
  const { name: n, op: o, subgroups, workgroupSize: WG } = spec;
  const K = spec.itemsPerThread ?? 1;
  checkShape('blockReduce', n, WG, K);
  const T = o.type;
  const V = spec.vec4 ? 4 : 1;
  const I = spec.vec4 ? `vec4<${T}>` : T;
  const backward = spec.backward ?? false;
  // The items are visited in the scan's order (backward: from the tile's end); `c` keeps the array's
  // order all the same, so the result is x0 ⊕ … ⊕ x(n−1) either way.
  const c = scanOrderCombine(o, backward);
  // An operator that commutes is reduced in any order, as if the items were blocked: each
  // invocation's own first, one group reduction.
  const arrangement = commutes(o) ? 'blocked' : (spec.arrangement ?? 'blocked');
  // Striped items in subgroups: the order is (item, group, lane), so each item's group totals
  // cross the workgroup in a round of their own.
  const rounds = subgroups && arrangement === 'striped' ? K : 1;
  const G = maxGroups(WG, subgroups);
  const across = (values: string[]) =>
    spec.result === 'leader'
      ? `let groups = ${WG}u / gsize;
  ${leaderAcrossGroupsWgsl(n, o, G, backward, values, false)}
  return ${n}_all;`
      : `let groups = ${WG}u / gsize;
  ${acrossGroupsWgsl(n, o, G, backward, values)}
  workgroupBarrier();   // before the totals are written again
  return ${n}_all;`;
  // Reduction of the elements of items `ks` in the block's order, as a WGSL expression.
  const local = (ks: readonly number[]) => {
    let acc = '';
    for (const k of order(K, backward).filter((k) => ks.includes(k))) {
      for (const e of order(V, backward))
        acc = acc ? c(acc, elementOf('items', k, e, spec.vec4 === true)) : elementOf('items', k, e, spec.vec4 === true);
    }
    return acc;
  };
  let itemsBody: string;
  if (arrangement === 'blocked') {
    itemsBody = `return ${n}_reduce(${local(order(K, false))}, group, lane, gsize);`;
  } else {
    // Each item across its group; the items' group totals in order (group-striped: within the group).
    const perItem = order(K, false)
      .map((k) => `  let r${k} = ${n}_group_reduce(${local([k])}, lane, gsize);`)
      .join('\n');
    if (rounds > 1) {
      itemsBody = `${perItem.trimStart()}
  ${across(order(K, false).map((k) => `r${k}`))}`;
    } else {
      const run = order(K, backward)
        .map((k) => `r${k}`)
        .reduce((a, b) => c(a, b));
      itemsBody = `${perItem.trimStart()}
  let run = ${run};
  ${subgroups ? across(['run']) : 'return run;'}`;
    }
  }
  const where = spec.result === 'leader' && subgroups ? 'the leader (group 0, lane 0)' : 'every invocation';
  const decls = `${groupLevelOf(n, o, subgroups, WG, backward)}
${subgroups ? `var<workgroup> ${n}_totals: array<${T}, ${rounds * G}>;` : ''}

// The combination of every invocation's x, in ${where}.
fn ${n}_reduce(x: ${T}, group: u32, lane: u32, gsize: u32) -> ${T} {
  let r = ${n}_group_reduce(x, lane, gsize);
  ${subgroups ? across(['r']) : 'return r;'}
}

// The combination of every invocation's items (${arrangement === 'blocked' ? 'its own first' : `${spec.arrangement}, item by item`}), in ${where}.
fn ${n}_reduce_items(items: array<${I}, ${K}>, group: u32, lane: u32, gsize: u32) -> ${T} {
  ${itemsBody}
}
`;
  const bytes = valueBytes(o);
  const args = (group = 'group', lane = 'lane', gsize = 'gsize') => `${group}, ${lane}, ${gsize}`;
  return {
    name: n,
    decls,
    workgroupBytes: subgroups ? rounds * G * bytes : WG * bytes,
    bindings: {},
    enable: subgroups ? ['subgroups'] : [],
    reduce: (x, group, lane, gsize) => `${n}_reduce(${x}, ${args(group, lane, gsize)})`,
    reduceItems: (items, group, lane, gsize) => `${n}_reduce_items(${items}, ${args(group, lane, gsize)})`,
  };
}
