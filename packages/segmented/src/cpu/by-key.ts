import type { HostArray, Operator, ScanOp, ScanTypedArray } from '@scan/core';
import {
  checkBoolean,
  checkOptions,
  hostArrayOver,
  newHostArray,
  segmentedReduceWith,
  segmentedScanWith,
  typedArrayFor,
} from '@scan/core/kit';
import { checkKeys, checkValuesOfKeys, runHeads, valuesOperator } from '../by-key-args.js';

/** Options of `reduceByKey`. */
export interface ReduceByKeyOptions {
  /** A built-in name or an `Operator` over the values' records (default `'add'`). */
  // biome-ignore lint/suspicious/noExplicitAny: any operator's record type
  op?: ScanOp | Operator<any>;
}

/** Options of `scanByKey`. */
export interface ScanByKeyOptions extends ReduceByKeyOptions {
  /** Inclusive results (default exclusive: each run starts at the identity). */
  inclusive?: boolean;
}

/** What `reduceByKey` resolves to: one key and one value per run, and the run count. */
export interface ReduceByKeyResult<K, V> {
  keys: K;
  values: V;
  count: number;
}

/** What `uniqueByKey` resolves to: the first key and the first value of each run. */
export interface UniqueByKeyResult<K, V> {
  keys: K;
  values: V;
}

/** What `runLengthEncode` resolves to: each run's value, length and first index. */
export interface RunLengthEncodeResult<K> {
  values: K;
  lengths: Uint32Array;
  offsets: Uint32Array;
}

/** The first `count` records of `data`'s class from a run-ordered list of record indices of `data`. */
function firstOfRuns<A extends ScanTypedArray>(data: A, heads: Uint8Array): A {
  let runs = 0;
  for (const h of heads) runs += h;
  const out = typedArrayFor(checkKeys(data, 'data'), runs) as A;
  for (let i = 0, r = 0; i < heads.length; i++) if (heads[i]) out[r++] = data[i] as number;
  return out;
}

/**
 * CPU reference of `reduceByKey`: for each run of equal consecutive keys (`===`: NaN keys are runs
 * of their own, -0 and +0 one run), its first key and its values combined in array order.
 *
 * @example
 * ```ts
 * reduceByKey(new Uint32Array([4, 4, 9, 4]), new Float32Array([1, 2, 3, 4]));
 * // { keys: Uint32Array [4, 9, 4], values: Float32Array [3, 3, 4], count: 3 }
 * ```
 */
export function reduceByKey<K extends ScanTypedArray, V extends ScanTypedArray | HostArray>(
  keys: K,
  values: V,
  options?: ReduceByKeyOptions,
): ReduceByKeyResult<K, V> {
  checkKeys(keys);
  const o = checkOptions(options, ['op']);
  const op = valuesOperator(values, keys.length, o['op']);
  const heads = runHeads(keys);
  const outKeys = firstOfRuns(keys, heads);
  const outValues = keys.length === 0 ? newHostArray(op, values as HostArray, 0) : segmentedReduceWith(op, values as HostArray, heads);
  return { keys: outKeys, values: outValues as V, count: outKeys.length };
}

/**
 * CPU reference of `scanByKey`: a scan of the values that restarts at each run of equal
 * consecutive keys; exclusive (the identity at each run's first value) unless `inclusive`.
 *
 * @example
 * ```ts
 * scanByKey(new Int32Array([1, 1, 2]), new Uint32Array([5, 6, 7]), { inclusive: true }); // Uint32Array [5, 11, 7]
 * ```
 */
export function scanByKey<V extends ScanTypedArray | HostArray>(keys: ScanTypedArray, values: V, options?: ScanByKeyOptions): V {
  checkKeys(keys);
  const o = checkOptions(options, ['op', 'inclusive']);
  const op = valuesOperator(values, keys.length, o['op']);
  const inclusive = checkBoolean(o['inclusive'], 'options.inclusive', false);
  if (keys.length === 0) return hostArrayOver(values as HostArray, new ArrayBuffer(0), 0) as V;
  return segmentedScanWith(op, values as HostArray, runHeads(keys), { inclusive, backward: false }) as V;
}

/**
 * CPU reference of `unique`: the first key of each run of equal consecutive keys.
 *
 * @example
 * ```ts
 * unique(new Uint32Array([1, 1, 2, 1])); // Uint32Array [1, 2, 1]
 * ```
 */
export function unique<K extends ScanTypedArray>(keys: K): K {
  checkKeys(keys);
  return firstOfRuns(keys, runHeads(keys));
}

/**
 * CPU reference of `uniqueByKey`: the first key and the first value of each run of equal
 * consecutive keys (values: one 32-bit element per key).
 *
 * @example
 * ```ts
 * uniqueByKey(new Uint32Array([1, 1, 2]), new Float32Array([0.5, 0.25, 2])); // { keys: [1, 2], values: [0.5, 2] }
 * ```
 */
export function uniqueByKey<K extends ScanTypedArray, V extends ScanTypedArray>(keys: K, values: V): UniqueByKeyResult<K, V> {
  checkKeys(keys);
  checkValuesOfKeys(values, keys.length);
  const heads = runHeads(keys);
  return { keys: firstOfRuns(keys, heads), values: firstOfRuns(values, heads) };
}

/**
 * CPU reference of `runLengthEncode`: each run of equal consecutive elements as its value, its
 * length and its first index.
 *
 * @example
 * ```ts
 * runLengthEncode(new Int32Array([5, 5, 5, -1, 5]));
 * // { values: Int32Array [5, -1, 5], lengths: Uint32Array [3, 1, 1], offsets: Uint32Array [0, 3, 4] }
 * ```
 */
export function runLengthEncode<K extends ScanTypedArray>(data: K): RunLengthEncodeResult<K> {
  checkKeys(data, 'data');
  const heads = runHeads(data);
  const values = firstOfRuns(data, heads);
  const offsets = new Uint32Array(values.length);
  const lengths = new Uint32Array(values.length);
  for (let i = 0, r = -1; i < data.length; i++) {
    if (heads[i]) offsets[++r] = i;
    lengths[r] = (lengths[r] as number) + 1;
  }
  return { values, lengths, offsets };
}
