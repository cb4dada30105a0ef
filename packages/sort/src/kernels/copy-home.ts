import type { KernelSpec } from '@scan/core/kit';

/** Invocations per workgroup of {@link copyHomeKernel}. */
export const COPY_HOME_WORKGROUP = 256;

/**
 * **Copy home** for a radix sort whose count the GPU wrote and whose digit passes end in scratch
 * (an odd number of them): copies the sorted keys (and values) of min(GPU count, capacity) elements
 * back into the caller's buffers, and nothing past them — a copy of the whole capacity would
 * overwrite the caller's elements past the count with stale scratch.
 *
 * Bindings: 0 `{ capacity, count_word, dispatch_x }`, 1 the count buffer, 2 the sorted keys
 * (scratch), 3 the caller's keys, and with values 4 the sorted values, 5 the caller's values.
 *
 * @example
 * ```ts
 * b.dispatch(copyHomeKernel(true), [params, count, altKeys, keys, altValues, values], Math.ceil(capacity / COPY_HOME_WORKGROUP));
 * ```
 */
export function copyHomeKernel(values: boolean): KernelSpec {
  const wg = COPY_HOME_WORKGROUP;
  return {
    key: `sort/radix/copy-home/${values ? 'values' : 'keys'}/${wg}`,
    wgsl: () => `struct CopyParams { capacity: u32, count_word: u32, dispatch_x: u32 }
@group(0) @binding(0) var<uniform> params: CopyParams;
@group(0) @binding(1) var<storage, read> count_buf: array<u32>;
@group(0) @binding(2) var<storage, read> sorted_keys: array<u32>;
@group(0) @binding(3) var<storage, read_write> keys: array<u32>;
${values ? '@group(0) @binding(4) var<storage, read> sorted_values: array<u32>;\n@group(0) @binding(5) var<storage, read_write> values: array<u32>;' : ''}

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let i = (wid.x + wid.y * params.dispatch_x) * ${wg}u + lid;
  if (i >= min(count_buf[params.count_word], params.capacity)) { return; }
  keys[i] = sorted_keys[i];${values ? '\n  values[i] = sorted_values[i];' : ''}
}
`,
  };
}
