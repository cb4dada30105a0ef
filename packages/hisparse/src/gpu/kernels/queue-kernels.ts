import { defineKernel, read, readWrite } from '@scan/core/kit';

const queueArgs = defineKernel({
  name: 'hisparse/queue-args',
  bindings: { counters: read('array<u32>'), args: readWrite('array<u32>') },
  params: { first: 'u32', per0: 'u32', per1: 'u32', per2: 'u32', per3: 'u32', max_dim: 'u32' },
  wgsl: () => `
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) t: u32) {
  let per = select(select(select(params.per3, params.per2, t == 2u), params.per1, t == 1u), params.per0, t == 0u);
  let groups = (counters[params.first + t] + per - 1u) / per;
  let x = min(groups, params.max_dim);
  let at = (params.first + t) * 3u;
  args[at] = x;
  args[at + 1u] = select((groups + x - 1u) / max(x, 1u), 1u, groups == 0u);
  args[at + 2u] = 1u;
}
`,
});

/**
 * Sizes one level's four dispatches on the GPU: invocation t turns the count of queue t into the
 * x, y, z workgroup counts of `dispatchWorkgroupsIndirect` (⌈count / per-workgroup⌉ as x·y with x
 * at most the device's per-dimension limit; 0, 1, 1 for an empty queue). This is what keeps the
 * traversal free of read-backs between levels.
 *
 * Bindings: `counters` (the queue counts), `args` (three words per queue). Params: `first` (the
 * first counter index), `per0`…`per3` (the nodes per workgroup of the four types), `max_dim` (the
 * per-dimension limit).
 *
 * @example
 * ```ts
 * b.dispatch(queueArgsKernel(), { counters, args }, 1, { first: 4 * level, per0, per1, per2, per3, max_dim: maxDim });
 * ```
 */
export function queueArgsKernel() {
  return queueArgs({});
}

const seed = defineKernel({
  name: 'hisparse/seed',
  bindings: { counters: readWrite('array<u32>'), queue: readWrite('array<u32>') },
  params: { root: 'u32' },
  wgsl: () => `
@compute @workgroup_size(1)
fn main() {
  counters[params.root & 3u] = 1u;
  queue[0] = params.root;
  queue[1] = 0u;
  queue[2] = 0u;
}
`,
});

/**
 * Puts the root into the first level's queue (its type's queue, at base 0) and sets that
 * queue's count to 1, after the counters were cleared: the one piece of work the host hands over.
 *
 * Bindings: `counters`, `queue`. Params: `root`, the root pointer.
 *
 * @example
 * ```ts
 * b.dispatch(seedKernel(), { counters, queue }, 1, { root: parts.root });
 * ```
 */
export function seedKernel() {
  return seed({});
}
