import { assertUsable, type ScanContext } from '../context.js';
import { dispatchShape } from '../dispatch.js';
import { checkElementType } from '../element-types.js';
import { describeValue, ScanError } from '../errors.js';
import { type SearchSpec, searchKernel } from '../kernels/search.js';
import { checkCount, checkOneOf, checkOptions } from '../validate.js';
import { RecipeExecutor } from './executor.js';
import { operatorRangeRecords } from './operator-ranges.js';
import { checkEncodeArgs } from './plan-args.js';
import { planOf } from './plan-of.js';
import { type Recipe, RecipeBuilder } from './recipe.js';
import { representativeCounts, StructureVariants } from './structure-variants.js';
import type { Plan } from './types.js';

/** Options of {@link createSearchPlan}. */
export interface SearchPlanOptions {
  /** Element type of the keys and needles (default `'u32'`). */
  type?: 'u32' | 'i32' | 'f32';
  /** `'lower'` (default): the first index i with `sorted[i] >= needle`; `'upper'`: with `sorted[i] > needle`. */
  side?: 'lower' | 'upper';
  /**
   * `'sorted'`: the needles usually come ascending (or in clusters): each tile of 2048 needles first
   * finds the range of keys its least and greatest needle bound, and where that range fits the
   * workgroup's cache (2048 keys) reads it once, coalesced, and searches there alone — a merge in
   * all but name. Results are right for needles in any order either way; `'any'` (default) skips
   * the narrowing, which would cost two barriers and two searches per tile for scattered needles.
   */
  needleOrder?: 'any' | 'sorted';
  /** Largest number of needles one dispatch reads (tests lower it to exercise the chunks). */
  maxChunkElements?: number;
}

/**
 * Buffers of one sorted search: `sortedCount` keys of `sorted` (ascending in core's element order),
 * `needleCount` needles of `needles` (`sorted` may be the same buffer), and a u32 index per needle
 * written to `output` (a distinct buffer).
 */
export interface SearchEncodeArgs {
  sorted: GPUBuffer;
  sortedCount: number;
  needles: GPUBuffer;
  needleCount: number;
  output: GPUBuffer;
}

/** A sorted search recorded into the caller's encoder. */
export type SearchPlan = Plan<SearchEncodeArgs>;

/** Keys each workgroup caches: 8 KiB of workgroup memory, the first 11 levels of every search. */
const CACHE = 2048;
/** Needles per invocation: 8 searches in lock step keep 8 loads in flight. */
const NEEDLES_PER_THREAD = 8;

/**
 * Creates a reusable sorted search (buffer level), `lowerBound` or `upperBound` of many needles at
 * once: for each needle the first index i with `sorted[i] >= needle` (`'lower'`) or `> needle`
 * (`'upper'`), `sortedCount` if none. Keys and needles compare in core's element order (f32: −∞ <
 * … < −0 < +0 < … < +∞ < NaN, every NaN equal: `Float32Array.prototype.sort`'s order and
 * `@scan/sort`'s); `sorted` must be ascending in it, which is not checked (unsorted keys give
 * unspecified indices). One dispatch per chunk of needles: every workgroup caches every
 * `stride`-th key (2048 of them) in workgroup memory, then each needle takes ~11 steps there and
 * `log2(stride)` = ⌈log2(sortedCount / 2048)⌉ steps in device memory. Needles in any order; sorted
 * needles run faster by locality (neighbouring needles read the same keys), and with
 * `needleOrder: 'sorted'` each tile of them reads its range of keys once and searches it in
 * workgroup memory alone.
 * `sorted` must fit one binding. Memory: the parameter ring only.
 *
 * @example
 * ```ts
 * const plan = createSearchPlan(ctx, { type: 'f32', side: 'upper' });
 * plan.encode(encoder, { sorted, sortedCount, needles, needleCount, output });
 * ```
 */
