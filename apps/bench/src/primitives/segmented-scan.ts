import { createSegmentedScanPlan } from '@scan/segmented';
import { segmentedScan as cpuSegmentedScan } from '@scan/segmented/cpu';
import { benchModule } from '../bench-module.js';
import type { Case, CaseShape } from '../case-types.js';
import { encodeFill, runCheck } from '../child/device-ops.js';
import { encodeKernel, submitAndWait } from '../child/gpu.js';
import { checkSegmentedScanKernel } from '../child/kernels/check-segmented-scan.js';
import { countDifferences, POISON, readArray } from '../child/workload.js';
import { bytesMoved } from '../metrics.js';
import type { ScanCase } from './scan.js';
import { prepareSegments, readHeadFlags } from './shared/segments.js';

/**
 * Mean segment lengths of `--segment-means` when it is not given: short segments (16, where the
 * head flags decide nearly every combine) and long ones (4096, close to an unsegmented scan).
 */
export const DEFAULT_SEGMENT_MEANS: readonly number[] = [16, 4096];

/** Largest mean: the head probability 1/mean must stay above one in 2^32 for the hash generator. */
export const MAX_SEGMENT_MEAN = 2 ** 31;

/**
 * Parses `--segment-means`: comma-separated whole numbers ≥ 1 (`2^k` allowed), each the mean length
 * of the random segments (element i is a head with probability 1/mean). Sorted, without duplicates.
 *
 * @example
 * ```ts
 * parseSegmentMeans('4096,16'); // [16, 4096]
 * parseSegmentMeans('2^12'); // [4096]
 * ```
 */
export function parseSegmentMeans(text: string): number[] {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new Error(`--segment-means "${text}": expected a comma-separated list of mean segment lengths`);
  const means = parts.map((part) => {
    const power = /^2\^(\d{1,2})$/.exec(part);
    const value = power ? 2 ** Number(power[1]) : /^\d+$/.test(part) ? Number(part) : Number.NaN;
    if (!(value >= 1 && value <= MAX_SEGMENT_MEAN)) {
      throw new Error(`--segment-means "${part}": expected a whole number from 1 to 2^31 (or 2^k)`);
    }
    return value;
  });
  return [...new Set(means)].sort((a, b) => a - b);
}

/** Segmented scan algorithms the bench runs side by side (the names of `createSegmentedScanPlan`). */
export const SEGMENTED_ALGORITHM_NAMES = ['single-pass', 'tree'] as const;
export type SegmentedAlgorithmName = (typeof SEGMENTED_ALGORITHM_NAMES)[number];

/** A segmented scan case (u32 add exclusive): the algorithm, the direction and the mean segment length. */
export type SegmentedScanCase = Case<
  'segmented-scan',
  { algorithm: SegmentedAlgorithmName; op: 'add'; inclusive: false; backward: boolean; segmentMean: number }
>;

/**
 * The segmented scan configurations for each mean (u32 add, the type the targets are stated for):
 * exclusive scans forward and backward with each algorithm.
 *
 * @example
 * ```ts
 * segmentedScanShapes([16]).length; // 4: single-pass fwd, bwd; tree fwd, bwd
 * ```
 */
export function segmentedScanShapes(means: readonly number[]): CaseShape<SegmentedScanCase>[] {
  return means.flatMap((segmentMean) =>
    SEGMENTED_ALGORITHM_NAMES.flatMap((algorithm) =>
      [false, true].map(
        (backward): CaseShape<SegmentedScanCase> => ({
          primitive: 'segmented-scan',
          algorithm,
          type: 'u32',
          op: 'add',
          inclusive: false,
          backward,
          segmentMean,
        }),
      ),
    ),
  );
}

/**
 * The unsegmented scan a segmented-scan case is compared with (the `×scan` column): the
 * `decoupled-fallback` u32 add exclusive forward scan at the same size and seed, run in the same
 * child process.
 *
 * @example
 * ```ts
 * unsegmentedScanCase(c).algorithm; // 'decoupled-fallback'
 * ```
 */
export function unsegmentedScanCase(c: SegmentedScanCase): ScanCase {
  const { segmentMean: _mean, ...rest } = c;
  return { ...rest, primitive: 'scan', algorithm: 'decoupled-fallback', type: 'u32', op: 'add', inclusive: false, backward: false };
}

/**
 * `segmented-scan` in the registry, at the selection's `--segment-means`: u32 add exclusive
 * segmented scans (forward or backward, single-pass or tree) of random data over random segments
 * of mean length `c.segmentMean`; checked element by element against the segmented recurrence on
 * the GPU, and timed beside the unsegmented scan ({@link unsegmentedScanCase}).
 *
 * @example
 * ```ts
 * SEGMENTED_SCAN.shapes({ ...selection, segmentMeans: [16] }).length; // 4
 * ```
 */
export const SEGMENTED_SCAN = benchModule<SegmentedScanCase>({
  package: '@scan/segmented',
  primitives: ['segmented-scan'],
  shapes: (selection) => segmentedScanShapes(selection.segmentMeans ?? DEFAULT_SEGMENT_MEANS),
  companion: (c) => ({ field: 'scan', case: unsegmentedScanCase(c) }),
  async workload(ctx, c) {
    const n = c.n;
    const backward = c.backward;
    const d = await prepareSegments(ctx, c, 'segmented-scan');
    const { pool, input, headBits } = d;
    const output = pool.storage(4 * n, 'segmented-scan output');
    const setup = ctx.device.createCommandEncoder();
    encodeFill(ctx, pool, setup, output, n, 'constant', 0, POISON);
    await submitAndWait(ctx, setup);
    const plan = createSegmentedScanPlan(ctx, { type: 'u32', op: 'add', inclusive: false, backward, algorithm: c.algorithm, maxCount: n });
    const check = checkSegmentedScanKernel({ backward });
    return {
      bytes: bytesMoved('segmented-scan', n),
      output,
      segments: d.segments,
      encode: (encoder) => plan.encode(encoder, { input, headBits, output, count: n }),
      verify: () =>
        runCheck(ctx, pool, (encoder, errors) =>
          encodeKernel(
            ctx,
            encoder,
            check,
            { inp: input, out: output, bits: headBits, err: errors, params: pool.params(check, { n }) },
            { invocations: n },
          ),
        ),
      async compareWithCpu() {
        const { flags, layoutErrors } = await readHeadFlags(ctx, headBits, n);
        const data = (await readArray(ctx, input, n, 'u32')) as Uint32Array;
        const expected = cpuSegmentedScan(data, flags, { op: 'add', inclusive: false, backward });
        return layoutErrors + countDifferences(expected, await readArray(ctx, output, n, 'u32'));
      },
      destroy() {
        plan.destroy();
        pool.destroy();
      },
    };
  },
});
