import { createScanPlan, type ScanContext, type ScanPlan } from '@scan/core';
import { dispatchShape, RecipeBuilder, type RecipeExecutor } from '@scan/core/kit';
import { headFlagsKernel, nodeSizesKernel, nodeStartsKernel } from './binning-kernels.js';
import type { BuildShape } from './hierarchical-order.js';
import { BUILD_WORKGROUP, buildParams } from './params.js';

/**
 * Records the binning of one level ℓ on entries in hierarchical order: head flags of its nodes and
 * of their entries, exclusive scans of both (node and entry indices; at element n the level's node
 * and entry counts), each node's first entry, its size in words (type by the CPU rule) and the
 * exclusive scan of the sizes (`offsets`, at n the level's words). The filling of level ℓ reads
 * what this leaves; the first pass of the build reads only the three totals.
 *
 * @example
 * ```ts
 * const binning = createLevelBinning(ctx, exec, shape);
 * binning.encode(encoder, roles, level);
 * binning.destroy();
 * ```
 */
export interface LevelBinning {
  encode(encoder: GPUCommandEncoder, roles: Readonly<Record<string, GPUBuffer>>, level: number): void;
  destroy(): void;
}

/**
 * Creates the {@link LevelBinning} of a build of `shape` (one exclusive u32 scan plan of n + 1
 * elements shared by the three scans of every level).
 *
 * @example
 * ```ts
 * const binning = createLevelBinning(ctx, exec, { n, rows, levels, log2d });
 * ```
 */
export function createLevelBinning(ctx: ScanContext, exec: RecipeExecutor, shape: BuildShape): LevelBinning {
  const count = shape.n + 1;
  const scan: ScanPlan = createScanPlan(ctx, { type: 'u32', op: 'add', inclusive: false, maxCount: count });
  const groups = Math.ceil(count / BUILD_WORKGROUP);
  const dispatchX = dispatchShape(groups, ctx.caps.limits.maxComputeWorkgroupsPerDimension).x;
  const ref = (role: string) => ({ role, offset: 0, size: 4 * count });
  const entries = { role: 'entries', offset: 0, size: 16 * shape.n };
  return {
    encode(encoder, roles, level) {
      const params = buildParams({ ...shape, level, dispatchX });
      const flags = new RecipeBuilder();
      flags.dispatch(headFlagsKernel(), { entries, node_flag: ref('nodeFlag'), child_flag: ref('childFlag') }, groups, params);
      const flagsRecipe = flags.build();
      // Every level binds the same arrays (the level is a parameter): one structure for all of them.
      exec.encode(encoder, () => flagsRecipe, roles);
      scan.encode(encoder, { input: roles.nodeFlag as GPUBuffer, output: roles.nodeExcl as GPUBuffer, count });
      scan.encode(encoder, { input: roles.childFlag as GPUBuffer, output: roles.childExcl as GPUBuffer, count });
      const sizes = new RecipeBuilder();
      const starts = nodeStartsKernel();
      const p = sizes.paramsFor(starts, params);
      const excl = { node_excl: ref('nodeExcl'), first_child: ref('firstChild') };
      sizes.dispatch(starts, { entries, ...excl, child_excl: ref('childExcl') }, groups, p);
      sizes.dispatch(nodeSizesKernel(), { ...excl, words: ref('words') }, groups, p);
      const sizesRecipe = sizes.build();
      exec.encode(encoder, () => sizesRecipe, roles);
      scan.encode(encoder, { input: roles.words as GPUBuffer, output: roles.offsets as GPUBuffer, count });
    },
    destroy() {
      scan.destroy();
    },
  };
}
