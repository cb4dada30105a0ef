import type { ScanContext } from '@scan/core';
import type { Kernel } from '@scan/core/kit';
import {
  createReduceByKeyPlan,
  createRunLengthEncodePlan,
  createScanByKeyPlan,
  createUniqueByKeyPlan,
  createUniquePlan,
} from '@scan/segmented';
import {
  reduceByKey as cpuReduceByKey,
  runLengthEncode as cpuRunLengthEncode,
  scanByKey as cpuScanByKey,
  unique as cpuUnique,
  uniqueByKey as cpuUniqueByKey,
} from '@scan/segmented/cpu';
import { benchModule } from '../bench-module.js';
import type { Case, CaseShape } from '../case-types.js';
import { fillConstant, runCheck } from '../child/device-ops.js';
import { encodeKernel, type KernelBuffers, submitAndWait } from '../child/gpu.js';
import { checkSegmentedScanKernel } from '../child/kernels/check-segmented-scan.js';
import { checkRunFirstValuesKernel, checkRunKeysKernel, checkRunLengthsKernel, headWordsKernel } from '../child/kernels/runs.js';
import { encodeInclusiveSum } from '../child/prefix-sum.js';
import { countDifferences, POISON, readArray } from '../child/workload.js';
import { segmentedReduceCheck } from './segmented-reduce.js';
import { DEFAULT_SEGMENT_MEANS } from './segmented-scan.js';
import { prepareSegments, type SegmentedData } from './shared/segments.js';

/** The run-based primitives of `@scan/segmented` (issue 49's toolbox). */
export type ByKeyPrimitive = 'reduce-by-key' | 'scan-by-key' | 'unique' | 'unique-by-key' | 'run-length-encode';

/** A by-key case (u32 keys; u32 add values where there are values): the mean run length. */
export type ByKeyCase = Case<ByKeyPrimitive, { op?: 'add'; inclusive?: boolean; segmentMean: number }>;

const WORD = 4;

/**
 * The bytes a case must move: read the keys (and the values), write one record per run (reduce:
 * key and value; unique: key; unique-by-key: key and value, the value read at each head; run-length
 * encode: key, length and offset) and the run count, or a value per element (scan).
 *
 * @example
 * ```ts
 * byKeyBytes('reduce-by-key', 1024, 64); // 8192 + 512 + 4
 * ```
 */
export function byKeyBytes(primitive: ByKeyPrimitive, n: number, runs: number): number {
  switch (primitive) {
    case 'reduce-by-key':
      return 2 * WORD * n + 2 * WORD * runs + WORD;
    case 'scan-by-key':
      return 3 * WORD * n;
    case 'unique':
      return WORD * n + WORD * runs + WORD;
    case 'unique-by-key':
      return WORD * n + 3 * WORD * runs + WORD;
    case 'run-length-encode':
      return WORD * n + 3 * WORD * runs + WORD;
  }
}

/**
 * The keys of a by-key case from its segments: key i is the number of the segment that holds
 * element i (1, 2, …), the bench's own prefix sum of the head flags, so the runs of equal keys are
 * the segments of `d` exactly and every check of the segmented cases applies.
 */
async function runKeys(ctx: ScanContext, d: SegmentedData): Promise<GPUBuffer> {
  const { pool, n } = d;
  const flags = pool.storage(WORD * n, 'by-key head flags');
  const keys = pool.storage(WORD * n, 'by-key keys');
  const encoder = ctx.device.createCommandEncoder();
  encodeKernel(
    ctx,
    encoder,
    headWordsKernel,
    { bits: d.headBits, flags, params: d.pool.params(headWordsKernel, { n }) },
    { invocations: n },
  );
  encodeInclusiveSum(ctx, pool, encoder, flags, keys, n);
  await submitAndWait(ctx, encoder);
  return keys;
}

/**
 * `reduce-by-key`, `scan-by-key`, `unique`, `unique-by-key` and `run-length-encode` in the registry, one case per
 * `--segment-means` value: u32 keys in runs of random length (geometric, of that mean; the keys are
 * the run numbers) and random u32 values, through the plans of `@scan/segmented`. Checked on the
 * GPU: the reduced values by the segmented reduction's check, the scan by the segmented scan's
 * recurrence, the run keys and count against the run numbers, a unique-by-key's values and a
 * run-length encoding's offsets and lengths against the head bits; against `@scan/segmented/cpu` at
 * small sizes.
 *
 * @example
 * ```ts
 * BY_KEY.shapes({ ...selection, segmentMeans: [16] }).map((s) => s.primitive); // ['reduce-by-key', 'scan-by-key', 'unique', 'unique-by-key', 'run-length-encode']
 * ```
 */
