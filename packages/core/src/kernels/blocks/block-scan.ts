import { commutes, scanOrderCombine } from '../group-scan.js';
import { acrossGroupsWgsl, groupLevelOf, leaderAcrossGroupsWgsl, maxGroups } from './across-groups.js';
import { type BlockCombineSpec, checkShape, elementOf, order, valueBytes } from './arrangement.js';
import type { WgslBlock } from './block.js';

/**
 * What a {@link blockScan} block is specialized on (the scan runs in tile order, from the last
 * element when `backward`, still combining in tile order: inclusive `out[i] = xi ⊕ … ⊕ x(n−1)`).
 */
export interface BlockScanSpec extends BlockCombineSpec {
  /**
   * A prefix callback (CUB's `block_prefix_callback_op`): the name of a WGSL function
   * `fn(aggregate: T) -> T` of the kernel, called by one invocation (group 0, lane 0: no barrier
   * or subgroup operation inside) once the block aggregate is known; what it returns is combined
   * before every result, as a seed is. A tile's look-back goes there. With it the scan functions
   * take no seed.
   */
  readonly prefix?: string;
}

/** A block scan: its declarations and the WGSL calls it offers. */
export interface BlockScanBlock extends WgslBlock {
  /** `NAME_Scan`: `{ inclusive, exclusive, aggregate }` of one value per invocation. */
  readonly scanStruct: string;
  /** `NAME_Items`: `{ items, aggregate }` of `itemsPerThread` items per invocation. */
  readonly itemsStruct: string;
  /**
   * `NAME_scan(x, seed, group, lane, gsize)` → `NAME_Scan`. The seed (default the identity; none
   * with a prefix callback) comes before every result; the aggregate is the block's alone.
   */
  scan(x: string, seed?: string, group?: string, lane?: string, gsize?: string): string;
  /** `NAME_inclusive_items(items, seed, group, lane, gsize)` → `NAME_Items`. */
  inclusiveItems(items: string, seed?: string, group?: string, lane?: string, gsize?: string): string;
  /** `NAME_exclusive_items(items, seed, group, lane, gsize)` → `NAME_Items`. */
  exclusiveItems(items: string, seed?: string, group?: string, lane?: string, gsize?: string): string;
  /**
   * The reduce phase of a reduce-then-scan tile (`'blocked'` and `'group-striped'` items, and
   * `'striped'` without subgroups): `NAME_upsweep_items(items, group, lane, gsize)` → the block
   * aggregate, valid in the leader (group 0, lane 0; without subgroups in every invocation), which
   * also leaves each group's offset in workgroup memory for the down-sweep. A single-pass kernel
   * publishes the aggregate at once and scans its items afterwards, so successors need not wait
   * for its scan. The caller places a barrier between the up-sweep and the down-sweep (and before
   * this block runs again): the leader may publish before it, the others wait there.
   */
  upsweepItems(items: string, group?: string, lane?: string, gsize?: string): string;
  /**
   * The scan phase after {@link BlockScanBlock.upsweepItems} and a barrier:
   * `NAME_inclusive_downsweep(items, seed, group, lane, gsize)` → `array<item, K>`, the items
   * scanned, each group from the offset the up-sweep left, with the seed before them. With
   * subgroups it holds no barrier, so it may run while one group walks a look-back.
   */
  inclusiveDownsweep(items: string, seed?: string, group?: string, lane?: string, gsize?: string): string;
  /**
   * The combination of everything before the invocation's group, as the up-sweep left it (a WGSL
   * expression; the identity without subgroups): for a kernel that scans on its own after the
   * up-sweep. Read it after the barrier that follows the up-sweep, before the block runs again.
   */
  groupOffset(group?: string): string;
  /** `NAME_exclusive_downsweep(items, seed, group, lane, gsize)` → `array<item, K>`. */
  exclusiveDownsweep(items: string, seed?: string, group?: string, lane?: string, gsize?: string): string;
}

