import type { CaseModule } from './case-module.js';
import { type BenchCase, type CaseShape, SEGMENTED_ALGORITHM_NAMES, SEGMENTED_PRIMITIVES } from './case-types.js';

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

/**
 * The segmented configurations for each mean (u32 add, the type the targets are stated for):
 * exclusive scans forward and backward with each algorithm, then the segmented reduce.
 *
 * @example
 * ```ts
 * segmentedShapes([16]).length; // 5: single-pass fwd, bwd; tree fwd, bwd; reduce
 * ```
 */
export function segmentedShapes(means: readonly number[]): CaseShape[] {
  const scans = means.flatMap((segmentMean) =>
    SEGMENTED_ALGORITHM_NAMES.flatMap((algorithm) =>
      [false, true].map(
        (backward): CaseShape => ({
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
  const reduces = means.map((segmentMean): CaseShape => ({ primitive: 'segmented-reduce', type: 'u32', op: 'add', segmentMean }));
  return [...scans, ...reduces];
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
export function unsegmentedScanCase(c: BenchCase): BenchCase {
  const { segmentMean: _mean, ...rest } = c;
  return { ...rest, primitive: 'scan', algorithm: 'decoupled-fallback', type: 'u32', op: 'add', inclusive: false, backward: false };
}

/**
 * `@scan/segmented` in the case registry, at the selection's `--segment-means`.
 *
 * @example
 * ```ts
 * SEGMENTED_CASES.shapes(selection).length; // 5 per mean
 * ```
 */
export const SEGMENTED_CASES: CaseModule = {
  package: '@scan/segmented',
  primitives: SEGMENTED_PRIMITIVES,
  shapes: (selection) => segmentedShapes(selection.segmentMeans ?? DEFAULT_SEGMENT_MEANS),
};
