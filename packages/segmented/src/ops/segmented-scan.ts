import type { HostArray, ScanContext, ScanTypedArray } from '@scan/core';
import {
  assertUsable,
  builtinNameOf,
  checkData,
  checkHostArray,
  checkOperatorAlgorithm,
  checkOptions,
  typedArrayFor,
  typedArrayOver,
  userOperatorOf,
  withSession,
} from '@scan/core/kit';
import { packHeadFlags } from '../cpu/pack-head-flags.js';
import { createSegmentedScanPlan } from '../plans/segmented-scan-plan.js';
import type { HeadFlags, SegmentedScanOptions } from '../types.js';
import { checkHeadFlags, normalizeSegmentedScanOptions } from '../validate.js';
import { operatorSegmentedScan } from './operator-segmented-ops.js';

/**
 * Segmented prefix scan on the GPU: an independent scan inside every segment, as marked by head
 * flags (1 = first element of a segment; element 0 always starts one). Exclusive by default — each
 * segment starts at the identity. Backward scans run each segment from its last element.
 *
 * @example
 * ```ts
 * await segmentedScan(ctx, new Uint32Array([1, 2, 3, 4, 5]), new Uint8Array([1, 0, 0, 1, 0]));
 * // [0, 1, 3, 0, 4]
 * await segmentedScan(ctx, new Uint32Array([1, 2, 3, 4, 5]), new Uint8Array([1, 0, 0, 1, 0]), { inclusive: true, backward: true });
 * // [6, 5, 3, 9, 5]
 * ```
 */
export async function segmentedScan<A extends ScanTypedArray | HostArray>(
  ctx: ScanContext,
  data: A,
  headFlags: HeadFlags,
  options?: SegmentedScanOptions,
): Promise<A> {
  assertUsable(ctx);
  const given = checkOptions(options, ['op', 'inclusive', 'backward', 'algorithm']);
  const user = userOperatorOf(given['op'], undefined);
  if (user) {
    // A user-defined operator: its own single pass over the records (operator-segmented.ts).
    const records = checkHostArray(user, data, 'data');
    checkHeadFlags(headFlags, records, 'headFlags');
    const { inclusive, backward, algorithm } = normalizeSegmentedScanOptions({ ...given, op: undefined }, 'u32');
    if (algorithm !== 'auto' && algorithm !== 'single-pass') checkOperatorAlgorithm(algorithm, user);
    return operatorSegmentedScan(ctx, data as HostArray, headFlags, user, { inclusive, backward }) as Promise<A>;
  }
  const type = checkData(data, 'data');
  checkHeadFlags(headFlags, data.length, 'headFlags');
  userOperatorOf(given['op'], type);
  const opts = normalizeSegmentedScanOptions({ ...given, op: builtinNameOf(given['op']) }, type);
  const n = data.length;
  if (n === 0) return typedArrayFor(type, 0) as A;
  return withSession(ctx, 'segmentedScan', async (s) => {
    const plan = await s.plan(createSegmentedScanPlan(ctx, { type, ...opts }));
    const input = s.upload(data, 'segmented scan input');
    // One bit per element travels to the GPU, not one byte or word.
    const headBits = s.upload(packHeadFlags(headFlags), 'segmented scan head bits');
    const output = s.buffer(4 * n, 'segmented scan output');
    plan.encode(s.encoder, { input, headBits, output, count: n });
    const read = s.readback(output, 4 * n);
    s.submit();
    return typedArrayOver(data as ScanTypedArray, await read()) as A;
  });
}
