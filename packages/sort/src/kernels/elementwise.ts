import type { KernelSpec } from '@scan/core/kit';

// The package's element-wise kernels (one invocation per element: the quicksort's around the
// segmented primitives of `@scan/segmented`, the segmented sort's unpacking and gathers) share one
// frame: a uniform block at binding 0, a bounds-checked linear index over a possibly 2-D dispatch
// (`dispatch_x` workgroups a row, see core's `dispatchShape`), and data as raw u32 words.

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
 * The words of the element-wise kernels' uniform block `{ count, dispatch_x, or_equal }`
 * (`or_equal` is read by the comparison kernel only).
 *
 * @example
 * ```ts
 * b.paramBlock(elementwiseParams(count, dispatchShape(workgroups, maxDim).x, true));
 * ```
 */
export function elementwiseParams(count: number, dispatchX: number, orEqual = false): number[] {
  return [count, dispatchX, orEqual ? 1 : 0];
}

/**
 * An element-wise kernel: the uniform block at binding 0, `declarations` (bindings from
 * 1, helper functions), then `body` run once per element index `i < params.count`.
 *
 * @example
 * ```ts
 * const iota = elementwiseKernel('sort/quicksort/iota', '@group(0) @binding(1) var<storage, read_write> out: array<u32>;', 'out[i] = i;');
 * ```
 */
export function elementwiseKernel(key: string, declarations: string, body: string): KernelSpec {
  const wg = ELEMENTWISE_WORKGROUP;
  return {
    key: `${key}/${wg}`,
    wgsl: () => `
struct ElementwiseParams { count: u32, dispatch_x: u32, or_equal: u32 }
@group(0) @binding(0) var<uniform> params: ElementwiseParams;
${declarations}

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
`,
  };
}
