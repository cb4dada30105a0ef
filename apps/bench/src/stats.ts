/** Summary of the timed runs of one case, in milliseconds. */
export interface TimingStats {
  readonly runs: number;
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
  readonly meanMs: number;
}

/**
 * The median of `values` (mean of the two middle values for an even count).
 * Throws on an empty list, because a median of nothing would silently become NaN in a report.
 *
 * @example
 * ```ts
 * median([3, 1, 2]); // 2
 * median([4, 1, 3, 2]); // 2.5
 * ```
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of an empty list');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Median, min, max and mean of the samples. The median is what the report ranks by: one
 * preempted run moves the mean, not the median.
 *
 * @example
 * ```ts
 * summarize([1, 2, 10]); // { runs: 3, medianMs: 2, minMs: 1, maxMs: 10, meanMs: 4.33… }
 * ```
 */
export function summarize(samples: readonly number[]): TimingStats {
  return {
    runs: samples.length,
    medianMs: median(samples),
    minMs: Math.min(...samples),
    maxMs: Math.max(...samples),
    meanMs: samples.reduce((a, b) => a + b, 0) / samples.length,
  };
}

/**
 * The `p`-th percentile (0 < p ≤ 100) of `values` by nearest rank: the smallest value that at least
 * p % of the values do not exceed. Throws on an empty list, as {@link median} does.
 *
 * @example
 * ```ts
 * percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90); // 9
 * percentile([5], 90); // 5
 * ```
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of an empty list');
  if (!(p > 0 && p <= 100)) throw new Error(`percentile: p = ${p}: expected 0 < p ≤ 100`);
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1]!;
}
