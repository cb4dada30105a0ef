import { createStorageBuffer, type ScanContext } from '@scan/core';

// The working arrays of one GPU build. All are O(nnz): per-level arrays are reused from level to
// level (the levels are binned one after the other), so the build holds about 17 words per
// nonzero besides the input and the pool, whatever the depth of the hierarchy.

/**
 * The build's scratch buffers by role name (the names the recipes bind), each owned by the build.
 *
 * @example
 * ```ts
 * const scratch = createBuildScratch(ctx, nnz, levels);
 * scratch.destroy();
 * ```
 */
export interface BuildScratch {
  /** Buffers by role: per nonzero (`keyLo`, `keyHi`, `sortKey`, `perm`, `entries` of vec4) and per level (n + 1 words each). */
  readonly roles: Readonly<Record<string, GPUBuffer>>;
  /** Per level ℓ: nodes, entries, words at `[3ℓ, 3ℓ + 3)` (what the host reads back). */
  readonly stats: GPUBuffer;
  destroy(): void;
}

/** Per-nonzero arrays (n words) of the hierarchical order. */
const PER_ENTRY = ['keyLo', 'keyHi', 'sortKey', 'perm'] as const;
/** Per-level arrays (n + 1 words, the last a sentinel holding the level's total). */
const PER_LEVEL = ['nodeFlag', 'childFlag', 'nodeExcl', 'childExcl', 'firstChild', 'words', 'offsets', 'ptrEven', 'ptrOdd'] as const;

/**
 * Allocates the scratch of a build of `n` ≥ 1 nonzeros over `levels` levels.
 *
 * @example
 * ```ts
 * const { roles, stats } = createBuildScratch(ctx, 1000, 2);
 * ```
 */
export function createBuildScratch(ctx: ScanContext, n: number, levels: number): BuildScratch {
  const roles: Record<string, GPUBuffer> = {};
  for (const name of PER_ENTRY) roles[name] = createStorageBuffer(ctx, 4 * n, `hisparse build ${name}`);
  roles.entries = createStorageBuffer(ctx, 16 * n, 'hisparse build entries');
  for (const name of PER_LEVEL) roles[name] = createStorageBuffer(ctx, 4 * (n + 1), `hisparse build ${name}`);
  const stats = createStorageBuffer(ctx, 12 * levels, 'hisparse build level totals');
  return {
    roles,
    stats,
    destroy() {
      for (const b of Object.values(roles)) b.destroy();
      stats.destroy();
    },
  };
}
