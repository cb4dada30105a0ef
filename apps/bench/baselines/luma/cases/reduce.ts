import { GPUReduction } from '@luma.gl/gpgpu/gpu-core';
import type { WebGPUDevice } from '@luma.gl/webgpu';
import { cpuSum } from '../cpu.js';
import { POISON, poisonWords, randomWords, readWords, writeWords } from '../data.js';
import { buildGraph, importArray } from '../graph.js';
import type { Workload } from '../workload.js';

/**
 * luma's `GPUReduction` with operation `'sum'` over n random u32 into a one-row output, checked
 * against {@link cpuSum} (wrapping add).
 *
 * @example
 * ```ts
 * const w = reduceWorkload(luma, 1 << 16, 2);
 * ```
 */
export function reduceWorkload(luma: WebGPUDevice, n: number, seed: number): Workload {
  const device = luma.handle;
  const data = randomWords(n, seed);
  const { graph, built } = buildGraph(luma, 'luma-reduce', (g) => {
    const input = importArray(g, luma, 'reduce-input', n);
    const output = importArray(g, luma, 'reduce-output', 1);
    new GPUReduction({ id: 'reduce', input: input.view, output: output.view, operation: 'sum' }).addToGraph(g);
    return { input, output };
  });
  writeWords(device, built.input.gpu, data);
  return {
    describe: { class: 'GPUReduction', operation: 'sum', type: 'u32' },
    outputs: [built.output.gpu],
    encode: (encoder) => graph.encode(encoder),
    stats: () => graph.stats(),
    poison: () => poisonWords(device, built.output.gpu, 1),
    async verify() {
      const [got] = await readWords(device, built.output.gpu, 1);
      const want = cpuSum(data);
      const ok = got === want;
      const poisoned = got === POISON ? ' (output never written)' : '';
      if (ok) return { ok, detail: `sum of ${n} words = ${want}` };
      return { ok, detail: `sum: got ${got}, expected ${want}${poisoned}`, mismatches: 1 };
    },
    destroy() {
      graph.destroy();
      built.input.buffer.destroy();
      built.output.buffer.destroy();
    },
  };
}
