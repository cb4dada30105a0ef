import { GPUScan } from '@luma.gl/gpgpu/gpu-core';
import type { WebGPUDevice } from '@luma.gl/webgpu';
import { cpuScan } from '../cpu.js';
import { compareWords, poisonWords, randomWords, readWords, writeWords } from '../data.js';
import { buildGraph, importArray } from '../graph.js';
import type { Workload } from '../workload.js';

/**
 * luma's `GPUScan`: exclusive (its default) prefix sum of n random u32 (wrapping add), out of place,
 * checked against {@link cpuScan}.
 *
 * @example
 * ```ts
 * const w = scanWorkload(luma, 1 << 16, 1);
 * ```
 */
export function scanWorkload(luma: WebGPUDevice, n: number, seed: number): Workload {
  const device = luma.handle;
  const data = randomWords(n, seed);
  const { graph, built } = buildGraph(luma, 'luma-scan', (g) => {
    const input = importArray(g, luma, 'scan-input', n);
    const output = importArray(g, luma, 'scan-output', n);
    new GPUScan({ id: 'scan', input: input.view, output: output.view, mode: 'exclusive' }).addToGraph(g);
    return { input, output };
  });
  writeWords(device, built.input.gpu, data);
  return {
    describe: { class: 'GPUScan', mode: 'exclusive', op: 'add', type: 'u32' },
    outputs: [built.output.gpu],
    encode: (encoder) => graph.encode(encoder),
    stats: () => graph.stats(),
    poison: () => poisonWords(device, built.output.gpu, n),
    async verify() {
      const out = await readWords(device, built.output.gpu, n);
      return compareWords('exclusive scan', out, cpuScan(data, false));
    },
    destroy() {
      graph.destroy();
      built.input.buffer.destroy();
      built.output.buffer.destroy();
    },
  };
}
