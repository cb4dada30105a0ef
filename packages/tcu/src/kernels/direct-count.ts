// The direct kernel of exact counting on the u8 × u8 → u32 subgroup-matrix config: flags go
// straight from storage (four per u32 word) into the right factor, as the f16 direct reduction
// (direct-reduce.ts) does with its tiles, and the staged kernels only take what is left.

import { type Kernel, read, readWrite, unroll } from '@scan/core/kit';
import { defineSubgroupMatrixKernel, laneSumsWgsl } from './direct-common.js';
import type { MatrixPath, MatrixShape } from './matrix.js';
import { TCU_PARAMS, tcuBindings } from './tcu-kernels.js';

/** Specialization of {@link directCountKernel}. */
export type DirectCountSpec = {
  /** The u8 config: the left factor is M×K, the right K×N, the result M×N. */
  readonly shape: MatrixShape;
  /** Subgroup size. */
  readonly SG: number;
  readonly syntax: 'template' | 'bool';
  /** Subgroups per workgroup. */
  readonly W: number;
  /**
   * K-element chunks per segment (s = chunks·K): a divisor of M·N (M·N/chunks segments per unit),
   * or a multiple of M·N (one partial count per unit, the plan adds the partials).
   */
  readonly chunks: number;
};

/**
 * Whether the direct count applies to a path: the subgroup-matrix path of the u8 family, with
 * powers of two for M, N, K and the subgroup size, and K a multiple of 4 (a column of the right
 * factor is K consecutive flags, whole u32 words).
 *
 * @example
 * ```ts
 * directCountApplies(path); // true on the H100 (u8 16×16×32, subgroups of 32)
 * ```
 */
export function directCountApplies(path: MatrixPath): boolean {
  const { M, N, K } = path.shape;
  const pow2 = (v: number) => v > 0 && (v & (v - 1)) === 0;
  return path.kind === 'subgroup-matrix' && path.family === 'u8' && [M, N, K, path.workgroupSize].every(pow2) && K % 4 === 0;
}

/** WGSL emitters shared by the kernel and its probe. */
function emitters(shape: MatrixShape, syntax: 'template' | 'bool') {
  const { M, N, K } = shape;
  const load = (type: string, arr: string, off: string, colMajor: boolean, stride: number) =>
    syntax === 'template'
      ? `subgroupMatrixLoad<${type}, ${colMajor ? 'col_major' : 'row_major'}>(&${arr}, ${off}, ${stride}u)`
      : `subgroupMatrixLoad<${type}>(&${arr}, ${off}, ${colMajor}, ${stride}u)`;
  const store = (arr: string, off: string, m: string) =>
    syntax === 'template'
      ? `subgroupMatrixStore<row_major>(&${arr}, ${off}, ${m}, ${N}u);`
      : `subgroupMatrixStore(&${arr}, ${off}, ${m}, false, ${N}u);`;
  return {
    /** P_k: ones in row k of the M×K left factor, a window of the staged `cst` rows. */
    p: (k: number) => load(`subgroup_matrix_left<u8, ${K}, ${M}>`, 'cst', `${(M - 1 - k) * K}u`, false, K),
    /** K×N flags from element `off` of `arr`, column-major: column j is the K flags from off + j·K. */
    tile: (arr: string, off: string) => load(`subgroup_matrix_right<u8, ${N}, ${K}>`, arr, off, true, K),
    store,
    zero: `subgroup_matrix_result<u32, ${N}, ${M}>()`,
    /** `cst`: 2M − 1 rows of K u8, zero except row M − 1 (ones), four per word; and its staging loop. */
    cst: `var<workgroup> cst: array<u32, ${((2 * M - 1) * K) / 4}>;`,
    stageCst: (lid: string, threads: number) =>
      `for (var e = ${lid}; e < ${((2 * M - 1) * K) / 4}u; e += ${threads}u) { cst[e] = select(0u, 0x01010101u, (e * 4u) / ${K}u == ${M - 1}u); }
  workgroupBarrier();`,
  };
}

/**
 * Exact segmented count of 0/1 flags (u8) on the matrix units, the paper's Reduction16 pattern
 * with u8 operands: each subgroup owns a unit of M tiles of K×N flags and accumulates
 * V = Σₖ P_k·A_k + V (P_k: ones in row k), so V[k][j] counts the K flags of column j of tile k —
 * the unit's M·N consecutive K-flag chunks, in order. A segment of `chunks` chunks sums that many
 * consecutive entries of V: one chunk each is V itself, stored straight to the output; otherwise V
 * goes through workgroup memory and lanes add its entries (a butterfly over the lanes of one
 * output), which for `chunks` ≥ M·N is one partial count per unit.
 *
 * Bindings: `input` (flags, four per u32 word), `output` (u32); parameters: `groups` = units, `nx`
 * the dispatch width.
 *
 * @example
 * ```ts
 * const kernel = directCountKernel({ shape: { M: 16, N: 16, K: 32 }, SG: 32, syntax: 'bool', W: 2, chunks: 8 });
 * b.dispatch(kernel, { input, output }, Math.ceil(units / 2), { n, s, nseg, parts: 1, partLen: 0, nx, groups: units, first: 0 });
 * ```
 */
