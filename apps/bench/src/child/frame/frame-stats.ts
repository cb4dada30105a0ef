import type { FrameStats } from '../../report.js';
import { median, percentile } from '../../stats.js';

/**
 * The report's summary of per-frame samples: median, 90th percentile, min, max and the samples.
 *
 * @example
 * ```ts
 * asFrameStats([0.2, 0.1, 0.3]); // { medianMs: 0.2, p90Ms: 0.3, minMs: 0.1, maxMs: 0.3, samplesMs: [0.2, 0.1, 0.3] }
 * ```
 */
export function asFrameStats(samplesMs: readonly number[]): FrameStats {
  return {
    medianMs: median(samplesMs),
    p90Ms: percentile(samplesMs, 90),
    minMs: Math.min(...samplesMs),
    maxMs: Math.max(...samplesMs),
    samplesMs: [...samplesMs],
  };
}
