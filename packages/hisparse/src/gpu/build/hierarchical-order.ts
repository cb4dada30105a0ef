import type { ScanContext } from '@scan/core';
import { dispatchShape, RecipeBuilder, type RecipeExecutor } from '@scan/core/kit';
import { createSortPlan } from '@scan/sort';
import { hierarchicalKeyKernel, hierarchicalOrderKernel, highWordKernel } from './key-kernels.js';
import { BUILD_WORKGROUP, buildParams } from './params.js';

/**
 * The shape every build step needs: nonzeros, rows, levels L and log2(d).
 *
 * @example
 * ```ts
 * const shape: BuildShape = { n: A.nnz, rows: A.rows, levels: levelsFor(A.rows, A.cols, d), log2d: Math.log2(d) };
 * ```
 */
export interface BuildShape {
  readonly n: number;
  readonly rows: number;
  readonly levels: number;
  readonly log2d: number;
}

/**
 * Bits of the hierarchical key: 2·log2(d) per level.
 *
 * @example
 * ```ts
 * keyBits({ n: 10, rows: 40_000, levels: 4, log2d: 5 }); // 40: two words, two sorts
 * ```
 */
export function keyBits(shape: BuildShape): number {
  return 2 * shape.log2d * shape.levels;
}

/**
 * Records the first phase of binning: every nonzero's hierarchical key, a stable LSD radix sort by
 * its low word and then (only when the key passes 32 bits) its high word — `@scan/sort` sorts one
 * u32 key with its value, so a 64-bit key is two stable passes — and the gather that leaves
 * `entries` (key, value bits, depth) in hierarchical order. Keys are distinct for a canonical CSR,
 * so the order is unique; duplicate positions end up adjacent in input order (the sorts are stable). `roles` must hold the matrix (`rowPtr`, `colIdx`,
 * `values`) and the scratch of `createBuildScratch`. Returns the sort plans to destroy after submit.
 *
 * @example
 * ```ts
 * const plans = encodeHierarchicalOrder(ctx, exec, encoder, roles, shape);
 * ctx.device.queue.submit([encoder.finish()]);
 * for (const p of plans) p.destroy();
 * ```
 */
export function encodeHierarchicalOrder(
  ctx: ScanContext,
  exec: RecipeExecutor,
  encoder: GPUCommandEncoder,
  roles: Readonly<Record<string, GPUBuffer>>,
  shape: BuildShape,
): { destroy(): void }[] {
  const { n } = shape;
  const bits = keyBits(shape);
  const groups = Math.ceil(n / BUILD_WORKGROUP);
  const params = buildParams({ ...shape, dispatchX: dispatchShape(groups, ctx.caps.limits.maxComputeWorkgroupsPerDimension).x });
  const ref = (role: string, words: number) => ({ role, offset: 0, size: 4 * words });
  const keys = new RecipeBuilder();
  keys.dispatch(
    hierarchicalKeyKernel(),
    {
      row_ptr: ref('rowPtr', shape.rows + 1),
      col_idx: ref('colIdx', n),
      key_lo: ref('keyLo', n),
      key_hi: ref('keyHi', n),
      sort_key: ref('sortKey', n),
      perm: ref('perm', n),
    },
    groups,
    params,
  );
  const keysRecipe = keys.build();
  exec.encode(encoder, () => keysRecipe, roles);
  const plans: { destroy(): void }[] = [];
  const sortBy = (width: number) => {
    const plan = createSortPlan(ctx, { keyType: 'u32', valueType: 'u32', bits: [0, width], maxCount: n });
    plan.encode(encoder, { keys: roles.sortKey as GPUBuffer, values: roles.perm as GPUBuffer, count: n });
    plans.push(plan);
  };
  sortBy(Math.min(32, bits));
  if (bits > 32) {
    const high = new RecipeBuilder();
    high.dispatch(highWordKernel(), { key_hi: ref('keyHi', n), perm: ref('perm', n), sort_key: ref('sortKey', n) }, groups, params);
    const highRecipe = high.build();
    exec.encode(encoder, () => highRecipe, roles);
    sortBy(bits - 32);
  }
  const order = new RecipeBuilder();
  order.dispatch(
    hierarchicalOrderKernel(),
    { perm: ref('perm', n), key_lo: ref('keyLo', n), key_hi: ref('keyHi', n), values: ref('values', n), entries: ref('entries', 4 * n) },
    groups,
    params,
  );
  const orderRecipe = order.build();
  exec.encode(encoder, () => orderRecipe, roles);
  return plans;
}
