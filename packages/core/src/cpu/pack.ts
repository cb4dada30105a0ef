import { elementTypeOf, type ScanTypedArray } from '../element-types.js';
import { type CompareOp, checkPredicate, predicateTest } from '../predicate.js';
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

/**
 * CPU reference of `packIf`: the elements `x` of `data` with `x op value`, in order (NaN compares
 * false, and `'ne'` true). Bits are copied exactly.
 *
 * @example
 * ```ts
 * packIf(new Int32Array([-2, 5, 0, 7]), { op: 'ge', value: 0 }); // Int32Array [5, 0, 7]
 * ```
 */
export function packIf<T extends ScanTypedArray>(data: T, options: { op: CompareOp; value: number }): T {
  checkData(data);
  const keep = predicateTest(checkPredicate(options, elementTypeOf(data, 'data')));
  const n = data.length;
  const input = wordsOf(data);
  let kept = 0;
  for (let i = 0; i < n; i++) if (keep(data[i]!)) kept++;
  const { array, words } = newLike(data, kept);
  let k = 0;
  for (let i = 0; i < n; i++) if (keep(data[i]!)) words[k++] = input[i]!;
  return array;
}
