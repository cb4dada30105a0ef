import type { ScanContext } from '@scan/core';
import { dispatchShape, RecipeBuilder, type RecipeExecutor } from '@scan/core/kit';
import { createSegmentedReducePlan } from '@scan/segmented';
import { runHeadsKernel, runSumsKernel } from './duplicate-kernels.js';
import type { BuildShape } from './hierarchical-order.js';
import { BUILD_WORKGROUP, buildParams } from './params.js';

/**
 * Records the summing of duplicate positions, for a build whose leaf level has `runs` < n entries
 * (the first pass's totals tell): after the binning of the leaf level (its `childExcl` numbers the
 * runs of equal keys) and before its filling, the values of every run are reduced in f32 by
 * `@scan/segmented` (head flags where an entry's depth is ≤ L) and each run of two or more gets the
 * sum in its first entry. Uses the per-entry scratch left free after the sort: `sortKey` (the
 * values), `keyLo` (the packed head flags) and `perm` (one sum per run). Returns the reduction plan
 * to destroy after submit.
 *
 * @example
 * ```ts
 * binning.encode(encoder, roles, levels - 1);
 * if (runs < n) owned.push(encodeDuplicateSums(ctx, exec, encoder, roles, shape, runs));
 * ```
 */
export function encodeDuplicateSums(
  ctx: ScanContext,
  exec: RecipeExecutor,
  encoder: GPUCommandEncoder,
  roles: Readonly<Record<string, GPUBuffer>>,
  shape: BuildShape,
  runs: number,
): { destroy(): void } {
  const { n } = shape;
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const headWords = Math.ceil(n / 32);
  const headGroups = Math.ceil(headWords / BUILD_WORKGROUP);
  const entryGroups = Math.ceil(n / BUILD_WORKGROUP);
  const entries = { role: 'entries', offset: 0, size: 16 * n };
  const heads = new RecipeBuilder();
  heads.dispatch(
    runHeadsKernel(),
    { entries, run_values: { role: 'sortKey', offset: 0, size: 4 * n }, head_bits: { role: 'keyLo', offset: 0, size: 4 * headWords } },
    headGroups,
    buildParams({ ...shape, dispatchX: dispatchShape(headGroups, maxDim).x }),
  );
  const headsRecipe = heads.build();
  exec.encode(encoder, () => headsRecipe, roles);
  const reduce = createSegmentedReducePlan(ctx, { type: 'f32', op: 'add', maxCount: n });
  reduce.encode(encoder, {
    input: roles.sortKey as GPUBuffer,
    headBits: roles.keyLo as GPUBuffer,
    output: roles.perm as GPUBuffer,
    count: n,
    segments: runs,
  });
  const sums = new RecipeBuilder();
  sums.dispatch(
    runSumsKernel(),
    { entries, child_excl: { role: 'childExcl', offset: 0, size: 4 * (n + 1) }, sums: { role: 'perm', offset: 0, size: 4 * runs } },
    entryGroups,
    buildParams({ ...shape, dispatchX: dispatchShape(entryGroups, maxDim).x }),
  );
  const sumsRecipe = sums.build();
  exec.encode(encoder, () => sumsRecipe, roles);
  return reduce;
}
