import type { ScanTypedArray } from '../element-types.js';
import { checkData, checkFlags } from '../validate.js';
import { newLike, wordsOf } from './words.js';

/**
 * CPU reference of `pack` (stream compaction): the elements of `data` whose flag is 1, in order.
 * Bits are copied exactly.
 *
 * @example
 * ```ts
 * pack(new Float32Array([0.5, 1.5, 2.5]), new Uint32Array([0, 1, 1])); // Float32Array [1.5, 2.5]
 * ```
 */
export function pack<T extends ScanTypedArray>(data: T, flags: Uint32Array | Uint8Array): T {
  checkData(data);
  checkFlags(flags, data.length);
  const n = data.length;
  const input = wordsOf(data);
  let kept = 0;
  for (let i = 0; i < n; i++) kept += flags[i]!;
  const { array, words } = newLike(data, kept);
  let k = 0;
  for (let i = 0; i < n; i++) if (flags[i] === 1) words[k++] = input[i]!;
  return array;
}
