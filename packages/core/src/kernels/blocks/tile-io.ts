import type { ElementType } from '../../element-types.js';
import { type BindingDecl, read, readWrite } from '../define-kernel.js';
import { type SlotSpec, slotBindings, slotFunctionsWgsl } from '../slots.js';
import { unroll } from '../unroll.js';
import type { ValueWords } from '../value-words.js';
import { checkShape, positionWgsl, type TileArrangement } from './arrangement.js';
import type { WgslBlock } from './block.js';

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

/**
 * Items are records of whole 32-bit words (any scalar, vector or struct of u32, i32 and f32), each
 * invocation's K records read and written a vec4 of words at a time: CUB's vectorized blocked load,
 * which keeps every record of a run in the invocation (so an operator that does not commute meets
 * them in order, and a block scan or reduce needs one subgroup step per tile, not one per item)
 * while a subgroup's loads still cover whole neighbouring sectors. Blocked arrangement only, with
 * `K × words` a multiple of 4, so every run is whole vec4s and no two invocations share one.
 *
 * A binding of n records holds `floor(n·words / 4)` whole vec4s; the 1–3 words after them cannot
 * be bound as a vec4. Loads read the run that holds the end word by word through `NAME_words`, an
 * `array<u32>` view of the same buffer (two read-only views may alias); stores write it word by
 * word into the vec4s, and its words past the last whole vec4 into `NAME_tail` (`array<u32>`, 3
 * words), which the plan copies after the words that lie whole (Dawn forbids two writable views of
 * one buffer in a dispatch). {@link wordsTail} says where.
 */
