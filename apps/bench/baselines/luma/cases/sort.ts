import { GPUSort } from '@luma.gl/gpgpu/gpu-core';
import type { WebGPUDevice } from '@luma.gl/webgpu';
import { cpuSortPairs } from '../cpu.js';
import { compareWords, iota, poisonWords, randomWords, readWords, writeWords } from '../data.js';
import { buildGraph, type GraphArray, importArray } from '../graph.js';
import type { Verification, Workload } from '../workload.js';

/** Keys of the stability check: 8 bits, so every key repeats about n/256 times. */
const DUPLICATE_KEY_MASK = 0xff;

/** The CPU's stable sort of `keys` paired with their positions 0…n-1: what both outputs must equal. */
function expectedPairs(keys: Uint32Array): { keys: Uint32Array; values: Uint32Array } {
  return cpuSortPairs(keys, iota(keys.length));
}

/** Compares both sorted outputs with `want` (from {@link expectedPairs}). */
async function checkPairs(
  device: GPUDevice,
  out: { keys: GraphArray; values: GraphArray },
  want: { keys: Uint32Array; values: Uint32Array },
  what: string,
): Promise<Verification> {
  const k = compareWords(`${what} keys`, await readWords(device, out.keys.gpu, want.keys.length), want.keys);
  if (!k.ok) return k;
  const v = compareWords(`${what} values (stable order)`, await readWords(device, out.values.gpu, want.keys.length), want.values);
  return v.ok ? { ok: true, detail: `${k.detail}; ${v.detail}` } : v;
}

/**
 * luma's `GPUSort`: a stable, out-of-place sort of u32 keys **with** u32 values (luma 9.4 has no
 * key-only sort: values are required and move in every pass), ascending, all 32 key bits,
 * `algorithm: 'auto'` (luma's radix sort above 256 rows, bitonic up to 256). Keys are random u32,
 * values their input positions 0…n-1, so the output values show the permutation; checked against
 * {@link cpuSortPairs}. Before that, `selfTest` sorts 8-bit keys (each repeated ~n/256 times) and
 * checks that equal keys keep their input order.
 *
 * @example
 * ```ts
 * const w = sortWorkload(luma, 1 << 16, 4);
 * ```
 */
export function sortWorkload(luma: WebGPUDevice, n: number, seed: number): Workload {
  const device = luma.handle;
  const keys = randomWords(n, seed);
  const values = iota(n);
  // The reference of the timed input, computed once: it is checked before and after the timed
  // runs, and at 2^28 each CPU sort takes seconds.
  let want: { keys: Uint32Array; values: Uint32Array } | undefined;
  let resolved = '';
  const { graph, built } = buildGraph(luma, 'luma-sort', (g) => {
    const inKeys = importArray(g, luma, 'sort-keys', n);
    const inValues = importArray(g, luma, 'sort-values', n);
    const outKeys = importArray(g, luma, 'sort-out-keys', n);
    const outValues = importArray(g, luma, 'sort-out-values', n);
    const sort = new GPUSort({
      id: 'sort',
      keys: inKeys.view,
      values: inValues.view,
      outputKeys: outKeys.view,
      outputValues: outValues.view,
      algorithm: 'auto',
      direction: 'ascending',
      keyBits: 32,
    });
    resolved = sort.resolvedAlgorithm;
    sort.addToGraph(g);
    return { inKeys, inValues, out: { keys: outKeys, values: outValues } };
  });
  writeWords(device, built.inKeys.gpu, keys);
  writeWords(device, built.inValues.gpu, values);
  const poison = () => {
    poisonWords(device, built.out.keys.gpu, n);
    poisonWords(device, built.out.values.gpu, n);
  };
  return {
    describe: { class: 'GPUSort', keys: 'u32', values: 'u32', keyOnly: false, stable: true, algorithm: `auto → ${resolved}`, keyBits: 32 },
    outputs: [built.out.keys.gpu, built.out.values.gpu],
    encode: (encoder) => graph.encode(encoder),
    stats: () => graph.stats(),
    poison,
    verify() {
      want ??= expectedPairs(keys);
      return checkPairs(device, built.out, want, 'sort');
    },
    async selfTest(): Promise<Verification> {
      const dupKeys = randomWords(n, seed + 7, DUPLICATE_KEY_MASK);
      writeWords(device, built.inKeys.gpu, dupKeys);
      poison();
      const encoder = device.createCommandEncoder();
      graph.encode(encoder);
      device.queue.submit([encoder.finish()]);
      const check = await checkPairs(device, built.out, expectedPairs(dupKeys), 'stability (8-bit keys)');
      writeWords(device, built.inKeys.gpu, keys);
      return check;
    },
    destroy() {
      graph.destroy();
      for (const a of [built.inKeys, built.inValues, built.out.keys, built.out.values]) a.buffer.destroy();
    },
  };
}
