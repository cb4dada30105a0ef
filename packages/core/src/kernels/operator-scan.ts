import { operatorOfKey } from '../operators/define-operator.js';
import { operatorBlockOp } from '../operators/operator-block-op.js';
import { composeBlocks } from './blocks/block.js';
import { blockReduce } from './blocks/block-reduce.js';
import { blockScan } from './blocks/block-scan.js';
import { tileIo } from './blocks/tile-io.js';
import { LOOK_BACK_STATUS } from './decoupled-look-back.js';
import { defineKernel, readWrite } from './define-kernel.js';
import type { BlockOp } from './group-scan.js';
import { operatorTileSource } from './operator-tile-source.js';
import { singlePassScanWgsl } from './single-pass-scan.js';

/** What the single-pass scan of an operator's records is specialized on (plain data). */
export interface OperatorScanSpec {
  /** The operator's content key (`Operator.key`): its WGSL is looked up, so pipelines are shared by content. */
  readonly opKey: string;
  readonly inclusive: boolean;
  /** Scan from the last record to the first; operands still combine in array order. */
  readonly backward: boolean;
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  /** Records per invocation, K: a tile is `workgroupSize × K` records. */
  readonly itemsPerThread: number;
  /** Reads of a predecessor that is not ready before the fallback reduces it. */
  readonly maxSpin: number;
  /** Test hook: every predecessor reads as not ready. */
  readonly forceFallback?: boolean;
}

/** The parameters: records in this dispatch's range, its tiles, and where its carries are (`NONE`: none). */
export const OPERATOR_SCAN_PARAMS = { count: 'u32', tiles: 'u32', carry_in: 'u32', carry_out: 'u32' } as const;

/**
 * The operator as the scan combines it. Backward, the kernel reads its range from the end (the
 * paper's reversed read), so a forward block scan meets the records last first; combining them
 * with the operands swapped, `b ⊕ a`, puts every combination back in array order
 * (`out[i] = x(i) ⊕ … ⊕ x(n−1)`), which an operator that does not commute needs.
 */
export function scanOrderOp(op: BlockOp, backward: boolean): BlockOp {
  if (!backward || op.commutative !== false) return op;
  return { ...op, combine: (a, b) => op.combine(b, a) };
}

/**
 * The single-pass scan of a user-defined operator over an array of its records (any scalar, vector
 * or record type): the kit's single-pass scan ({@link singlePassScanWgsl}: Merrill & Garland's
 * decoupled look-back with the fallback of Smith, Levien & Owens, from the blocks) over the records
 * themselves, stored by the tile store. The last tile writes `prefix ⊕ aggregate` to
 * `carry[carry_out]`, and a later dispatch starts from `carry[carry_in]`: chunks of more records
 * than one binding holds.
 *
 * Bindings: `src` and `dst` (the records as `array<vec4<u32>>`, with the `array<u32>` views
 * `src_words` and `dst_words` of the same buffers; f16: `array<f16>`, no views), `carry`
 * (`array<T>`, two records), `status`.
 *
 * @example
 * ```ts
 * const affine = defineOperator({ type: { a: 'f32', b: 'f32' }, identity: { a: 1, b: 0 },
 *   wgsl: 'var r = b; r.a = a.a * b.a; r.b = a.b * b.a + b.b; return r;',
 *   cpu: (x, y) => ({ a: x.a * y.a, b: x.b * y.a + y.b }) });
 * const kernel = operatorScanKernel({ opKey: affine.key, inclusive: true, backward: false,
 *   subgroups: true, workgroupSize: 256, itemsPerThread: 4, maxSpin: 64 });
 * ```
 */
export const operatorScanKernel = defineKernel({
  name: 'core/operator-scan',
  bindings: (spec: OperatorScanSpec) => {
    // src and dst, with their words views (src_words, dst_words) unless the records are f16.
    return { ...blocksOf(spec).needs.bindings, carry: readWrite(`array<${operatorOfKey(spec.opKey).wgslType}>`), status: LOOK_BACK_STATUS };
  },
  params: OPERATOR_SCAN_PARAMS,
  enable: (spec) => [...new Set([...blocksOf(spec).needs.enable, ...operatorOfKey(spec.opKey).enable])],
  wgsl: (spec) => operatorScanWgsl(spec),
});

/** The blocks of one specialization. */
function blocksOf(spec: OperatorScanSpec) {
  const op = operatorOfKey(spec.opKey);
  const o = scanOrderOp(operatorBlockOp(op), spec.backward);
  const WG = spec.workgroupSize;
  const K = spec.itemsPerThread;
  // Blocked: each invocation holds a run of K consecutive records, so the block scan takes one
  // subgroup step per tile for an operator that does not commute (striped items would take K).
  const shape = { workgroupSize: WG, itemsPerThread: K, arrangement: 'blocked' } as const;
  const io = tileIo({
    name: 'tile',
    // A record's WGSL type (a struct or vector); tileIo's element path only names it.
    type: op.wgslType as 'u32',
    ...shape,
    backward: spec.backward,
    fill: o.identity,
    source: operatorTileSource(op, { load: 'src', store: 'dst' }),
  });
  const scan = blockScan({ name: 'block', op: o, subgroups: spec.subgroups, ...shape });
  // The fallback's reduce: one record per invocation at a time, in the tile's order.
  const stalled = blockReduce({ name: 'stalled', op: o, subgroups: spec.subgroups, workgroupSize: WG, result: 'leader' });
  return { op, o, io, scan, stalled, needs: composeBlocks(io, scan, stalled) };
}

function operatorScanWgsl(spec: OperatorScanSpec): string {
  const { op, o, io, scan, stalled, needs } = blocksOf(spec);
  return singlePassScanWgsl({
    prelude: op.declarations,
    op: o,
    io,
    scan,
    stalled,
    needs,
    subgroups: spec.subgroups,
    workgroupSize: spec.workgroupSize,
    itemsPerThread: spec.itemsPerThread,
    maxSpin: spec.maxSpin,
    forceFallback: spec.forceFallback,
    inclusive: spec.inclusive,
    finish: `  ${io.store('tile', 'scanned')}`,
  });
}
