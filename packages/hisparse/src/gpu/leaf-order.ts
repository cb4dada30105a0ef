import type { ScanContext } from '@scan/core';
import { type BufferRef, RecipeBuilder, type RecipeExecutor } from '@scan/core/kit';
import { createSortPlan } from '@scan/sort';
import { QUEUE_ENTRY_WORDS } from './kernels/expand-kernel.js';
import { LEAF_ORDER_WORKGROUP, leafKeyShift, leafOrderKernel } from './kernels/leaf-order-kernels.js';

/** What {@link encodeLeafOrder} needs to know of a plan's leaf queue. */
export interface LeafOrderSpec {
  /** Leaves in the queue (the census's). */
  readonly leaves: number;
  /** Where the COO1, COO2 and COO4 leaves start in the queue (dense ones at 0). */
  readonly bases: readonly number[];
  /** Index of the size classes' first counter word. */
  readonly classCounter: number;
  readonly nodeSize: number;
  /** The product reads blocks transposed: its outputs are the stored columns. */
  readonly swap: boolean;
  readonly outLength: number;
}

/**
 * Records the ordering of a product plan's leaf queue by output block (see `leafOrderKernel`): keys,
 * a stable radix sort of (key, index) pairs with `@scan/sort`, the gather into `sorted` and its copy
 * back over the queue. Roles: `queue` (the leaf queue), `counters`, and scratch `keys`, `perm`
 * (4 bytes per leaf each) and `sorted` (12 bytes per leaf), all only needed until this runs.
 * Returns the sort plan, to be destroyed once the commands are submitted (its `allocations` are the
 * buffers it made).
 *
 * @example
 * ```ts
 * const sort = encodeLeafOrder(ctx, exec, encoder, roles, { leaves, bases, classCounter, nodeSize: 64, swap: false, outLength: rows });
 * ctx.device.queue.submit([encoder.finish()]);
 * sort.destroy();
 * ```
 */
export function encodeLeafOrder(
  ctx: ScanContext,
  exec: RecipeExecutor,
  encoder: GPUCommandEncoder,
  roles: Readonly<Record<string, GPUBuffer>>,
  spec: LeafOrderSpec,
): { destroy(): void; readonly allocations: number } {
  const n = spec.leaves;
  const groups = Math.ceil(n / LEAF_ORDER_WORKGROUP);
  const shift = leafKeyShift(spec.outLength, spec.nodeSize);
  const whole = (role: string): BufferRef => ({ role, offset: 0 });

  const keys = new RecipeBuilder();
  const keyBindings = { queue: whole('queue'), counters: whole('counters'), keys: whole('keys'), perm: whole('perm') };
  const [, b1, b2, b3] = spec.bases as [number, number, number, number];
  const log2d = Math.log2(spec.nodeSize);
  const keyParams = { n, b1, b2, b3, class_counter: spec.classCounter, log2d, swap: spec.swap ? 1 : 0, shift };
  keys.dispatch(leafOrderKernel('key'), keyBindings, groups, keyParams);
  const keysRecipe = keys.build();
  exec.encode(encoder, () => keysRecipe, roles);

  // Stable: each group's run stays where the leaf dispatches expect it.
  const sort = createSortPlan(ctx, { keyType: 'u32', valueType: 'u32', bits: [0, shift + 3], maxCount: n });
  sort.encode(encoder, { keys: roles['keys'] as GPUBuffer, values: roles['perm'] as GPUBuffer, count: n });

  const gather = new RecipeBuilder();
  const gatherBindings = { queue: whole('queue'), perm: whole('perm'), sorted: whole('sorted') };
  const gatherParams = { n, b1: 0, b2: 0, b3: 0, class_counter: 0, log2d: 0, swap: 0, shift: 0 };
  gather.dispatch(leafOrderKernel('gather'), gatherBindings, groups, gatherParams);
  gather.copy(whole('sorted'), whole('queue'), 4 * QUEUE_ENTRY_WORDS * n);
  const gatherRecipe = gather.build();
  exec.encode(encoder, () => gatherRecipe, roles);
  return sort;
}
