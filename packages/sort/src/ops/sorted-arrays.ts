import type { GpuSession } from '@scan/core/kit';
import type { SortKeyArray, SortResult, SortValueArray } from '../types.js';

/** The keys (and values) of an array-level sort, uploaded into the session's buffers. */
export interface UploadedSort<K extends SortKeyArray, V extends SortValueArray> {
  readonly keys: K;
  readonly keyBuffer: GPUBuffer;
  readonly values: V | undefined;
  readonly valueBuffer: GPUBuffer | undefined;
}

/**
 * Uploads the keys (and values) of an array-level sort into buffers the session owns.
 *
 * @example
 * ```ts
 * const up = uploadSort(s, keys, values);
 * plan.encode(s.encoder, { keys: up.keyBuffer, values: up.valueBuffer, count: n });
 * ```
 */
export function uploadSort<K extends SortKeyArray, V extends SortValueArray>(
  s: GpuSession,
  keys: K,
  values: V | undefined,
): UploadedSort<K, V> {
  return { keys, keyBuffer: s.upload(keys, 'keys'), values, valueBuffer: values ? s.upload(values, 'values') : undefined };
}

/**
 * Records the read-back of sorted keys (and values), submits the session's encoder, and resolves to
 * new arrays of the inputs' types.
 *
 * @example
 * ```ts
 * const sorted = await readSorted(s, up); // in a withSession body, after uploadSort and the sort's encode
 * ```
 */
export async function readSorted<K extends SortKeyArray, V extends SortValueArray>(
  s: GpuSession,
  up: UploadedSort<K, V>,
): Promise<SortResult<K, V>> {
  // Whole words (16-bit keys of an odd count end in half a word).
  const readKeys = s.readback(up.keyBuffer, 4 * Math.ceil(up.keys.byteLength / 4));
  // Keys and values may differ in width (64-bit keys, 32-bit values).
  const readValues = up.valueBuffer && up.values ? s.readback(up.valueBuffer, up.values.byteLength) : undefined;
  s.submit();
  const keys = new (up.keys.constructor as new (b: ArrayBuffer) => K)(await readKeys()).slice(0, up.keys.length) as K;
  if (!readValues || !up.values) return { keys };
  return { keys, values: new (up.values.constructor as new (b: ArrayBuffer) => V)(await readValues()) };
}
