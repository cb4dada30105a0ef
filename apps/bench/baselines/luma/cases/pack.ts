import { GPUCompaction } from '@luma.gl/gpgpu/gpu-core';
import type { WebGPUDevice } from '@luma.gl/webgpu';
import { cpuPack } from '../cpu.js';
import { compareWords, poisonWords, randomFlags, randomWords, readWords, writeWords } from '../data.js';
import { buildGraph, importArray } from '../graph.js';
import type { Workload } from '../workload.js';

/** Share of flags that are set. */
export const PACK_DENSITY = 0.5;

/**
 * luma's `GPUCompaction` (stream compaction, stable): n random u32 values and n u32 flags (1 with
 * probability {@link PACK_DENSITY}, else 0; luma keeps rows whose flag is non-zero) into an n-row
 * output plus a one-row count. Checked against {@link cpuPack}: the count, and every kept value in
 * order.
 *
 * @example
 * ```ts
 * const w = packWorkload(luma, 1 << 16, 3);
 * ```
 */
export function packWorkload(luma: WebGPUDevice, n: number, seed: number): Workload {
  const device = luma.handle;
  const data = randomWords(n, seed);
  const flags = randomFlags(n, seed + 1, PACK_DENSITY);
  const want = cpuPack(data, flags);
  const { graph, built } = buildGraph(luma, 'luma-pack', (g) => {
    const input = importArray(g, luma, 'pack-input', n);
    const flagArray = importArray(g, luma, 'pack-flags', n);
    const output = importArray(g, luma, 'pack-output', n);
    const count = importArray(g, luma, 'pack-count', 1);
    new GPUCompaction({ id: 'pack', input: input.view, flags: flagArray.view, output: output.view, count: count.view }).addToGraph(g);
    return { input, flagArray, output, count };
  });
  writeWords(device, built.input.gpu, data);
  writeWords(device, built.flagArray.gpu, flags);
  return {
    describe: { class: 'GPUCompaction', type: 'u32', flags: 'u32 (non-zero keeps)', density: PACK_DENSITY, stable: true },
    ones: want.length,
    outputs: [built.output.gpu, built.count.gpu],
    encode: (encoder) => graph.encode(encoder),
    stats: () => graph.stats(),
    poison() {
      poisonWords(device, built.output.gpu, n);
      poisonWords(device, built.count.gpu, 1);
    },
    async verify() {
      const [count] = await readWords(device, built.count.gpu, 1);
      if (count !== want.length) return { ok: false, detail: `count: got ${count}, expected ${want.length}`, mismatches: 1 };
      const out = await readWords(device, built.output.gpu, want.length);
      const check = compareWords(`pack (count ${count})`, out, want);
      return check;
    },
    destroy() {
      graph.destroy();
      for (const a of [built.input, built.flagArray, built.output, built.count]) a.buffer.destroy();
    },
  };
}
