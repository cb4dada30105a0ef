import type { ParamFields, ParamValues } from '@scan/core/kit';

// The one uniform block of the GPU build's kernels (binning and filling): small counts that each
// kernel documents, and the dispatch width for kernels launched on a 2-D grid.

/**
 * Invocations per workgroup of every build kernel (the WebGPU default limit allows 256).
 *
 * @example
 * ```ts
 * b.dispatch(headFlagsKernel(), bindings, Math.ceil((n + 1) / BUILD_WORKGROUP), params);
 * ```
 */
export const BUILD_WORKGROUP = 256;

/**
 * The build's parameter block, which every build kernel declares: `n` nonzeros, `rows` of the
 * matrix, `levels` L, `log2d` (d = 2^log2d), the `level` ℓ a per-level kernel works on, the pool
 * word `base` where that level's nodes start, the dispatch width `dispatch_x` and the number of key
 * bits `key_bits`.
 *
 * @example
 * ```ts
 * const kernel = defineKernel({ name: 'hisparse/build/x', bindings: {}, params: BUILD_PARAMS, wgsl: () => buildKernelFrame('', '') });
 * ```
 */
export const BUILD_PARAMS = {
  n: 'u32',
  rows: 'u32',
  levels: 'u32',
  log2d: 'u32',
  level: 'u32',
  base: 'u32',
  dispatch_x: 'u32',
  key_bits: 'u32',
} as const satisfies ParamFields;

/**
 * What {@link buildParams} packs; absent fields are 0.
 *
 * @example
 * ```ts
 * const p: BuildParams = { n: 1000, levels: 2, log2d: 5, dispatchX: 4 };
 * ```
 */
export interface BuildParams {
  readonly n: number;
  readonly rows?: number;
  readonly levels: number;
  readonly log2d: number;
  readonly level?: number;
  readonly base?: number;
  readonly dispatchX: number;
  readonly keyBits?: number;
}

/**
 * The values of {@link BUILD_PARAMS}, absent fields 0.
 *
 * @example
 * ```ts
 * b.dispatch(headFlagsKernel(), bindings, groups, buildParams({ n: nnz, levels: 3, log2d: 5, level: 1, dispatchX: shape.x }));
 * ```
 */
export function buildParams(p: BuildParams): ParamValues<typeof BUILD_PARAMS> {
  return {
    n: p.n,
    rows: p.rows ?? 0,
    levels: p.levels,
    log2d: p.log2d,
    level: p.level ?? 0,
    base: p.base ?? 0,
    dispatch_x: p.dispatchX,
    key_bits: p.keyBits ?? 0,
  };
}

/**
 * The WGSL of every build kernel after its declarations (the bindings and {@link BUILD_PARAMS},
 * which the kernel's definition writes): `declarations` (helpers), an entry point of
 * {@link BUILD_WORKGROUP} invocations and `i`, the invocation's global index on a grid that may be
 * 2-D (65,535 workgroups per dimension; see core's `dispatchShape`).
 *
 * @example
 * ```ts
 * const wgsl = buildKernelFrame(NODE_LAYOUT_WGSL, 'if (i >= params.n) { return; }\n...');
 * ```
 */
export function buildKernelFrame(declarations: string, body: string): string {
  return `${declarations}
@compute @workgroup_size(${BUILD_WORKGROUP})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let i = (wid.x + wid.y * params.dispatch_x) * ${BUILD_WORKGROUP}u + lid;
${body}
}
`;
}
