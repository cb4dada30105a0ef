import type { Plan, ScanContext } from '@scan/core';
import { planOf, type Recipe, RecipeExecutor, StructureVariants } from '@scan/core/kit';
import type { ValueMode } from '../kernels/radix-onesweep.js';
import { type RadixTuning, radixConfig, smallSortCapacity } from './radix-config.js';
import { type CountSource, DIRECT_COUNT, radixRecipes, smallSortRecipes } from './radix-recipe.js';
import type { SortShape } from './sort-shape.js';

export { type RadixConfig, type RadixTuning, radixConfig, smallSortCapacity } from './radix-config.js';

/** Buffers of one internal radix sort (already validated by the public plan). */
export interface RadixBuffers {
  readonly keys: GPUBuffer;
  /** The values, or (values 'index') where the permutation goes. */
  readonly values?: GPUBuffer;
  readonly count: number | { readonly buffer: GPUBuffer; readonly offset: number };
}

/** What a radix sort is made with. */
export interface RadixOptions {
  /** 'none', 'move', or 'index' (argsort: the first pass writes each key's index). */
  readonly values: ValueMode;
  /** Scratch for this many keys is allocated up front; an indirect count needs it (its capacity). */
  readonly maxCount?: number;
  /** Whether encodes may read the count on the GPU (with `maxCount`): `ready` then compiles those kernels too. */
  readonly gpuCount?: boolean;
  readonly tuning?: RadixTuning;
  /**
   * The structures whose bind groups a host encode makes when it meets a new set of buffers
   * (default: this sorter's `hostPaths`). Sorters that one plan picks between by the count (the
   * segmented sort's sorts by segment) share one list of all their paths.
   */
  readonly variants?: StructureVariants;
}

/** A radix sort recording into an executor it shares with others (see {@link radixSorter}). */
export interface RadixSorter {
  /** Records a sort of `args` through the executor. */
  encode(encoder: GPUCommandEncoder, args: RadixBuffers): void;
  /** A recipe of every path the sort may take, for the executor's `load`. */
  readonly paths: readonly Recipe[];
  /** A recipe of each structure a host count may take (see `RadixOptions.variants`). */
  readonly hostPaths: readonly Recipe[];
}

/**
 * A radix sort recorded through `exec`, whose scratch (`altKeys`, `altValues`, `status`) it uses —
 * sorts that share an executor share that scratch, which is safe since each sort clears what it
 * reads before it reads it.
 *
 * Two paths: a count up to `config.small.max` (tuning `smallSortMax`; a host count above 1, or 1
 * for argsort, which must still write index 0) is ONE dispatch of the one-workgroup bitonic sort,
 * whose network is the smallest tier that holds the count (no clear, no scratch); larger counts take
 * the one-sweep passes. A GPU count takes the small path when the plan's `maxCount` is small enough
 * for it; its recipe starts with a count fixup that writes the count into the parameters of the
 * kernels after it (the same kernels as a host count's). Each path (the one-sweep passes or a
 * small tier, with a host or a GPU count) has one structure: the count (host or GPU, and the GPU
 * count's word) only changes parameters and workgroup counts.
 *
 * @example
 * ```ts
 * const exec = new RecipeExecutor(ctx, 'segmented sort plan');
 * const byKey = radixSorter(ctx, exec, shape, { values: 'index' });
 * byKey.encode(encoder, { keys, values: perm, count: n });
 * ```
 */