export function createSearchPlan(ctx: ScanContext, options: SearchPlanOptions = {}): SearchPlan {
  assertUsable(ctx);
  const given = checkOptions(options, ['type', 'side', 'needleOrder', 'maxChunkElements'], 'options');
  const type = given['type'] === undefined ? 'u32' : checkElementType(given['type'], 'options.type');
  const side = checkOneOf(given['side'], ['lower', 'upper'] as const, 'options.side', 'lower');
  const narrow = checkOneOf(given['needleOrder'], ['any', 'sorted'] as const, 'options.needleOrder', 'any') === 'sorted';
  const requested =
    given['maxChunkElements'] === undefined ? undefined : checkCount(given['maxChunkElements'], 'options.maxChunkElements') || undefined;
  const what = 'search plan';
  const WG = Math.min(256, ctx.caps.limits.maxComputeInvocationsPerWorkgroup);
  const spec: SearchSpec = { type, side, workgroupSize: WG, needlesPerThread: NEEDLES_PER_THREAD, cacheSize: CACHE, narrow };
  const kernel = searchKernel(spec);
  const tileNeedles = WG * NEEDLES_PER_THREAD;
  const chunk = operatorRangeRecords(ctx, 4, requested);
  const bindable = Math.floor(ctx.caps.limits.maxStorageBufferBindingSize / 4);
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const exec = new RecipeExecutor(ctx, 'search');

  const build = (needleCount: number, sortedCount: number): Recipe => {
    const b = new RecipeBuilder();
    // The cache: every stride-th key, stride the least power of two that leaves at most CACHE.
    let stride = 1;
    while (Math.ceil(sortedCount / stride) > CACHE) stride *= 2;
    const cacheCount = Math.ceil(sortedCount / stride);
    let span = 1;
    while (span < cacheCount) span *= 2;
    for (let start = 0; start < needleCount; start += chunk) {
      const count = Math.min(chunk, needleCount - start);
      const tiles = Math.ceil(count / tileNeedles);
      const at = (role: string) => ({ role, offset: start * 4, limit: chunk * 4, multipleOf: 4 });
      b.dispatch(
        kernel,
        { sorted: { role: 'sorted', offset: 0, limit: bindable * 4, multipleOf: 4 }, needles: at('needles'), output: at('output') },
        tiles,
        {
          sorted_count: sortedCount,
          needle_count: count,
          stride,
          cache_count: cacheCount,
          cache_span: span,
          tiles,
          dispatch_x: dispatchShape(tiles, maxDim).x,
        },
      );
    }
    return b.build();
  };
  const variants = new StructureVariants(() => representativeCounts(chunk + 1, chunk).map((n) => build(n, 1)));

  return planOf([exec], {
    what,
    encode(encoder, args: SearchEncodeArgs) {
      const a = (typeof args === 'object' && args !== null ? args : {}) as Partial<SearchEncodeArgs>;
      const sortedCount = checkCount(a.sortedCount, 'args.sortedCount');
      const needleCount = checkCount(a.needleCount, 'args.needleCount');
      checkEncodeArgs(what, { ...a, count: needleCount }, { needles: 4, output: 4 });
      const sorted = a.sorted as GPUBuffer;
      if (typeof sorted?.size !== 'number' || typeof sorted.destroy !== 'function') {
        throw new ScanError('INVALID_ARGUMENT', `${what}: args.sorted = ${describeValue(sorted)}: expected a GPUBuffer`, {
          argument: 'args.sorted',
        });
      }
      if (sorted.size < 4 * sortedCount) {
        throw new ScanError(
          'INVALID_ARGUMENT',
          `${what}: args.sorted has ${sorted.size} bytes, needs ${4 * sortedCount} for sortedCount = ${sortedCount}`,
          {
            argument: 'args.sorted',
          },
        );
      }
      if (sortedCount > bindable) {
        throw new ScanError(
          'TOO_LARGE',
          `${what}: args.sortedCount = ${sortedCount}: the sorted keys must fit one binding (maxStorageBufferBindingSize = ${ctx.caps.limits.maxStorageBufferBindingSize} bytes)`,
          { argument: 'args.sortedCount' },
        );
      }
      if (sorted === a.output) {
        throw new ScanError('INVALID_ARGUMENT', `${what}: args.output is the same buffer as args.sorted; use distinct buffers`, {
          argument: 'args.output',
        });
      }
      if (needleCount === 0) return;
      exec.encode(
        encoder,
        () => build(needleCount, sortedCount),
        { sorted, needles: a.needles as GPUBuffer, output: a.output as GPUBuffer },
        variants,
      );
    },
    ready: exec.load([build(1, 1)]),
  });
}
