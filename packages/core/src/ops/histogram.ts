import { assertUsable, type ScanContext } from '../context.js';
import type { ScanTypedArray } from '../element-types.js';
import { type HistogramOptions, histogramBinning } from '../histogram-binning.js';
import { histogramPlanOf } from '../plans/histogram-plan.js';
import { checkArrayLength, checkData } from '../validate.js';
import { withSession } from './session.js';

/**
 * Counts the samples in each bin on the GPU: a new `Uint32Array` of `bins` counts (or
 * `edges.length − 1`). Samples are a `Uint32Array`, `Int32Array` or `Float32Array`, which must fit
 * one storage binding.
 *
 * - `{ bins, range: [lower, upper] }`: `bins` (1 to 2^20) even bins over [lower, upper); sample x
 *   goes to bin ⌊(x − lower) · bins / (upper − lower)⌋. For u32 and i32 samples the bounds are
 *   integers of the type's range (`upper` up to 2^32 for u32, 2^31 for i32, so the last value can
 *   be counted) and the bin is exact. For f32 samples the bounds are rounded to f32 and the bin is
 *   `min(⌊f32(f32(x − lower) · f32(bins / (upper − lower)))⌋, bins − 1)`, as the CPU reference
 *   computes it (on devices that flush subnormal floats to zero, subnormal samples may land
 *   elsewhere).
 * - `{ edges }`: bin i holds `edges[i] ≤ x < edges[i + 1]`. The edges may be any numeric typed
 *   array whose values are exact in the samples' type, strictly increasing (−0 and +0 are equal).
 *
 * Samples outside the bins and NaN are not counted. A count wraps past 2^32 − 1 (more samples than
 * one binding holds). Bad options throw a `ScanError` naming `options.bins`, `options.range` or
 * `options.edges` (with the index of the first bad edge); more than 2^20 bins is `TOO_LARGE`.
 *
 * @example
 * ```ts
 * await histogram(ctx, new Float32Array([0.5, 1.5, 1.7, 9]), { bins: 4, range: [0, 4] }); // Uint32Array [1, 2, 0, 0]
 * await histogram(ctx, new Int32Array([-5, 0, 3, 40]), { edges: new Int32Array([-10, 0, 10]) }); // Uint32Array [1, 2]
 * ```
 */
export async function histogram(ctx: ScanContext, samples: ScanTypedArray, options: HistogramOptions): Promise<Uint32Array> {
  assertUsable(ctx);
  const type = checkData(samples, 'samples');
  checkArrayLength(ctx, samples.length, 'samples');
  const binning = histogramBinning(type, options);
  const n = samples.length;
  if (n === 0) return new Uint32Array(binning.bins);
  return withSession(ctx, 'histogram', async (s) => {
    const plan = await s.plan(histogramPlanOf(ctx, type, binning, false, undefined));
    const input = s.upload(samples, 'histogram samples');
    const output = s.buffer(4 * binning.bins, 'histogram');
    plan.encode(s.encoder, { samples: input, histogram: output, count: n });
    const read = s.readback(output, 4 * binning.bins);
    s.submit();
    return new Uint32Array(await read());
  });
}