export function directCountKernel(spec: DirectCountSpec): Kernel<'input' | 'output', typeof TCU_PARAMS> {
  const { M, N, K } = spec.shape;
  // Segments of M·N chunks or more all give one partial per unit: the same WGSL whatever their
  // length, so one specialization (and one pipeline) serves them all — the whole array of any
  // count included.
  return directCountFamily({ shape: { M, N, K }, SG: spec.SG, syntax: spec.syntax, W: spec.W, chunks: Math.min(spec.chunks, M * N) });
}

const directCountFamily = defineSubgroupMatrixKernel({
  name: 'tcu/direct-count',
  bindings: tcuBindings('u32', 'u32'),
  params: TCU_PARAMS,
  enable: () => ['subgroups', 'chromium_experimental_subgroup_matrix'],
  wgsl: directCountWgsl,
});

function directCountWgsl(d: DirectCountSpec): string {
  const { M, N, K } = d.shape;
  const { SG, W } = d;
  const MN = M * N;
  const e = emitters(d.shape, d.syntax);
  const per = Math.min(d.chunks, MN); // entries of V per output
  const outs = MN / per; // outputs per unit
  let finish: string;
  if (per === 1) {
    finish = `  ${e.store('output', `unit * ${MN}u`, 'v')}`;
  } else if (outs <= SG) {
    finish = `  ${e.store('sums', `sg * ${MN}u`, 'v')}
  workgroupBarrier();
${laneSumsWgsl({ SG, base: `sg * ${MN}u`, per, outs, zero: '0u', at: `unit * ${outs}u` })}`;
  } else {
    // More outputs than lanes: each lane adds whole outputs.
    finish = `  ${e.store('sums', `sg * ${MN}u`, 'v')}
  workgroupBarrier();
  for (var o = lane; o < ${outs}u; o += ${SG}u) {
    var total = 0u;
    for (var i = 0u; i < ${per}u; i++) { total += sums[sg * ${MN}u + o * ${per}u + i]; }
    output[unit * ${outs}u + o] = total;
  }`;
  }
  return `${e.cst}
${per > 1 ? `var<workgroup> sums: array<u32, ${W * MN}>;` : ''}
@compute @workgroup_size(${SG * W})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32, @builtin(subgroup_invocation_id) lane: u32) {
  let sg = lid / ${SG}u;
  ${e.stageCst('lid', SG * W)}
  // Units past the last are clamped onto it: they redo its work and write the same values.
  let unit = min((wid.x + wid.y * params.nx) * ${W}u + sg, params.groups - 1u);
  let base = unit * ${MN * K}u;
  var v = ${e.zero};
${unroll(M, (k) => `  v = subgroupMatrixMultiplyAccumulate(${e.p(k)}, ${e.tile('input', `base + ${k * N * K}u`)}, v);`)}
${finish}
}
`;
}

/**
 * The device check of {@link directCountKernel}: two subgroups each count one unit of flags read
 * from storage at an offset taken from their subgroup index. `flags` holds two units, the first
 * all ones, the second all zeros; `out` (2·M·N words) must read back as M·N values K, then M·N
 * zeros.
 *
 * @example
 * ```ts
 * const probe = directCountProbeKernel({ shape: { M: 16, N: 16, K: 32 }, SG: 32, syntax: 'bool' });
 * const group = bindGroupByName(device, probe, pipeline, { flags, out });
 * ```
 */
export const directCountProbeKernel = defineSubgroupMatrixKernel({
  name: 'tcu/direct-count-probe',
  bindings: { flags: read('array<u32>'), out: readWrite('array<u32>') },
  enable: () => ['chromium_experimental_subgroup_matrix'],
  wgsl: ({ shape, SG, syntax }: { readonly shape: MatrixShape; readonly SG: number; readonly syntax: 'template' | 'bool' }) => {
    const { M, N, K } = shape;
    const e = emitters(shape, syntax);
    return `${e.cst}
@compute @workgroup_size(${2 * SG})
fn main(@builtin(local_invocation_index) lid: u32) {
  ${e.stageCst('lid', 2 * SG)}
  let sg = lid / ${SG}u;
  var v = ${e.zero};
${unroll(M, (k) => `  v = subgroupMatrixMultiplyAccumulate(${e.p(k)}, ${e.tile('flags', `sg * ${M * N * K}u + ${k * N * K}u`)}, v);`)}
  ${e.store('out', `sg * ${M * N}u`, 'v')}
}
`;
  },
});
