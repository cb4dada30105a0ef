import type { ScanContext } from '@scan/core';
import { createSegmentedReducePlan, packedFlagWords } from '@scan/segmented';
import { segmentedReduce as cpuSegmentedReduce } from '@scan/segmented/cpu';
import { benchModule } from '../bench-module.js';
import type { Case, CaseShape } from '../case-types.js';
import { encodeFill, runCheck } from '../child/device-ops.js';
import { encodeKernel, submitAndWait } from '../child/gpu.js';
import { checkSegmentedReduceKernel } from '../child/kernels/check-segmented-reduce.js';
import { headWordCountsKernel } from '../child/kernels/head-bits.js';
import { encodeInclusiveSum } from '../child/prefix-sum.js';
import { countDifferences, POISON, readArray } from '../child/workload.js';
import { bytesMoved } from '../metrics.js';
import { DEFAULT_SEGMENT_MEANS } from './segmented-scan.js';
import { prepareSegments, readHeadFlags, type SegmentedData } from './shared/segments.js';

/** A segmented reduce case (u32 add): the mean segment length. */
export type SegmentedReduceCase = Case<'segmented-reduce', { op: 'add'; segmentMean: number }>;

/**
 * `segmented-reduce` in the registry, one case per `--segment-means` value: u32 add segmented
 * reduce of random data over random segments of mean length `c.segmentMean`; the segment count is
 * counted on the GPU first (the output holds one value per segment). Checked on the GPU through
 * the bench's own prefix sums of the data, of the results and of the heads (see
 * `checkSegmentedReduceKernel`), which works for short and long segments alike; the check's
 * buffers (one n-word prefix) are allocated at the first check and reused. Bound by reading the
 * input once, so the read-only baseline runs beside it.
 *
 * @example
 * ```ts
 * SEGMENTED_REDUCE.shapes({ ...selection, segmentMeans: [16] }); // [{ primitive: 'segmented-reduce', type: 'u32', op: 'add', segmentMean: 16 }]
 * ```
 */
export const SEGMENTED_REDUCE = benchModule<SegmentedReduceCase>({
  package: '@scan/segmented',
  primitives: ['segmented-reduce'],
  readBound: true,
  shapes: (selection) =>
    (selection.segmentMeans ?? DEFAULT_SEGMENT_MEANS).map(
      (segmentMean): CaseShape<SegmentedReduceCase> => ({ primitive: 'segmented-reduce', type: 'u32', op: 'add', segmentMean }),
    ),
  async workload(ctx, c) {
    const n = c.n;
    const d = await prepareSegments(ctx, c, 'segmented-reduce');
    const { pool, input, headBits, segments } = d;
    const output = pool.storage(4 * segments, 'segmented-reduce output');
    const setup = ctx.device.createCommandEncoder();
    encodeFill(ctx, pool, setup, output, segments, 'constant', 0, POISON);
    await submitAndWait(ctx, setup);
    const plan = createSegmentedReducePlan(ctx, { type: 'u32', op: 'add', maxCount: n });
    const check = segmentedReduceCheck(ctx, d);
    return {
      bytes: bytesMoved('segmented-reduce', n, segments),
      output,
      segments,
      encode: (encoder) => plan.encode(encoder, { input, headBits, output, count: n, segments }),
      verify: () => runCheck(ctx, pool, (encoder, errors) => check(encoder, errors, output)),
      async compareWithCpu() {
        const { flags, layoutErrors } = await readHeadFlags(ctx, headBits, n);
        const data = (await readArray(ctx, input, n, 'u32')) as Uint32Array;
        const expected = cpuSegmentedReduce(data, flags, { op: 'add' });
        return layoutErrors + countDifferences(expected, await readArray(ctx, output, segments, 'u32'));
      },
      destroy() {
        plan.destroy();
        pool.destroy();
      },
    };
  },
});

/**
 * The GPU check of a u32 add segmented reduction of a segmented case's data (`d`), for any output
 * buffer of one value per segment: the bench's own prefix sums of the data, of the results and of
 * the heads (see `checkSegmentedReduceKernel`), right for short and long segments alike. Its
 * buffers (one n-word prefix) are allocated at the first check and reused. The by-key cases check
 * their reduced values with it too.
 *
 * @example
 * ```ts
 * const check = segmentedReduceCheck(ctx, d);
 * await runCheck(ctx, d.pool, (encoder, errors) => check(encoder, errors, output));
 * ```
 */
export function segmentedReduceCheck(
  ctx: ScanContext,
  d: SegmentedData,
): (encoder: GPUCommandEncoder, errors: GPUBuffer, output: GPUBuffer) => void {
  const { pool, input, headBits, segments } = d;
  const n = d.n;
  const words = packedFlagWords(n);
  let scratch: { dataPrefix: GPUBuffer; resultPrefix: GPUBuffer; wordCounts: GPUBuffer; headsThroughWord: GPUBuffer } | undefined;
  return (encoder, errors, output) => {
    scratch ??= {
      dataPrefix: pool.storage(4 * n, 'check data prefix'),
      resultPrefix: pool.storage(4 * segments, 'check result prefix'),
      wordCounts: pool.storage(4 * words, 'check heads per word'),
      headsThroughWord: pool.storage(4 * words, 'check heads through word'),
    };
    const s = scratch;
    // The data's prefix never changes, but recomputing it keeps each check self-contained.
    encodeInclusiveSum(ctx, pool, encoder, input, s.dataPrefix, n);
    encodeInclusiveSum(ctx, pool, encoder, output, s.resultPrefix, segments);
    const countParams = pool.params(headWordCountsKernel, { n });
    encodeKernel(ctx, encoder, headWordCountsKernel, { bits: headBits, counts: s.wordCounts, params: countParams }, { invocations: words });
    encodeInclusiveSum(ctx, pool, encoder, s.wordCounts, s.headsThroughWord, words);
    const checkParams = pool.params(checkSegmentedReduceKernel, { n, segments });
    encodeKernel(
      ctx,
      encoder,
      checkSegmentedReduceKernel,
      {
        bits: headBits,
        heads_through_word: s.headsThroughWord,
        data_prefix: s.dataPrefix,
        result_prefix: s.resultPrefix,
        err: errors,
        params: checkParams,
      },
      { invocations: n },
    );
  };
}
