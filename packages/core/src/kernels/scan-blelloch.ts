import type { ElementType, ScanOp } from '../element-types.js';
import { ScanError } from '../errors.js';
import { positionWgsl, type TileArrangement } from './blocks/arrangement.js';
import { composeBlocks, type WgslBlock } from './blocks/block.js';
import { tileIo } from './blocks/tile-io.js';
import { type BindingDecl, defineKernel, read, readWrite } from './define-kernel.js';
import {
  AUX_TAIL_OUT,
  LINEAR_WORKGROUP_WGSL,
  SLOT_PARAMS,
  scratchSlotBindings,
  scratchSlotFunctionsWgsl,
  slotBindings,
  slotFunctionsWgsl,
} from './slots.js';
import { unroll } from './unroll.js';
import { wgslOp } from './wgsl-ops.js';

/**
 * Which array a multi-pass kernel scans: `'chunk'` is the caller's data seen through the slot view
 * of `slotFunctionsWgsl` (any length, either direction, tail staged in aux); `'sums'` is a plain scratch
 * array of block sums in scan order (forward, no mapping), which the recursion scans in place.
 */
export type ScanLevel = 'chunk' | 'sums';

/** The tile load and store of a multi-pass kernel, at either {@link ScanLevel}. */
export interface LevelTile extends WgslBlock {
  /** `NAME_load(tile, group, lane, gsize)`: this invocation's K vec4 slots of `tile`. */
  load(tile: string, group?: string, lane?: string, gsize?: string): string;
  /** `NAME_store(tile, items, group, lane, gsize);`: stores them (slots past the end are not stored). */
  store(tile: string, items: string, group?: string, lane?: string, gsize?: string): string;
}

/** What {@link levelTile} is specialized on. */
export interface LevelTileSpec {
  /** Prefix of its WGSL names. */
  readonly name: string;
  readonly type: ElementType;
  /** What a slot past the end reads as (the identity). */
  readonly identity: string;
  readonly workgroupSize: number;
  /** vec4 slots per invocation, K. */
  readonly slotsPerThread: number;
  readonly arrangement: TileArrangement;
  readonly level: ScanLevel;
  /** `'chunk'` only (the sums level is forward and unmapped). */
  readonly backward: boolean;
  /** `'chunk'` only. */
  readonly mapInput: 'none' | 'not';
  /** Declares the store (and at the `'chunk'` level `dst`). */
  readonly writes: boolean;
  /** Declares `load_carry_in` and `store_carry_out`. */
  readonly carry: boolean;
}

/**
 * The tile load and store of the multi-pass kernels: `workgroupSize × slotsPerThread` vec4 slots per
 * tile in `arrangement`. At the `'chunk'` level it is the kit's tile block (`tileIo` over the slot
 * view: a whole tile unguarded, the partial last one through the checked accessors); at the
 * `'sums'` level the same calls over the scratch slot view (`scratchSlotFunctionsWgsl`), which
 * `tileIo` does not offer, every slot through its checked `load_slot`/`store_slot` as before.
 *
 * @example
 * ```ts
 * const io = levelTile({ name: 'io', type: 'u32', identity: '0u', workgroupSize: 256, slotsPerThread: 2,
 *   arrangement: 'striped', level: 'sums', backward: false, mapInput: 'none', writes: true, carry: true });
 * const wgsl = `${composeBlocks(io).decls} … let items = ${io.load('tile', '0u', 'lid', '256u')}; …`;
 * ```
 */
export function levelTile(spec: LevelTileSpec): LevelTile {
  const { name: n, type: T, workgroupSize: WG, slotsPerThread: K, arrangement } = spec;
  if (spec.level === 'chunk') {
    return tileIo({
      name: n,
      type: T,
      workgroupSize: WG,
      itemsPerThread: K,
      arrangement,
      backward: spec.backward,
      fill: spec.identity,
      source: { kind: 'slots', writes: spec.writes, carry: spec.carry, mapInput: spec.mapInput },
    });
  }
  const I = `vec4<${T}>`;
  const pos = (k: number) => positionWgsl(arrangement, WG, K, `${k}u`);
  const args = (group = 'group', lane = 'lane', gsize = 'gsize') => `${group}, ${lane}, ${gsize}`;
  const bindings: Record<string, BindingDecl> = {};
  for (const [name, decl] of Object.entries(scratchSlotBindings({ type: T, writes: spec.writes, carry: spec.carry }))) {
    if (decl) bindings[name] = decl;
  }
  const decls = `${scratchSlotFunctionsWgsl({ type: T, identity: spec.identity, writes: spec.writes, carry: spec.carry })}
const ${n}_TILE: u32 = ${WG * K}u;   // vec4 slots per tile

fn ${n}_load(tile: u32, group: u32, lane: u32, gsize: u32) -> array<${I}, ${K}> {
  let base = tile * ${n}_TILE;
  var items: array<${I}, ${K}>;
${unroll(K, (k) => `  items[${k}] = load_slot(base + ${pos(k)});`)}
  return items;
}
${
  spec.writes
    ? `
fn ${n}_store(tile: u32, items: array<${I}, ${K}>, group: u32, lane: u32, gsize: u32) {
  let base = tile * ${n}_TILE;
${unroll(K, (k) => `  store_slot(base + ${pos(k)}, items[${k}]);`)}
}
`
    : ''
}`;
  return {
    name: n,
    decls,
    workgroupBytes: 0,
    bindings,
    enable: [],
    load: (tile, group, lane, gsize) => `${n}_load(${tile}, ${args(group, lane, gsize)})`,
    store: (tile, items, group, lane, gsize) => {
      if (!spec.writes) throw new Error(`internal error: tile "${n}" has no store`);
      return `${n}_store(${tile}, ${items}, ${args(group, lane, gsize)});`;
    },
  };
}

