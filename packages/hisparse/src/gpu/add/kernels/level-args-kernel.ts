import type { KernelSpec } from '@scan/core/kit';
import { CONTROL, LEVEL_WORDS } from '../items.js';

/**
 * Sizes level `params.level` on the GPU once the level above has queued its children (the role of
 * the paper's GPU controller, §4.2, which reads queue fill levels instead of the CPU): its first
 * item follows the level above, its count is the queue tail minus that (clipped to the capacity),
 * and its indirect dispatch arguments are a 2-D grid of one workgroup per pair within the
 * device's per-dimension limit (x = min(count, limit), y = ⌈count / x⌉; 0 workgroups for an empty
 * level). One invocation. Bindings: 0 params (the add kernels' block), 1 control words, 2 the
 * indirect arguments (4 words per level).
 *
 * @example
 * ```ts
 * b.dispatch(levelArgsKernel(), [params, control, args], 1);
 * b.dispatchIndirect(unionCountKernel(32), [params, poolA, poolB, items, control], { role: 'args', offset: 16 * level });
 * ```
 */
export function levelArgsKernel(): KernelSpec {
  return {
    key: 'hisparse/add/level-args',
    wgsl: () => `
struct Params { level: u32, flags: u32, scale_a: f32, scale_b: f32, capacity: u32, max_dim: u32, pad0: u32, pad1: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> ctl: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> args: array<u32>;
const CTL_ITEMS = ${CONTROL.items}u;
const CTL_LEVELS = ${CONTROL.levels}u;
const LEVEL_WORDS = ${LEVEL_WORDS}u;

@compute @workgroup_size(1)
fn main() {
  let above = CTL_LEVELS + LEVEL_WORDS * (params.level - 1u);
  let first = atomicLoad(&ctl[above]) + atomicLoad(&ctl[above + 1u]);
  let tail = max(min(atomicLoad(&ctl[CTL_ITEMS]), params.capacity), first);
  let count = tail - first;
  let x = min(count, params.max_dim);
  let y = select(0u, (count + x - 1u) / max(x, 1u), x > 0u);
  let r = CTL_LEVELS + LEVEL_WORDS * params.level;
  atomicStore(&ctl[r], first);
  atomicStore(&ctl[r + 1u], count);
  atomicStore(&ctl[r + 2u], x);
  let a = LEVEL_WORDS * params.level;
  args[a] = x;
  args[a + 1u] = y;
  args[a + 2u] = 1u;
}
`,
  };
}
