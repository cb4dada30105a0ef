import type { KernelSpec } from '@scan/core/kit';

/** Binding numbers of the queue-sizing kernel. */
export const ARGS_BINDINGS = { counters: 0, args: 1, params: 2 } as const;

/** Binding numbers of the seed kernel. */
export const SEED_BINDINGS = { counters: 0, queue: 1, params: 2 } as const;

/**
 * Sizes one level's four dispatches on the GPU: invocation t turns the count of queue t into the
 * x, y, z workgroup counts of `dispatchWorkgroupsIndirect` (⌈count / per-workgroup⌉ as x·y with x
 * at most the device's per-dimension limit; 0, 1, 1 for an empty queue). This is what keeps the
 * traversal free of read-backs between levels.
 *
 * Params: first counter index, the nodes per workgroup of the four types, the per-dimension limit.
 *
 * @example
 * ```ts
 * const kernel = queueArgsKernel();
 * ```
 */
export function queueArgsKernel(): KernelSpec {
  return {
    key: 'hisparse/queue-args',
    wgsl: () => /* wgsl */ `
struct Params { first: u32, per0: u32, per1: u32, per2: u32, per3: u32, max_dim: u32 }
@group(0) @binding(${ARGS_BINDINGS.counters}) var<storage, read> counters: array<u32>;
@group(0) @binding(${ARGS_BINDINGS.args}) var<storage, read_write> args: array<u32>;
@group(0) @binding(${ARGS_BINDINGS.params}) var<uniform> params: Params;

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
  };
}

/**
 * Puts the root into the first level's queue (its type's queue, at base 0) and sets that
 * queue's count to 1, after the counters were cleared: the one piece of work the host hands over.
 *
 * Params: the root pointer.
 *
 * @example
 * ```ts
 * const kernel = seedKernel();
 * ```
 */
export function seedKernel(): KernelSpec {
  return {
    key: 'hisparse/seed',
    wgsl: () => /* wgsl */ `
struct Params { root: u32 }
@group(0) @binding(${SEED_BINDINGS.counters}) var<storage, read_write> counters: array<u32>;
@group(0) @binding(${SEED_BINDINGS.queue}) var<storage, read_write> queue: array<u32>;
@group(0) @binding(${SEED_BINDINGS.params}) var<uniform> params: Params;

@compute @workgroup_size(1)
fn main() {
  counters[params.root & 3u] = 1u;
  queue[0] = params.root;
  queue[1] = 0u;
  queue[2] = 0u;
}
`,
  };
}
