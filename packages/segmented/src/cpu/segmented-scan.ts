import type { HostArray, ScanTypedArray } from '@scan/core';
import { combine } from '@scan/core/cpu';
import {
  builtinNameOf,
  checkData,
  checkHostArray,
  checkOptions,
  identityOf,
  segmentedScanWith,
  typedArrayFor,
  userOperatorOf,
} from '@scan/core/kit';
import type { HeadFlags, SegmentedScanOptions } from '../types.js';
import { checkHeadFlags, normalizeSegmentedScanOptions } from '../validate.js';

/**
 * CPU reference of `segmentedScan`: an independent scan of every segment, one element at a time,
 * in the element type's own arithmetic (core's `combine`: integers wrap, f32 rounds at each step).
 *
 * - forward exclusive: the identity at each head, then `op` of the segment's earlier elements;
 *   inclusive: `op` of the segment's elements up to and including this one.
 * - backward: the same from each segment's last element towards its first — exclusive puts the
 *   identity at each segment's last element. (The paper gets this by reversing the data and
 *   shifting the flags by one, so that a head flag, which sits *between* two elements, still
 *   separates the same two; the segments are the same ones as forward.)
 *
 * Element 0 always starts a segment, even when its flag is 0. `options.algorithm` is accepted (one
 * options object serves GPU and CPU) and ignored.
 *
 * @example
 * ```ts
 * const heads = new Uint8Array([1, 0, 0, 1, 0]);
 * segmentedScan(new Uint32Array([1, 2, 3, 4, 5]), heads); // Uint32Array [0, 1, 3, 0, 4]
 * segmentedScan(new Uint32Array([1, 2, 3, 4, 5]), heads, { inclusive: true }); // [1, 3, 6, 4, 9]
 * segmentedScan(new Uint32Array([1, 2, 3, 4, 5]), heads, { backward: true }); // [5, 3, 0, 5, 0]
 * segmentedScan(new Int32Array([3, 1, 2]), new Uint8Array([1, 0, 1]), { op: 'max', inclusive: true }); // [3, 3, 2]
 * ```
 */
export function segmentedScan<T extends ScanTypedArray | HostArray>(data: T, headFlags: HeadFlags, options?: SegmentedScanOptions): T {
  const given = checkOptions(options, ['op', 'inclusive', 'backward', 'algorithm']);
  const user = userOperatorOf(given['op'], undefined);
  if (user) {
    // A user-defined operator: its records, combined in array order within each segment.
    checkHeadFlags(headFlags, checkHostArray(user, data, 'data'));
    const { inclusive, backward } = normalizeSegmentedScanOptions({ ...given, op: undefined }, 'u32');
    return segmentedScanWith(user, data as HostArray, headFlags, { inclusive, backward }) as T;
  }
  const type = checkData(data);
  checkHeadFlags(headFlags, data.length);
  userOperatorOf(given['op'], type);
  const { op, inclusive, backward } = normalizeSegmentedScanOptions({ ...given, op: builtinNameOf(given['op']) }, type);
  const f = combine(op, type);
  const identity = identityOf(op, type);
  const n = data.length;
  const out = typedArrayFor(type, n) as T;
  let acc = identity;
  if (!backward) {
    for (let i = 0; i < n; i++) {
      if (i === 0 || headFlags[i] === 1) acc = identity;
      if (inclusive) acc = f(acc, data[i]!);
      out[i] = acc;
      if (!inclusive) acc = f(acc, data[i]!);
    }
  } else {
    for (let i = n - 1; i >= 0; i--) {
      // Element i ends its segment when the next element starts one: the flags shifted by one.
      if (i === n - 1 || headFlags[i + 1] === 1) acc = identity;
      if (inclusive) acc = f(data[i]!, acc);
      out[i] = acc;
      if (!inclusive) acc = f(data[i]!, acc);
    }
  }
  return out;
}
