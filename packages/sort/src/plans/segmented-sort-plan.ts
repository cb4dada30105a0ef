import { createScanPlan, type Plan, type ScanContext, ScanError } from '@scan/core';
import {
  assertUsable,
  type BindingsOf,
  checkBoolean,
  checkCount,
  checkElementType,
  checkEncodeArgs,
  checkOptions,
  dispatchShape,
  invalidArgument,
  type Kernel,
  planOf,
  type Recipe,
  RecipeBuilder,
  RecipeExecutor,
  StructureVariants,
} from '@scan/core/kit';
import { type ELEMENTWISE_PARAMS, ELEMENTWISE_WORKGROUP } from '../kernels/elementwise.js';
import { gatherKernel, unpackHeadsKernel } from '../kernels/segmented-sort.js';
import { keyBitsOf, keyWordsOf } from '../key-order.js';
import { checkCopyTargets, checkSortCount, checkSortValueBytes, MAX_SORT_COUNT } from '../limits.js';
import type { SortKeyType } from '../types.js';
import { checkValueWidth } from '../validate.js';
import { radixSorter } from './radix-plan.js';
import type { SegmentedSortEncodeArgs, SegmentedSortPlanOptions } from './sort-plan-types.js';

/** Bits that hold the numbers 0 … segments − 1 (at least 1). */
function segmentBits(segments: number): number {
  return Math.max(1, Math.ceil(Math.log2(Math.max(2, segments))));
}

/**
 * Segmented sort at the buffer level: sorts the keys (and values) inside every segment, stably, in
 * place; segments are given as bit-packed head flags (bit `i % 32` of word `⌊i / 32⌋`, the layout of
 * `@scan/segmented`'s plans). Built from the radix sort as a sort by (segment, key):
 *
 * 1. **number the segments** — unpack the heads and scan them (inclusive), giving each key its
 *    segment number from 0;
 * 2. **sort by key** — the one-sweep radix sort of the keys; keys only: the segment numbers ride
 *    along as values; with values: each key's index rides along (p);
 * 3. **sort by segment** — the segment numbers, now in key order, sorted stably by the radix sort on
 *    the whole bytes that hold the largest segment number (⌈log2 maxSegments⌉ bits, at most
 *    ⌈log2 count⌉, rounded up to 8, 16, 24 or 32); keys only: the keys ride along into their place
 *    and the sort is done; with values: the positions ride along (q), and
 * 4. **gather** — keys from their key-sorted positions (q), values from their input positions (p∘q).
 *
 * Made to be encoded every frame: the radix sorts share one executor and its scratch. Memory: two
 * key-sized buffers (the unpacked heads and the segment numbers; six with values: also both
 * permutations, the segment numbers in key order and a gather target), the radix sorts' scratch
 * (keys and values once more, a status area of 2 KiB plus 1 KiB per 3328-key tile per digit pass),
 * the scan's, and parameter rings; scratch grows by doubling (or is sized once by `maxCount`).
 * Once warm, an encode with a new count creates nothing, whichever number of digit passes the
 * count picks. `await plan.ready` before the first frame to have the pipelines compiled.
 *
 * @example
 * ```ts
 * const plan = createSegmentedSortPlan(ctx, { keyType: 'f32', valueType: 'u32', maxSegments: 1 << 14 });
 * await plan.ready;
 * plan.encode(encoder, { keys, values, headFlags: packedHeads, count });
 * ```
 */
