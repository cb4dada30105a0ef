import type { KernelSpec } from '../pipeline-cache.js';

/**
 * The scatter after the enumerate of split and pack. Elements are moved as raw 32-bit words, so one
 * kernel serves every element type.
 *
 * - `split` (the paper's one-enumerate split): `addr` is the exclusive scan of the negated flags, so
 *   a false element goes to `addr[i]`, and a true one to `falses + i − addr[i]`, where
 *   `falses = addr[n−1] + !flag[n−1]` — the trues' addresses are derived, not scanned again.
 * - `pack`: `addr` is the exclusive scan of the flags; a true element goes to `addr[i]`.
 * Invocation 0 also writes the number of falses (split) or of kept elements (pack) to `count_out`.
 * Bindings: 0 data, 1 flags, 2 addr, 3 moved (the output), 4 count_out, 5 params { count, dispatch_x }.
 */
export function scatterKernel(mode: 'split' | 'pack', workgroupSize: number): KernelSpec {
  return {
    key: `scatter/${mode}/${workgroupSize}`,
    wgsl: () => `
struct ScatterParams { count: u32, dispatch_x: u32 }
@group(0) @binding(0) var<storage, read> data: array<u32>;
@group(0) @binding(1) var<storage, read> flags: array<u32>;
@group(0) @binding(2) var<storage, read> addr: array<u32>;
@group(0) @binding(3) var<storage, read_write> moved: array<u32>;
@group(0) @binding(4) var<storage, read_write> count_out: array<u32>;
@group(0) @binding(5) var<uniform> params: ScatterParams;

@compute @workgroup_size(${workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let i = (wid.x + wid.y * params.dispatch_x) * ${workgroupSize}u + lid;
  let n = params.count;
  if (i >= n) { return; }
  let last = n - 1u;
${
  mode === 'split'
    ? `  let falses = addr[last] + (1u - flags[last]);
  if (i == 0u) { count_out[0] = falses; }
  let a = addr[i];
  let dest = select(a, falses + i - a, flags[i] != 0u);
  moved[dest] = data[i];`
    : `  if (i == 0u) { count_out[0] = addr[last] + flags[last]; }
  if (flags[i] != 0u) { moved[addr[i]] = data[i]; }`
}
}
`,
  };
}
