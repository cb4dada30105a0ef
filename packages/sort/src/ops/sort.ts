import type { ScanContext } from '@scan/core';
import { assertUsable, withSession } from '@scan/core/kit';
import { keyBitsOf, keyWordsOf } from '../key-order.js';
import { checkSortCount, checkSortValueBytes } from '../limits.js';
import { createRadixSort } from '../plans/radix-plan.js';
import type { SortShape, ValueWords } from '../plans/sort-shape.js';
import { createSplitRadixSort } from '../plans/split-radix-plan.js';
import type { ArgsortOptions, SortArray, SortKeyArray, SortOptions, SortResult, SortValueArray } from '../types.js';
import { normalizeArgsortOptions, normalizeSortOptions } from '../validate.js';
import { quicksortBuffers } from './quicksort-runner.js';
import { readSorted, uploadSort } from './sorted-arrays.js';

/**
 * Sorts keys on the GPU, stably, and the values with them; resolves to new arrays (the inputs are
 * untouched). Keys are ordered as numbers of their type — floats by the total order −∞ < … < −0 <
 * +0 < … < +∞ < NaN, NaNs equal — and come back bit for bit. `descending` is the exact reverse order,
 * stable among equal keys. `bits: [begin, end)` sorts on those bits of the key order only.
 *
 * Algorithms: `'radix'` (default; the one-sweep radix sort), `'split-radix'` and `'quicksort'` (the
 * 2007 paper's, for comparison). 64-bit integer keys (`BigUint64Array`, `BigInt64Array`) take the
 * radix sort only, eight digit passes for whole keys (`bits` up to `[0, 64]`). Values may be any
 * typed array of n × w bytes, w = 4, 8, 12 or 16 (records of w bytes, radix only), and come back
 * as the class given.
 *
 * @example
 * ```ts
 * const { keys, values } = await sort(ctx, new Float32Array([3, -1, NaN, 2]), { values: new Uint32Array([0, 1, 2, 3]) });
 * // keys: [-1, 2, 3, NaN], values: [1, 3, 0, 2]
 * await sort(ctx, new BigInt64Array([2n ** 40n, -1n, 0n])); // { keys: BigInt64Array [-1n, 0n, 2n ** 40n] }
 * // 16-byte values: a Float32Array of 4 floats per key.
 * await sort(ctx, new Uint32Array([2, 1]), { values: new Float32Array([1, 2, 3, 4, 5, 6, 7, 8]) });
 * // { keys: [1, 2], values: Float32Array [5, 6, 7, 8, 1, 2, 3, 4] }
 * ```
 */
export async function sort<K extends SortKeyArray, V extends SortValueArray = SortArray>(
  ctx: ScanContext,
  keys: K,
  options: SortOptions<V> = {},
): Promise<SortResult<K, V>> {
  assertUsable(ctx);
  const o = normalizeSortOptions(keys, options);
  const n = keys.length;
  checkSortCount(ctx, n, 'keys', keyWordsOf(o.keyType));
  if (o.values) checkSortValueBytes(ctx, n, o.valueWidth, 'options.values');
  const values = o.values as V | undefined;
  if (n === 0) return { keys: keys.slice() as K, ...(values ? { values: values.slice() as V } : {}) };
  const valueWords = (o.valueWidth / 4) as ValueWords;
  const shape: SortShape = {
    keyType: o.keyType,
    valueType: o.valueType,
    ...(valueWords > 1 ? { valueWords } : {}),
    descending: o.descending,
    bits: o.bits,
  };
  return withSession(ctx, 'sort', async (s) => {
    const up = uploadSort(s, keys, values);
    const buffers = { keys: up.keyBuffer, ...(up.valueBuffer ? { values: up.valueBuffer } : {}), count: n };
    if (o.algorithm === 'quicksort') {
      await quicksortBuffers(ctx, shape, buffers);
    } else if (o.algorithm === 'split-radix') {
      (await s.plan(createSplitRadixSort(ctx, shape, n))).encode(s.encoder, buffers);
    } else {
      (await s.plan(createRadixSort(ctx, shape, { values: up.valueBuffer ? 'move' : 'none', maxCount: n }))).encode(s.encoder, buffers);
    }
    return readSorted(s, up);
  });
}

/**
 * The stable sorting permutation of `keys`: `result[i]` is the index of the i-th smallest key
 * (largest with `descending`), equal keys in input order. Computed by the radix sort with each
 * key's index as its value, generated on the GPU.
 *
 * @example
 * ```ts
 * await argsort(ctx, new Int32Array([5, -2, 5, 0])); // Uint32Array [1, 3, 0, 2]
 * ```
 */
export async function argsort(ctx: ScanContext, keys: SortKeyArray, options: ArgsortOptions = {}): Promise<Uint32Array> {
  assertUsable(ctx);
  const o = normalizeArgsortOptions(keys, options);
  const n = keys.length;
  checkSortCount(ctx, n, 'keys', keyWordsOf(o.keyType));
  if (n <= 1) return new Uint32Array(n);
  const shape: SortShape = { keyType: o.keyType, valueType: 'u32', descending: o.descending, bits: [0, keyBitsOf(o.keyType)] };
  return withSession(ctx, 'argsort', async (s) => {
    const keyBuffer = s.upload(keys, 'keys');
    const indices = s.buffer(4 * n, 'indices');
    const plan = await s.plan(createRadixSort(ctx, shape, { values: 'index', maxCount: n }));
    plan.encode(s.encoder, { keys: keyBuffer, values: indices, count: n });
    const read = s.readback(indices, 4 * n);
    s.submit();
    return new Uint32Array(await read());
  });
}
