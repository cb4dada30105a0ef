import type { ElementType } from '../../element-types.js';
import { type BindingDecl, read, readWrite } from '../define-kernel.js';
import { type SlotSpec, slotBindings, slotFunctionsWgsl } from '../slots.js';
import { unroll } from '../unroll.js';
import { checkShape, positionWgsl, type TileArrangement } from './arrangement.js';
import type { WgslBlock } from './block.js';
import { type TileWords, wordsSource } from './tile-words.js';

/** Items are elements of plain arrays `array<T>`: bindings of the kernel, by name. */
export interface TileElements {
  readonly kind: 'elements';
  /** The binding loaded from (declared `read`, or `read_write` when it is also `store`). */
  readonly load?: string;
  /** The binding stored to (declared `read_write`). */
  readonly store?: string;
  /** The number of elements, a WGSL u32 expression (default `params.count`). */
  readonly count?: string;
}

/**
 * Items are vec4 slots of core's slot view (`slotFunctionsWgsl`): four elements per load and store
 * where whole vec4s allow, the partial last vec4 staged in `aux` or read and written in place. The
 * kernel's parameters are `SLOT_PARAMS`. The view's own functions (`load_slot`, `store_slot`, …)
 * keep their names, so a kernel holds at most one slot-view tile.
 */
export interface TileSlots extends Pick<SlotSpec, 'reads' | 'tail' | 'carry' | 'mapInput'> {
  readonly kind: 'slots';
  /** Whether the tile is stored (declares `dst`; default false). */
  readonly writes?: boolean;
}

/** What a {@link tileIo} block is specialized on. */
export interface TileIoSpec {
  /** Prefix of its WGSL names. */
  readonly name: string;
  readonly type: ElementType;
  readonly workgroupSize: number;
  /** Items per invocation, K: a tile is `workgroupSize × K` items (elements, or vec4 slots). */
  readonly itemsPerThread: number;
  readonly arrangement: TileArrangement;
  /**
   * Logical item i is element `count − 1 − i` of the array (slots: the slot view's backward order,
   * each vec4 reversed), the paper's "reverse the input when it is read from memory": a forward
   * block then scans the array from its end.
   */
  readonly backward?: boolean;
  /** What an item past the end reads as, a WGSL expression of `type` (typically the identity). */
  readonly fill: string;
  readonly source: TileElements | TileSlots | TileWords;
}

/** A tile load and store block: its declarations and the WGSL calls it offers. */
export interface TileIoBlock extends WgslBlock {
  /** Items per tile (`workgroupSize × itemsPerThread`); elements, or slots of 4. */
  readonly tileItems: number;
  /** The WGSL type of one item: `type`, or `vec4<type>` for slots. */
  readonly itemType: string;
  /** `NAME_load(tile, group, lane, gsize)`: this invocation's items of `tile`, `array<item, K>`. */
  load(tile: string, group?: string, lane?: string, gsize?: string): string;
  /** `NAME_store(tile, items, group, lane, gsize);`: stores the items that lie before the end. */
  store(tile: string, items: string, group?: string, lane?: string, gsize?: string): string;
  /** `NAME_position(k, group, lane, gsize)`: the tile position of item `k` (a WGSL u32). */
  position(k: string, group?: string, lane?: string, gsize?: string): string;
  /**
   * `NAME_valid(tile)`: the elements of `tile` before the end (the tile's size when it is whole),
   * which lie at its first positions — except in a backward slot view, whose padding lanes come
   * first (read keys backward through elements).
   */
  valid(tile: string): string;
  /** `NAME_load_item(i)`: logical item `i` alone (the fill past the end): a neighbour tile's key. */
  loadItem(i: string): string;
  /**
   * `NAME_physical(i)`: the array index of logical item `i` (elements and words), at or past the
   * count when the item lies past the end or is a backward words tile's padding: where a kernel
   * finds an item's side data (head flags).
   */
  physical(i: string): string;
}