export function createSegmentedSortPlan(ctx: ScanContext, options: SegmentedSortPlanOptions = {}): Plan<SegmentedSortEncodeArgs> {
  assertUsable(ctx);
  const o = checkOptions(options, ['keyType', 'valueType', 'valueWidth', 'descending', 'maxCount', 'maxSegments'], 'options');
  const keyType: SortKeyType =
    o.keyType === undefined
      ? 'u32'
      : o.keyType === 'u64' || o.keyType === 'i64'
        ? o.keyType
        : checkElementType(o.keyType, 'options.keyType');
  // Two-word keys cannot ride as a radix sort's (4-byte) values: they take the permutation path.
  const keyWords = keyWordsOf(keyType);
  const valueWidth = checkValueWidth(o.valueWidth, 'options.valueWidth');
  // A width alone says that values move too (see SortPlanOptions.valueWidth).
  const valueType =
    o.valueType === undefined ? (o.valueWidth === undefined ? undefined : 'u32') : checkElementType(o.valueType, 'options.valueType');
  const permutes = valueType !== undefined || keyWords === 2;
  const descending = checkBoolean(o.descending, 'options.descending', false);
  const maxCount =
    o.maxCount === undefined ? undefined : checkSortCount(ctx, checkCount(o.maxCount, 'options.maxCount'), 'options.maxCount', keyWords);
  const maxSegments = o.maxSegments === undefined ? undefined : checkCount(o.maxSegments, 'options.maxSegments');
  if (maxSegments === 0) invalidArgument('options.maxSegments', maxSegments, 'expected at least 1');
  const values = permutes ? 'index' : 'move';
  const scan = createScanPlan(ctx, { type: 'u32', op: 'add', inclusive: true, ...(maxCount ? { maxCount } : {}) });
  // The executor owns every scratch buffer, also those the radix sorts and the scan read and write.
  const exec = new RecipeExecutor(ctx, 'segmented sort plan');
  const sortOptions = { values, ...(maxCount ? { maxCount } : {}) } as const;
  const keyShape = { keyType, valueType: 'u32' as const, descending, bits: [0, keyBitsOf(keyType)] as const };
  const byKey = radixSorter(ctx, exec, keyShape, sortOptions);
  // The sort by segment on 1 … 4 whole bytes: byte-wide digits whatever the segment count, so the
  // sorts differ only in their number of passes (what a count changes is which one runs).
  // Which of them runs changes with the count: the first encode with a set of buffers makes the bind
  // groups of every one a count may pick (and of each one's small tiers), so that a count which first
  // needs fewer bytes creates nothing. Sorting every count on maxCount's bytes instead would cost the
  // small counts up to three extra passes.
  const segmentVariants: StructureVariants = new StructureVariants((): readonly Recipe[] =>
    bySegment.slice(0, bySegment.indexOf(segmentSort(mostSegments)) + 1).flatMap((s) => s.hostPaths),
  );
  const mostSegments = Math.min(maxCount || MAX_SORT_COUNT, maxSegments ?? MAX_SORT_COUNT);
  const bySegment = [1, 2, 3, 4].map((bytes) =>
    radixSorter(
      ctx,
      exec,
      { keyType: 'u32', valueType: 'u32', descending: false, bits: [0, 8 * bytes] },
      { ...sortOptions, variants: segmentVariants },
    ),
  );
  /** The radix sort of segment numbers below `segments` (at least 1). */
  const segmentSort = (segments: number) => bySegment[Math.ceil(segmentBits(segments) / 8) - 1]!;
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const names = permutes ? WITH_VALUES_SCRATCH : KEYS_ONLY_SCRATCH;
  const scratchRecipe = (n: number): Recipe => {
    const b = new RecipeBuilder();
    // The gather target holds keys (8 bytes each for 64-bit keys), then values (valueWidth bytes).
    for (const name of names) b.needScratch(name, (name === 'gathered' ? Math.max(4 * keyWords, valueWidth) : 4) * n);
    return b.build();
  };
  if (maxCount !== undefined && maxCount > 0) exec.reserve(scratchRecipe(maxCount));
  // Whole buffers: the kernels stop at params.count, so one structure per kernel serves every count.
  const whole = (role: string) => ({ role, offset: 0 }) as const;
  const elementwise =
    <B extends string>(kernel: Kernel<B, typeof ELEMENTWISE_PARAMS>, bindings: BindingsOf<B>) =>
    (n: number) => {
      const b = new RecipeBuilder();
      const groups = Math.ceil(n / ELEMENTWISE_WORKGROUP);
      b.dispatch(kernel, bindings, groups, { count: n, dispatch_x: dispatchShape(groups, maxDim).x });
      return b.build();
    };
  const headsRecipe = elementwise(unpackHeadsKernel({}), { packed: whole('packed'), heads: whole('heads') });
  const gatherRecipe = elementwise(gatherKernel({ twoLevels: false }), { src: whole('src'), out: whole('out'), inner: whole('inner') });
  const gatherKeysRecipe =
    keyWords === 2
      ? elementwise(gatherKernel({ twoLevels: false, wide: true }), { src: whole('src'), out: whole('out'), inner: whole('inner') })
      : gatherRecipe;
  const gather2Recipe = elementwise(gatherKernel({ twoLevels: true, ...(valueWidth > 4 ? { words: valueWidth / 4 } : {}) }), {
    src: whole('src'),
    out: whole('out'),
    inner: whole('inner'),
    outer: whole('outer'),
  });
  // Every path: the numbering, the gathers, the sort by key and each sort by segment a count may pick.
  const paths = [
    headsRecipe(1),
    ...byKey.paths,
    ...bySegment.slice(0, bySegment.indexOf(segmentSort(mostSegments)) + 1).flatMap((s) => s.paths),
  ];
  if (permutes) paths.push(gatherRecipe(1), gatherKeysRecipe(1));
  if (valueType !== undefined) paths.push(gather2Recipe(1));

  return planOf([exec, scan], {
    what: 'segmented sort plan',
    encode(encoder, args) {
      const need: Record<string, number | { bytes: (n: number) => number }> = {
        keys: 4 * keyWords,
        headFlags: { bytes: (n) => 4 * Math.ceil(n / 32) },
      };
      if (valueType !== undefined) need.values = valueWidth;
      const n = checkEncodeArgs('segmented sort plan', args, need);
      checkSortCount(ctx, n, 'args.count', keyWords);
      if (valueType !== undefined) checkSortValueBytes(ctx, n, valueWidth, 'args.count');
      if (valueType === undefined && args.values !== undefined) {
        throw new ScanError(
          'INVALID_ARGUMENT',
          'segmented sort plan: args.values is given but the plan sorts keys only (create it with options.valueType)',
          { argument: 'args.values' },
        );
      }
      if (permutes) checkCopyTargets('segmented sort plan', { keys: args.keys, ...(args.values ? { values: args.values } : {}) });
      if (n < 2) return;
      exec.reserveFor(() => scratchRecipe(n));
      const heads = exec.scratchBuffer('heads');
      const segments = exec.scratchBuffer('segments');
      // Segment numbers run from 0 to (segments − 1) ≤ n − 1.
      const bySegmentNow = segmentSort(Math.min(n, maxSegments ?? n));

      // 1. Number the segments: unpack the heads, scan them.
      exec.encode(encoder, () => headsRecipe(n), { packed: args.headFlags, heads });
      scan.encode(encoder, { input: heads, output: segments, count: n });
      if (!permutes) {
        // 2–3, keys only: the segment numbers ride with the keys, then the keys with the numbers.
        byKey.encode(encoder, { keys: args.keys, values: segments, count: n });
        bySegmentNow.encode(encoder, { keys: segments, values: args.keys, count: n });
        return;
      }
      const perm = exec.scratchBuffer('perm');
      const sortedSegments = exec.scratchBuffer('sortedSegments');
      const perm2 = exec.scratchBuffer('perm2');
      const gathered = exec.scratchBuffer('gathered');
      const bytes = 4 * n;
      // 2. Sort by key, indices riding along: p.
      byKey.encode(encoder, { keys: args.keys, values: perm, count: n });
      // 3. The segment numbers in key order, sorted stably by segment: q.
      exec.encode(encoder, () => gatherRecipe(n), { src: segments, out: sortedSegments, inner: perm });
      bySegmentNow.encode(encoder, { keys: sortedSegments, values: perm2, count: n });
      // 4. Gather: keys through q, values through p∘q.
      exec.encode(encoder, () => gatherKeysRecipe(n), { src: args.keys, out: gathered, inner: perm2 });
      encoder.copyBufferToBuffer(gathered, 0, args.keys, 0, keyWords * bytes);
      if (args.values) {
        exec.encode(encoder, () => gather2Recipe(n), { src: args.values, out: gathered, inner: perm2, outer: perm });
        encoder.copyBufferToBuffer(gathered, 0, args.values, 0, (valueWidth / 4) * bytes);
      }
    },
    ready: exec.load(paths),
  });
}

/** Scratch of the segment numbering (beside the radix sorts'). */
const KEYS_ONLY_SCRATCH = ['heads', 'segments'] as const;
/** With values, also the permutations, the segment numbers in key order and the gather target. */
const WITH_VALUES_SCRATCH = ['heads', 'segments', 'perm', 'sortedSegments', 'perm2', 'gathered'] as const;