/**
 * A block scan (CUB's `BlockScan`), inclusive and exclusive, forward or backward, of one value per
 * invocation (`NAME_scan`) or of `itemsPerThread` items per invocation in a tile arrangement
 * (`NAME_inclusive_items`, `NAME_exclusive_items`), with the block aggregate a tile-prefix
 * look-back needs, and a seed or a prefix callback that puts the tile's exclusive prefix before
 * every result.
 *
 * How: each invocation scans its own elements in registers (blocked: all its items; striped and
 * group-striped: each item's vec4), the groups — subgroups, or the whole workgroup in workgroup
 * memory — scan those totals with the group level of core's group scan (`groupLevelWgsl`:
 * built-ins, or shuffles for an operator that names none), and the groups' totals are combined
 * through workgroup memory in one step. Group-striped items need no more than that (CUB's
 * warp-striped scan); striped items cross the workgroup once per item, all in the same step.
 *
 * Every invocation of the workgroup must call the functions, in uniform control flow (they hold
 * barriers), with its `group`, `lane` and `gsize` (`groupIdentityWgsl`; without subgroups `0u`,
 * `lid` and the workgroup size); they may be called again at once. The combination follows the
 * tile's order everywhere, backward too (inclusive `out[i] = xi ⊕ … ⊕ x(n−1)`, exclusive
 * `x(i+1) ⊕ … ⊕ x(n−1)`, the seed — the tiles after — on the right), so any associative operator
 * scans correctly. Identities of f32 min and max call `WGSL_PRELUDE`'s functions, which the kernel
 * includes once (the slot view does).
 *
 * @example
 * ```ts
 * // An exclusive sum of each tile of 1024 u32 in place, each tile seeded with seeds[tile].
 * const scan = blockScan({ name: 'tile_scan', op: wgslOp('add', 'u32'), subgroups: true, workgroupSize: 256, itemsPerThread: 4, arrangement: 'group-striped' });
 * const io = tileIo({ name: 'io', type: 'u32', workgroupSize: 256, itemsPerThread: 4, arrangement: 'group-striped', fill: '0u', source: { kind: 'elements', load: 'data', store: 'data' } });
 * const needs = composeBlocks(io, scan);
 * const id = groupIdentityWgsl(true, 256);
 * const tileScan = defineKernel({
 *   name: 'example/tile-scan',
 *   bindings: { ...needs.bindings, seeds: read('array<u32>') },
 *   params: { count: 'u32' },
 *   enable: () => needs.enable,
 *   wgsl: () => `${id.decls}\n${needs.decls}
 * @compute @workgroup_size(256)
 * fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>${id.builtins}) {
 *   ${id.body}
 *   let s = ${scan.exclusiveItems(io.load('wid.x'), 'seeds[wid.x]')};
 *   ${io.store('wid.x', 's.items')}
 * }`,
 * });
 * ```
 */
