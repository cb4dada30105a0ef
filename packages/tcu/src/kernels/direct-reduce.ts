import { type Kernel, unroll } from '@scan/core/kit';
import {
  DIRECT_BINDINGS,
  DIRECT_EXTENSIONS,
  type DirectShape,
  DirectWgsl,
  defineSubgroupMatrixKernel,
  directShapeOf,
  laneSumsWgsl,
} from './direct-common.js';
import { TCU_PARAMS } from './tcu-kernels.js';

/** Specialization of {@link directReduceKernel}. */
export type DirectReduceSpec = DirectShape & {
  /** Tiles per segment (s = segTiles·S²), or 0 for segments of S·N elements (tile columns; see `strided`). */
  readonly segTiles: number;
  /** With `segTiles` 0: segments of S·N elements, N = params.s / S read from the parameters (Reduction16N); else N = 1. */
  readonly strided?: boolean;
  /**
   * With `segTiles` 0: segments of S·N elements, N ≥ S, reduced by the paper's coalesced
   * **Reduction16N** (Algorithm 3): a unit is S segments, see {@link directReduceKernel}.
   */
  readonly coalesced?: boolean;
  /** Tiles per unit: S, or a multiple of S dividing `segTiles` when segments are longer than S tiles. */
  readonly unitTiles: number;
};

/**
 * Regular segmented reduction of f16 tiles loaded straight from storage (Dakkak et al. 2019, §4:
 * **Reduction16**, **Reduction256** and the work-efficient **Reduction256N**, on whole tiles).
 * Each subgroup owns a unit of tiles, loaded column-major (a column is S consecutive elements),
 * and accumulates V = P_k·A_k + V, P_k having ones in row k only: row k of V collects the column
 * sums of tile k (mod S). This is the paper's V = P·A + V with all S rows of V put to use, so one
 * accumulator serves S tiles.
 *
 * - `segTiles` = 0 (s = S, Reduction16): V is the unit's S² segment sums in order, stored straight
 *   to `output`. With `strided` (s = S·N, the paper's strided **Reduction16N**) column j of tile k
 *   is the i-th S-element chunk of segment S·k + j — a column-major load with stride s — and
 *   V accumulates over i = 0 … N − 1 before the same store. With `coalesced` (s = S·N, N ≥ S, the
 *   paper's coalesced **Reduction16N**) a unit is S segments: segment r's ⌊N/S⌋ whole tiles are
 *   loaded contiguously (tile i of all S segments at once: S independent loads) and accumulate
 *   into row r of V (V = P_r·A + V), and the N mod S chunks
 *   left at the end of each segment go through the strided loads (column r is segment r's chunk)
 *   into a second accumulator's first row; output r sums row r of V and entry r of that row.
 * - `segTiles` = t ≥ 1 (s = t·S², Reduction256 / Reduction256N): each output sums min(t, S)
 *   consecutive rows of V — the paper's V·Pᵀ step, done by lanes over workgroup memory and a
 *   butterfly of subgroup shuffles because a result matrix cannot be multiplied again: S/t
 *   segment sums per unit when t ≤ S, else one partial sum per unit of `unitTiles` tiles (the
 *   grid level's first pass; the plan reduces the partials).
 *
 * Params: `groups` = units; `nx` the dispatch width.
 *
 * @example
 * ```ts
 * const kernel = directReduceKernel({ S: 16, SG: 32, syntax: 'template', W: 2, segTiles: 1, unitTiles: 16 });
 * b.dispatch(kernel, { input, output }, Math.ceil(units / 2), { n, s, nseg, parts: 1, partLen: 0, nx, groups: units, first: 0 });
 * ```
 */
