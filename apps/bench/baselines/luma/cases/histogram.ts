import { GPUHistogram } from '@luma.gl/gpgpu/gpu-core';
import type { WebGPUDevice } from '@luma.gl/webgpu';
import { cpuLumaHistogram } from '../cpu.js';
import { compareWords, poisonWords, randomWords, readWords, writeWords } from '../data.js';
import { buildGraph, importArray } from '../graph.js';
import type { Workload } from '../workload.js';

/**
 * luma's domain: [0, 2^32 − 1], both ends inclusive (luma takes no exclusive upper end, and 2^32
 * does not fit its u32 domain). With it luma's bin of every u32 sample equals the bench's
 * `[0, 2^32)` bin, `v >> (32 − log2 bins)`: ⌊v·B/(2^32 − 1)⌋ ≥ k ⇔ v ≥ k·2^32/B − k/B, and for an
 * integer v (k/B < 1) that is v ≥ k·2^32/B; 2^32 − 1 is luma's `max`, in the last bin, as ours.
 */
export const HISTOGRAM_DOMAIN: readonly [number, number] = [0, 0xffffffff];

/** The bytes of the bench's histogram row: the samples, read once. */
export function histogramBytes(n: number): number {
  return 4 * n;
}

/**
 * luma's `GPUHistogram` of n random u32 samples (the whole u32 range) into `bins` equal-width bins
 * over the domain {@link HISTOGRAM_DOMAIN} (luma: up to 256 bins in workgroup atomics, more in
 * global atomics; it clears the counts in a pass of its own on every run). Checked bin by bin
 * against {@link cpuLumaHistogram}, luma's documented binning, which on this domain is the
 * bench's.
 *
 * @example
 * ```ts
 * const w = histogramWorkload(256)(luma, 1 << 16, 5);
 * ```
 */
export function histogramWorkload(bins: number): (luma: WebGPUDevice, n: number, seed: number) => Workload {
  return (luma, n, seed) => {
    const device = luma.handle;
    const data = randomWords(n, seed);
    let want: Uint32Array | undefined;
    const { graph, built } = buildGraph(luma, `luma-histogram-${bins}`, (g) => {
      const input = importArray(g, luma, 'histogram-samples', n);
      const output = importArray(g, luma, 'histogram-counts', bins);
      new GPUHistogram<'uint32'>({ id: 'histogram', input: input.view, output: output.view, domain: HISTOGRAM_DOMAIN }).addToGraph(g);
      return { input, output };
    });
    writeWords(device, built.input.gpu, data);
    return {
      describe: {
        class: 'GPUHistogram',
        type: 'u32',
        bins,
        domain: "[0, 4294967295] inclusive (luma has no exclusive end); the same bin for every u32 as the bench's [0, 2^32)",
        path: bins <= 256 ? 'workgroup atomics' : 'global atomics',
      },
      bytes: histogramBytes(n),
      outputs: [built.output.gpu],
      encode: (encoder) => graph.encode(encoder),
      stats: () => graph.stats(),
      poison: () => poisonWords(device, built.output.gpu, bins),
      async verify() {
        want ??= cpuLumaHistogram(data, bins, HISTOGRAM_DOMAIN[0], HISTOGRAM_DOMAIN[1]);
        return compareWords(`histogram (${bins} bins of ${n} samples)`, await readWords(device, built.output.gpu, bins), want);
      },
      destroy() {
        graph.destroy();
        built.input.buffer.destroy();
        built.output.buffer.destroy();
      },
    };
  };
}
