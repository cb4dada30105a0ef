import { GPUGallopingSearch } from '@luma.gl/gpgpu/gpu-core';
import type { WebGPUDevice } from '@luma.gl/webgpu';
import { cpuLowerBoundSorted, cpuSortWords } from '../cpu.js';
import { compareWords, POISON, poisonWords, randomWords, readWords, rng, writeWords } from '../data.js';
import { buildGraph, importArray } from '../graph.js';
import type { Workload } from '../workload.js';

/** Queries luma's search handles in one invocation (its default): a binary search, then gallops forward. */
export const QUERIES_PER_TILE = 32;

/** The bytes of the bench's lower-bound row: the keys, the needles and the results. */
export function lowerBoundBytes(n: number): number {
  return 3 * 4 * n;
}

/**
 * n sorted u32 keys spread over the u32 range in equal pairs, as the bench's `lower-bound` case
 * makes them (`sortedKeysKernel`: pair p holds p·step + a random offset below step, step =
 * ⌊2^32 / ⌈n/2⌉⌋), from this harness's generator.
 *
 * @example
 * ```ts
 * sortedPairKeys(4, 1); // e.g. [1234, 1234, 2147485000, 2147485000]
 * ```
 */
export function sortedPairKeys(n: number, seed: number): Uint32Array {
  const next = rng(seed);
  const step = Math.floor(2 ** 32 / Math.ceil(n / 2));
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i += 2) {
    const key = (i / 2) * step + (next() % step);
    out[i] = key;
    if (i + 1 < n) out[i + 1] = key;
  }
  return out;
}

/**
 * luma's `GPUGallopingSearch` (lower bound): n needles, uniform over the u32 range and then sorted
 * ascending (luma's search is built for ascending queries: each invocation binary-searches the
 * first of {@link QUERIES_PER_TILE} and gallops forward from it for the rest), into n sorted keys
 * (see {@link sortedPairKeys}), one segment `[0, n, 0, n]`. The bench's row searches the same
 * keys with needles in random order. Checked: luma's validation word is 0 (no segment out of
 * range, no decreasing queries) and every output index equals the CPU's lower bound
 * ({@link cpuLowerBoundSorted}).
 *
 * @example
 * ```ts
 * const w = lowerBoundWorkload(luma, 1 << 16, 6);
 * ```
 */
export function lowerBoundWorkload(luma: WebGPUDevice, n: number, seed: number): Workload {
  const device = luma.handle;
  const keys = sortedPairKeys(n, seed);
  const needles = cpuSortWords(randomWords(n, seed + 1));
  let want: Uint32Array | undefined;
  const { graph, built } = buildGraph(luma, 'luma-lower-bound', (g) => {
    const values = importArray(g, luma, 'search-keys', n);
    const queries = importArray(g, luma, 'search-needles', n);
    const segments = importArray(g, luma, 'search-segments', 4);
    const output = importArray(g, luma, 'search-output', n);
    const errors = importArray(g, luma, 'search-validation', 1);
    new GPUGallopingSearch<'uint32'>({
      id: 'lower-bound',
      values: values.view,
      queries: queries.view,
      segments: segments.view,
      maximumQueryCount: n,
      queriesPerTile: QUERIES_PER_TILE,
      output: output.view,
      validationErrors: errors.view,
    }).addToGraph(g);
    return { values, queries, segments, output, errors };
  });
  writeWords(device, built.values.gpu, keys);
  writeWords(device, built.queries.gpu, needles);
  writeWords(device, built.segments.gpu, new Uint32Array([0, n, 0, n]));
  return {
    describe: {
      class: 'GPUGallopingSearch',
      type: 'u32',
      side: 'lower',
      needles: 'sorted ascending (the bench: random order)',
      segments: 1,
      queriesPerTile: QUERIES_PER_TILE,
    },
    bytes: lowerBoundBytes(n),
    outputs: [built.output.gpu, built.errors.gpu],
    encode: (encoder) => graph.encode(encoder),
    stats: () => graph.stats(),
    poison() {
      poisonWords(device, built.output.gpu, n);
      poisonWords(device, built.errors.gpu, 1);
    },
    async verify() {
      const [errors] = await readWords(device, built.errors.gpu, 1);
      if (errors !== 0)
        return {
          ok: false,
          detail: `validation word: ${errors === POISON ? 'never written' : `0x${errors!.toString(16)} (luma's error bits)`}`,
          mismatches: 1,
        };
      want ??= cpuLowerBoundSorted(keys, needles);
      return compareWords(`lower bounds of ${n} sorted needles`, await readWords(device, built.output.gpu, n), want);
    },
    destroy() {
      graph.destroy();
      for (const a of [built.values, built.queries, built.segments, built.output, built.errors]) a.buffer.destroy();
    },
  };
}