/**
 * A tile load and store (CUB's `BlockLoad`/`BlockStore`): invocation (group, lane) holds items
 * `k < K` of a tile of `workgroupSize × K` items in the given arrangement, read from logical index
 * `tile · TILE + position`. A whole tile is read with no guard; the partial last tile reads the
 * items past the end as `fill` and does not store them, so a kernel's tail needs no code of its
 * own. Items are the elements of plain arrays (any length, scalar loads), or vec4 slots of core's
 * slot view (vec4 loads wherever whole vec4s lie, which is what a streaming kernel wants).
 *
 * Declares `NAME_TILE` and `NAME_K`, `NAME_position`, `NAME_valid`, and as the source allows
 * `NAME_load`, `NAME_load_item`, `NAME_store` (see {@link TileIoBlock}); with slots, the slot view.
 * An item's position depends on the invocation's `group`, `lane` and `gsize` (`groupIdentityWgsl`;
 * without subgroups `0u`, `lid` and the workgroup size).
 *
 * @example
 * ```ts
 * // A kernel that triples every element: load, compute, store — the tail is the block's business.
 * const io = tileIo({ name: 'io', type: 'u32', workgroupSize: 256, itemsPerThread: 4, arrangement: 'striped',
 *   fill: '0u', source: { kind: 'elements', load: 'input', store: 'output' } });
 * const needs = composeBlocks(io);
 * const triple = defineKernel({
 *   name: 'example/triple',
 *   bindings: needs.bindings,
 *   params: { count: 'u32' },
 *   wgsl: () => `${needs.decls}
 * @compute @workgroup_size(256)
 * fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
 *   var items = ${io.load('wid.x', '0u', 'lid', '256u')};
 *   for (var k = 0u; k < io_K; k++) { items[k] = 3u * items[k]; }
 *   ${io.store('wid.x', 'items', '0u', 'lid', '256u')}
 * }`,
 * });
 * ```
 */
