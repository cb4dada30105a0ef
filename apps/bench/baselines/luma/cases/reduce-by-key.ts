import { GPUGroupAggregation } from '@luma.gl/gpgpu/gpu-core';
import type { WebGPUDevice } from '@luma.gl/webgpu';
import { cpuGroupSums } from '../cpu.js';
import { POISON, poisonWords, readWords, rng, writeWords } from '../data.js';
import { buildGraph, importArray } from '../graph.js';
import type { Verification, Workload } from '../workload.js';

/** Mean run length of the keys: the bench's reduce-by-key row luma's is paired with (`segmentMean` 16). */
export const RUN_MEAN = 16;

/** Values are integers in [−VALUE_SPAN, VALUE_SPAN] (as the CUDA anchors' reduce-by-key, baselines/cuda toolbox.py). */
const VALUE_SPAN = 8;

/**
 * The bytes of the bench's reduce-by-key row (`byKeyBytes` of src/primitives/by-key.ts): read the
 * keys and the values, write a key and a value per run and the run count.
 */
export function reduceByKeyBytes(n: number, runs: number): number {
  return 2 * 4 * n + 2 * 4 * runs + 4;
}

/**
 * Sorted dense keys in runs of random length, geometric of mean `mean` (each element after the
 * first starts a run with probability 1/mean, as the bench's head flags): key i is the number of
 * the run that holds element i, from 0, so the keys are 0…runs−1 ascending.
 *
 * @example
 * ```ts
 * const { keys, runs } = runKeys(1024, 1, 16); // runs ≈ 64
 * ```
 */
export function runKeys(n: number, seed: number, mean: number): { keys: Uint32Array; runs: number } {
  const next = rng(seed);
  const limit = 2 ** 32 / mean;
  const keys = new Uint32Array(n);
  let run = 0;
  for (let i = 1; i < n; i++) {
    if (next() < limit) run++;
    keys[i] = run;
  }
  return { keys, runs: n === 0 ? 0 : run + 1 };
}

/**
 * luma's `GPUGroupAggregation` with `operation: 'sum'`: a dense group-by (group g sums the values
 * whose key is g, for keys 0…groups−1; its output has one row per group, the length fixed when
 * the graph is built), which on sorted keys 0…runs−1 in runs of mean {@link RUN_MEAN} is a
 * reduce-by-key. Values are f32 (luma's only value type; the bench's row reduces u32), integers in
 * [−8, 8], so every partial sum is an integer far below 2^24 and f32 addition is exact in any
 * order: luma's sums (compare-exchange float adds, in any order) are checked against the CPU's
 * for **equality**, group by group ({@link cpuGroupSums}). luma writes no keys and no run count
 * (the group of row g is g); the bytes are the bench's row's all the same.
 *
 * @example
 * ```ts
 * const w = reduceByKeyWorkload(luma, 1 << 16, 7);
 * ```
 */
export function reduceByKeyWorkload(luma: WebGPUDevice, n: number, seed: number): Workload {
  const device = luma.handle;
  const { keys, runs } = runKeys(n, seed, RUN_MEAN);
  const values = new Float32Array(n);
  const next = rng(seed + 1);
  for (let i = 0; i < n; i++) values[i] = (next() % (2 * VALUE_SPAN + 1)) - VALUE_SPAN;
  let want: Float64Array | undefined;
  const { graph, built } = buildGraph(luma, 'luma-reduce-by-key', (g) => {
    const keyArray = importArray(g, luma, 'group-keys', n);
    const valueArray = importArray(g, luma, 'group-values', n, 'float32');
    const output = importArray(g, luma, 'group-sums', runs, 'float32');
    new GPUGroupAggregation({
      id: 'reduce-by-key',
      keys: keyArray.view,
      values: valueArray.view,
      output: output.view,
      operation: 'sum',
    }).addToGraph(g);
    return { keyArray, valueArray, output };
  });
  writeWords(device, built.keyArray.gpu, keys);
  writeWords(device, built.valueArray.gpu, new Uint32Array(values.buffer));
  return {
    describe: {
      class: 'GPUGroupAggregation',
      operation: 'sum',
      keys: 'u32, dense 0…runs−1, sorted (group-by over dense keys = reduce-by-key)',
      values: 'f32 integers in [−8, 8] (the bench: u32)',
      runMean: RUN_MEAN,
      runs,
      outputs: 'one sum per group (no keys, no run count)',
    },
    bytes: reduceByKeyBytes(n, runs),
    segments: runs,
    outputs: [built.output.gpu],
    encode: (encoder) => graph.encode(encoder),
    stats: () => graph.stats(),
    poison: () => poisonWords(device, built.output.gpu, runs),
    async verify(): Promise<Verification> {
      want ??= cpuGroupSums(keys, values, runs);
      const bits = await readWords(device, built.output.gpu, runs);
      const got = new Float32Array(bits.buffer, bits.byteOffset, runs);
      let bad = 0;
      let first = -1;
      for (let g = 0; g < runs; g++) {
        if (got[g] !== want[g]) {
          if (first < 0) first = g;
          bad++;
        }
      }
      if (bad === 0) return { ok: true, detail: `sums of ${runs} groups (runs of mean ${RUN_MEAN}) equal` };
      const shown = bits[first] === POISON ? 'never written' : String(got[first]);
      return {
        ok: false,
        detail: `group sums: ${bad} of ${runs} differ, first [${first}]: got ${shown}, expected ${want[first]}`,
        mismatches: bad,
      };
    },
    destroy() {
      graph.destroy();
      for (const a of [built.keyArray, built.valueArray, built.output]) a.buffer.destroy();
    },
  };
}
