import type { HostArray, Operator, ScanOp, ScanTypedArray } from '@scan/core';
import { combine } from '@scan/core/cpu';
import {
  builtinNameOf,
  checkData,
  checkHostArray,
  checkOptions,
  identityOf,
  newHostArray,
  readRecord,
  segmentedReduceWith,
  typedArrayFor,
  userOperatorOf,
  writeRecord,
} from '@scan/core/kit';
import type { HeadFlags, SegmentOffsets } from '../types.js';
import { checkReduceOp, checkSegments } from '../validate.js';
import { offsetsToHeadFlags } from './offsets-to-head-flags.js';

/** Options of `segmentedReduce`. */
export interface SegmentedReduceOptions {
  /** Operator (default `'add'`): a built-in name (bitwise operators need integer data) or an `Operator` from `defineOperator`. */
  // biome-ignore lint/suspicious/noExplicitAny: any operator's record type
  op?: ScanOp | Operator<any>;
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
export function segmentedReduce<T extends ScanTypedArray | HostArray>(
  data: T,
  segments: HeadFlags | SegmentOffsets,
  options?: SegmentedReduceOptions,
): T {
  const given = checkOptions(options, ['op']);
  const user = userOperatorOf(given['op'], undefined);
  if (user) return reduceRecords(user, data as HostArray, checkSegments(segments, checkHostArray(user, data, 'data'))) as T;
  const type = checkData(data);
  const s = checkSegments(segments, data.length);
  userOperatorOf(given['op'], type);
  const op = checkReduceOp({ op: builtinNameOf(given['op']) }, type);
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

/** A user-defined operator's segmented reduction: head flags as they are, offsets with the identity for an empty segment. */
function reduceRecords(op: Operator<unknown>, data: HostArray, s: ReturnType<typeof checkSegments>): HostArray {
  if (s.kind !== 'offsets') return segmentedReduceWith(op, data, s.headFlags);
  // The non-empty segments reduced in order (each value rounded as the GPU stores it), spread.
  const compact = segmentedReduceWith(op, data, offsetsToHeadFlags(s.offsets));
  const out = newHostArray(op, data, s.segmentCount);
  for (let k = 0, j = 0; k < s.segmentCount; k++) {
    const empty = (s.offsets[k + 1] as number) === (s.offsets[k] as number);
    writeRecord(op, out, k, empty ? op.identity : readRecord(op, compact, j++));
  }
  return out;
}