/** What the Blelloch kernels are specialized on. */
export type BlellochSpec = {
  readonly type: ElementType;
  readonly op: ScanOp;
  /** Ignored (always exclusive) at the `'sums'` level. */
  readonly inclusive: boolean;
  /** Ignored (always forward) at the `'sums'` level. */
  readonly backward: boolean;
  /** Ignored (always `'none'`) at the `'sums'` level. */
  readonly mapInput: 'none' | 'not';
  /** Invocations per workgroup; a power of two. A block is `2 × workgroupSize` vec4 slots. */
  readonly workgroupSize: number;
  readonly level: ScanLevel;
};

/** vec4 slots of one Blelloch block: each invocation holds two (the paper's "two elements"). */
export function blellochBlockSlots(workgroupSize: number): number {
  return 2 * workgroupSize;
}

/** log2 of the shared-memory banks the padding is laid out for (32 banks of 4 bytes, as in the paper). */
const LOG_NUM_BANKS = 5;

function checkWorkgroupSize(workgroupSize: number): void {
  if (!Number.isInteger(workgroupSize) || workgroupSize < 1 || (workgroupSize & (workgroupSize - 1)) !== 0) {
    throw new ScanError('INVALID_ARGUMENT', `blelloch: workgroupSize = ${workgroupSize}: the scan tree needs a power of two`, {
      argument: 'spec.workgroupSize',
    });
  }
}

/**
 * The paper's per-block work-efficient scan (Sengupta et al. 2007, §2.1, Algorithms 1 and 2):
 * **reduce (up-sweep)** then **down-sweep** over one block in workgroup memory.
 *
 * Each invocation holds two vec4 slots of the block (slot `lid` and slot `lid + workgroupSize`),
 * scans each vec4 serially in registers, and puts the two vec4 totals at the leaves of a
 * `2 × workgroupSize`-leaf tree in workgroup memory. Tree indices are padded by one word every 32
 * (`conflict_free(i) = i + (i >> 5)`), the paper's bank-conflict avoidance: without it the strided
 * accesses of the deep tree levels all land in the same bank.
 *
 * Where Algorithm 2 line 1 clears the root, the root gets the block's seed: the carry from the
 * previous chunk when the array is one block (`params.tiles == 1`, the last recursion level, which
 * also publishes the carry-out), else the identity, the block total going to `block_sums` for the
 * next level and the carry coming in later through {@link blellochUniformAddKernel}.
 *
 * Bindings, `'chunk'`: the slot view's `src`, `dst`, `aux`, and `block_sums`.
 * `'sums'`: `data` (scanned in place), `block_sums`, `aux`. Parameters {@link SLOT_PARAMS}.
 *
 * @example
 * ```ts
 * const k = blellochScanKernel({ type: 'u32', op: 'add', inclusive: false, backward: false, mapInput: 'none', workgroupSize: 256, level: 'chunk' });
 * b.dispatch(k, { src: input, dst: output, aux, block_sums: sums }, blocks, params);
 * ```
 */
export function blellochScanKernel(spec: BlellochSpec) {
  checkWorkgroupSize(spec.workgroupSize);
  // The sums level is always a forward exclusive scan without mapping: one kernel for every scan.
  return blellochScan(spec.level === 'chunk' ? spec : { ...spec, inclusive: false, backward: false, mapInput: 'none' });
}

const blellochScan = defineKernel({
  name: 'core/scan-blelloch',
  bindings: (spec: BlellochSpec) =>
    spec.level === 'chunk'
      ? { ...slotBindings({ type: spec.type, writes: true }), data: undefined, block_sums: readWrite(`array<${spec.type}>`) }
      : {
          src: undefined,
          dst: undefined,
          ...scratchSlotBindings({ type: spec.type, writes: true, carry: true }),
          block_sums: readWrite(`array<${spec.type}>`),
        },
  params: SLOT_PARAMS,
  wgsl: (spec) => blellochScanWgsl(spec),
});

