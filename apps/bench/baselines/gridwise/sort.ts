import { OneSweepSort } from 'gridwise';
import { checkSorted, type GridwiseKeyType, keyChecksum, randomKeys, type SortCheck, wordsPerKey } from './check.js';

/** gridwise's OneSweep set up on one input, ready to be restored and recorded again and again. */
export interface GridwiseSort {
  /** What gridwise ran (class, datatype, key-only, subgroups, passes, keys per thread, workgroups). */
  readonly describe: Readonly<Record<string, string | number | boolean>>;
  /** The buffer the sorted keys end in (gridwise sorts in place, an even number of passes). */
  readonly output: GPUBuffer;
  /** Records a copy of the pristine input into the sort's buffer (untimed, before each run). */
  restore(encoder: GPUCommandEncoder): void;
  /** Records gridwise's work (its clears and passes) into `encoder`: what is timed. */
  encode(encoder: GPUCommandEncoder): Promise<void>;
  /** Overwrites the sort's buffers with 0xdeadbeef (the check must then see the sort's own output). */
  poison(): void;
  /** Reads `output` back and checks it. */
  verify(): Promise<SortCheck>;
  destroy(): void;
}

/** Reads `words` 32-bit words of `buffer`. */
async function readBack(device: GPUDevice, buffer: GPUBuffer, words: number): Promise<Uint32Array> {
  const staging = device.createBuffer({
    size: 4 * words,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    label: 'gridwise read-back',
  });
  try {
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(buffer, 0, staging, 0, 4 * words);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    return new Uint32Array(staging.getMappedRange().slice(0));
  } finally {
    staging.destroy();
  }
}

/**
 * gridwise's `OneSweepSort`, keys only, ascending, all key bits (`u32`: 4 passes, `u64`: 8), on
 * `n` random keys. gridwise sorts in place (`keysInOut`, with `keysTemp` the ping-pong buffer), so
 * each run first gets the input back from a pristine copy ({@link GridwiseSort.restore}, untimed).
 * gridwise's u64 key–value sort is not used: its own tests and benchmarks run u64 keys only.
 *
 * @example
 * ```ts
 * const s = await gridwiseSort(device, 'u64', 1 << 16, 3, false);
 * ```
 */
export function gridwiseSort(device: GPUDevice, type: GridwiseKeyType, n: number, seed: number, disableSubgroups: boolean): GridwiseSort {
  const perKey = wordsPerKey(type);
  const size = 4 * n * perKey;
  const input = randomKeys(type, n, seed);
  const inputSum = keyChecksum(input, perKey);
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const pristine = device.createBuffer({ size, usage, label: 'gridwise input (pristine)' });
  const keys = device.createBuffer({ size, usage, label: 'gridwise keysInOut' });
  const temp = device.createBuffer({ size, usage, label: 'gridwise keysTemp' });
  device.queue.writeBuffer(pristine, 0, input.buffer, input.byteOffset, input.byteLength);
  const sort = new OneSweepSort({ device, datatype: type, type: 'keysonly', direction: 'ascending', disableSubgroups });
  sort.registerBuffer({ label: 'keysInOut', buffer: keys, device });
  sort.registerBuffer({ label: 'keysTemp', buffer: temp, device });
  const poisonWords = new Uint32Array(n * perKey).fill(0xdeadbeef);
  return {
    get describe() {
      return {
        class: 'OneSweepSort',
        datatype: type,
        type: 'keysonly',
        direction: 'ascending',
        subgroups: sort.useSubgroups,
        ...(sort.SORT_PASSES === undefined ? {} : { passes: sort.SORT_PASSES }),
        ...(sort.KEYS_PER_THREAD === undefined ? {} : { keysPerThread: sort.KEYS_PER_THREAD }),
        ...(sort.passWorkgroupCount === undefined ? {} : { passWorkgroups: sort.passWorkgroupCount }),
        restore: 'copy of the input before each run, untimed',
      };
    },
    output: keys,
    restore(encoder) {
      encoder.copyBufferToBuffer(pristine, 0, keys, 0, size);
    },
    async encode(encoder) {
      await sort.execute({ encoder });
    },
    poison() {
      device.queue.writeBuffer(keys, 0, poisonWords);
      device.queue.writeBuffer(temp, 0, poisonWords);
    },
    async verify() {
      return checkSorted(input, await readBack(device, keys, n * perKey), type, inputSum);
    },
    destroy() {
      for (const b of [pristine, keys, temp]) b.destroy();
      // gridwise never destroys the buffers it allocates (its Buffer.destroy is commented out): its
      // histograms would stay until garbage collection, 180 MB at 2^26 u64 keys.
      for (const label of ['sortParameters', 'sortBump', 'hist', 'passHist']) sort.getBuffer(label)?.buffer?.buffer?.destroy();
    },
  };
}
