// The one uniform block of the GPU build's kernels (binning and filling): small counts that each
// kernel documents, and the dispatch width for kernels launched on a 2-D grid.

/**
 * Invocations per workgroup of every build kernel (the WebGPU default limit allows 256).
 *
 * @example
 * ```ts
 * b.dispatch(headFlagsKernel(), bindings, Math.ceil((n + 1) / BUILD_WORKGROUP));
 * ```
 */
export const BUILD_WORKGROUP = 256;

/**
 * The WGSL of the build's uniform block: `n` nonzeros, `rows` of the matrix, `levels` L,
 * `log2d` (d = 2^log2d), the `level` ℓ a per-level kernel works on, the pool word `base` where
 * that level's nodes start, the dispatch width and the number of key bits.
 *
 * @example
 * ```ts
 * const wgsl = `${BUILD_PARAMS_WGSL}\n@group(0) @binding(0) var<uniform> params: Params;`;
 * ```
 */
export const BUILD_PARAMS_WGSL = `
struct Params { n: u32, rows: u32, levels: u32, log2d: u32, level: u32, base: u32, dispatch_x: u32, key_bits: u32 }
`;

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
 * The eight words of {@link BUILD_PARAMS_WGSL}, in its field order.
 *
 * @example
 * ```ts
 * b.paramBlock(buildParams({ n: nnz, levels: 3, log2d: 5, level: 1, dispatchX: shape.x }));
 * ```
 */
export function buildParams(p: BuildParams): number[] {
  return [p.n, p.rows ?? 0, p.levels, p.log2d, p.level ?? 0, p.base ?? 0, p.dispatchX, p.keyBits ?? 0];
}

/**
 * The start of every build kernel: the uniform block at binding 0, an entry point of
 * {@link BUILD_WORKGROUP} invocations and `i`, the invocation's global index on a grid that may be
 * 2-D (65,535 workgroups per dimension; see core's `dispatchShape`).
 *
 * @example
 * ```ts
 * const wgsl = buildKernelFrame(decls, 'if (i >= params.n) { return; }\n...');
 * ```
 */
export function buildKernelFrame(declarations: string, body: string): string {
  return `${BUILD_PARAMS_WGSL}
@group(0) @binding(0) var<uniform> params: Params;
${declarations}
@compute @workgroup_size(${BUILD_WORKGROUP})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let i = (wid.x + wid.y * params.dispatch_x) * ${BUILD_WORKGROUP}u + lid;
${body}
}
`;
}