function blellochScanWgsl(spec: BlellochSpec): string {
  const o = wgslOp(spec.op, spec.type);
  const T = spec.type;
  const V = `vec4<${T}>`;
  const WG = spec.workgroupSize;
  const B = blellochBlockSlots(WG);
  const c = o.combine;
  const chunk = spec.level === 'chunk';
  const inclusive = chunk && spec.inclusive;
  // The block's two slots per invocation, striped: slot lid and slot lid + WG (the kernel uses no
  // subgroups, so the workgroup is one group and an invocation's rank is lid).
  const io = levelTile({
    name: 'io',
    type: T,
    identity: o.identity,
    workgroupSize: WG,
    slotsPerThread: 2,
    arrangement: 'striped',
    level: spec.level,
    backward: spec.backward,
    mapInput: spec.mapInput,
    writes: true,
    carry: true,
  });
  const rank = ['0u', 'lid', `${WG}u`] as const;
  // The tree stays the paper's: a block scan (Kogge–Stone over groups) would be another algorithm,
  // and a block reduce keeps no tree for the down-sweep.
  return `${composeBlocks(io).decls}
${LINEAR_WORKGROUP_WGSL}

const WG: u32 = ${WG}u;
const BLOCK_SLOTS: u32 = ${B}u;
const LOG_NUM_BANKS: u32 = ${LOG_NUM_BANKS}u;

// The tree over the block's vec4 totals, one pad word per 32 (see conflict_free).
var<workgroup> tree: array<${T}, ${B + (B >> LOG_NUM_BANKS)}>;

// The paper's bank-conflict avoidance: index i moves up by one word per 32, so the 2^d-strided
// accesses of the up- and down-sweep spread over the banks instead of hitting one.
fn conflict_free(i: u32) -> u32 { return i + (i >> LOG_NUM_BANKS); }

// Serial inclusive scan inside one vec4.
fn scan4(v: ${V}) -> ${V} {
  var x = v;
  x.y = ${c('x.x', 'x.y')};
  x.z = ${c('x.y', 'x.z')};
  x.w = ${c('x.z', 'x.w')};
  return x;
}

// The output of a slot from its exclusive prefix p and its in-vec4 inclusive scan x.
fn finish(p: ${T}, x: ${V}) -> ${V} {
  ${inclusive ? `return ${c(`${V}(p)`, 'x')};` : `return ${V}(p, ${c('p', 'x.x')}, ${c('p', 'x.y')}, ${c('p', 'x.z')});`}
}

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let block = linear_workgroup(wid);
  if (block >= params.tiles) { return; }

  // Tile load: two slots per invocation, one in each half of the block (slot lid and lid + WG):
  // consecutive invocations read consecutive vec4s, and the leaves they write are conflict-free.
  let ai = lid;
  let bi = lid + WG;
  let items = ${io.load('block', ...rank)};
  let a = scan4(items[0]);
  let b = scan4(items[1]);
  tree[conflict_free(ai)] = a.w;
  tree[conflict_free(bi)] = b.w;

  // Reduce (up-sweep), Algorithm 1: level d combines pairs 2^d apart; the root ends with the total.
  var offset = 1u;
  for (var d = BLOCK_SLOTS >> 1u; d > 0u; d = d >> 1u) {
    workgroupBarrier();
    if (lid < d) {
      let i = conflict_free(offset * (2u * lid + 1u) - 1u);
      let j = conflict_free(offset * (2u * lid + 2u) - 1u);
      tree[j] = ${c('tree[i]', 'tree[j]')};
    }
    offset = offset << 1u;
  }
  workgroupBarrier();

  // Algorithm 2 line 1, with the seed in place of 0.
  if (lid == 0u) {
    let root = conflict_free(BLOCK_SLOTS - 1u);
    let total = tree[root];
    var seed = ${o.identity};
    if (params.tiles == 1u) {
      seed = load_carry_in();
      store_carry_out(${c('seed', 'total')});
    } else {
      block_sums[block] = total;
    }
    tree[root] = seed;
  }

  // Down-sweep, Algorithm 2: each node passes its prefix to its left child and prefix ⊕ left
  // subtree to its right child; the leaves end with their exclusive prefixes.
  for (var d = 1u; d < BLOCK_SLOTS; d = d << 1u) {
    offset = offset >> 1u;
    workgroupBarrier();
    if (lid < d) {
      let i = conflict_free(offset * (2u * lid + 1u) - 1u);
      let j = conflict_free(offset * (2u * lid + 2u) - 1u);
      let left = tree[i];
      tree[i] = tree[j];
      tree[j] = ${c('tree[j]', 'left')};
    }
  }
  workgroupBarrier();

  // Tile store.
  var out: array<${V}, 2>;
  out[0] = finish(tree[conflict_free(ai)], a);
  out[1] = finish(tree[conflict_free(bi)], b);
  ${io.store('block', 'out', ...rank)}
}
`;
}

