import { checkBoolean, checkOptions, invalidArgument } from '@scan/core/kit';
import type { SortArray, SortValueType } from './types.js';
import { checkElementValues, checkSortKeys } from './validate.js';

/** Arguments of `topK` after validation. */
export interface NormalizedTopK {
  readonly keyType: SortValueType;
  readonly k: number;
  readonly largest: boolean;
  readonly values: SortArray | undefined;
  readonly valueType: SortValueType | undefined;
}

/**
 * Checks a `k` against `n` keys: an integer with 0 ≤ k ≤ n; an `INVALID_ARGUMENT` `ScanError`
 * naming `argument` otherwise.
 *
 * @example
 * ```ts
 * checkK(32, 1000); // 32
 * checkK(5, 4); // throws: k = 5: more than the 4 keys
 * ```
 */
export function checkK(k: unknown, n: number, argument = 'k'): number {
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 0) invalidArgument(argument, k, 'expected an integer ≥ 0');
  if ((k as number) > n) invalidArgument(argument, k, `more than the ${n} keys`);
  return k as number;
}

/**
 * Validates the arguments of `topK` (GPU and CPU alike, so both reject the same inputs the same
 * way): keys of a supported type, `k` an integer in [0, n], `largest` a boolean (default true),
 * `values` a supported typed array of the keys' length.
 *
 * @example
 * ```ts
 * normalizeTopK(new Float32Array(8), 3, { largest: false });
 * // { keyType: 'f32', k: 3, largest: false, values: undefined, valueType: undefined }
 * ```
 */
export function normalizeTopK(keys: unknown, k: unknown, options: unknown): NormalizedTopK {
  const keyType = checkSortKeys(keys);
  const n = (keys as SortArray).length;
  const kk = checkK(k, n);
  const o = checkOptions(options, ['largest', 'values']);
  const largest = checkBoolean(o['largest'], 'options.largest', true);
  const { values, valueType } = checkElementValues(o['values'], n);
  return { keyType, k: kk, largest, values, valueType };
}
