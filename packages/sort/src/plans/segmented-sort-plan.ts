import { createScanPlan, type Plan, type ScanContext, ScanError } from '@scan/core';
import {
  assertUsable,
  checkBoolean,
  checkCount,
  checkElementType,
  checkEncodeArgs,
  checkOptions,
  dispatchShape,
  invalidArgument,
  planOf,
  RecipeBuilder,
  RecipeExecutor,
} from '@scan/core/kit';
import { ELEMENTWISE_WORKGROUP, elementwiseParams } from '../kernels/elementwise.js';
import { gatherKernel, unpackHeadsKernel } from '../kernels/segmented-sort.js';
import { checkCopyTargets, checkSortCount } from '../limits.js';
import { createRadixSort } from './radix-plan.js';
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
 *    the bits that hold the largest segment number (⌈log2 maxSegments⌉, at most ⌈log2 count⌉); keys
 *    only: the keys ride along into their place and the sort is done; with values: the positions
 *    ride along (q), and
 * 4. **gather** — keys from their key-sorted positions (q), values from their input positions (p∘q).
 *
 * @example
 * ```ts
 * const plan = createSegmentedSortPlan(ctx, { keyType: 'f32', valueType: 'u32', maxSegments: 1 << 14 });
 * plan.encode(encoder, { keys, values, headFlags: packedHeads, count });
 * ```
 */
