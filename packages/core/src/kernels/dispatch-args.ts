import type { KernelSpec } from '../pipeline-cache.js';

/**
 * One invocation turns a count on the GPU into `dispatchWorkgroupsIndirect` arguments: enough
 * workgroups of `params.per_group` elements, as x × y with x ≤ `params.max_dim` (WebGPU's limit per
 * dimension), z = 1. Bindings: 0 count (u32 at word `params.word`), 1 args (3 u32), 2 params.
 */
export function dispatchArgsKernel(): KernelSpec {
  return {
    key: 'dispatch-args',
    wgsl: () => `
struct ArgsParams { per_group: u32, max_dim: u32, word: u32, pad: u32 }
@group(0) @binding(0) var<storage, read> count: array<u32>;
@group(0) @binding(1) var<storage, read_write> args: array<u32>;
@group(0) @binding(2) var<uniform> params: ArgsParams;

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
  };
}
