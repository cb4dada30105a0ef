// The fast kernels of the subgroup-matrix path ("direct" kernels): f16 tiles go straight from
// storage into subgroup matrices, several subgroups share a workgroup, and nothing but the small
// final step of a reduction or the per-column carries of a scan touches workgroup memory. They
// cover the regular shapes — segments of exactly one tile column (s = S) or of whole S×S tiles
// (s = t·S²) — and the plan sends the rest (and a partial unit at the end) to the staged kernels of
// tcu-kernels.ts. Each subgroup computes its own offsets from its subgroup index, so offsets are
// not workgroup-uniform: the kernels switch off Dawn's `chromium.subgroup_matrix_uniformity`
// diagnostic (the offsets are uniform per subgroup, which is what the hardware needs), and
// {@link directProbeKernel} checks on the device that this compiles and that subgroups are formed
// from consecutive invocation indices.

import { defineKernel, type Kernel, type KernelDefinition, type ParamFields, type ParamType, readWrite } from '@scan/core/kit';
import type { MatrixPath } from './matrix.js';
import { tcuBindings } from './tcu-kernels.js';

/** What the direct kernels need of a path: tile side, subgroup size, spelling, subgroups per workgroup. */
export type DirectShape = {
  /** Tile side (M = N = K = S). */
  readonly S: number;
  /** Subgroup size (the path's workgroup size). */
  readonly SG: number;
  readonly syntax: 'template' | 'bool';
  /** Subgroups per workgroup. */
  readonly W: number;
};

/**
 * The fields of {@link DirectShape} alone, for a specialization (a caller's spec may carry more).
 *
 * @example
 * ```ts
 * const spec = { S: 16, SG: 32, syntax: 'template', W: 2, segTiles: 1 } as const;
 * directShapeOf(spec); // { S: 16, SG: 32, syntax: 'template', W: 2 }
 * ```
 */
export function directShapeOf(d: DirectShape): DirectShape {
  return { S: d.S, SG: d.SG, syntax: d.syntax, W: d.W };
}

/** The bindings of the direct f16 kernels: `input` f16 tiles, `output` f32 values. */
export const DIRECT_BINDINGS = tcuBindings('f16', 'f32');

/**
 * What the direct f16 kernels enable. With `subgroups`, the definition also switches off WGSL's
 * `subgroup_uniformity`, as core's single-pass scans do: the look-back runs subgroup operations
 * in the first subgroup only.
 */
export const DIRECT_EXTENSIONS: readonly string[] = ['f16', 'subgroups', 'chromium_experimental_subgroup_matrix'];

/**
 * Dawn's directive for subgroup-matrix built-ins whose offsets are uniform per subgroup but not
 * per workgroup (the direct kernels compute them from the subgroup index).
 */
const MATRIX_UNIFORMITY_RULE = 'chromium.subgroup_matrix_uniformity';

/**
 * {@link defineKernel} for kernels that switch off Dawn's `chromium.subgroup_matrix_uniformity`
 * diagnostic (see above) besides what the definition says.
 *
 * @example
 * ```ts
 * const probe = defineSubgroupMatrixKernel({ name: 'tcu/probe', bindings: { out: readWrite('array<f32>') }, wgsl: (spec: { S: number }) => `…` });
 * ```
 */
export function defineSubgroupMatrixKernel<S extends object, B extends string, P extends ParamFields = Record<never, ParamType>>(
  definition: KernelDefinition<S, B, P>,
): (spec: S) => Kernel<B, P> {
  return defineKernel({ ...definition, diagnosticsOff: () => [MATRIX_UNIFORMITY_RULE] });
}

/**
 * Whether the direct kernels apply to a path: the subgroup-matrix path with f16 data on a square
 * config (one matrix per S×S tile), S and the subgroup size powers of two with S ≤ subgroup size
 * ≤ S² (the column carries of a scan sit in the first S lanes; a tile is whole rounds of lanes).
 *
 * @example
 * ```ts
 * directApplies(path); // true on the H100 (16×16×16 f16 → f32, subgroups of 32)
 * ```
 */
export function directApplies(path: MatrixPath): boolean {
  const { M, N, K } = path.shape;
  const S = path.S;
  const SG = path.workgroupSize;
  const pow2 = (v: number) => v > 0 && (v & (v - 1)) === 0;
  return path.kind === 'subgroup-matrix' && path.family === 'f16' && M === K && N === K && pow2(S) && pow2(SG) && S <= SG && SG <= S * S;
}

/**
 * WGSL emitters of the direct kernels for one shape: matrix loads and stores in the spelling the
 * device accepts, the constant factors staged in `cst`, and the kernel prologue.
 *
 * `cst` holds 4S rows of S f16: rows 0 … 2S − 2 are zero except row S − 1 (ones), so the S×S
 * window starting at row S − 1 − k is P_k, ones in row k only (P_0 is the paper's P); rows 2S … 3S − 1
 * hold L, lower-triangular ones (inclusive c ≤ r, or strict c < r for exclusive scans); rows
 * 3S … 4S − 1 are all ones.
 *
 * @example
 * ```ts
 * const w = new DirectWgsl({ S: 16, SG: 32, syntax: 'template', W: 2 });
 * const code = `${w.prologue({ strictL: false })}\n  var v = ${w.zero};`;
 * ```
 */
