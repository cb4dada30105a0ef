import { checkOffsets } from '../validate.js';

/**
 * Head flags of segment offsets: a `Uint8Array` of `offsets[last]` elements with a 1 at the first
 * element of every segment. Empty segments have no element to carry a flag, so they cannot be
 * represented and vanish (`[0, 2, 2, 5]` and `[0, 2, 5]` give the same flags); use offsets when
 * empty segments matter (e.g. `segmentedReduce`).
 *
 * @example
 * ```ts
 * offsetsToHeadFlags(new Uint32Array([0, 3, 5])); // Uint8Array [1, 0, 0, 1, 0]
 * offsetsToHeadFlags(new Uint32Array([0, 0, 2, 2, 3])); // Uint8Array [1, 0, 1]: the empty segments are gone
 * ```
 */
export function offsetsToHeadFlags(offsets: Uint32Array): Uint8Array {
  // The offsets define the length here, so the last-offset check holds by construction.
  const n = offsets instanceof Uint32Array && offsets.length > 0 ? offsets[offsets.length - 1]! : 0;
  checkOffsets(offsets, n);
  const flags = new Uint8Array(n);
  for (let k = 0; k < offsets.length - 1; k++) {
    const o = offsets[k]!;
    if (o < n) flags[o] = 1;
  }
  return flags;
}