export function directReduceKernel(spec: DirectReduceSpec): Kernel<keyof typeof DIRECT_BINDINGS, typeof TCU_PARAMS> {
  // Segments longer than S tiles all sum S rows of V per output (one partial per unit): the same
  // WGSL whatever their length, so one specialization (and one pipeline) serves every such segment
  // size — the whole array of any count included.
  return directReduceFamily({
    ...directShapeOf(spec),
    segTiles: Math.min(spec.segTiles, spec.S),
    strided: spec.strided === true,
    coalesced: spec.coalesced === true,
    unitTiles: spec.unitTiles,
  });
}

const directReduceFamily = defineSubgroupMatrixKernel({
  name: 'tcu/direct-reduce',
  bindings: DIRECT_BINDINGS,
  params: TCU_PARAMS,
  enable: () => DIRECT_EXTENSIONS,
  wgsl: (spec: DirectReduceSpec) => (spec.coalesced ? coalescedReduceWgsl(spec) : directReduceWgsl(spec)),
});

function directReduceWgsl(d: DirectReduceSpec): string {
  const w = new DirectWgsl(d);
  const { S, SS, SG, W } = w;
  const segTiles = d.segTiles;
  const rowsPerOut = Math.min(segTiles, S);
  const outs = segTiles === 0 ? SS : S / rowsPerOut;
  const accumulate = d.strided
    ? `  let base = unit * ${SS}u * params.s;
  for (var i = 0u; i < params.s / ${S}u; i++) {
${unroll(S, (k) => `    v = subgroupMatrixMultiplyAccumulate(p${k}, ${w.tile(`base + ${k * S}u * params.s + i * ${S}u`, 'params.s')}, v);`)}
  }`
    : `  for (var u = 0u; u < ${d.unitTiles / S}u; u++) {
    let base = (unit * ${d.unitTiles}u + u * ${S}u) * ${SS}u;
${unroll(S, (k) => `    v = subgroupMatrixMultiplyAccumulate(p${k}, ${w.tile(`base + ${k * SS}u`)}, v);`)}
  }`;
  // Output o sums rows [o·rowsPerOut, (o + 1)·rowsPerOut) of V: `span` lanes per output, then a
  // butterfly over those lanes.
  const finish =
    segTiles === 0
      ? `  ${w.store('output', `unit * ${SS}u`, 'v', 'row_major')}`
      : `  ${w.store('sums', `sg * ${SS}u`, 'v', 'row_major')}
  workgroupBarrier();
${laneSumsWgsl({ SG, base: `sg * ${SS}u`, per: rowsPerOut * S, outs, zero: '0.0', at: `unit * ${outs}u` })}`;
  return `${w.prologue({ strictL: false, extra: segTiles === 0 ? '' : `var<workgroup> sums: array<f32, ${W * SS}>;` })}
${unroll(S, (k) => `  let p${k} = ${w.p(k)};`)}
  var v = ${w.zero};
${accumulate}
${finish}
}
`;
}

/** The coalesced Reduction16N of {@link directReduceKernel}: S segments of params.s elements per unit. */
function coalescedReduceWgsl(d: DirectReduceSpec): string {
  const w = new DirectWgsl(d);
  const { S, SS, SG, W } = w;
  const lanes = laneSumsWgsl({
    SG,
    base: `sg * ${2 * SS}u`,
    per: S,
    outs: S,
    zero: '0.0',
    at: `unit * ${S}u`,
    extra: `sums[sg * ${2 * SS}u + ${SS}u + o]`,
  });
  return `${w.prologue({ strictL: false, extra: `var<workgroup> sums: array<f32, ${2 * W * SS}>;` })}
${unroll(S, (k) => `  let p${k} = ${w.p(k)};`)}
  var v = ${w.zero};
  var left = ${w.zero};
  let whole = params.s / ${SS}u;               // whole tiles per segment
  let chunks = (params.s % ${SS}u) / ${S}u;     // S-element chunks after them
  let base = unit * ${S}u * params.s;
  // Coalesced part: tile i of every segment r (S independent loads) into row r of V.
  for (var i = 0u; i < whole; i++) {
${unroll(S, (k) => `    v = subgroupMatrixMultiplyAccumulate(p${k}, ${w.tile(`base + ${k}u * params.s + i * ${SS}u`)}, v);`)}
  }
  // The rest, strided: column r of chunk c is segment r's c-th chunk after its whole tiles.
  for (var c = 0u; c < chunks; c++) {
    left = subgroupMatrixMultiplyAccumulate(p0, ${w.tile(`base + whole * ${SS}u + c * ${S}u`, 'params.s')}, left);
  }
  ${w.store('sums', `sg * ${2 * SS}u`, 'v', 'row_major')}
  ${w.store('sums', `sg * ${2 * SS}u + ${SS}u`, 'left', 'row_major')}
  workgroupBarrier();
${lanes}
}
`;
}

