import type { HeadFlags } from '../types.js';
import { checkHeadFlags, flagLength } from '../validate.js';

/**
 * Segment offsets of head flags (CSR `rowPtr` style): the index of every segment's first element,
 * then the data length — `segments + 1` entries. Element 0 always starts a segment, even when its
 * flag is 0. No elements give `[0]` (no segments).
 *
 * @example
 * ```ts
 * headFlagsToOffsets(new Uint8Array([1, 0, 0, 1, 0])); // Uint32Array [0, 3, 5]
 * headFlagsToOffsets(new Uint8Array([0, 1, 1])); // Uint32Array [0, 1, 2, 3]
 * headFlagsToOffsets(new Uint8Array([])); // Uint32Array [0]
 * ```
 */
export function headFlagsToOffsets(headFlags: HeadFlags): Uint32Array {
  checkHeadFlags(headFlags, flagLength(headFlags));
  const n = headFlags.length;
  let segments = n > 0 ? 1 : 0;
  for (let i = 1; i < n; i++) segments += headFlags[i]!;
  const offsets = new Uint32Array(segments + 1);
  let k = 0;
  for (let i = 0; i < n; i++) if (i === 0 || headFlags[i] === 1) offsets[k++] = i;
  offsets[segments] = n;
  return offsets;
}
