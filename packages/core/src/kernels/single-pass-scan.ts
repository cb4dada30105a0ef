import type { ComposedBlocks } from './blocks/block.js';
import type { BlockReduceBlock } from './blocks/block-reduce.js';
import type { BlockScanBlock } from './blocks/block-scan.js';
import type { TileIoBlock } from './blocks/tile-io.js';
import { lookBackCommonWgsl, TAKE_TILE_WGSL, tileLookBack } from './decoupled-look-back.js';
import { type BlockOp, groupIdentityWgsl } from './group-scan.js';
import { unroll } from './unroll.js';

/** The pieces a single-pass scan kernel is made of ({@link singlePassScanWgsl}). */
export interface SinglePassScanParts {
  /** Module-scope WGSL before the blocks: the operator's declarations, the kernel's own helpers. */
  readonly prelude: string;
  /** The operator of the scanned items (their type, combine and identity), in the scan's order. */
  readonly op: BlockOp;
  /** The tile load (`load` and `load_item` of the records; binding `src`), arranged as `scan`. */
  readonly io: TileIoBlock;
  /** The block scan of the items, with its up-sweep and down-sweeps. */
  readonly scan: BlockScanBlock;
  /** The fallback's block reduce, one item per invocation, its result in the leader. */
  readonly stalled: BlockReduceBlock;
  /** The blocks composed (their declarations). */
  readonly needs: ComposedBlocks;
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  readonly itemsPerThread: number;
  readonly maxSpin: number;
  readonly forceFallback?: boolean | undefined;
  /** Inclusive results (else exclusive, the identity first). */
  readonly inclusive: boolean;
  /** The scanned item of logical record `i` of the range, loaded as `x` (WGSL); default `x` itself. */
  readonly itemOf?: (i: string, x: string) => string;
  /**
   * The main path's items from the loaded tile, when they need more than `itemOf` sees (the
   * fallback still uses `itemOf`): `setup`, statements after the tile load (`records`) in uniform
   * control flow, so they may call blocks (a block discontinuity over the tile's keys), and
   * `item(k, x)`, the item of this invocation's record k loaded as `x`. Names `setup` declares are
   * visible to `finish`.
   */
  readonly tileItems?: { readonly setup: string; readonly item: (k: number, x: string) => string };
  /**
   * Statements after the tile's prefix is combined into `scanned` (`array<item, K>`, item k at
   * logical position `tile * tile_TILE + tile_position(k, …)`): the stores.
   */
  readonly finish: string;
}

/**
 * The WGSL of a single-pass scan of any operator's items, as Merrill & Garland's decoupled
 * look-back with the fallback of Smith, Levien & Owens, over the kit's blocks: per tile, tile load
 * → the items (`itemOf`) → block scan's **up-sweep** (the tile aggregate, published at once, so
 * successors look past this tile sooner) → **look-back** (the tile's exclusive prefix) →
 * **down-sweep** (the scan within the tile, in registers) → **fallback** (a stalled predecessor's
 * records reduced by the whole workgroup, a record at a time) → the **prefix** before every item →
 * `finish` (the stores). A range of records starts from `carry[params.carry_in]` (or the identity
 * with `NONE`) and its last tile leaves `prefix ⊕ aggregate` in `carry[params.carry_out]`: arrays
 * of more records than one binding holds. One generator for every kernel of this shape (core's
 * scan of user-defined operators, segmented's scan and reduction of their pairs).
 *
 * Expects the bindings `src` (through `io`), `carry` (`array<op.type>`), `status`, and the
 * parameters `count`, `tiles`, `carry_in`, `carry_out`.
 *
 * @example
 * ```ts
 * const wgsl = singlePassScanWgsl({ prelude: op.declarations, op: o, io, scan: blockScanOfTile, stalled,
 *   needs: composeBlocks(io, blockScanOfTile, stalled),
 *   subgroups: true, workgroupSize: 256, itemsPerThread: 4, maxSpin: 64, inclusive: true,
 *   finish: io.store('tile', 'scanned') });
 * ```
 */
