import { packedFlagWords } from '@scan/segmented';
import { createSegmentedSortPlan } from '@scan/sort';
import { segmentedSort as cpuSegmentedSort } from '@scan/sort/cpu';
import { benchModule } from '../bench-module.js';
import type { Case } from '../case-types.js';
import { encodeKernel, readWords, submitAndWait } from '../child/gpu.js';
import { headWordCountsKernel } from '../child/kernels/head-bits.js';
import { encodeInclusiveSum } from '../child/prefix-sum.js';
import { countDifferences, readArray } from '../child/workload.js';
import { bytesMoved } from '../metrics.js';
import { prepareSegments, readHeadFlags } from './shared/segments.js';
import { bitsOf, prepareSortData, type SortFields } from './shared/sort-data.js';

/**
 * Mean segment length of the `segmented-sort` case (random segments, geometric lengths, like the
 * segmented scan cases). Fixed: `--segment-means` sets the segmented scan and reduce cases only.
 */
export const SORT_SEGMENT_MEAN = 1024;

/** A segmented sort case: the mean segment length and the direction. */
export type SegmentedSortCase = Case<'segmented-sort', SortFields & { segmentMean: number }>;

/**
 * `segmented-sort` in the registry: an in-place segmented sort of n random u32 keys over random
 * segments of mean length {@link SORT_SEGMENT_MEAN} (bit-packed head flags generated on the GPU,
 * like the segmented scan cases). The unsorted keys are copied back before every run, untimed
 * (`prepare`). Checked on the GPU: order within each segment, and a multiset checksum of the keys
 * salted by each element's segment (through the bench's own prefix sum of the heads), equal to
 * that of the input — so keys that leave their segment are caught too.
 *
 * @example
 * ```ts
 * SEGMENTED_SORT.shapes(selection); // [{ primitive: 'segmented-sort', type: 'u32', segmentMean: 1024 }]
 * ```
 */
export const SEGMENTED_SORT = benchModule<SegmentedSortCase>({
  package: '@scan/sort',
  primitives: ['segmented-sort'],
  shapes: () => [{ primitive: 'segmented-sort', type: 'u32', segmentMean: SORT_SEGMENT_MEAN }],
  async workload(ctx, c) {
    const n = c.n;
    const descending = c.descending ?? false;
    const segmented = await prepareSegments(ctx, c, 'segmented-sort');
    const { pool, headBits, segments } = segmented;
    let plan: ReturnType<typeof createSegmentedSortPlan> | undefined;
    try {
      const words = packedFlagWords(n);
      const wordCounts = pool.storage(4 * words, 'segmented-sort heads per word');
      const headsThroughWord = pool.storage(4 * words, 'segmented-sort heads through word');
      const prefix = ctx.device.createCommandEncoder();
      const countParams = pool.params(headWordCountsKernel, { n });
      encodeKernel(ctx, prefix, headWordCountsKernel, { bits: headBits, counts: wordCounts, params: countParams }, { invocations: words });
      encodeInclusiveSum(ctx, pool, prefix, wordCounts, headsThroughWord, words);
      await submitAndWait(ctx, prefix);
      // The generated random data becomes the pristine keys (overwritten with the sort keys).
      const d = await prepareSortData(ctx, pool, c, {
        pairs: false,
        segments: { bits: headBits, headsThroughWord },
        original: segmented.input,
      });
      // The segment count is known here, so the segment numbers are sorted on just enough bits.
      plan = createSegmentedSortPlan(ctx, { keyType: c.type, descending, maxCount: n, maxSegments: Math.max(1, segments) });
      const sortPlan = plan;
      const args = { keys: d.keys, headFlags: headBits, count: n };
      return {
        bytes: bytesMoved('segmented-sort', n),
        output: d.keys,
        segments,
        prepare: d.restore,
        encode: (encoder) => sortPlan.encode(encoder, args),
        verify: d.verify,
        async compareWithCpu() {
          const { flags, layoutErrors } = await readHeadFlags(ctx, headBits, n);
          const input = await readArray(ctx, d.original, n, c.type);
          const expected = cpuSegmentedSort(input, flags, { descending });
          return layoutErrors + countDifferences(bitsOf(expected.keys), await readWords(ctx, d.keys, n));
        },
        destroy() {
          sortPlan.destroy();
          pool.destroy();
        },
      };
    } catch (error) {
      plan?.destroy();
      pool.destroy();
      throw error;
    }
  },
});
