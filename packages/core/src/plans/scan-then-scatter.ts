import type { ScanContext } from '../context.js';
import { dispatchShape } from '../dispatch.js';
import { scatterKernel } from '../kernels/scatter.js';
import { RecipeExecutor } from './executor.js';
import { planOf } from './plan-of.js';
import { type Recipe, RecipeBuilder } from './recipe.js';
import { createScanPlan, type InternalScanOptions } from './scan-plan.js';
import type { Plan } from './types.js';

/** The buffers of one scan-then-scatter split or pack, by role (`count`: falses or kept elements). */
export interface ScatterBuffers {
  input: GPUBuffer;
  flags: GPUBuffer;
  output: GPUBuffer;
  count: GPUBuffer;
}

/**
 * The paper's two-pass split and pack (Sengupta et al. 2007, §2.3.3): an enumerate (core's scan of
 * the u32 flags, negated for split) written to scratch, then a scatter kernel that moves each
 * element to the address it derives. Kept as the `'scan-then-scatter'` algorithm for comparison
 * with the one-pass kernels. `count` > 0.
 *
 * @example
 * ```ts
 * const plan = scanThenScatterPlan(ctx, 'pack', 1 << 20);
 * plan.encode(encoder, { input, flags, output, count: countBuffer, n });
 * ```
 */
export function scanThenScatterPlan(ctx: ScanContext, mode: 'split' | 'pack', maxCount?: number): Plan<ScatterBuffers & { n: number }> {
  // Split enumerates the falses (scan of 1 − flag); pack enumerates the trues.
  const enumerate = createScanPlan(ctx, { type: 'u32', op: 'add', mapInput: mode === 'split' ? 'not' : 'none' } as InternalScanOptions);
  const workgroupSize = Math.min(256, ctx.caps.limits.maxComputeInvocationsPerWorkgroup);
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const exec = new RecipeExecutor(ctx, mode);
  const kernel = scatterKernel({ mode, workgroupSize });
  // Whole buffers: the kernel stops at params.count, so one bind group serves every count.
  const bindings = {
    data: { role: 'input', offset: 0 },
    flags: { role: 'flags', offset: 0 },
    addr: { scratch: 'addr' },
    moved: { role: 'output', offset: 0 },
    count_out: { role: 'count', offset: 0, size: 4 },
  } as const;
  const build = (count: number): Recipe => {
    const b = new RecipeBuilder();
    b.needScratch('addr', 4 * count);
    const workgroups = Math.ceil(count / workgroupSize);
    b.dispatch(kernel, bindings, workgroups, { count, dispatch_x: dispatchShape(workgroups, maxDim).x });
    return b.build();
  };
  if (maxCount !== undefined && maxCount > 0) exec.reserve(build(maxCount));
  return planOf([enumerate, exec], {
    what: `${mode} plan`,
    encode(encoder, { n, ...roles }) {
      const recipe = build(n);
      exec.reserveFor(() => recipe);
      enumerate.encode(encoder, { input: roles.flags, output: exec.scratchBuffer('addr'), count: n });
      exec.encode(encoder, () => recipe, roles);
    },
    ready: exec.load([build(1)]),
  });
}