export function tileIo(spec: TileIoSpec): TileIoBlock {
  const { name: n, workgroupSize: WG, itemsPerThread: K, type: T } = spec;
  checkShape('tileIo', n, WG, K);
  const source = spec.source;
  const slots = source.kind === 'slots';
  const I = slots ? `vec4<${T}>` : T;
  const TILE = WG * K;
  const pos = (k: string) => positionWgsl(spec.arrangement, WG, K, k);
  const args = (group = 'group', lane = 'lane', gsize = 'gsize') => `${group}, ${lane}, ${gsize}`;
  let decls = `const ${n}_K: u32 = ${K}u;
const ${n}_TILE: u32 = ${TILE}u;   // ${slots ? 'vec4 slots' : 'elements'} per tile

// Where item k of invocation (group, lane) sits in a tile (${spec.arrangement}).
fn ${n}_position(k: u32, group: u32, lane: u32, gsize: u32) -> u32 {
  return ${pos('k')};
}
`;
  const bindings: Record<string, BindingDecl> = {};
  let loads = false;
  let stores = false;

  if (source.kind === 'words') {
    const words = wordsSource(spec, source);
    decls += words.decls;
    Object.assign(bindings, words.bindings);
    loads = source.load !== undefined;
    stores = source.store !== undefined;
  } else if (source.kind === 'elements') {
    const count = source.count ?? 'params.count';
    // Logical index i as an index of the array.
    const at = (i: string) => (spec.backward ? `${count} - 1u - ${i}` : i);
    decls += `
// The array index of logical item i (at or past the count: past the end).
fn ${n}_physical(i: u32) -> u32 { return ${at('i')}; }

// The elements of tile t before the end of the data.
fn ${n}_valid(t: u32) -> u32 {
  let count = ${count};
  return select(0u, min(count - t * ${n}_TILE, ${n}_TILE), count > t * ${n}_TILE);
}
`;
    if (source.load) {
      loads = true;
      bindings[source.load] = read(`array<${T}>`);
      decls += `
// Logical item i alone, the fill past the end.
fn ${n}_load_item(i: u32) -> ${T} {
  // One exit (no early return): this runs between subgroup operations (see recordSelectWgsl).
  var x = ${spec.fill};
  if (i < ${count}) { x = ${source.load}[${at('i')}]; }
  return x;
}

fn ${n}_load(tile: u32, group: u32, lane: u32, gsize: u32) -> array<${T}, ${K}> {
  let base = tile * ${n}_TILE;
  var items: array<${T}, ${K}>;
  if (base + ${n}_TILE <= ${count}) {
    // A whole tile: every load in flight at once, no guard. (Constant indices keep items in registers.)
${unroll(K, (k) => `    items[${k}] = ${source.load}[${at(`(base + ${pos(`${k}u`)})`)}];`)}
  } else {
    // The partial last tile: items past the end read as the fill.
${unroll(K, (k) => `    { let i = base + ${pos(`${k}u`)}; items[${k}] = ${spec.fill}; if (i < ${count}) { items[${k}] = ${source.load}[${at('i')}]; } }`)}
  }
  return items;
}
`;
    }
    if (source.store) {
      stores = true;
      bindings[source.store] = readWrite(`array<${T}>`);
      decls += `
fn ${n}_store(tile: u32, items: array<${T}, ${K}>, group: u32, lane: u32, gsize: u32) {
  let base = tile * ${n}_TILE;
  if (base + ${n}_TILE <= ${count}) {
${unroll(K, (k) => `    ${source.store}[${at(`(base + ${pos(`${k}u`)})`)}] = items[${k}];`)}
  } else {
    // The partial last tile: items past the end are not stored.
${unroll(K, (k) => `    { let i = base + ${pos(`${k}u`)}; if (i < ${count}) { ${source.store}[${at('i')}] = items[${k}]; } }`)}
  }
}
`;
    }
  } else {
    loads = source.reads ?? true;
    stores = source.writes ?? false;
    const slotSpec: SlotSpec = {
      type: T,
      identity: spec.fill,
      backward: spec.backward ?? false,
      writes: stores,
      reads: loads,
      tail: source.tail ?? 'staged',
      carry: source.carry ?? false,
      mapInput: source.mapInput ?? 'none',
    };
    for (const [name, decl] of Object.entries(slotBindings(slotSpec))) if (decl) bindings[name] = decl;
    // Whether items 0 and K−1 (and so every item between: positions grow with k) lie in whole vec4s.
    const whole = `slots_whole(base + ${pos('0u')}, base + ${pos(`${K - 1}u`)})`;
    decls = `${slotFunctionsWgsl(slotSpec)}
${decls}
// The elements of tile t before the end of the data (counted from the tile's first slot: with a
// backward view, the padding of a partial vec4 comes first).
fn ${n}_valid(t: u32) -> u32 {
  let first = 4u * t * ${n}_TILE;
  return select(0u, min(params.count - first, 4u * ${n}_TILE), params.count > first);
}
`;
    if (loads) {
      decls += `
// Logical slot s alone, the fill past the end.
fn ${n}_load_item(s: u32) -> ${I} { return load_slot(s); }

fn ${n}_load(tile: u32, group: u32, lane: u32, gsize: u32) -> array<${I}, ${K}> {
  let base = tile * ${n}_TILE;
  var items: array<${I}, ${K}>;
  if (${whole}) {
${unroll(K, (k) => `    items[${k}] = load_slot_whole(base + ${pos(`${k}u`)});`)}
  } else {
    // Past the end, or the partial last vec4: the slot view fills and guards.
${unroll(K, (k) => `    items[${k}] = load_slot(base + ${pos(`${k}u`)});`)}
  }
  return items;
}
`;
    }
    if (stores) {
      decls += `
fn ${n}_store(tile: u32, items: array<${I}, ${K}>, group: u32, lane: u32, gsize: u32) {
  let base = tile * ${n}_TILE;
  if (${whole}) {
${unroll(K, (k) => `    store_slot_whole(base + ${pos(`${k}u`)}, items[${k}]);`)}
  } else {
${unroll(K, (k) => `    store_slot(base + ${pos(`${k}u`)}, items[${k}]);`)}
  }
}
`;
    }
  }
  const missing = (what: string) => () => {
    throw new Error(`internal error: tile "${n}" has no ${what}`);
  };
  return {
    name: n,
    decls,
    workgroupBytes: 0,
    bindings,
    enable: [],
    tileItems: TILE,
    itemType: I,
    load: loads ? (tile, group, lane, gsize) => `${n}_load(${tile}, ${args(group, lane, gsize)})` : missing('load'),
    store: stores ? (tile, items, group, lane, gsize) => `${n}_store(${tile}, ${items}, ${args(group, lane, gsize)});` : missing('store'),
    position: (k, group, lane, gsize) => `${n}_position(${k}, ${args(group, lane, gsize)})`,
    valid: (tile) => `${n}_valid(${tile})`,
    loadItem: loads ? (i) => `${n}_load_item(${i})` : missing('load'),
    physical: slots ? missing('physical index (a slot view)') : (i) => `${n}_physical(${i})`,
  };
}
