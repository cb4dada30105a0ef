import { checkBoolean, checkFlags, checkOptions, type DirectionOptions, lengthOf } from '../validate.js';

/**
 * CPU reference of `enumerate`: for each element, how many flags are 1 strictly before it
 * (backward: strictly after it) — the output index of a kept element in stream compaction.
 *
 * @example
 * ```ts
 * // The paper's example, t f f t f t t:
 * enumerate(new Uint8Array([1, 0, 0, 1, 0, 1, 1])); // Uint32Array [0, 1, 1, 1, 2, 2, 3]
 * enumerate(new Uint8Array([1, 0, 0, 1, 0, 1, 1]), { backward: true }); // Uint32Array [3, 3, 3, 2, 2, 1, 0]
 * ```
 */
export function enumerate(flags: Uint32Array | Uint8Array, options?: DirectionOptions): Uint32Array {
  checkFlags(flags, lengthOf(flags));
  const o = checkOptions(options, ['backward']);
  const backward = checkBoolean(o['backward'], 'options.backward', false);
  const n = flags.length;
  const out = new Uint32Array(n);
  let count = 0;
  if (!backward) {
    for (let i = 0; i < n; i++) {
      out[i] = count;
      count += flags[i]!;
    }
  } else {
    for (let i = n - 1; i >= 0; i--) {
      out[i] = count;
      count += flags[i]!;
    }
  }
  return out;
}
