import { checkShape, elementOf, order as indices, positionWgsl, type TileArrangement, wgslTypeBytes } from './arrangement.js';
import type { WgslBlock } from './block.js';

/** What a {@link blockDiscontinuity} block is specialized on. */
export interface BlockDiscontinuitySpec {
  /** Prefix of its WGSL names. */
  readonly name: string;
  /** The WGSL type of a key (of a vec4 item's elements, with `vec4`). */
  readonly type: string;
  /** A power of two. */
  readonly workgroupSize: number;
  /** Items per invocation (default 1); with `vec4`, at most 8 (a flag per element in one u32). */
  readonly itemsPerThread?: number;
  /** How the items lie in the tile (default `'blocked'`). */
  readonly arrangement?: TileArrangement;
  /** Items are `vec4<type>`, four consecutive elements each (the slot view's items). */
  readonly vec4?: boolean;
  /**
   * The keys' order runs from the tile's last position to its first: an element's predecessor is
   * the one after it in the tile (a segmented scan run backward finds its heads this way).
   */
  readonly backward?: boolean;
  /**
   * Whether a boundary lies between `earlier` and `later` (keys adjacent in the order), as a WGSL
   * bool expression; default `earlier != later`.
   */
  readonly differ?: (earlier: string, later: string) => string;
}

/** A block discontinuity: its declarations and the WGSL calls it offers. */
export interface BlockDiscontinuityBlock extends WgslBlock {
  /**
   * `NAME_heads(items, predecessor, has_predecessor, valid, group, lane, gsize)` → u32: bit
   * `k · V + e` is set when element e of item k (V = 4 with `vec4`, else 1) starts a run.
   */
  heads(items: string, predecessor: string, hasPredecessor: string, valid: string, group?: string, lane?: string, gsize?: string): string;
  /** `NAME_tails(items, successor, has_successor, valid, group, lane, gsize)` → u32: set when the element ends a run. */
  tails(items: string, successor: string, hasSuccessor: string, valid: string, group?: string, lane?: string, gsize?: string): string;
}

/**
 * Block discontinuity (CUB's `BlockDiscontinuity`): head flags (an element differs from the one
 * before it) and tail flags (from the one after it) of the keys a tile's invocations hold, in any
 * arrangement, forward or backward. Across the tile's edges the kernel passes the neighbouring
 * tile's key — `predecessor` for heads, `successor` for tails: the previous tile's last key and
 * the next tile's first (backward, the other way round) — or false for `has_predecessor` /
 * `has_successor` where there is no such tile, which makes the order's first element a head and
 * its last a tail. `valid` is the number of tile positions holding data, positions 0 … valid − 1
 * (the tile's size, or fewer in the partial last tile: `NAME_valid` of an element tile load):
 * position valid − 1 is the tile's last element (backward, the order's first), and positions from
 * `valid` on get no flag.
 *
 * The keys cross invocations through workgroup memory (blocked: one key per invocation; else one
 * per item), so every invocation of the workgroup calls the functions in uniform control flow,
 * with its `group`, `lane` and `gsize` (`groupIdentityWgsl`; without subgroups `0u`, `lid` and the
 * workgroup size); they may be called again at once. No subgroup operation is used.
 *
 * @example
 * ```ts
 * // flags[i] = 1 where keys[i] starts a run of equal keys.
 * const io = tileIo({ name: 'keys', type: 'u32', workgroupSize: 256, itemsPerThread: 4, arrangement: 'blocked', fill: '0u', source: { kind: 'elements', load: 'keys' } });
 * const out = tileIo({ name: 'flags', type: 'u32', workgroupSize: 256, itemsPerThread: 4, arrangement: 'blocked', fill: '0u', source: { kind: 'elements', store: 'flags' } });
 * const runs = blockDiscontinuity({ name: 'runs', type: 'u32', workgroupSize: 256, itemsPerThread: 4, arrangement: 'blocked' });
 * const needs = composeBlocks(io, out, runs);
 * const headFlags = defineKernel({
 *   name: 'example/head-flags',
 *   bindings: needs.bindings,
 *   params: { count: 'u32' },
 *   wgsl: () => `${needs.decls}
 * @compute @workgroup_size(256)
 * fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
 *   let group = 0u; let lane = lid; let gsize = 256u;
 *   let t = wid.x;
 *   let m = ${runs.heads(io.load('t'), io.loadItem('t * keys_TILE - 1u'), 't > 0u', io.valid('t'))};
 *   var f: array<u32, 4>;
 *   for (var k = 0u; k < 4u; k++) { f[k] = (m >> k) & 1u; }
 *   ${out.store('t', 'f')}
 * }`,
 * });
 * ```
 */
