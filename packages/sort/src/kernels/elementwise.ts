import type { ParamFields } from '@scan/core/kit';

// The package's element-wise kernels (one invocation per element: the quicksort's around the
// segmented primitives of `@scan/segmented`, the segmented sort's unpacking and gathers) share one
// frame: the parameters `{ count, dispatch_x }`, a bounds-checked linear index over a possibly 2-D
// dispatch (`dispatch_x` workgroups a row, see core's `dispatchShape`), and data as raw u32 words.

/**
 * Invocations per workgroup of the element-wise kernels.
 *
 * @example
 * ```ts
 * const workgroups = Math.ceil(count / ELEMENTWISE_WORKGROUP);
 * ```
 */
export const ELEMENTWISE_WORKGROUP = 256;

/**
 * The parameters of every element-wise kernel: the elements `count` and the workgroups a row of a
 * 2-D dispatch, `dispatch_x` (a kernel that needs more adds its fields after these).
 *
 * @example
 * ```ts
 * const params = { ...ELEMENTWISE_PARAMS, or_equal: 'u32' } as const satisfies ParamFields;
 * b.dispatch(kernel, bindings, workgroups, { count, dispatch_x: dispatchShape(workgroups, maxDim).x });
 * ```
 */
export const ELEMENTWISE_PARAMS = { count: 'u32', dispatch_x: 'u32' } as const satisfies ParamFields;

/**
 * The WGSL of an element-wise kernel after its declarations: `helpers` (functions), then `body` run
 * once per element index `i < params.count`.
 *
 * @example
 * ```ts
 * const iota = defineKernel({
 *   name: 'sort/quicksort/iota',
 *   bindings: { out: readWrite('array<u32>') },
 *   params: ELEMENTWISE_PARAMS,
 *   wgsl: () => elementwiseWgsl('', 'out[i] = i;'),
 * });
 * ```
 */
export function elementwiseWgsl(helpers: string, body: string): string {
  const wg = ELEMENTWISE_WORKGROUP;
  return `${helpers}

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let i = (wid.x + wid.y * params.dispatch_x) * ${wg}u + lid;
  if (i >= params.count) { return; }
${body
  .trim()
  .split('\n')
  .map((line) => `  ${line}`)
  .join('\n')}
}
`;
}
