import { defineKernel, read, readWrite } from '@scan/core/kit';
import { keyWgslType } from '../key-order.js';
import type { SortKeyType } from '../types.js';

/** Invocations per workgroup of {@link copyHomeKernel}. */
export const COPY_HOME_WORKGROUP = 256;

/**
 * **Copy home** for a radix sort whose count the GPU wrote and whose digit passes end in scratch
 * (an odd number of them): copies the sorted keys (and values) of min(GPU count, capacity) elements
 * back into the caller's buffers, and nothing past them — a copy of the whole capacity would
 * overwrite the caller's elements past the count with stale scratch.
 *
 * Bindings: `sorted_keys` (scratch), the caller's `keys`, and with values `sorted_values` and the
 * caller's `values`; parameters `{ count, dispatch_x }`, `count` filled in by the plan's count fixup
 * (`recordCountFixup` of `@scan/core/kit`) from min(GPU count, capacity).
 *
 * @example
 * ```ts
 * b.dispatch(copyHomeKernel({ values: true }), { sorted_keys: altKeys, keys, sorted_values: altValues, values }, Math.ceil(capacity / COPY_HOME_WORKGROUP), fixedParams);
 * ```
 */
export const copyHomeKernel = defineKernel({
  name: 'sort/radix/copy-home',
  bindings: (spec: { readonly values: boolean; readonly keyType?: SortKeyType; readonly valueWords?: number }) => ({
    sorted_keys: read(`array<${keyWgslType(spec.keyType ?? 'u32')}>`),
    keys: readWrite(`array<${keyWgslType(spec.keyType ?? 'u32')}>`),
    sorted_values: spec.values ? read('array<u32>') : undefined,
    values: spec.values ? readWrite('array<u32>') : undefined,
  }),
  params: { count: 'u32', dispatch_x: 'u32' },
  wgsl: (spec) => `
@compute @workgroup_size(${COPY_HOME_WORKGROUP})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let i = (wid.x + wid.y * params.dispatch_x) * ${COPY_HOME_WORKGROUP}u + lid;
  if (i >= params.count) { return; }
  keys[i] = sorted_keys[i];${spec.values ? `\n  for (var c = 0u; c < ${spec.valueWords ?? 1}u; c++) { values[i * ${spec.valueWords ?? 1}u + c] = sorted_values[i * ${spec.valueWords ?? 1}u + c]; }` : ''}
}
`,
});
