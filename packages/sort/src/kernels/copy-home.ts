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

/**
 * **Copy home** of 16-bit keys, two to a word (an odd number of digit passes ends in scratch):
 * invocation i copies word i of min(count, capacity) packed keys, and the values of keys 2i and
 * 2i + 1 (`valueWords` words each). The word of an odd count's last key keeps its upper half, which
 * is the caller's. Parameters as {@link copyHomeKernel}'s.
 *
 * @example
 * ```ts
 * b.dispatch(copyHomeHalvesKernel({ values: false }), { sorted_keys: altKeys, keys }, Math.ceil(capacity / 2 / COPY_HOME_WORKGROUP), params);
 * ```
 */
export const copyHomeHalvesKernel = defineKernel({
  name: 'sort/radix/copy-home-halves',
  bindings: (spec: { readonly values: boolean; readonly valueWords?: number }) => ({
    sorted_keys: read('array<u32>'),
    keys: readWrite('array<u32>'),
    sorted_values: spec.values ? read('array<u32>') : undefined,
    values: spec.values ? readWrite('array<u32>') : undefined,
  }),
  params: { count: 'u32', dispatch_x: 'u32' },
  wgsl: (spec) => {
    const w = spec.valueWords ?? 1;
    return `
@compute @workgroup_size(${COPY_HOME_WORKGROUP})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let i = (wid.x + wid.y * params.dispatch_x) * ${COPY_HOME_WORKGROUP}u + lid;
  if (2u * i >= params.count) { return; }
  let whole = 2u * i + 1u < params.count;
  keys[i] = select((keys[i] & 0xffff0000u) | (sorted_keys[i] & 0xffffu), sorted_keys[i], whole);${
    spec.values
      ? `
  let last = select(2u * i + 1u, 2u * i + 2u, whole);
  for (var c = 2u * i * ${w}u; c < last * ${w}u; c++) { values[c] = sorted_values[c]; }`
      : ''
  }
}
`;
  },
});

/**
 * Zeroes the words of `keys` that hold two of the first `count` 16-bit keys (words < ⌊count / 2⌋),
 * so that the last digit pass can `atomicOr` its keys into them; the word of an odd count's last
 * key is left alone (the pass clears that half itself: the other is the caller's).
 *
 * @example
 * ```ts
 * b.dispatch(zeroHalvesKernel({}), { keys }, Math.ceil(capacity / 2 / COPY_HOME_WORKGROUP), params);
 * ```
 */
export const zeroHalvesKernel = defineKernel({
  name: 'sort/radix/zero-halves',
  bindings: { keys: readWrite('array<u32>') },
  params: { count: 'u32', dispatch_x: 'u32' },
  wgsl: () => `
@compute @workgroup_size(${COPY_HOME_WORKGROUP})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let i = (wid.x + wid.y * params.dispatch_x) * ${COPY_HOME_WORKGROUP}u + lid;
  if (i < params.count / 2u) { keys[i] = 0u; }
}
`,
});
