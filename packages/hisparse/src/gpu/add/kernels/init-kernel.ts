import { defineKernel, readWrite } from '@scan/core/kit';
import { FORMAT_VERSION, POOL_HEADER_WORDS, POOL_MAGIC } from '../../../format/layout.js';
import { CONTROL, NO_PARENT } from '../items.js';

/** Threads of the init and clear kernels. */
export const INIT_GROUP = 256;

const addInit = defineKernel({
  name: 'hisparse/add/init',
  bindings: {
    ctl: readWrite('array<u32>'),
    pairs: readWrite('array<vec2<u32>>'),
    links: readWrite('array<vec2<u32>>'),
    queues: readWrite('array<u32>'),
    pool_c: readWrite('array<u32>'),
  },
  params: { root_a: 'u32', root_b: 'u32', capacity: 'u32', words: 'u32' },
  wgsl: () => `
// The start state of both sweeps, written on the GPU so that a plan records an add with nothing
// written from the host but its parameter block: the control words zeroed but for the root pair
// (one item, queued large, the pool total after the header), the root pair's item and queue slot,
// and C's pool header.
@compute @workgroup_size(${INIT_GROUP})
fn main(@builtin(local_invocation_index) lid: u32) {
  let roots = select(1u, 0u, params.root_a == 0u && params.root_b == 0u);
  for (var i = lid; i < params.words; i += ${INIT_GROUP}u) {
    var v = 0u;
    if (i == ${CONTROL.items}u) { v = 1u; }
    if (i == ${CONTROL.total}u) { v = ${POOL_HEADER_WORDS}u; }
    if (i == ${CONTROL.largeTail}u) { v = roots; }
    if (i == ${CONTROL.levels + 1}u || i == ${CONTROL.levels + 2}u) { v = roots; }
    ctl[i] = v;
  }
  if (lid == 0u) {
    pairs[0] = vec2<u32>(params.root_a, params.root_b);
    links[0] = vec2<u32>(${NO_PARENT}u, 0u);
    queues[params.capacity] = 0u;
    pool_c[0] = ${POOL_MAGIC}u;
    pool_c[1] = ${FORMAT_VERSION}u;
    pool_c[2] = 0u;
    pool_c[3] = 0u;
  }
}
`,
});

/**
 * Resets an add before its sweeps (one workgroup): the control words (`params.words` of them: the
 * root pair queued large, or no pair when both roots are null), the root pair's item
 * (`root_a`, `root_b`, no parent), its slot in the large queue (at `params.capacity`) and C's pool
 * header. Bindings: `ctl`, `pairs`, `links`, `queues`, `pool_c`. Params: `root_a`, `root_b`,
 * `capacity`, `words`.
 *
 * @example
 * ```ts
 * b.dispatch(addInitKernel(), { ctl, pairs, links, queues, pool_c }, 1, b.paramsFor(addInitKernel(), { root_a, root_b, capacity, words }));
 * ```
 */
export function addInitKernel() {
  return addInit({});
}

const clearPool = defineKernel({
  name: 'hisparse/add/clear-pool',
  bindings: { ctl: readWrite('array<u32>'), pool_c: readWrite('array<vec4<u32>>') },
  wgsl: () => `
// C's pool after its header up to the total the counting sweep reserved (clipped to the pool):
// the fill writes only the words of entries, so padding and empty dense slots must be 0, and a
// reused pool holds the last add's nodes. Strided, so the host-sized grid covers any total.
@compute @workgroup_size(${INIT_GROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let end = min(ctl[${CONTROL.total}u], arrayLength(&pool_c) * 4u) / 4u;
  let stride = groups.x * ${INIT_GROUP}u;
  for (var i = ${POOL_HEADER_WORDS / 4}u + gid.x; i < end; i += stride) {
    pool_c[i] = vec4<u32>(0u);
  }
}
`,
});

/**
 * Zeroes C's reused pool from word 4 up to the total the counting sweep reserved (strided over
 * any grid). Bindings: `ctl`, `pool_c` (as vec4s). No params.
 *
 * @example
 * ```ts
 * b.dispatch(clearPoolKernel(), { ctl, pool_c }, Math.min(1024, Math.ceil(words / 1024)));
 * ```
 */
export function clearPoolKernel() {
  return clearPool({});
}
