import { type Kernel, unroll } from '@scan/core/kit';
import {
  DIRECT_BINDINGS,
  DIRECT_EXTENSIONS,
  type DirectShape,
  DirectWgsl,
  defineSubgroupMatrixKernel,
  directShapeOf,
} from './direct-common.js';
import { TCU_PARAMS } from './tcu-kernels.js';

/** Specialization of {@link directScanKernel}. */
export type DirectScanSpec = DirectShape & {
  /**
   * Tiles per segment (s = segTiles·S²: 1 ≤ segTiles ≤ S dividing S, or any longer segment with
   * `unitTiles` = segTiles), or 0 for segments of S·N elements (see `strided`).
   */
  readonly segTiles: number;
  /** With `segTiles` 0: segments of S·N elements, N = params.s / S read from the parameters (Scan16N); else N = 1. */
  readonly strided?: boolean;
  /** Tiles per unit (one subgroup's share, whole segments, scanned in order). */
  readonly unitTiles: number;
  readonly inclusive: boolean;
};

/**
 * Regular segmented scan of f16 tiles loaded straight from storage (Dakkak et al. 2019, §5), for
 * segments no longer than a unit; each subgroup scans a unit of `unitTiles` tiles in order,
 * loaded column-major (a column is S consecutive elements):
 *
 * - `segTiles` = 0 (s = S, **Scan16**): R = L·A scans every column at once (L lower-triangular,
 *   inclusive, or strict for an exclusive scan) and R is stored column-major straight to `output`.
 *   With `strided` (s = S·N, the paper's **Scan16N**) column j of a tile is the i-th S-element
 *   chunk of segment j (load and store with stride s), and for i = 0 … N − 1: R = L·A + C, stored,
 *   then C = 1·A + C — each column's running sum broadcast down the column by a product (the
 *   paper's broadcast of the last row), so no scalar step at all.
 * - `segTiles` = t ≥ 1 (**Scan256**, and **Scan256N** up to S tiles): R = L·A (inclusive) goes to
 *   workgroup memory and is written out with the column carries ({@link DirectWgsl.writeScannedTile});
 *   the running carry restarts at every segment's first tile. The next tile is loaded before the
 *   current one is written out. With `unitTiles` = `segTiles` > S a unit is one long segment: the
 *   warp-level Scan256N, the carry broadcast from tile to tile through the whole segment.
 *
 * Long segments that are too few to give every subgroup one go to {@link directChainedScanKernel}.
 *
 * @example
 * ```ts
 * const kernel = directScanKernel({ S: 16, SG: 32, syntax: 'template', W: 2, segTiles: 1, unitTiles: 16, inclusive: true });
 * b.dispatch(kernel, { input, output }, Math.ceil(units / 2), { n, s, nseg, parts: 1, partLen: 0, nx, groups: units, first: 0 });
 * ```
 */
export function directScanKernel(spec: DirectScanSpec): Kernel<keyof typeof DIRECT_BINDINGS, typeof TCU_PARAMS> {
  return directScanFamily({
    ...directShapeOf(spec),
    segTiles: spec.segTiles,
    strided: spec.strided === true,
    unitTiles: spec.unitTiles,
    inclusive: spec.inclusive,
  });
}

const directScanFamily = defineSubgroupMatrixKernel({
  name: 'tcu/direct-scan',
  bindings: DIRECT_BINDINGS,
  params: TCU_PARAMS,
  enable: () => DIRECT_EXTENSIONS,
  wgsl: directScanWgsl,
});

function directScanWgsl(d: DirectScanSpec): string {
  const w = new DirectWgsl(d);
  const { S, SS, W } = w;
  const { segTiles, unitTiles } = d;
  if (segTiles === 0 && d.strided) {
    const units = unroll(
      unitTiles,
      (k) => `  {
    let base = (unit * ${unitTiles}u + ${k}u) * ${S}u * params.s;
    var c = ${w.zero};
    for (var i = 0u; i < params.s / ${S}u; i++) {
      let a = ${w.tile(`base + i * ${S}u`, 'params.s')};
      ${w.store('output', `base + i * ${S}u`, 'subgroupMatrixMultiplyAccumulate(l, a, c)', 'col_major', 'params.s')}
      c = subgroupMatrixMultiplyAccumulate(ones, a, c);
    }
  }`,
    );
    return `${w.prologue({ strictL: !d.inclusive })}
  let l = ${w.l};
  let ones = ${w.ones};
${units}
}
`;
  }
  if (segTiles === 0) {
    const tiles = unroll(
      unitTiles,
      (k) =>
        `  ${w.store('output', `base + ${k * SS}u`, `subgroupMatrixMultiplyAccumulate(l, ${w.tile(`base + ${k * SS}u`)}, ${w.zero})`, 'col_major')}`,
    );
    return `${w.prologue({ strictL: !d.inclusive })}
  let l = ${w.l};
  let base = unit * ${unitTiles * SS}u;
${tiles}
}
`;
  }
  return `${w.prologue({ strictL: false, extra: `var<workgroup> cols: array<f32, ${W * SS}>;` })}
  let l = ${w.l};
  let first = unit * ${unitTiles}u;
  let slot = sg * ${SS}u;
  var carry = 0.0;
  var a = ${w.tile(`first * ${SS}u`)};
  for (var t = 0u; t < ${unitTiles}u; t++) {
    ${w.store('cols', 'slot', `subgroupMatrixMultiplyAccumulate(l, a, ${w.zero})`, 'col_major')}
    a = ${w.tile(`(first + min(t + 1u, ${unitTiles - 1}u)) * ${SS}u`)};
    workgroupBarrier();
    if (t % ${segTiles}u == 0u) { carry = 0.0; }
${w.writeScannedTile({ slot: 'slot', at: 'first + t', inclusive: d.inclusive })}
    carry = subgroupShuffle(offset, ${S - 1}u) + subgroupShuffle(total, ${S - 1}u);
    workgroupBarrier();
  }
}
`;
}