export class DirectWgsl {
  readonly S: number;
  readonly SS: number;
  readonly SG: number;
  readonly W: number;

  constructor(readonly shape: DirectShape) {
    this.S = shape.S;
    this.SS = shape.S * shape.S;
    this.SG = shape.SG;
    this.W = shape.W;
  }

  /** `subgroupMatrixLoad` of `type` from `&arr` at element `off` (row stride S). */
  load(type: string, arr: string, off: string, major: 'row_major' | 'col_major', stride: string | number = this.S): string {
    const st = typeof stride === 'number' ? `${stride}u` : stride;
    return this.shape.syntax === 'template'
      ? `subgroupMatrixLoad<${type}, ${major}>(&${arr}, ${off}, ${st})`
      : `subgroupMatrixLoad<${type}>(&${arr}, ${off}, ${major === 'col_major'}, ${st})`;
  }

  /** `subgroupMatrixStore` of `m` to `&arr` at element `off` (stride S unless given), as a statement. */
  store(arr: string, off: string, m: string, major: 'row_major' | 'col_major', stride: string | number = this.S): string {
    const st = typeof stride === 'number' ? `${stride}u` : stride;
    return this.shape.syntax === 'template'
      ? `subgroupMatrixStore<${major}>(&${arr}, ${off}, ${m}, ${st});`
      : `subgroupMatrixStore(&${arr}, ${off}, ${m}, ${major === 'col_major'}, ${st});`;
  }

  /** P_k (ones in row k only) as a left factor. */
  p(k: number): string {
    return this.load(`subgroup_matrix_left<f16, ${this.S}, ${this.S}>`, 'cst', `${(this.S - 1 - k) * this.S}u`, 'row_major');
  }

  /** L (lower-triangular ones) as a left factor. */
  get l(): string {
    return this.load(`subgroup_matrix_left<f16, ${this.S}, ${this.S}>`, 'cst', `${2 * this.SS}u`, 'row_major');
  }

  /** The all-ones matrix as a left factor. */
  get ones(): string {
    return this.load(`subgroup_matrix_left<f16, ${this.S}, ${this.S}>`, 'cst', `${3 * this.SS}u`, 'row_major');
  }

  /**
   * An S×S input tile as a right factor, column-major: column j is the S elements from
   * start + j·`stride` on (stride S: the S² consecutive elements from `start`; stride s: the same
   * S-element chunk of S segments, the paper's strided loads).
   */
  tile(start: string, stride: string | number = this.S): string {
    return this.load(`subgroup_matrix_right<f16, ${this.S}, ${this.S}>`, 'input', start, 'col_major', stride);
  }

  /** A zero result matrix. */
  get zero(): string {
    return `subgroup_matrix_result<f32, ${this.S}, ${this.S}>()`;
  }

  /**
   * What a kernel declares after its bindings (the definition writes the directives, `Params` and
   * the bindings: {@link DIRECT_EXTENSIONS}, {@link DIRECT_BINDINGS}): `extra`, then `cst`.
   */
  header(extra: string): string {
    return `${extra}
var<workgroup> cst: array<f16, ${4 * this.SS}>;`;
  }

  /** The entry point's signature, `sg` (subgroup index) and the staging of `cst` (with its barrier). */
  entry(strictL: boolean): string {
    const { S, SG, W, SS } = this;
    return `@compute @workgroup_size(${SG * W})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32, @builtin(subgroup_invocation_id) lane: u32) {
  let sg = lid / ${SG}u;
  for (var e = lid; e < ${4 * SS}u; e += ${SG * W}u) {
    let r = e / ${S}u; let c = e % ${S}u;
    let l = r >= ${2 * S}u && r < ${3 * S}u && c ${strictL ? '<' : '<='} r - ${2 * S}u;
    cst[e] = select(0.0h, 1.0h, r == ${S - 1}u || l || r >= ${3 * S}u);
  }
  workgroupBarrier();`;
  }

  /**
   * Header and entry of a kernel whose units are dispatched by workgroup id: `unit` is the
   * subgroup's. Units past the last are clamped onto it — they redo its work and write the same
   * values — which keeps every subgroup of the workgroup on the same path through the barriers.
   */
  prologue(o: { strictL: boolean; extra?: string }): string {
    return `${this.header(o.extra ?? '')}
${this.entry(o.strictL)}
  let unit = min((wid.x + wid.y * params.nx) * ${this.W}u + sg, params.groups - 1u);`;
  }

