import { createSegmentedReducePlan, packedFlagWords } from '@scan/segmented';
import { segmentedReduce as cpuSegmentedReduce } from '@scan/segmented/cpu';
import { bytesMoved } from '../../metrics.js';
import { encodeFill, runCheck } from '../device-ops.js';
import { encodeKernel, submitAndWait } from '../gpu.js';
import { checkSegmentedReduceWgsl } from '../kernels/check-segmented-reduce.js';
import { headWordCountsWgsl } from '../kernels/head-bits.js';
import { encodeInclusiveSum } from '../prefix-sum.js';
import { countDifferences, POISON, readArray, type WorkloadFactory } from '../workload.js';
import { prepareSegments, readHeadFlags } from './segments.js';

/**
 * u32 add segmented reduce of random data over random segments of mean length `c.segmentMean`:
 * the segment count is counted on the GPU first (the output holds one value per segment). Checked
 * on the GPU through the bench's own prefix sums of the data, of the results and of the heads (see
 * `checkSegmentedReduceWgsl`), which works for short and long segments alike; the check's buffers
 * (one n-word prefix) are allocated at the first check and reused.
 *
 * @example
 * ```ts
 * const w = await segmentedReduceWorkload(ctx, c);
 * ```
 */
export const segmentedReduceWorkload: WorkloadFactory = async (ctx, c) => {
  const n = c.n;
  const d = await prepareSegments(ctx, c, 'segmented-reduce');
  const { pool, input, headBits, segments } = d;
  const words = packedFlagWords(n);
  const output = pool.storage(4 * segments, 'segmented-reduce output');
  const setup = ctx.device.createCommandEncoder();
  encodeFill(ctx, pool, setup, output, segments, 'constant', 0, POISON);
  await submitAndWait(ctx, setup);
  const plan = createSegmentedReducePlan(ctx, { type: 'u32', op: 'add', maxCount: n });
  let scratch: { dataPrefix: GPUBuffer; resultPrefix: GPUBuffer; wordCounts: GPUBuffer; headsThroughWord: GPUBuffer } | undefined;
  const check = { key: 'bench/check-segmented-reduce', wgsl: checkSegmentedReduceWgsl };
  return {
    bytes: bytesMoved('segmented-reduce', n, segments),
    output,
    segments,
    encode: (encoder) => plan.encode(encoder, { input, headBits, output, count: n, segments }),
    verify() {
      scratch ??= {
        dataPrefix: pool.storage(4 * n, 'check data prefix'),
        resultPrefix: pool.storage(4 * segments, 'check result prefix'),
        wordCounts: pool.storage(4 * words, 'check heads per word'),
        headsThroughWord: pool.storage(4 * words, 'check heads through word'),
      };
      const s = scratch;
      return runCheck(ctx, pool, (encoder, errors) => {
        // The data's prefix never changes, but recomputing it keeps each check self-contained.
        encodeInclusiveSum(ctx, pool, encoder, input, s.dataPrefix, n);
        encodeInclusiveSum(ctx, pool, encoder, output, s.resultPrefix, segments);
        encodeKernel(ctx, encoder, { key: 'bench/head-word-counts', wgsl: headWordCountsWgsl }, [headBits, s.wordCounts, pool.params(n)], {
          invocations: words,
        });
        encodeInclusiveSum(ctx, pool, encoder, s.wordCounts, s.headsThroughWord, words);
        encodeKernel(ctx, encoder, check, [headBits, s.headsThroughWord, s.dataPrefix, s.resultPrefix, errors, pool.params(n, segments)], {
          invocations: n,
        });
      });
    },
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
};
