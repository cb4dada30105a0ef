import { checkFlags, lengthOf } from '@scan/core/kit';
import type { HeadFlags } from '../types.js';
import { checkBackward, checkHeadFlags } from '../validate.js';
import type { SegmentedDirectionOptions } from './segmented-distribute.js';

/**
 * CPU reference of `segmentedEnumerate`: for each element, how many flags are 1 strictly before it
 * within its segment (backward: strictly after it) — the exclusive segmented add-scan of the flags.
 * Both arrays hold 0/1 and have the same length; element 0 always starts a segment.
 *
 * @example
 * ```ts
 * // The paper's enumerate([t f f t f t t]), cut into [t f f][t f t t]:
 * segmentedEnumerate(new Uint8Array([1, 0, 0, 1, 0, 1, 1]), new Uint8Array([1, 0, 0, 1, 0, 0, 0]));
 * // Uint32Array [0, 1, 1, 0, 1, 1, 2]
 * segmentedEnumerate(new Uint8Array([1, 0, 0, 1, 0, 1, 1]), new Uint8Array([1, 0, 0, 1, 0, 0, 0]), { backward: true });
 * // Uint32Array [0, 0, 0, 2, 2, 1, 0]
 * ```
 */
export function segmentedEnumerate(
  flags: Uint8Array | Uint32Array,
  headFlags: HeadFlags,
  options?: SegmentedDirectionOptions,
): Uint32Array {
  checkFlags(flags, lengthOf(flags), 'flags');
  checkHeadFlags(headFlags, flags.length);
  const backward = checkBackward(options);
  const n = flags.length;
  const out = new Uint32Array(n);
  let count = 0;
  if (!backward) {
    for (let i = 0; i < n; i++) {
      if (i === 0 || headFlags[i] === 1) count = 0;
      out[i] = count;
      count += flags[i]!;
    }
  } else {
    for (let i = n - 1; i >= 0; i--) {
      if (i === n - 1 || headFlags[i + 1] === 1) count = 0;
      out[i] = count;
      count += flags[i]!;
    }
  }
  return out;
}
