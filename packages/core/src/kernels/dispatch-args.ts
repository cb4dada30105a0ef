import { defineKernel, read, readWrite } from './define-kernel.js';

/**
 * One invocation turns a count on the GPU into `dispatchWorkgroupsIndirect` arguments: enough
 * workgroups of `params.per_group` elements, as x × y with x ≤ `params.max_dim` (WebGPU's limit per
 * dimension), z = 1. Bindings: `count` (the u32 at word `params.word`), `args` (3 u32).
 *
 * @example
 * ```ts
 * b.dispatch(dispatchArgsKernel({}), { count, args }, 1, { per_group: 256, max_dim: 65535, word: 0 });
 * ```
 */
export const dispatchArgsKernel = defineKernel({
  name: 'core/dispatch-args',
  bindings: { count: read('array<u32>'), args: readWrite('array<u32>') },
  params: { per_group: 'u32', max_dim: 'u32', word: 'u32' },
  wgsl: () => `
@compute @workgroup_size(1)
fn main() {
  let n = count[params.word];
  // ceil(n / per_group) without overflowing past 2^32 − 1.
  let groups = n / params.per_group + select(0u, 1u, n % params.per_group != 0u);
  let y = max(1u, (groups + params.max_dim - 1u) / params.max_dim);
  args[0] = (groups + y - 1u) / y;
  args[1] = y;
  args[2] = 1u;
}
`,
});
