import type { HostArray, Operator, ScanContext, ScanTypedArray } from '@scan/core';
import {
  assertUsable,
  builtinNameOf,
  checkData,
  checkHostArray,
  checkOptions,
  identityOf,
  typedArrayFor,
  typedArrayOver,
  userOperatorOf,
  withSession,
} from '@scan/core/kit';
import { offsetsToHeadFlags } from '../cpu/offsets-to-head-flags.js';
import { packHeadFlags } from '../cpu/pack-head-flags.js';
import { createSegmentedReducePlan } from '../plans/segmented-reduce-plan.js';
import type { HeadFlags, SegmentOffsets } from '../types.js';
import { checkReduceOp, checkSegments } from '../validate.js';
import { operatorSegmentedReduce } from './operator-segmented-ops.js';

/**
 * Segmented reduction on the GPU: one value per segment, the segment's elements combined with `op`
 * (default `'add'`). Segments come as head flags (element 0 always starts one) or as
 * `{ offsets }` (like CSR `rowPtr`), where an empty segment gives the identity.
 *
 * @example
 * ```ts
 * await segmentedReduce(ctx, new Uint32Array([1, 2, 3, 4, 5]), new Uint8Array([1, 0, 0, 1, 0])); // [6, 9]
 * await segmentedReduce(ctx, new Int32Array([1, 2, 3]), { offsets: new Uint32Array([0, 2, 2, 3]) }, { op: 'max' });
 * // [2, -2147483648, 3]
 * ```
 */
export async function segmentedReduce<A extends ScanTypedArray | HostArray>(
  ctx: ScanContext,
  data: A,
  segments: HeadFlags | SegmentOffsets,
  // biome-ignore lint/suspicious/noExplicitAny: any operator's record type
  options?: { op?: 'add' | 'min' | 'max' | 'mul' | 'and' | 'or' | 'xor' | Operator<any> },
): Promise<A> {
  assertUsable(ctx);
  const given = checkOptions(options, ['op']);
  const user = userOperatorOf(given['op'], undefined);
  if (user) {
    // A user-defined operator: its own single pass over the records (operator-segmented.ts).
    const records = checkHostArray(user, data, 'data');
    const s = checkSegments(segments, records, 'segments');
    const heads = s.kind === 'offsets' ? offsetsToHeadFlags(s.offsets) : s.headFlags;
    return operatorSegmentedReduce(ctx, data as HostArray, heads, s.kind === 'offsets' ? s.offsets : undefined, user) as Promise<A>;
  }
  const type = checkData(data, 'data');
  const normalized = checkSegments(segments, data.length, 'segments');
  userOperatorOf(given['op'], type);
  const op = checkReduceOp({ op: builtinNameOf(given['op']) }, type);
  const n = data.length;
  // Offsets may hold empty segments, which head flags cannot: reduce the non-empty ones, then
  // spread the results, the identity in the gaps.
  const offsets = normalized.kind === 'offsets' ? normalized.offsets : undefined;
  const headFlags = normalized.kind === 'offsets' ? offsetsToHeadFlags(normalized.offsets) : normalized.headFlags;
  const bits = packHeadFlags(headFlags);
  let nonEmpty = 0;
  for (const word of bits) nonEmpty += popcount(word);
  const out = typedArrayFor(type, normalized.segmentCount);
  if (n === 0) return out.fill(identityOf(op, type) as never) as A;
  const compact = await withSession(ctx, 'segmentedReduce', async (s) => {
    const plan = await s.plan(createSegmentedReducePlan(ctx, { type, op }));
    const input = s.upload(data, 'segmented reduce input');
    const headBits = s.upload(bits, 'segmented reduce head bits');
    const output = s.buffer(4 * nonEmpty, 'segmented reduce output');
    plan.encode(s.encoder, { input, headBits, output, count: n, segments: nonEmpty });
    const read = s.readback(output, 4 * nonEmpty);
    s.submit();
    return typedArrayOver(data as ScanTypedArray, await read());
  });
  if (!offsets) return compact as A;
  const identity = identityOf(op, type);
  for (let k = 0, j = 0; k < normalized.segmentCount; k++) {
    out[k] = ((offsets[k + 1] as number) > (offsets[k] as number) ? compact[j++] : identity) as number;
  }
  return out as A;
}

function popcount(word: number): number {
  let x = word >>> 0;
  let c = 0;
  while (x) {
    x &= x - 1;
    c++;
  }
  return c;
}
