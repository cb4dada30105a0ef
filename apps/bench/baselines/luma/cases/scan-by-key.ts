import { GPUScan } from '@luma.gl/gpgpu/gpu-core';
import type { WebGPUDevice } from '@luma.gl/webgpu';
import { cpuSegmentedScan } from '../cpu.js';
import { compareWords, poisonWords, randomWords, readWords, writeWords } from '../data.js';
import { buildGraph, importArray } from '../graph.js';
import type { Workload } from '../workload.js';
import { RUN_MEAN, runKeys } from './reduce-by-key.js';

/** The bytes of the bench's scan-by-key row (`byKeyBytes`): read the keys and the values, write n sums. */
export function scanByKeyBytes(n: number): number {
  return 3 * 4 * n;
}

/**
 * The head flags of sorted run keys: 1 where a run starts (element 0 and every key change), else 0.
 *
 * @example
 * ```ts
 * headFlags(new Uint32Array([0, 0, 1, 1, 1, 2])); // [1, 0, 1, 0, 0, 1]
 * ```
 */
export function headFlags(keys: Uint32Array): Uint32Array {
  const flags = new Uint32Array(keys.length);
  for (let i = 0; i < keys.length; i++) flags[i] = i === 0 || keys[i] !== keys[i - 1] ? 1 : 0;
  return flags;
}

/**
 * luma's `GPUScan` with `segmentFlags`: an exclusive u32 add scan (wrapping) of n random values
 * that restarts at every flagged row, the flags being the run starts of keys in runs of mean
 * {@link RUN_MEAN} (see {@link runKeys}). That is the bench's scan-by-key of those keys, except
 * that luma reads a flag word per element where the bench's plan reads the keys and finds the
 * run starts itself: the flags are derived from the keys on the host, untimed (the same bytes,
 * one word per element). Checked word by word against {@link cpuSegmentedScan}.
 *
 * @example
 * ```ts
 * const w = scanByKeyWorkload(luma, 1 << 16, 8);
 * ```
 */
export function scanByKeyWorkload(luma: WebGPUDevice, n: number, seed: number): Workload {
  const device = luma.handle;
  const { keys, runs } = runKeys(n, seed, RUN_MEAN);
  const flags = headFlags(keys);
  const data = randomWords(n, seed + 1);
  let want: Uint32Array | undefined;
  const { graph, built } = buildGraph(luma, 'luma-scan-by-key', (g) => {
    const input = importArray(g, luma, 'scan-by-key-values', n);
    const flagArray = importArray(g, luma, 'scan-by-key-flags', n);
    const output = importArray(g, luma, 'scan-by-key-output', n);
    new GPUScan({ id: 'scan-by-key', input: input.view, output: output.view, mode: 'exclusive', segmentFlags: flagArray.view }).addToGraph(
      g,
    );
    return { input, flagArray, output };
  });
  writeWords(device, built.input.gpu, data);
  writeWords(device, built.flagArray.gpu, flags);
  return {
    describe: {
      class: 'GPUScan',
      mode: 'exclusive',
      op: 'add',
      type: 'u32',
      segments: 'segmentFlags: u32 head flags of the runs, derived from the keys on the host (the bench: the keys)',
      runMean: RUN_MEAN,
      runs,
    },
    bytes: scanByKeyBytes(n),
    segments: runs,
    outputs: [built.output.gpu],
    encode: (encoder) => graph.encode(encoder),
    stats: () => graph.stats(),
    poison: () => poisonWords(device, built.output.gpu, n),
    async verify() {
      want ??= cpuSegmentedScan(data, flags);
      return compareWords(`segmented exclusive scan (${runs} runs)`, await readWords(device, built.output.gpu, n), want);
    },
    destroy() {
      graph.destroy();
      for (const a of [built.input, built.flagArray, built.output]) a.buffer.destroy();
    },
  };
}
