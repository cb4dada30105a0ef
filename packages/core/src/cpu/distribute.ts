import type { ScanTypedArray } from '../element-types.js';
import { checkBoolean, checkData, checkOptions, type DirectionOptions } from '../validate.js';
import { newLike, wordsOf } from './words.js';

/**
 * CPU reference of `distribute`: an array of the same length with every element equal to the
 * first element of `data` (backward: the last). Bits are copied exactly (NaN payloads, -0).
 *
 * @example
 * ```ts
 * distribute(new Int32Array([4, 5, 6])); // Int32Array [4, 4, 4]
 * distribute(new Int32Array([4, 5, 6]), { backward: true }); // Int32Array [6, 6, 6]
 * distribute(new Float32Array([])); // Float32Array []
 * ```
 */
export function distribute<T extends ScanTypedArray>(data: T, options?: DirectionOptions): T {
  checkData(data);
  const o = checkOptions(options, ['backward']);
  const backward = checkBoolean(o['backward'], 'options.backward', false);
  const n = data.length;
  const { array, words } = newLike(data, n);
  if (n > 0) words.fill(wordsOf(data)[backward ? n - 1 : 0]!);
  return array;
}