/**
 * The paper's **uniform add**: combines every element of block `j` with `block_prefix[j]`, the
 * exclusive scan of the block sums (which already starts from the chunk's carry-in). One workgroup
 * per block, two slots per invocation like {@link blellochScanKernel}; the same value goes into
 * every lane, so the pass needs no element order, only which block a vec4 belongs to.
 *
 * Bindings, `'chunk'`: `block_prefix`, and the slot view's `dst` and `aux` (the staged tail; no
 * `src`). `'sums'`: `block_prefix`, `data`. Parameters {@link SLOT_PARAMS}.
 *
 * @example
 * ```ts
 * const k = blellochUniformAddKernel({ type: 'f32', op: 'max', backward: true, workgroupSize: 256, level: 'chunk' });
 * b.dispatch(k, { block_prefix: sums, dst: output, aux }, blocks, params);
 * ```
 */
export function blellochUniformAddKernel(spec: BlellochUniformAddSpec) {
  checkWorkgroupSize(spec.workgroupSize);
  // Only these fields (a whole BlellochSpec may be given); the sums level is always forward.
  return blellochUniformAdd({
    type: spec.type,
    op: spec.op,
    backward: spec.level === 'chunk' && spec.backward,
    workgroupSize: spec.workgroupSize,
    level: spec.level,
  });
}

/** What the uniform add is specialized on. */
export type BlellochUniformAddSpec = Pick<BlellochSpec, 'type' | 'op' | 'backward' | 'workgroupSize' | 'level'>;

const blellochUniformAdd = defineKernel({
  name: 'core/scan-blelloch-uniform-add',
  bindings: (spec: BlellochUniformAddSpec) =>
    spec.level === 'chunk'
      ? { block_prefix: read(`array<${spec.type}>`), ...slotBindings({ type: spec.type, reads: false, writes: true }), data: undefined }
      : {
          block_prefix: read(`array<${spec.type}>`),
          src: undefined,
          dst: undefined,
          ...scratchSlotBindings({ type: spec.type, writes: true, carry: false }),
        },
  params: SLOT_PARAMS,
  wgsl: (spec) => blellochUniformAddWgsl(spec),
});

function blellochUniformAddWgsl(spec: BlellochUniformAddSpec): string {
  const o = wgslOp(spec.op, spec.type);
  const T = spec.type;
  const V = `vec4<${T}>`;
  const WG = spec.workgroupSize;
  const B = blellochBlockSlots(WG);
  const c = o.combine;
  if (spec.level === 'sums') {
    return `${scratchSlotFunctionsWgsl({ type: T, identity: o.identity, writes: true, carry: false })}

${LINEAR_WORKGROUP_WGSL}

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let block = linear_workgroup(wid);
  if (block >= params.tiles) { return; }
  let p = block_prefix[block];
  let base = block * ${4 * B}u;
  for (var k = 0u; k < ${(4 * B) / WG}u; k++) {
    let e = base + k * ${WG}u + lid;
    if (e < params.count) { data[e] = ${c('p', 'data[e]')}; }
  }
}
`;
  }
  // Not a tile block: the pass reads back and rewrites the output (dst, or the tail staged out in
  // aux), which tileIo, loading from src, does not do.
  const physical = spec.backward ? 'params.slots - 1u - s' : 's';
  return `${slotFunctionsWgsl({ type: T, identity: o.identity, backward: spec.backward, reads: false, writes: true })}

${LINEAR_WORKGROUP_WGSL}

// Combines p into logical output slot s, wherever store_slot put it (dst, or the tail in aux).
fn add_to_slot(s: u32, p: ${T}) {
  if (s >= params.slots) { return; }
  let v = ${physical};
  if (v < params.full_vecs) {
    dst[v] = ${c(`${V}(p)`, 'dst[v]')};
  } else {
    let r = params.count - 4u * params.full_vecs;
    for (var i = 0u; i < r; i++) {
      aux[${AUX_TAIL_OUT}u + i] = bitcast<u32>(${c('p', `bitcast<${T}>(aux[${AUX_TAIL_OUT}u + i])`)});
    }
  }
}

@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let block = linear_workgroup(wid);
  if (block >= params.tiles) { return; }
  let p = block_prefix[block];
  let base = block * ${B}u;
  add_to_slot(base + lid, p);
  add_to_slot(base + lid + ${WG}u, p);
}
`;
}
