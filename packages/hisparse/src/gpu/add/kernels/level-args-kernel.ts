import type { KernelSpec } from '@scan/core/kit';
import { CONTROL, LEVEL_WORDS, SMALL_PAIR_GROUP } from '../items.js';

/**
 * Sizes level `params.level` on the GPU once the level above has queued its children (the role of
 * the paper's GPU controller, §4.2, which reads queue fill levels instead of the CPU): for each of
 * the two queues, the level's first entry follows the level above, its count is the queue's tail
 * minus that (clipped to the capacity), and its indirect dispatch arguments are a 2-D grid within
 * the device's per-dimension limit (x = min(groups, limit), y = ⌈groups / x⌉; no workgroups for an
 * empty queue) — one workgroup per large pair, one thread per small pair. One invocation.
 * Bindings: 0 params (the add kernels' block), 1 control words, 2 the indirect arguments
 * (`LEVEL_WORDS` per level: the large queue's x, y, z, pad, then the small queue's).
 *
 * @example
 * ```ts
 * b.dispatch(levelArgsKernel(), [params, control, args], 1);
 * ```
 */
export function levelArgsKernel(): KernelSpec {
  return {
    key: 'hisparse/add/level-args',
    wgsl: () => `
struct Params { level: u32, flags: u32, scale_a: f32, scale_b: f32, capacity: u32, max_dim: u32, tally: u32, pad1: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> ctl: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> args: array<u32>;
const CTL_LEVELS = ${CONTROL.levels}u;
const LEVEL_WORDS = ${LEVEL_WORDS}u;

// One queue's range (at word \`part\` of the level records: 0 large, 4 small) and dispatch.
fn size_queue(part: u32, tail_word: u32, per_group: u32) {
  let above = CTL_LEVELS + LEVEL_WORDS * (params.level - 1u) + part;
  let first = atomicLoad(&ctl[above]) + atomicLoad(&ctl[above + 1u]);
  let tail = max(min(atomicLoad(&ctl[tail_word]), params.capacity), first);
  let count = tail - first;
  let groups = (count + per_group - 1u) / per_group;
  let x = min(groups, params.max_dim);
  let y = select(0u, (groups + x - 1u) / max(x, 1u), x > 0u);
  let r = CTL_LEVELS + LEVEL_WORDS * params.level + part;
  atomicStore(&ctl[r], first);
  atomicStore(&ctl[r + 1u], count);
  atomicStore(&ctl[r + 2u], x);
  let a = LEVEL_WORDS * params.level + part;
  args[a] = x;
  args[a + 1u] = y;
  args[a + 2u] = 1u;
}

@compute @workgroup_size(1)
fn main() {
  size_queue(0u, ${CONTROL.largeTail}u, 1u);
  size_queue(4u, ${CONTROL.smallTail}u, ${SMALL_PAIR_GROUP}u);
}
`,
  };
}