export function radixSorter(ctx: ScanContext, exec: RecipeExecutor, sort: SortShape, options: RadixOptions): RadixSorter {
  const config = radixConfig(ctx, sort, options.tuning ?? {});
  const build = radixRecipes(ctx, config, options.values);
  const small = smallSortRecipes(config, options.values);
  const { values, maxCount } = options;
  // The largest host count expected (maxCount 0 or none: any).
  const reach = maxCount || Number.POSITIVE_INFINITY;
  if (maxCount !== undefined && maxCount > 0 && smallSortCapacity(config.small, maxCount) === undefined) {
    exec.reserve(build(maxCount, DIRECT_COUNT));
  }
  // Every kernel a count up to `reach` may run: they depend on where the count comes from and on
  // the small path's tier, never on the count itself.
  const paths: Recipe[] = [];
  // The structures of a host count: each small tier up to `reach`, and the one-sweep passes.
  const hostPaths: Recipe[] = [];
  const top = Math.min(reach, config.small.max);
  config.small.tiers.forEach((capacity, i) => {
    // A tier serves the counts above the tier below it.
    if ((i === 0 ? 0 : (config.small.tiers[i - 1] as number)) < top) {
      hostPaths.push(small(capacity, 1, DIRECT_COUNT));
    }
  });
  if (reach > config.small.max) hostPaths.push(build(1, DIRECT_COUNT));
  paths.push(...hostPaths);
  // The first host encode with a set of buffers makes the bind groups of every one of them, so a
  // frame loop's count that first drops into a small tier creates nothing (see StructureVariants).
  // Choosing the path from maxCount instead would give up the one-workgroup sort's speed at small
  // counts (2.5× at 2^10 on the H100).
  const variants = options.variants ?? new StructureVariants(() => hostPaths);
  if (options.gpuCount && maxCount !== undefined && maxCount > 0) {
    const capacity = smallSortCapacity(config.small, maxCount);
    paths.push(capacity === undefined ? build(1, { kind: 'indirect', word: 0 }) : small(capacity, 1, { kind: 'indirect', word: 0 }));
  }
  return {
    paths,
    hostPaths,
    encode(encoder, args) {
      const roles: Record<string, GPUBuffer> = { keys: args.keys };
      if (args.values) roles.values = args.values;
      const count = args.count;
      if (typeof count === 'number') {
        // One key is sorted already, but argsort's index must still be written.
        if (count === 0 || (count === 1 && values !== 'index')) return;
        const capacity = smallSortCapacity(config.small, count);
        if (capacity !== undefined) {
          exec.encode(encoder, () => small(capacity, count, DIRECT_COUNT), roles, variants);
          return;
        }
        exec.encode(encoder, () => build(count, DIRECT_COUNT), roles, variants);
        return;
      }
      const most = maxCount ?? 0;
      if (most === 0) return;
      roles.gpuCount = count.buffer;
      const source: CountSource = { kind: 'indirect', word: count.offset / 4 };
      const capacity = smallSortCapacity(config.small, most);
      if (capacity !== undefined) {
        exec.encode(encoder, () => small(capacity, most, source), roles);
        return;
      }
      exec.encode(encoder, () => build(most, source), roles);
    },
  };
}

/**
 * A radix sort plan over validated buffers, with its own executor (see {@link radixSorter}): one
 * structure for a host count and one for a GPU count (of at most `maxCount`) per path, so a new
 * count is new parameters. Scratch of the one-sweep passes: the keys and values once more, and a
 * status area (2 KiB of digit counts per digit pass, then a look-back area of 1 KiB per tile per digit pass), grown
 * by doubling or sized once by `maxCount` (none when `maxCount` is small enough for the
 * one-workgroup sort, which needs no scratch); a 4-slot parameter ring; with a GPU count, the
 * parameter blocks its count fixup fills, 256 bytes apart (the one-workgroup sort's: 32 bytes; the
 * passes': one for the histogram, one per digit pass and, with an odd number of them, one for the
 * copy home).
 *
 * @example
 * ```ts
 * const radix = createRadixSort(ctx, shape, { values: 'move', maxCount: 1 << 20 });
 * await radix.ready;
 * radix.encode(encoder, { keys, values, count: n });
 * ```
 */
export function createRadixSort(ctx: ScanContext, sort: SortShape, options: RadixOptions): Plan<RadixBuffers> {
  const exec = new RecipeExecutor(ctx, 'sort plan');
  const sorter = radixSorter(ctx, exec, sort, options);
  return planOf([exec], { what: 'sort plan', encode: sorter.encode, ready: exec.load(sorter.paths) });
}