export function singlePassScanWgsl(parts: SinglePassScanParts): string {
  const { op: o, io, scan, stalled, needs } = parts;
  const T = o.type;
  const K = parts.itemsPerThread;
  const c = o.combine;
  const itemOf = parts.itemOf ?? ((_i: string, x: string) => x);
  const id = groupIdentityWgsl(parts.subgroups, parts.workgroupSize);
  const lb = tileLookBack(o, {
    subgroups: parts.subgroups,
    maxSpin: parts.maxSpin,
    forceFallback: parts.forceFallback,
    beforeFirst: 'load_carry_in()',
    fallback: { run: (t) => `let found = tile_reduce(${t}, group, lane, gsize);`, value: () => 'found' },
  });
  const downsweep = parts.inclusive ? scan.inclusiveDownsweep('items') : scan.exclusiveDownsweep('items');
  const at = (k: number) => `tile * tile_TILE + ${io.position(`${k}u`)}`;
  return `${parts.prelude}
${needs.decls}
${id.decls}
${lookBackCommonWgsl(T)}
${lb.decls}

// The carry of the previous range (records before it in the scan's order), or the identity.
fn load_carry_in() -> ${T} {
  var c = ${o.identity};
  if (params.carry_in != NONE) { c = carry[params.carry_in]; }
  return c;
}

// Reduces tile t's items with the whole workgroup (the fallback): each invocation combines its run
// of ${K} consecutive records, then the block reduce combines the runs in order; valid in the leader.
fn tile_reduce(t: u32, group: u32, lane: u32, gsize: u32) -> ${T} {
  var acc = ${o.identity};
  let first = t * tile_TILE + (group * gsize + lane) * ${K}u;
  for (var k = 0u; k < ${K}u; k++) {
    acc = ${c('acc', itemOf('first + k', io.loadItem('first + k')))};
  }
  return ${stalled.reduce('acc')};
}

@compute @workgroup_size(${parts.workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32${id.builtins}) {
  ${TAKE_TILE_WGSL}
  ${id.body}
  let leader = group == 0u && lane == 0u;

  // 1. Tile load, and the items scanned.
  let records = ${io.load('tile')};
${parts.tileItems ? `${parts.tileItems.setup}\n` : ''}  var items: array<${T}, ${K}>;
${unroll(K, (k) => `  items[${k}] = ${parts.tileItems ? parts.tileItems.item(k, `records[${k}]`) : itemOf(at(k), `records[${k}]`)};`)}
  // 2. Up-sweep: the tile aggregate, published before the tile is scanned.
  let aggregate = ${scan.upsweepItems('items')};
  if (leader) {
    wg_aggregate = aggregate;
    if (tile == 0u) {
      let carry_in = load_carry_in();
      wg_exclusive = carry_in;
      lb_publish(0u, 0u, FLAG_INCLUSIVE, ${c('carry_in', 'aggregate')});
    } else {
      ${lb.aggregate('aggregate')}
    }
  }
  workgroupBarrier();   // the groups' offsets, before the down-sweep reads them

  // 3. Look-back, first attempt.
${lb.start}

  // 4. Down-sweep: the scan within the tile, in registers.
  var scanned = ${downsweep};

  // 5. Fallback: while the look-back is stuck on a predecessor that is not ready, the workgroup
  // reduces that predecessor's records itself and the walk resumes past it.
  ${lb.finish}
  workgroupBarrier();

  // 6. The tile's prefix before every item, then the stores.
  let prefix = wg_exclusive;
${unroll(K, (k) => `  scanned[${k}] = ${c('prefix', `scanned[${k}]`)};`)}
${parts.finish}
  if (tile == params.tiles - 1u && leader && params.carry_out != NONE) {
    carry[params.carry_out] = ${c('prefix', 'wg_aggregate')};
  }
}
`;
}
