import type { ScanContext } from '@scan/core';
import { dispatchShape, RecipeBuilder, type RecipeExecutor } from '@scan/core/kit';
import { nodeEntriesKernel, nodeHeadKernel } from './filling-kernels.js';
import type { BuildShape } from './hierarchical-order.js';
import { BUILD_WORKGROUP, buildParams } from './params.js';

/**
 * Where one level is filled: its level ℓ, the pool word its nodes start at, and its node count
 * (read back after the first pass, so the per-node kernel is launched at its exact size).
 *
 * @example
 * ```ts
 * const leaves: LevelPlace = { level: levels - 1, base: POOL_HEADER_WORDS, nodes: stats[3 * (levels - 1)] };
 * ```
 */
export interface LevelPlace {
  readonly level: number;
  readonly base: number;
  readonly nodes: number;
}

/**
 * Records the filling of one level, after its binning: node pointers and COOX counts (one
 * invocation per node), then every entry's word and coordinate. Node pointers alternate between
 * `ptrEven` and `ptrOdd` by level parity, so level ℓ writes its own while reading its children's,
 * filled just before (bottom-up). `roles` holds the build scratch and `pool`.
 *
 * @example
 * ```ts
 * encodeLevelFilling(ctx, exec, encoder, roles, shape, { level: 0, base: 4 + below, nodes: 1 });
 * ```
 */
export function encodeLevelFilling(
  ctx: ScanContext,
  exec: RecipeExecutor,
  encoder: GPUCommandEncoder,
  roles: Readonly<Record<string, GPUBuffer>>,
  shape: BuildShape,
  place: LevelPlace,
): void {
  const { n } = shape;
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const ref = (role: string) => ({ role, offset: 0, size: 4 * (n + 1) });
  const own = place.level % 2 === 0 ? 'ptrEven' : 'ptrOdd';
  const below = place.level % 2 === 0 ? 'ptrOdd' : 'ptrEven';
  const pool = { role: 'pool', offset: 0 };
  const b = new RecipeBuilder();
  const nodeGroups = Math.ceil(place.nodes / BUILD_WORKGROUP);
  const entryGroups = Math.ceil(n / BUILD_WORKGROUP);
  const params = (groups: number) =>
    buildParams({ ...shape, level: place.level, base: place.base, dispatchX: dispatchShape(groups, maxDim).x });
  b.dispatch(
    nodeHeadKernel(),
    { node_excl: ref('nodeExcl'), first_child: ref('firstChild'), offsets: ref('offsets'), node_ptr: ref(own), pool },
    nodeGroups,
    params(nodeGroups),
  );
  b.dispatch(
    nodeEntriesKernel(),
    {
      entries: { role: 'entries', offset: 0, size: 16 * n },
      node_excl: ref('nodeExcl'),
      child_excl: ref('childExcl'),
      first_child: ref('firstChild'),
      node_ptr: ref(own),
      child_ptr: ref(below),
      pool,
    },
    entryGroups,
    params(entryGroups),
  );
  const recipe = b.build();
  // The level and its node count are parameters; what binds differs only by the level's parity.
  exec.encode(encoder, () => recipe, roles);
}