export interface TileWords {
  readonly kind: 'words';
  /** The record's words: `valueWords(type, fields)`. */
  readonly words: ValueWords;
  /** The binding loaded from (with `NAME_words`; both read). */
  readonly load?: string;
  /** The binding stored to (with `NAME_tail`; both read_write). */
  readonly store?: string;
  /** The number of records, a WGSL u32 expression (default `params.count`). */
  readonly count?: string;
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
  if (i >= ${count}) { return ${spec.fill}; }
  return ${source.load}[${at('i')}];
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

/**
 * The WGSL of a words source (see {@link TileWords}): `NAME_valid`, `NAME_load_item`, `NAME_load`,
 * `NAME_store` over the two views of each binding. Backward, logical record i is physical record
 * `padded − 1 − i`, where `padded` is the count rounded up to whole runs of K: every run then starts
 * on a vec4 of words, and the padding (physical records at or past the count, read as the fill and
 * never stored) comes first in the scan's order, in the run that also holds the array's last record.
 */
function wordsSource(spec: TileIoSpec, source: TileWords): { decls: string; bindings: Record<string, BindingDecl> } {
  const { name: n, itemsPerThread: K, type: T } = spec;
  const R = source.words.words;
  if (R === undefined) throw new Error(`internal error: tile "${n}": ${T} is not made of whole 32-bit words`);
  if (spec.arrangement !== 'blocked' || (K * R) % 4 !== 0) {
    throw new Error(`internal error: tile "${n}": a words source needs blocked runs of whole vec4s (K ${K}, ${R} words)`);
  }
  const Q = (K * R) / 4;
  const count = source.count ?? 'params.count';
  const backward = spec.backward === true;
  // Logical record i as a physical record (past the end: at or beyond the count, u32 wrap included).
  const physical = (i: string) => (backward ? `${n}_padded() - 1u - ${i}` : i);
  // Physical record j of a run (its first record `start`) holds logical item k.
  const recordOf = (k: number) => (backward ? K - 1 - k : k);
  // Word m of physical record j of the run, as a component of the run's vec4s.
  const word = (j: number, m: number) => `w${Math.floor((j * R + m) / 4)}.${'xyzw'[(j * R + m) % 4]}`;
  const bindings: Record<string, BindingDecl> = {};
  let decls = `
const ${n}_R: u32 = ${R}u;   // 32-bit words per record
${
  backward
    ? `
// The count rounded up to whole runs of ${K}: logical record i is physical record padded − 1 − i.
fn ${n}_padded() -> u32 { return (${count} + ${K - 1}u) / ${K}u * ${K}u; }
`
    : ''
}
// The physical record of logical record i (at or past the count: past the end, or padding).
fn ${n}_physical(i: u32) -> u32 { return ${physical('i')}; }

// The logical records of tile t before the end of the data${backward ? ' (the padding counted: it comes first)' : ''}.
fn ${n}_valid(t: u32) -> u32 {
  let count = ${backward ? `${n}_padded()` : count};
  return select(0u, min(count - t * ${n}_TILE, ${n}_TILE), count > t * ${n}_TILE);
}

// Where invocation (group, lane)'s run of tile t starts, as a physical record, and whether the
// whole run lies before the end (then it moves as ${Q} vec4s of words).
fn ${n}_run_start(tile: u32, group: u32, lane: u32, gsize: u32) -> u32 {
  let first = tile * ${n}_TILE + (group * gsize + lane) * ${K}u;
  return ${backward ? `${n}_padded() - first - ${K}u` : 'first'};
}
fn ${n}_run_whole(start: u32) -> bool {
  return ${backward ? `start < ${n}_padded() && start + ${K}u <= ${count}` : `start + ${K}u <= ${count}`};
}
`;
  if (source.load) {
    const src = source.load;
    bindings[src] = read('array<vec4<u32>>');
    bindings[`${src}_words`] = read('array<u32>');
    const fromWordsAt = (p: string) => source.words.fromWords(Array.from({ length: R }, (_, m) => `${src}_words[${p} * ${R}u + ${m}u]`));
    decls += `
// Logical record i alone, the fill past the end.
fn ${n}_load_item(i: u32) -> ${T} {
  let p = ${physical('i')};
  if (p >= ${count}) { return ${spec.fill}; }
  return ${fromWordsAt('p')};
}

fn ${n}_load(tile: u32, group: u32, lane: u32, gsize: u32) -> array<${T}, ${K}> {
  let start = ${n}_run_start(tile, group, lane, gsize);
  var items: array<${T}, ${K}>;
  if (${n}_run_whole(start)) {
    // The run's words, every vec4 load in flight at once, no guard.
    let v = start * ${R}u / 4u;
${unroll(Q, (q) => `    let w${q} = ${src}[v + ${q}u];`)}
${unroll(K, (k) => `    items[${k}] = ${source.words.fromWords(Array.from({ length: R }, (_, m) => word(recordOf(k), m)))};`)}
  } else {
    // The run that holds the end: record by record, the fill past it.
    let first = tile * ${n}_TILE + (group * gsize + lane) * ${K}u;
${unroll(K, (k) => `    items[${k}] = ${n}_load_item(first + ${k}u);`)}
  }
  return items;
}
`;
  }
  if (source.store) {
    const dst = source.store;
    bindings[dst] = readWrite('array<vec4<u32>>');
    bindings[`${dst}_tail`] = readWrite('array<u32>');
    decls += `
// Word g of the stored records: into its vec4 while the vec4 is whole, else into the tail the plan
// copies out. (The run that holds it is this invocation's alone, vec4s included.)
fn ${n}_store_word(g: u32, w: u32) {
  let whole = ${count} * ${R}u / 4u;
  if (g / 4u < whole) { ${dst}[g / 4u][g % 4u] = w; } else { ${dst}_tail[g - 4u * whole] = w; }
}

fn ${n}_store(tile: u32, items: array<${T}, ${K}>, group: u32, lane: u32, gsize: u32) {
  let start = ${n}_run_start(tile, group, lane, gsize);
  if (${n}_run_whole(start)) {
    let v = start * ${R}u / 4u;
${storeVectors(dst, K, recordOf, source.words)}
  } else {
    // The run that holds the end: only the records before it, word by word.
    let first = tile * ${n}_TILE + (group * gsize + lane) * ${K}u;
${unroll(
  K,
  (k) => `    { let p = ${physical(`(first + ${k}u)`)}; if (p < ${count}) {
${source.words
  .wordsOf(`items[${k}]`)
  .map((w, m) => `      ${n}_store_word(p * ${R}u + ${m}u, ${w});`)
  .join('\n')}
    } }`,
)}
  }
}
`;
  }
  return { decls, bindings };
}

/** The vec4 stores of a whole run: record j's words from the item that lands there. */
function storeVectors(dst: string, K: number, recordOf: (k: number) => number, words: ValueWords): string {
  const flat: string[] = [];
  for (let j = 0; j < K; j++) {
    const k = recordOf(j); // recordOf is its own inverse: item k ↔ physical record j
    flat.push(...words.wordsOf(`items[${k}]`));
  }
  const lines: string[] = [];
  for (let q = 0; q < flat.length / 4; q++) {
    lines.push(`    ${dst}[v + ${q}u] = vec4<u32>(${flat.slice(4 * q, 4 * q + 4).join(', ')});`);
  }
  return lines.join('\n');
}

/**
 * Where a words tile's stored records end up past their whole vec4s (see {@link TileWords}): of
 * `count` records of `words` words, the words after `4·floor(count·words / 4)` (0–3 of them) are
 * left in the kernel's `NAME_tail`, for the plan to copy to `tailWord` words into the records.
 *
 * @example
 * ```ts
 * wordsTail(5, 3); // { tailWord: 12, tailWords: 3 }: 15 words, three whole vec4s
 * ```
 */
export function wordsTail(count: number, words: number): { readonly tailWord: number; readonly tailWords: number } {
  const total = count * words;
  return { tailWord: total - (total % 4), tailWords: total % 4 };
}