  /**
   * Writes one scanned tile: `cols` at `slot` holds R = L·A (inclusive column sums, column-major),
   * `carry` the scan up to the tile. The column totals (R's last row) are scanned across the
   * first S lanes — the L·A·1 term of the paper's Scan256, done as a subgroup scan because a
   * result matrix cannot be multiplied again — and added as the tile goes out to `output` at
   * element `at`·S². An exclusive scan reads R one row up. Leaves `total` (the column total in
   * lane j) and `offset` (carry + the columns before, in lane j) defined; `extraOffset` joins the
   * offset (a carry-in of subgroups earlier in the round).
   */
  writeScannedTile(o: { slot: string; at: string; inclusive: boolean; extraOffset?: string }): string {
    const { S, SS, SG } = this;
    const within = o.inclusive
      ? `      let within = cols[${o.slot} + e];`
      : `      let within = select(cols[${o.slot} + max(e, 1u) - 1u], 0.0, e % ${S}u == 0u);`;
    return `    let total = cols[${o.slot} + (lane % ${S}u) * ${S}u + ${S - 1}u];
    let offset = subgroupExclusiveAdd(select(0.0, total, lane < ${S}u)) + carry${o.extraOffset ? ` + ${o.extraOffset}` : ''};
    for (var m = 0u; m < ${SS / SG}u; m++) {
      let e = lane + ${SG}u * m;
${within}
      output[(${o.at}) * ${SS}u + e] = within + subgroupShuffle(offset, e / ${S}u);
    }`;
  }
}

/**
 * The lanes' part of a reduction's last step, as WGSL: output o of the unit is the sum of the
 * `per` consecutive values of the workgroup array `sums` from `base` + o·per, for `outs` ≤ SG
 * outputs. SG/outs lanes take each output, each adding every span-th value (`extra`, a WGSL
 * expression in `o`, joins the first lane's share), a butterfly of subgroup shuffles adds the
 * lanes, and the first lane writes `output[at + o]`. Expects `lane`, `sums` and `output` in scope.
 *
 * @example
 * ```ts
 * const code = laneSumsWgsl({ SG: 32, base: 'sg * 256u', per: 16, outs: 16, zero: '0.0', at: 'unit * 16u' });
 * ```
 */
export function laneSumsWgsl(o: { SG: number; base: string; per: number; outs: number; zero: string; at: string; extra?: string }): string {
  const span = o.SG / o.outs;
  let butterfly = '';
  for (let m = span >> 1; m >= 1; m >>= 1) butterfly += `  total += subgroupShuffleXor(total, ${m}u);\n`;
  return `  let o = lane / ${span}u; let part = lane % ${span}u;
  var total = ${o.zero};
  for (var e = part; e < ${o.per}u; e += ${span}u) { total += sums[${o.base} + o * ${o.per}u + e]; }
${o.extra ? `  if (part == 0u) { total += ${o.extra}; }\n` : ''}${butterfly}  if (part == 0u) { output[${o.at} + o] = total; }`;
}

/**
 * The device check of the direct kernels: a workgroup of two subgroups where each subgroup stores
 * the product of two matrices of ones at an offset taken from its subgroup index (which needs the
 * diagnostic switch to compile), and every invocation records whether its subgroup is made of
 * consecutive invocation indices (`lid / SG` agrees across the subgroup). `out` (2·S² + 2·SG
 * words) must read back as 2·S² values S followed by 2·SG ones.
 *
 * @example
 * ```ts
 * const probe = directProbeKernel({ S: 16, SG: 32, syntax: 'template' });
 * const group = bindGroupByName(device, probe, pipeline, { out });
 * ```
 */
export const directProbeKernel = defineSubgroupMatrixKernel({
  name: 'tcu/direct-probe',
  bindings: { out: readWrite('array<f32>') },
  enable: () => DIRECT_EXTENSIONS,
  wgsl: ({ S, SG, syntax }: { readonly S: number; readonly SG: number; readonly syntax: 'template' | 'bool' }) => {
    const w = new DirectWgsl({ S, SG, syntax, W: 2 });
    const ones = (type: string) => w.load(`${type}<f16, ${S}, ${S}>`, 'ones', '0u', 'row_major');
    return `var<workgroup> ones: array<f16, ${S * S}>;
@compute @workgroup_size(${2 * SG})
fn main(@builtin(local_invocation_index) lid: u32) {
  for (var e = lid; e < ${S * S}u; e += ${2 * SG}u) { ones[e] = 1.0h; }
  workgroupBarrier();
  let sg = lid / ${SG}u;
  let m = subgroupMatrixMultiplyAccumulate(${ones('subgroup_matrix_left')}, ${ones('subgroup_matrix_right')}, ${w.zero});
  ${w.store('out', `sg * ${S * S}u`, 'm', 'row_major')}
  let members = subgroupAdd(1u);
  let leader = subgroupBroadcastFirst(sg);
  out[${2 * S * S}u + lid] = select(0.0, 1.0, leader == sg && members == ${SG}u);
}
`;
  },
});