export function blockScan(spec: BlockScanSpec): BlockScanBlock {
  const { name: n, op: o, subgroups, workgroupSize: WG } = spec;
  const K = spec.itemsPerThread ?? 1;
  checkShape('blockScan', n, WG, K);
  const T = o.type;
  const vec4 = spec.vec4 === true;
  const V = vec4 ? 4 : 1;
  const I = vec4 ? `vec4<${T}>` : T;
  const backward = spec.backward ?? false;
  const arrangement = spec.arrangement ?? 'blocked';
  // Every combination below is written in the scan's order (backward: from the tile's end, a seed
  // first); `c` keeps the array's order, the lower index on the left (backward: `x ⊕ acc`).
  const c = scanOrderCombine(o, backward);
  const G = maxGroups(WG, subgroups);
  // Striped items in subgroups: the order is (item, group, lane), so each item's group totals
  // cross the workgroup in a round of their own (all rounds in one step).
  const rounds = subgroups && arrangement === 'striped' ? K : 1;
  const callback = spec.prefix;
  const seedParam = callback ? '' : ` seed: ${T},`;
  // With a callback, the seed is what it returns for the aggregate (one invocation calls it).
  const takeSeed = callback ? `let seed = ${n}_take_prefix(${n}_all, group, lane);` : '';
  // After the step across groups: a barrier before the totals are written again, unless the
  // callback's barrier follows at once.
  const across = (values: string[]) =>
    subgroups
      ? `let groups = ${WG}u / gsize;
  ${acrossGroupsWgsl(n, o, G, backward, values)}${callback ? '' : '\n  workgroupBarrier();   // before the totals are written again'}`
      : `let ${n}_before_0 = ${o.identity};
  let ${n}_all = ${values[0]};`;

  // One value per invocation.
  const single = `fn ${n}_scan(x: ${T},${seedParam} group: u32, lane: u32, gsize: u32) -> ${n}_Scan {
  let s = ${n}_group_scan(x, lane, gsize);
  ${across(['s.total'])}
  ${takeSeed}
  let offset = ${subgroups ? c('seed', `${n}_before_0`) : 'seed'};
  return ${n}_Scan(${c('offset', 's.inclusive')}, ${c('offset', 's.exclusive')}, ${n}_all);
}`;

  // Items: segments scanned by each invocation alone — all its items when blocked (segment 0),
  // else each item k (its vec4, segment k) — then each segment's total across the groups.
  const blocked = arrangement === 'blocked';
  const segments: { id: number; ks: number[] }[] = blocked
    ? [{ id: 0, ks: order(K, backward) }]
    : order(K, false).map((k) => ({ id: k, ks: [k] }));
  // The segments in the scan's order.
  const scanOrder = blocked ? [0] : order(K, backward);
  // 'scan': the whole block scan; 'downsweep': the same after an upsweep, each group's offset read
  // from what the upsweep left in the totals (no step across the groups, no barrier with subgroups).
  const items = (inclusive: boolean, mode: 'scan' | 'downsweep' = 'scan') => {
    const own = segments
      .map(({ id: s, ks }) => {
        const elements = ks.flatMap((k) => order(V, backward).map((e) => elementOf('a', k, e, vec4)));
        const first = elements[0] as string;
        const rest = elements
          .slice(1)
          .map((e, j) =>
            inclusive
              ? `  t${s} = ${c(`t${s}`, e)}; ${e} = t${s};`
              : `  let x${s}_${j} = ${e}; ${e} = t${s}; t${s} = ${c(`t${s}`, `x${s}_${j}`)};`,
          )
          .join('\n');
        return `  var t${s} = ${first};${inclusive ? '' : ` ${first} = ${o.identity};`}
${rest ? `${rest}\n` : ''}  let g${s} = ${n}_group_scan(t${s}, lane, gsize);`;
      })
      .join('\n');
    // What comes before each segment within the block: the offsets that finish the scan.
    let place: string;
    if (rounds > 1) {
      // Striped in subgroups: round k's group totals, all rounds in one step across the groups.
      place = `${across(segments.map(({ id }) => `g${id}.total`))}
  ${takeSeed}
${segments.map(({ id: s }) => `  let off${s} = ${c('seed', c(`${n}_before_${s}`, `g${s}.exclusive`))};`).join('\n')}`;
    } else {
      // Blocked, group-striped, or striped in one group: the segments follow each other within the
      // group, so their prefixes within it are known at once.
      const pre = scanOrder.map((s, j) =>
        j === 0
          ? `  let pre${s} = g${s}.exclusive;\n  var run = g${s}.total;`
          : `  let pre${s} = ${c('run', `g${s}.exclusive`)};\n  run = ${c('run', `g${s}.total`)};`,
      );
      const before = mode === 'scan' ? `${n}_before_0` : `${n}_totals[group]`;
      place = `${pre.join('\n').trimStart()}
  ${mode === 'scan' ? across(['run']) : ''}
  ${mode === 'scan' ? takeSeed : ''}
${segments.map(({ id: s }) => `  let off${s} = ${subgroups ? c('seed', c(before, `pre${s}`)) : c('seed', `pre${s}`)};`).join('\n')}`;
    }
    const finish = segments
      .flatMap(({ id: s, ks }) =>
        ks.flatMap((k) => order(V, false).map((e) => `  ${elementOf('a', k, e, vec4)} = ${c(`off${s}`, elementOf('a', k, e, vec4))};`)),
      )
      .join('\n');
    const kind = inclusive ? 'inclusive' : 'exclusive';
    if (mode === 'downsweep')
      return `fn ${n}_${kind}_downsweep(items: array<${I}, ${K}>, seed: ${T}, group: u32, lane: u32, gsize: u32) -> array<${I}, ${K}> {
  var a = items;
  // Each invocation's own ${blocked ? 'items' : 'items, one by one'}, in registers.
${own}
  ${place}
${finish}
  return a;
}`;
    return `fn ${n}_${kind}_items(items: array<${I}, ${K}>,${seedParam} group: u32, lane: u32, gsize: u32) -> ${n}_Items {
  var a = items;
  // Each invocation's own ${blocked ? 'items' : 'items, one by one'}, in registers.
${own}
  ${place}
${finish}
  return ${n}_Items(a, ${n}_all);
}`;
  };

  // The upsweep: each group's total of its items in the block's order (an operator that commutes
  // reduces each invocation's items first, one group reduction), then the leader combines the
  // groups' totals and leaves each group's offset in their place, so the down-sweep needs no step
  // across the groups.
  const upsweep = () => {
    if (rounds > 1) return '';
    // Item by item in order; a vec4's elements pairwise, (x ⊕ y) ⊕ (z ⊕ w) (associativity allows
    // it, and it shortens the chain of dependent operations).
    const item = (k: number) => {
      if (!vec4) return `items[${k}]`;
      const [e0, e1, e2, e3] = order(4, backward).map((e) => elementOf('items', k, e, true)) as [string, string, string, string];
      return c(c(e0, e1), c(e2, e3));
    };
    const elements = (ks: readonly number[]) => ks.map(item).reduce((a, b) => c(a, b));
    const total =
      blocked || commutes(o)
        ? `let run = ${n}_group_reduce(${elements(order(K, backward))}, lane, gsize);`
        : `${order(K, false)
            .map((k) => `let r${k} = ${n}_group_reduce(${elements([k])}, lane, gsize);`)
            .join('\n  ')}
  let run = ${order(K, backward)
    .map((k) => `r${k}`)
    .reduce((a, b) => c(a, b))};`;
    return `fn ${n}_upsweep_items(items: array<${I}, ${K}>, group: u32, lane: u32, gsize: u32) -> ${T} {
  ${total}
  ${
    subgroups
      ? `let groups = ${WG}u / gsize;
  ${leaderAcrossGroupsWgsl(n, o, G, backward, ['run'], true)}
  return ${n}_all;`
      : 'return run;'
  }
}`;
  };

  const prefixDecls = callback
    ? `var<workgroup> ${n}_prefix: ${T};

// The callback's prefix for the block aggregate, called by one invocation and shared.
fn ${n}_take_prefix(aggregate: ${T}, group: u32, lane: u32) -> ${T} {
  if (group == 0u && lane == 0u) { ${n}_prefix = ${callback}(aggregate); }
  workgroupBarrier();
  return ${n}_prefix;
}
`
    : '';
  const decls = `struct ${n}_Scan { inclusive: ${T}, exclusive: ${T}, aggregate: ${T} }
struct ${n}_Items { items: array<${I}, ${K}>, aggregate: ${T} }
${groupLevelOf(n, o, subgroups, WG, backward)}
${subgroups ? `var<workgroup> ${n}_totals: array<${T}, ${rounds * G}>;` : ''}
${prefixDecls}
${single}

${items(true)}

${items(false)}
${rounds > 1 ? '' : `\n${upsweep()}\n\n${items(true, 'downsweep')}\n\n${items(false, 'downsweep')}`}
`;
  const bytes = valueBytes(o);
  const call =
    (fn: string) =>
    (x: string, seed?: string, group = 'group', lane = 'lane', gsize = 'gsize') => {
      if (callback && seed !== undefined)
        throw new Error(`internal error: block scan "${n}" takes its prefix from ${callback}, not a seed`);
      return `${n}_${fn}(${x}, ${callback ? '' : `${seed ?? o.identity}, `}${group}, ${lane}, ${gsize})`;
    };
  const downsweep =
    (kind: string) =>
    (items: string, seed?: string, group = 'group', lane = 'lane', gsize = 'gsize') => {
      if (rounds > 1) throw new Error(`internal error: block scan "${n}" has no down-sweep for striped items in subgroups`);
      return `${n}_${kind}_downsweep(${items}, ${seed ?? o.identity}, ${group}, ${lane}, ${gsize})`;
    };
  return {
    name: n,
    decls,
    workgroupBytes: (subgroups ? rounds * G * bytes : WG * bytes) + (callback ? bytes : 0),
    bindings: {},
    enable: subgroups ? ['subgroups'] : [],
    scanStruct: `${n}_Scan`,
    itemsStruct: `${n}_Items`,
    scan: call('scan'),
    inclusiveItems: call('inclusive_items'),
    exclusiveItems: call('exclusive_items'),
    upsweepItems: (items, group = 'group', lane = 'lane', gsize = 'gsize') => {
      if (rounds > 1) throw new Error(`internal error: block scan "${n}" has no upsweep for striped items in subgroups`);
      return `${n}_upsweep_items(${items}, ${group}, ${lane}, ${gsize})`;
    },
    groupOffset: (group = 'group') => (subgroups ? `${n}_totals[${group}]` : o.identity),
    inclusiveDownsweep: downsweep('inclusive'),
    exclusiveDownsweep: downsweep('exclusive'),
  };
}