export function blockDiscontinuity(spec: BlockDiscontinuitySpec): BlockDiscontinuityBlock {
  const { name: n, workgroupSize: WG, type: T } = spec;
  const K = spec.itemsPerThread ?? 1;
  checkShape('blockDiscontinuity', n, WG, K);
  const vec4 = spec.vec4 === true;
  const V = vec4 ? 4 : 1;
  if (K * V > 32) throw new Error(`internal error: block discontinuity "${n}": ${K * V} flags per invocation do not fit a u32`);
  const I = vec4 ? `vec4<${T}>` : T;
  const arrangement = spec.arrangement ?? 'blocked';
  const blocked = arrangement === 'blocked';
  const backward = spec.backward ?? false;
  const differ = spec.differ ?? ((a: string, b: string) => `(${a}) != (${b})`);
  // Blocked: only an invocation's outer keys cross to its neighbours, at its rank. Else every item's
  // key crosses, at its unit (an item's place in the tile).
  const slots = blocked ? WG : WG * K;
  const unit = (k: number) => positionWgsl(arrangement, WG, K, `${k}u`);
  const el = (k: number, e: number) => elementOf('items', k, e, vec4);

  /**
   * One flag function. `side`: the neighbour compared is the element before in the tile ('before')
   * or after it ('after'). `heads`: the element is the later of the pair (a head); else the earlier
   * (a tail). The edge of the order, where the argument stands in for the neighbour, is the
   * position before the tile's first (p = 0) or after its last valid one (p = valid − 1).
   */
  const flags = (fn: string, side: 'before' | 'after', heads: boolean, arg: string) => {
    const publish = blocked
      ? side === 'before'
        ? `${n}_keys[rank] = ${el(K - 1, V - 1)};`
        : `${n}_keys[rank] = ${el(0, 0)};`
      : indices(K, false)
          .map((k) => `${n}_keys[${unit(k)}] = ${side === 'before' ? el(k, V - 1) : el(k, 0)};`)
          .join('\n  ');
    const lines: string[] = [];
    for (let k = 0; k < K; k++) {
      for (let e = 0; e < V; e++) {
        // The neighbour: in this invocation's registers where it can be, else through memory.
        let neighbour: string;
        if (side === 'before') {
          if (e > 0) neighbour = el(k, e - 1);
          else if (blocked && k > 0) neighbour = el(k - 1, V - 1);
          else neighbour = blocked ? `${n}_keys[max(rank, 1u) - 1u]` : `${n}_keys[max(u${k}, 1u) - 1u]`;
        } else {
          if (e < V - 1) neighbour = el(k, e + 1);
          else if (blocked && k < K - 1) neighbour = el(k + 1, 0);
          else neighbour = blocked ? `${n}_keys[min(rank + 1u, ${WG - 1}u)]` : `${n}_keys[min(u${k} + 1u, ${slots - 1}u)]`;
        }
        const key = el(k, e);
        const pair = (other: string) => (heads ? differ(other, key) : differ(key, other));
        const edge = side === 'before' ? 'p == 0u' : 'p + 1u == valid';
        lines.push(`  {
    let p = u${k} * ${V}u + ${e}u;
    var f = ${pair(neighbour)};
    if (${edge}) { f = !${arg === 'successor' ? 'has_successor' : 'has_predecessor'} || ${pair(arg)}; }
    if (p < valid && f) { m = m | ${(2 ** (k * V + e)) >>> 0}u; }
  }`);
      }
    }
    return `fn ${n}_${fn}(items: array<${I}, ${K}>, ${arg}: ${T}, has_${arg}: bool, valid: u32, group: u32, lane: u32, gsize: u32) -> u32 {
  let rank = group * gsize + lane;
${indices(K, false)
  .map((k) => `  let u${k} = ${unit(k)};`)
  .join('\n')}
  ${publish}
  workgroupBarrier();
  var m = 0u;
${lines.join('\n')}
  workgroupBarrier();   // before the keys are written again
  return m;
}`;
  };

  // Forward, heads compare with the element before and tails with the one after; backward, the
  // other way round, the order's first element being the tile's last valid one.
  const decls = `var<workgroup> ${n}_keys: array<${T}, ${slots}>;

// Bit k·${V} + e: element e of item k starts a run (differs from its predecessor${backward ? ', the element after it in the tile' : ''}).
${flags('heads', backward ? 'after' : 'before', true, 'predecessor')}

// Bit k·${V} + e: element e of item k ends a run (differs from its successor${backward ? ', the element before it in the tile' : ''}).
${flags('tails', backward ? 'before' : 'after', false, 'successor')}
`;
  const args = (group = 'group', lane = 'lane', gsize = 'gsize') => `${group}, ${lane}, ${gsize}`;
  return {
    name: n,
    decls,
    workgroupBytes: slots * wgslTypeBytes(T),
    bindings: {},
    enable: [],
    heads: (items, predecessor, has, valid, group, lane, gsize) =>
      `${n}_heads(${items}, ${predecessor}, ${has}, ${valid}, ${args(group, lane, gsize)})`,
    tails: (items, successor, has, valid, group, lane, gsize) =>
      `${n}_tails(${items}, ${successor}, ${has}, ${valid}, ${args(group, lane, gsize)})`,
  };
}
