import { defineKernel, readWrite } from '@scan/core/kit';
import { ADD_PARAMS, CONTROL, LEVEL_WORDS } from '../items.js';

const levelRange = defineKernel({
  name: 'hisparse/add/level-range',
  bindings: { ctl: readWrite('array<atomic<u32>>') },
  params: ADD_PARAMS,
  wgsl: () => `
const CTL_LEVELS = ${CONTROL.levels}u;
const LEVEL_WORDS = ${LEVEL_WORDS}u;

// One queue's range, at word \`part\` of the level records (0 large, 4 small).
fn size_queue(part: u32, tail_word: u32) {
  let above = CTL_LEVELS + LEVEL_WORDS * (params.level - 1u) + part;
  let first = atomicLoad(&ctl[above]) + atomicLoad(&ctl[above + 1u]);
  let tail = max(min(atomicLoad(&ctl[tail_word]), params.capacity), first);
  let r = CTL_LEVELS + LEVEL_WORDS * params.level + part;
  atomicStore(&ctl[r], first);
  atomicStore(&ctl[r + 1u], tail - first);
}

@compute @workgroup_size(1)
fn main() {
  size_queue(0u, ${CONTROL.largeTail}u);
  size_queue(4u, ${CONTROL.smallTail}u);
}
`,
});

/**
 * Sizes level `params.level` on the GPU once the level above has queued its children (the role of
 * the paper's GPU controller, §4.2, which reads queue fill levels instead of the CPU): for each of
 * the two queues, the level's first entry follows the level above and its count is the queue's
 * tail minus that (clipped to the capacity). The level's kernels read this range and stride over
 * it with a grid the host sized from the censuses, so nothing is read back between levels and no
 * indirect dispatch is needed (add-on-gpu.ts says why that matters). One invocation.
 * Bindings: `ctl` (the control words). Params: the add kernels' block (`ADD_PARAMS`).
 *
 * @example
 * ```ts
 * b.dispatch(levelRangeKernel(), { ctl: control }, 1, params);
 * ```
 */
export function levelRangeKernel() {
  return levelRange({});
}