/** Specialization of {@link directBlockReduceKernel}. */
export type DirectBlockReduceSpec = DirectShape & {
  /** Tiles per segment (s = segTiles·S²), a multiple of S·W. */
  readonly segTiles: number;
};

/**
 * The paper's block-level **Reduction256N** (Dakkak et al. 2019, Algorithm 4): one workgroup per
 * segment of `segTiles` tiles; each of its W subgroups reduces a contiguous share of segTiles / W
 * tiles (column-major, V = P_k·A_k + V as in {@link directReduceKernel}), sums its V through
 * workgroup memory, and the subgroups' sums are added in shared memory — one pass, one output per
 * segment, no partials.
 *
 * Params: `groups` = segments; `nx` the dispatch width.
 *
 * @example
 * ```ts
 * const kernel = directBlockReduceKernel({ S: 16, SG: 32, syntax: 'template', W: 8, segTiles: 256 });
 * b.dispatch(kernel, { input, output }, segments, { n, s, nseg: segments, parts: 1, partLen: 0, nx, groups: segments, first: 0 });
 * ```
 */
export function directBlockReduceKernel(spec: DirectBlockReduceSpec): Kernel<keyof typeof DIRECT_BINDINGS, typeof TCU_PARAMS> {
  return directBlockReduceFamily({ ...directShapeOf(spec), segTiles: spec.segTiles });
}

const directBlockReduceFamily = defineSubgroupMatrixKernel({
  name: 'tcu/direct-block-reduce',
  bindings: DIRECT_BINDINGS,
  params: TCU_PARAMS,
  enable: () => DIRECT_EXTENSIONS,
  wgsl: directBlockReduceWgsl,
});

function directBlockReduceWgsl(d: DirectBlockReduceSpec): string {
  const w = new DirectWgsl(d);
  const { S, SS, SG, W } = w;
  const share = d.segTiles / W;
  return `${w.header(`var<workgroup> sums: array<f32, ${W * SS}>;\nvar<workgroup> parts: array<f32, ${W}>;`)}
${w.entry(false)}
  let segment = min(wid.x + wid.y * params.nx, params.groups - 1u);
${unroll(S, (k) => `  let p${k} = ${w.p(k)};`)}
  var v = ${w.zero};
  let first = segment * ${d.segTiles}u + sg * ${share}u;
  for (var u = 0u; u < ${share / S}u; u++) {
    let base = (first + u * ${S}u) * ${SS}u;
${unroll(S, (k) => `    v = subgroupMatrixMultiplyAccumulate(p${k}, ${w.tile(`base + ${k * SS}u`)}, v);`)}
  }
  ${w.store('sums', `sg * ${SS}u`, 'v', 'row_major')}
  workgroupBarrier();
  var total = 0.0;
  for (var m = 0u; m < ${SS / SG}u; m++) { total += sums[sg * ${SS}u + lane + ${SG}u * m]; }
  total = subgroupAdd(total);
  if (lane == 0u) { parts[sg] = total; }
  workgroupBarrier();
  if (lid == 0u) {
    var sum = 0.0;
    for (var i = 0u; i < ${W}u; i++) { sum += parts[i]; }
    output[segment] = sum;
  }
}
`;
}