export const BY_KEY = benchModule<ByKeyCase>({
  package: '@scan/segmented',
  primitives: ['reduce-by-key', 'scan-by-key', 'unique', 'unique-by-key', 'run-length-encode'],
  // A software adapter's default run: each primitive once, at the first mean (they share one kernel).
  sample: (shapes) => shapes.filter((s) => s.segmentMean === shapes[0]?.segmentMean),
  shapes: (selection) =>
    (selection.segmentMeans ?? DEFAULT_SEGMENT_MEANS).flatMap((segmentMean): CaseShape<ByKeyCase>[] => [
      { primitive: 'reduce-by-key', type: 'u32', op: 'add', segmentMean },
      { primitive: 'scan-by-key', type: 'u32', op: 'add', inclusive: false, segmentMean },
      { primitive: 'unique', type: 'u32', segmentMean },
      { primitive: 'unique-by-key', type: 'u32', segmentMean },
      { primitive: 'run-length-encode', type: 'u32', segmentMean },
    ]),
  async workload(ctx, c) {
    const n = c.n;
    const d = await prepareSegments(ctx, c, c.primitive);
    const { pool, input: values, headBits, segments: runs } = d;
    const keys = await runKeys(ctx, d);
    const runCount = pool.storage(WORD, `${c.primitive} run count`);
    // The plans bind their per-run outputs whole, sized for `count` runs (the run count is the GPU's).
    const perRun = (label: string) => pool.storage(WORD * n, `${c.primitive} ${label}`);
    const poison = (...buffers: [GPUBuffer, number][]) => fillConstant(ctx, pool, POISON, ...buffers);
    const readKeys = async () => (await readArray(ctx, keys, n, 'u32')) as Uint32Array;
    const readValues = async () => (await readArray(ctx, values, n, 'u32')) as Uint32Array;
    const checkKeys = (encoder: GPUCommandEncoder, errors: GPUBuffer, outKeys: GPUBuffer) =>
      encodeKernel(
        ctx,
        encoder,
        checkRunKeysKernel,
        { out_keys: outKeys, run_count: runCount, err: errors, params: pool.params(checkRunKeysKernel, { runs }) },
        { invocations: runs },
      );
    // A check of every element against the head bits (the runs' first values, their offsets and lengths).
    const checkEach = <B extends string>(
      encoder: GPUCommandEncoder,
      errors: GPUBuffer,
      kernel: Kernel<B | 'err', { n: 'u32' }>,
      buffers: Record<Exclude<B, 'err'>, GPUBuffer>,
    ) =>
      encodeKernel(ctx, encoder, kernel, { ...buffers, err: errors, params: pool.params(kernel, { n }) } as KernelBuffers<B | 'err'>, {
        invocations: n,
      });
    const bytes = byKeyBytes(c.primitive, n, runs);
    const common = { bytes, segments: runs };
    switch (c.primitive) {
      case 'reduce-by-key': {
        const outKeys = perRun('keys');
        const outValues = perRun('values');
        await poison([outKeys, runs], [outValues, runs], [runCount, 1]);
        const plan = createReduceByKeyPlan(ctx, { keyType: 'u32', type: 'u32', op: 'add', maxCount: n });
        await plan.ready;
        const checkValues = segmentedReduceCheck(ctx, d);
        return {
          ...common,
          output: outValues,
          encode: (encoder) => plan.encode(encoder, { keys, values, outKeys, outValues, runCount, count: n }),
          verify: () =>
            runCheck(ctx, pool, (encoder, errors) => {
              checkKeys(encoder, errors, outKeys);
              checkValues(encoder, errors, outValues);
            }),
          async compareWithCpu() {
            const expected = cpuReduceByKey(await readKeys(), await readValues(), { op: 'add' });
            return (
              countDifferences(expected.keys, await readArray(ctx, outKeys, runs, 'u32')) +
              countDifferences(expected.values, await readArray(ctx, outValues, runs, 'u32')) +
              countDifferences([expected.count], await readArray(ctx, runCount, 1, 'u32'))
            );
          },
          destroy() {
            plan.destroy();
            pool.destroy();
          },
        };
      }
      case 'scan-by-key': {
        const output = pool.storage(WORD * n, 'scan-by-key output');
        await poison([output, n]);
        const plan = createScanByKeyPlan(ctx, { keyType: 'u32', type: 'u32', op: 'add', inclusive: false, maxCount: n });
        await plan.ready;
        const check = checkSegmentedScanKernel({ backward: false });
        return {
          ...common,
          output,
          encode: (encoder) => plan.encode(encoder, { keys, values, output, count: n }),
          verify: () =>
            runCheck(ctx, pool, (encoder, errors) =>
              encodeKernel(
                ctx,
                encoder,
                check,
                { inp: values, out: output, bits: headBits, err: errors, params: pool.params(check, { n }) },
                { invocations: n },
              ),
            ),
          async compareWithCpu() {
            const expected = cpuScanByKey(await readKeys(), await readValues(), { op: 'add' });
            return countDifferences(expected, await readArray(ctx, output, n, 'u32'));
          },
          destroy() {
            plan.destroy();
            pool.destroy();
          },
        };
      }
      case 'unique': {
        const outKeys = perRun('keys');
        await poison([outKeys, runs], [runCount, 1]);
        const plan = createUniquePlan(ctx, { keyType: 'u32', maxCount: n });
        await plan.ready;
        return {
          ...common,
          output: outKeys,
          encode: (encoder) => plan.encode(encoder, { keys, outKeys, runCount, count: n }),
          verify: () => runCheck(ctx, pool, (encoder, errors) => checkKeys(encoder, errors, outKeys)),
          async compareWithCpu() {
            const expected = cpuUnique(await readKeys());
            return countDifferences(expected, await readArray(ctx, outKeys, runs, 'u32'));
          },
          destroy() {
            plan.destroy();
            pool.destroy();
          },
        };
      }
      case 'unique-by-key': {
        const outKeys = perRun('keys');
        const outValues = perRun('values');
        await poison([outKeys, runs], [outValues, runs], [runCount, 1]);
        const plan = createUniqueByKeyPlan(ctx, { keyType: 'u32', maxCount: n });
        await plan.ready;
        return {
          ...common,
          output: outValues,
          encode: (encoder) => plan.encode(encoder, { keys, values, outKeys, outValues, runCount, count: n }),
          verify: () =>
            runCheck(ctx, pool, (encoder, errors) => {
              checkKeys(encoder, errors, outKeys);
              checkEach(encoder, errors, checkRunFirstValuesKernel, { bits: headBits, keys, values, out_values: outValues });
            }),
          async compareWithCpu() {
            const expected = cpuUniqueByKey(await readKeys(), await readValues());
            return (
              countDifferences(expected.keys, await readArray(ctx, outKeys, runs, 'u32')) +
              countDifferences(expected.values, await readArray(ctx, outValues, runs, 'u32'))
            );
          },
          destroy() {
            plan.destroy();
            pool.destroy();
          },
        };
      }
      case 'run-length-encode': {
        const outKeys = perRun('keys');
        const lengths = perRun('lengths');
        const offsets = perRun('offsets');
        await poison([outKeys, runs], [lengths, runs], [offsets, runs], [runCount, 1]);
        const plan = createRunLengthEncodePlan(ctx, { keyType: 'u32', maxCount: n });
        await plan.ready;
        return {
          ...common,
          output: lengths,
          encode: (encoder) => plan.encode(encoder, { keys, outKeys, lengths, offsets, runCount, count: n }),
          verify: () =>
            runCheck(ctx, pool, (encoder, errors) => {
              checkKeys(encoder, errors, outKeys);
              checkEach(encoder, errors, checkRunLengthsKernel, { bits: headBits, keys, offsets, lengths });
            }),
          async compareWithCpu() {
            const expected = cpuRunLengthEncode(await readKeys());
            return (
              countDifferences(expected.values, await readArray(ctx, outKeys, runs, 'u32')) +
              countDifferences(expected.lengths, await readArray(ctx, lengths, runs, 'u32')) +
              countDifferences(expected.offsets, await readArray(ctx, offsets, runs, 'u32'))
            );
          },
          destroy() {
            plan.destroy();
            pool.destroy();
          },
        };
      }
    }
  },
});
