import { type Kernel, LOOK_BACK_STATUS, lookBackCommonWgsl, tileLookBack, unroll, wgslOp } from '@scan/core/kit';
import {
  DIRECT_BINDINGS,
  DIRECT_EXTENSIONS,
  type DirectShape,
  DirectWgsl,
  defineSubgroupMatrixKernel,
  directShapeOf,
} from './direct-common.js';
import { TCU_PARAMS } from './tcu-kernels.js';

/** Specialization of {@link directChainedScanKernel}. */
export type DirectChainedScanSpec = DirectShape & {
  readonly inclusive: boolean;
  /** Reads of a not-ready predecessor before the workgroup reduces its tiles itself. */
  readonly maxSpin: number;
  /** Tiles each subgroup holds in registers, at most S (a unit is W of these blocks). */
  readonly tilesPerSubgroup: number;
  /**
   * Test hook: every predecessor reads as not ready, so each unit sums its predecessors from their
   * input (the fallback) until a segment's first unit ends the walk. Default false.
   */
  readonly forceFallback?: boolean;
};

/**
 * Tiles per unit of {@link directChainedScanKernel}: `tilesPerSubgroup` per subgroup.
 *
 * @example
 * ```ts
 * chainedUnitTiles({ S: 16, SG: 32, syntax: 'template', W: 4, tilesPerSubgroup: 8 }); // 32
 * ```
 */
export const chainedUnitTiles = (d: DirectShape & { readonly tilesPerSubgroup: number }): number => d.tilesPerSubgroup * d.W;

/**
 * Regular segmented scan of f16 tiles for segments longer than one unit, up to the whole array, in
 * one pass: the paper's grid-level scan (Dakkak et al. 2019, §5.3, scan-then-propagate over
 * several launches) replaced by a chained scan with decoupled look-back and fallback (core's
 * look-back, Smith, Levien & Owens 2025) over units of W·B tiles (B = `tilesPerSubgroup`).
 * Workgroups take units in the order they start (a ticket), so the units in flight are neighbours
 * in memory, as in a copy. For each unit:
 *
 * 1. **reduce**: each subgroup loads its B consecutive tiles (column-major), keeps them in
 *    registers for step 4 and accumulates V = P_k·A_k + V (Reduction256N with the rows of V used,
 *    as in the direct reduce); the unit's total is published as an AGGREGATE — or as INCLUSIVE
 *    when the unit starts a segment (`params.parts` units per segment), which is where every
 *    look-back stops;
 * 2. **look-back** over the predecessors' statuses for the unit's carry-in;
 * 3. **fallback**: a predecessor that stays NOT_READY for `maxSpin` reads is reduced from its
 *    input by this workgroup instead;
 * 4. **scan**: each subgroup scans its tiles in order from the unit's carry-in plus the totals of
 *    the subgroups before it: R = L·A per tile, written out with the column carries
 *    ({@link DirectWgsl.writeScannedTile}).
 *
 * Re-reading the tiles in step 4 instead of holding them measured slower on the H100 (0.94 vs
 * 0.75 ms at 2^28, segments of 65536), and so did a strided Scan16N over rows of S² elements with
 * no workgroup memory at all (0.76 ms; its strided rows cost more than the per-tile carries).
 *
 * Bindings: `input`, `output`, `status` (`decoupledFallbackStatusBytes(units)` bytes, zeroed before
 * each dispatch); parameters: `groups` = units, `parts` = units per segment.
 *
 * @example
 * ```ts
 * const kernel = directChainedScanKernel({ S: 16, SG: 32, syntax: 'template', W: 4, inclusive: true, maxSpin: 64, tilesPerSubgroup: 8 });
 * b.clear({ scratch: 'directStatus', offset: 0, size: decoupledFallbackStatusBytes(units) });
 * b.dispatch(kernel, { input, output, status }, units, { n, s, nseg, parts, partLen: 0, nx, groups: units, first: 0 });
 * ```
 */
export function directChainedScanKernel(spec: DirectChainedScanSpec): Kernel<keyof typeof DIRECT_BINDINGS | 'status', typeof TCU_PARAMS> {
  return directChainedScanFamily({
    ...directShapeOf(spec),
    inclusive: spec.inclusive,
    maxSpin: spec.maxSpin,
    tilesPerSubgroup: spec.tilesPerSubgroup,
    forceFallback: spec.forceFallback ?? false,
  });
}

const directChainedScanFamily = defineSubgroupMatrixKernel({
  name: 'tcu/direct-chained-scan',
  bindings: { ...DIRECT_BINDINGS, status: LOOK_BACK_STATUS },
  params: TCU_PARAMS,
  enable: () => DIRECT_EXTENSIONS,
  wgsl: chainedScanWgsl,
});

