import { defineKernel, read, readWrite } from '@scan/core/kit';
import { QUEUE_ENTRY_WORDS } from './expand-kernel.js';
import { classOfWgsl } from './size-classes.js';

/**
 * Words the size classes add after the level counters, from the plan's `classCounter` index c:
 * c + k the count of class k (c + 3 stays 0, so the queue-sizing kernel's fourth slot sizes an
 * empty dispatch), c + 4 + k where class k starts inside the COO4 leaves, c + 7 a word that stays
 * 0 (the start of every queue that is not split), c + 8 + k the scatter's cursors.
 *
 * @example
 * ```ts
 * const counterWords = 4 * levels + CLASS_COUNTER_WORDS;
 * ```
 */
export const CLASS_COUNTER_WORDS = 12;

/** Where the class words sit, relative to the plan's class counter index (see {@link CLASS_COUNTER_WORDS}). */
export const CLASS_WORD = { count: 0, start: 4, zero: 7, cursor: 8 } as const;

const WORKGROUP = 256;

/**
 * The workgroups of one size-class pass over `leaves` COO4 leaves (one invocation per leaf).
 *
 * @example
 * ```ts
 * b.dispatch(sizeClassKernel('count'), bindings, sizeClassWorkgroups(census.nodes[L - 1][3]), params);
 * ```
 */
export function sizeClassWorkgroups(leaves: number): number {
  return Math.ceil(leaves / WORKGROUP);
}

const sizeClass = defineKernel({
  name: 'hisparse/size-class',
  bindings: (spec: { mode: 'count' | 'scatter' }) => ({
    pool: read('array<u32>'),
    queue: read('array<u32>'),
    counters: readWrite('array<atomic<u32>>'),
    sorted: spec.mode === 'scatter' ? readWrite('array<u32>') : undefined,
  }),
  params: { first: 'u32', leaves: 'u32', class_counter: 'u32' },
  wgsl: (spec) => sizeClassWgsl(spec.mode),
});

/**
 * The per-size queues of the COO4 leaves, filled on the GPU once the traversal has left them in
 * the leaf queue (their number is the census's, so the host sizes these dispatches). `'count'`:
 * each leaf's class from its entry count, tallied per workgroup and added to the class counts.
 * `'scatter'`: from the counts, where each class starts (written for the leaf kernels), then every
 * leaf copied into its class's run of `sorted` with one global atomic per class and workgroup.
 * The plan copies `sorted` back over the COO4 part of the leaf queue and sizes one dispatch per
 * class from the counts.
 *
 * Bindings: `pool`, `queue` (the leaf queue), `counters`, and for `'scatter'` `sorted`. Params:
 * `first` (the COO4 leaves' first queue entry), `leaves` (their number), `class_counter` (the class
 * counter index).
 *
 * @example
 * ```ts
 * const params = b.paramsFor(sizeClassKernel('count'), { first, leaves, class_counter: classCounter });
 * b.dispatch(sizeClassKernel('count'), { pool, queue, counters }, groups, params);
 * b.dispatch(sizeClassKernel('scatter'), { pool, queue, counters, sorted }, groups, params);
 * ```
 */
export function sizeClassKernel(mode: 'count' | 'scatter') {
  return sizeClass({ mode });
}

function sizeClassWgsl(mode: 'count' | 'scatter'): string {
  const W = QUEUE_ENTRY_WORDS;
  const scatter = mode === 'scatter';
  return `
var<workgroup> wg_count: array<atomic<u32>, 3>;
var<workgroup> wg_base: array<u32, 3>;

${classOfWgsl()}

@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let i = gid.x;
  let live = i < params.leaves;
  let e = (params.first + min(i, max(params.leaves, 1u) - 1u)) * ${W}u;
  let cls = class_of(pool[queue[e] & ~3u]);
  var rank = 0u;
  if (live) { rank = atomicAdd(&wg_count[cls], 1u); }
  workgroupBarrier();
  let c = params.class_counter;
${
  scatter
    ? `  // Starts: class k begins after the classes before it (every workgroup computes the same).
  let n0 = atomicLoad(&counters[c + ${CLASS_WORD.count}u]);
  let n1 = atomicLoad(&counters[c + ${CLASS_WORD.count + 1}u]);
  if (gid.x == 0u) {
    atomicStore(&counters[c + ${CLASS_WORD.start}u], 0u);
    atomicStore(&counters[c + ${CLASS_WORD.start + 1}u], n0);
    atomicStore(&counters[c + ${CLASS_WORD.start + 2}u], n0 + n1);
  }
  // Reserve: one run per class for the workgroup.
  if (lid < 3u) {
    let start = select(select(n0 + n1, n0, lid == 1u), 0u, lid == 0u);
    let n = atomicLoad(&wg_count[lid]);
    if (n > 0u) { wg_base[lid] = start + atomicAdd(&counters[c + ${CLASS_WORD.cursor}u + lid], n); }
  }
  workgroupBarrier();
  // Scatter: the leaf's queue entry into its class's run.
  if (live) {
    let dst = (wg_base[cls] + rank) * ${W}u;
    for (var w = 0u; w < ${W}u; w++) { sorted[dst + w] = queue[e + w]; }
  }`
    : `  // Tally: this workgroup's leaves per class.
  if (lid < 3u) {
    let n = atomicLoad(&wg_count[lid]);
    if (n > 0u) { atomicAdd(&counters[c + ${CLASS_WORD.count}u + lid], n); }
  }`
}
}
`;
}
