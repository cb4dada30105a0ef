/** Summary of timed runs, in milliseconds. */
export interface RunStats {
  readonly runs: number;
  readonly medianMs: number;
  readonly p10Ms: number;
  readonly p90Ms: number;
  readonly minMs: number;
  readonly maxMs: number;
  /** Every sample, in run order. */
  readonly samplesMs: readonly number[];
}

/** The q-quantile (0…1) of ascending `sorted`, interpolated linearly between neighbours. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/**
 * Median, 10th and 90th percentile, minimum and maximum of `samplesMs`.
 *
 * @example
 * ```ts
 * summarizeRuns([3, 1, 2]).medianMs; // 2
 * ```
 */
export function summarizeRuns(samplesMs: readonly number[]): RunStats {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  return {
    runs: samplesMs.length,
    medianMs: quantile(sorted, 0.5),
    p10Ms: quantile(sorted, 0.1),
    p90Ms: quantile(sorted, 0.9),
    minMs: sorted[0] ?? Number.NaN,
    maxMs: sorted[sorted.length - 1] ?? Number.NaN,
    samplesMs: [...samplesMs],
  };
}