function chainedScanWgsl(d: DirectChainedScanSpec): string {
  const w = new DirectWgsl(d);
  const { S, SS, SG, W } = w;
  const U = chainedUnitTiles(d);
  const B = d.tilesPerSubgroup;
  const o = wgslOp('add', 'f32');
  // The first subgroup walks back; a stalled unit is summed again by the whole workgroup
  // (unit_total), and the first unit of a segment ends the walk: it published INCLUSIVE, and f32
  // sums are never offered to a status (another order gives other bits).
  const lb = tileLookBack(o, {
    subgroups: true,
    maxSpin: d.maxSpin,
    forceFallback: d.forceFallback,
    fallback: { run: (t) => `let found = unit_total(${t}, sg, lane);`, value: () => 'found', ends: (t) => `${t} % params.parts == 0u` },
  });
  const extra = `${lookBackCommonWgsl('f32')}
${lb.decls}
var<workgroup> cols: array<f32, ${W * SS}>;
var<workgroup> unit_parts: array<f32, ${W}>;

// The unit's total from each subgroup's V: V summed through workgroup memory, then the
// subgroups' sums (left in unit_parts) added in a fixed order.
fn sum_parts(v: subgroup_matrix_result<f32, ${S}, ${S}>, sg: u32, lane: u32) -> f32 {
  ${w.store('cols', `sg * ${SS}u`, 'v', 'row_major')}
  workgroupBarrier();
  var part = 0.0;
  for (var m = 0u; m < ${SS / SG}u; m++) { part += cols[sg * ${SS}u + lane + ${SG}u * m]; }
  part = subgroupAdd(part);
  if (lane == 0u) { unit_parts[sg] = part; }
  workgroupBarrier();
  var total = 0.0;
  for (var i = 0u; i < ${W}u; i++) { total += unit_parts[i]; }
  workgroupBarrier();
  return total;
}

// The total of unit u, read from its input (the fallback): subgroup sg reduces its S tiles into
// the rows of V (P_k·A_k + V).
fn unit_total(u: u32, sg: u32, lane: u32) -> f32 {
  var v = ${w.zero};
  let base = (u * ${U}u + sg * ${B}u) * ${SS}u;
${unroll(B, (k) => `  v = subgroupMatrixMultiplyAccumulate(${w.p(k)}, ${w.tile(`base + ${k * SS}u`)}, v);`)}
  return sum_parts(v, sg, lane);
}`;
  const scanTiles = unroll(
    B,
    (k) => `  {
    ${w.store('cols', 'slot', `subgroupMatrixMultiplyAccumulate(l, a${k}, ${w.zero})`, 'col_major')}
    workgroupBarrier();
${w.writeScannedTile({ slot: 'slot', at: `tile * ${U}u + sg * ${B}u + ${k}u`, inclusive: d.inclusive })}
    carry = subgroupShuffle(offset, ${S - 1}u) + subgroupShuffle(total, ${S - 1}u);
    workgroupBarrier();
  }`,
  );
  return `${w.header(extra)}
${w.entry(false)}
  if (lid == 0u) { wg_tile = atomicAdd(&status[0], 1u); }
  let tile = workgroupUniformLoad(&wg_tile);
  if (tile >= params.groups) { return; }
  let group = sg;
  let gsize = ${SG}u;
  let leader = lid == 0u;
  let head = tile % params.parts == 0u;

  // 1. Reduce this subgroup's S tiles, which stay in registers for step 4, and publish the
  // unit's total: INCLUSIVE for the first unit of a segment, else AGGREGATE.
  let first = (tile * ${U}u + sg * ${B}u) * ${SS}u;
${unroll(B, (k) => `  let a${k} = ${w.tile(`first + ${k * SS}u`)};`)}
  var v = ${w.zero};
${unroll(B, (k) => `  v = subgroupMatrixMultiplyAccumulate(${w.p(k)}, a${k}, v);`)}
  let aggregate = sum_parts(v, sg, lane);
  // This subgroup's carry-in within the unit (the fallback reuses unit_parts).
  var before = 0.0;
  for (var i = 0u; i < ${W}u; i++) { before += select(0.0, unit_parts[i], i < sg); }
  if (leader) {
    wg_aggregate = aggregate;
    if (head) {
      wg_exclusive = 0.0;
      lb_publish(tile, 0u, FLAG_INCLUSIVE, aggregate);
    } else {
      lb_publish(tile, 0u, FLAG_AGGREGATE, aggregate);
    }
  }
  workgroupBarrier();
  if (!head) {
    // 2. Look-back, by the first subgroup.
    ${lb.start}
    // 3. Fallback: reduce a stalled predecessor ourselves; a segment head ends the walk.
    ${lb.finish}
  }

  // 4. Scan: each subgroup its own S tiles in order, from the unit's carry-in plus the totals
  // of the subgroups before it.
  var carry = workgroupUniformLoad(&wg_exclusive) + before;
  let l = ${w.l};
  let slot = sg * ${SS}u;
${scanTiles}
}
`;
}
