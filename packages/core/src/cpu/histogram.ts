import type { ScanTypedArray } from '../element-types.js';
import { binOf, type HistogramOptions, histogramBinning } from '../histogram-binning.js';
import { checkData } from '../validate.js';
import { wordsOf } from './words.js';

/**
 * CPU reference of `histogram`: the number of samples in each bin, as a new `Uint32Array` of
 * `bins` (or `edges.length − 1`) counts. Even bins: sample x is in bin
 * ⌊(x − lower) · bins / (upper − lower)⌋ for lower ≤ x < upper, exactly for u32/i32 samples and
 * for f32 samples as `min(⌊f32(f32(x − lower) · f32(bins / (upper − lower)))⌋, bins − 1)`, as the
 * GPU computes it. Edges: bin i holds `edges[i] ≤ x < edges[i + 1]`. Samples outside and NaN are
 * not counted. Counts wrap past 2^32 − 1, as on the GPU.
 *
 * @example
 * ```ts
 * histogram(new Float32Array([0.5, 1.5, 1.7, 9]), { bins: 4, range: [0, 4] }); // Uint32Array [1, 2, 0, 0]
 * histogram(new Uint32Array([1, 5, 20]), { edges: new Uint32Array([0, 4, 16]) }); // Uint32Array [1, 1]
 * ```
 */
export function histogram(samples: ScanTypedArray, options: HistogramOptions): Uint32Array {
  const type = checkData(samples, 'samples');
  const binning = histogramBinning(type, options);
  const counts = new Uint32Array(binning.bins);
  const words = wordsOf(samples);
  for (let i = 0; i < words.length; i++) {
    const bin = binOf(type, binning, words[i] as number);
    if (bin >= 0) counts[bin] = ((counts[bin] as number) + 1) >>> 0;
  }
  return counts;
}
