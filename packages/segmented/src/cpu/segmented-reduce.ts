import type { ScanOp, ScanTypedArray } from '@scan/core';
import { combine } from '@scan/core/cpu';
import { checkData, identityOf, typedArrayFor } from '@scan/core/kit';
import type { HeadFlags, SegmentOffsets } from '../types.js';
import { checkReduceOp, checkSegments } from '../validate.js';

/** Options of `segmentedReduce`. */
export interface SegmentedReduceOptions {
  /** Operator (default `'add'`); bitwise operators need integer data. */
  op?: ScanOp;
}

/**
 * CPU reference of `segmentedReduce`: one value per segment, `op` over the segment's elements from
 * first to last starting at the identity (as core's `reduce`), in a typed array of the data's type.
 * Segments are head flags (element 0 always starts one) or `{ offsets }`, which may describe empty
 * segments: those reduce to the identity of `op`.
 *
 * @example
 * ```ts
 * segmentedReduce(new Uint32Array([1, 2, 3, 4, 5]), new Uint8Array([1, 0, 0, 1, 0])); // Uint32Array [6, 9]
 * segmentedReduce(new Int32Array([4, 2, 7]), { offsets: new Uint32Array([0, 2, 2, 3]) }, { op: 'min' });
 * // Int32Array [2, 2147483647, 7]: the empty middle segment is min's identity
 * ```
 */
export function segmentedReduce<T extends ScanTypedArray>(
  data: T,
  segments: HeadFlags | SegmentOffsets,
  options?: SegmentedReduceOptions,
): T {
  const type = checkData(data);
  const s = checkSegments(segments, data.length);
  const op = checkReduceOp(options, type);
  const f = combine(op, type);
  const identity = identityOf(op, type);
  const out = typedArrayFor(type, s.segmentCount) as T;
  if (s.kind === 'offsets') {
    for (let k = 0; k < s.segmentCount; k++) {
      let acc = identity;
      for (let i = s.offsets[k]!; i < s.offsets[k + 1]!; i++) acc = f(acc, data[i]!);
      out[k] = acc;
    }
    return out;
  }
  let k = -1;
  let acc = identity;
  for (let i = 0; i < data.length; i++) {
    if (i === 0 || s.headFlags[i] === 1) {
      if (k >= 0) out[k] = acc;
      k++;
      acc = identity;
    }
    acc = f(acc, data[i]!);
  }
  if (k >= 0) out[k] = acc;
  return out;
}