export function createSegmentedSortPlan(ctx: ScanContext, options: SegmentedSortPlanOptions = {}): Plan<SegmentedSortEncodeArgs> {
  assertUsable(ctx);
  const o = checkOptions(options, ['keyType', 'valueType', 'descending', 'maxCount', 'maxSegments'], 'options');
  const keyType = o.keyType === undefined ? 'u32' : checkElementType(o.keyType, 'options.keyType');
  const valueType = o.valueType === undefined ? undefined : checkElementType(o.valueType, 'options.valueType');
  const descending = checkBoolean(o.descending, 'options.descending', false);
  const maxCount =
    o.maxCount === undefined ? undefined : checkSortCount(ctx, checkCount(o.maxCount, 'options.maxCount'), 'options.maxCount');
  const maxSegments = o.maxSegments === undefined ? undefined : checkCount(o.maxSegments, 'options.maxSegments');
  if (maxSegments === 0) invalidArgument('options.maxSegments', maxSegments, 'expected at least 1');
  const keyShape = { keyType, valueType: 'u32' as const, descending, bits: [0, 32] as const };
  const byKey = createRadixSort(ctx, keyShape, { values: valueType === undefined ? 'move' : 'index' });
  const bySegment = new Map<number, Plan<Parameters<typeof byKey.encode>[1]>>();
  const scan = createScanPlan(ctx, { type: 'u32', op: 'add', inclusive: true });
  // The executor owns every scratch buffer, also those the radix and scan plans read and write.
  const exec = new RecipeExecutor(ctx, 'segmented sort plan');
  const scratch = (names: readonly string[], bytes: number): GPUBuffer[] => {
    exec.reserve({ steps: [], params: [], scratch: Object.fromEntries(names.map((name) => [name, bytes])) });
    return names.map((name) => exec.scratchBuffer(name));
  };
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const elementwise = (b: RecipeBuilder, n: number) => {
    const groups = Math.ceil(n / ELEMENTWISE_WORKGROUP);
    return { params: b.paramBlock(elementwiseParams(n, dispatchShape(groups, maxDim).x)), groups };
  };
  const scratchNames =
    valueType === undefined ? ['heads', 'segments'] : ['heads', 'segments', 'perm', 'sortedSegments', 'perm2', 'gathered'];
  if (maxCount !== undefined && maxCount > 0) scratch(scratchNames, 4 * maxCount);
  const segmentPlans = {
    destroy: () => {
      for (const p of bySegment.values()) p.destroy();
    },
    get scratchBytes() {
      return [...bySegment.values()].reduce((sum, p) => sum + p.scratchBytes, 0);
    },
    get allocations() {
      return [...bySegment.values()].reduce((sum, p) => sum + p.allocations, 0);
    },
  };
  /** The radix sort of segment numbers below 2^bits, with values moved or indices written. */
  const segmentSort = (bits: number) => {
    let plan = bySegment.get(bits);
    if (!plan) {
      const shape = { keyType: 'u32' as const, valueType: 'u32' as const, descending: false, bits: [0, bits] as const };
      plan = createRadixSort(ctx, shape, { values: valueType === undefined ? 'move' : 'index' });
      bySegment.set(bits, plan);
    }
    return plan;
  };

  return planOf([byKey, scan, exec, segmentPlans], {
    encode(encoder, args) {
      const need: Record<string, number | { bytes: (n: number) => number }> = {
        keys: 4,
        headFlags: { bytes: (n) => 4 * Math.ceil(n / 32) },
      };
      if (valueType !== undefined) need.values = 4;
      const n = checkEncodeArgs('segmented sort plan', args, need);
      checkSortCount(ctx, n, 'args.count');
      if (valueType === undefined && args.values !== undefined) {
        throw new ScanError(
          'INVALID_ARGUMENT',
          'segmented sort plan: args.values is given but the plan sorts keys only (create it with options.valueType)',
          { argument: 'args.values' },
        );
      }
      if (valueType !== undefined)
        checkCopyTargets('segmented sort plan', { keys: args.keys, ...(args.values ? { values: args.values } : {}) });
      if (n < 2) return;
      const bytes = 4 * n;
      const [heads, segments] = scratch(['heads', 'segments'], bytes) as [GPUBuffer, GPUBuffer];
      // Segment numbers run from 0 to (segments − 1) ≤ n − 1.
      const bits = segmentBits(Math.min(n, maxSegments ?? n));

      // 1. Number the segments: unpack the heads, scan them.
      exec.encode(
        encoder,
        `heads/${n}`,
        () => {
          const b = new RecipeBuilder();
          const { params, groups } = elementwise(b, n);
          const packed = { role: 'packed', offset: 0, size: 4 * Math.ceil(n / 32) };
          b.dispatch(unpackHeadsKernel(), [params, packed, { role: 'heads', offset: 0, size: bytes }], groups);
          return b.build();
        },
        { packed: args.headFlags, heads },
      );
      scan.encode(encoder, { input: heads, output: segments, count: n });
      if (valueType === undefined) {
        // 2–3, keys only: the segment numbers ride with the keys, then the keys with the numbers.
        byKey.encode(encoder, { keys: args.keys, values: segments, count: n });
        segmentSort(bits).encode(encoder, { keys: segments, values: args.keys, count: n });
        return;
      }
      const [perm, sortedSegments, perm2, gathered] = scratch(['perm', 'sortedSegments', 'perm2', 'gathered'], bytes) as [
        GPUBuffer,
        GPUBuffer,
        GPUBuffer,
        GPUBuffer,
      ];
      // 2. Sort by key, indices riding along: p.
      byKey.encode(encoder, { keys: args.keys, values: perm, count: n });
      // 3. The segment numbers in key order, sorted stably by segment: q.
      exec.encode(encoder, `segments/${n}`, () => gatherRecipe(n, false), { src: segments, out: sortedSegments, inner: perm });
      segmentSort(bits).encode(encoder, { keys: sortedSegments, values: perm2, count: n });
      // 4. Gather: keys through q, values through p∘q.
      exec.encode(encoder, `keys/${n}`, () => gatherRecipe(n, false), { src: args.keys, out: gathered, inner: perm2 });
      encoder.copyBufferToBuffer(gathered, 0, args.keys, 0, bytes);
      if (args.values) {
        exec.encode(encoder, `values/${n}`, () => gatherRecipe(n, true), { src: args.values, out: gathered, inner: perm2, outer: perm });
        encoder.copyBufferToBuffer(gathered, 0, args.values, 0, bytes);
      }
    },
  });

  function gatherRecipe(n: number, twoLevels: boolean) {
    const b = new RecipeBuilder();
    const { params, groups } = elementwise(b, n);
    const all = (role: string) => ({ role, offset: 0, size: 4 * n });
    b.dispatch(gatherKernel({ twoLevels }), [params, all('src'), all('out'), all('inner'), twoLevels ? all('outer') : undefined], groups);
    return b.build();
  }
}
