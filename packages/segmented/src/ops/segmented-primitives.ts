import type { ScanContext, ScanTypedArray } from '@scan/core';
import { assertUsable, checkData, checkFlags, lengthOf, typedArrayFor, typedArrayOver, withSession } from '@scan/core/kit';
import { packHeadFlags, unpackHeadFlags } from '../cpu/pack-head-flags.js';
import type { SegmentedDirectionOptions } from '../cpu/segmented-distribute.js';
import type { SplitAndSegmentResult } from '../cpu/split-and-segment.js';
import { createSegmentedDistributePlan, createSegmentedEnumeratePlan, createSplitAndSegmentPlan } from '../plans/segmented-primitives.js';
import { type HeadFlags, packedFlagWords } from '../types.js';
import { checkBackward, checkHeadFlags } from '../validate.js';

// Array-level segmented distribute, enumerate and split-and-segment: typed arrays in, new typed
// arrays out, the same results and errors as the CPU references in `@scan/segmented/cpu`. Head
// flags are bit-packed on the CPU before the upload: one bit per element travels, not a byte.

/**
 * Segmented distribute on the GPU: every element gets its segment's first element (backward: its
 * segment's last) — the paper's `distribute([a b c][d e]) = [a a a][d d]`. Words are copied
 * exactly (f32 NaN payloads and -0 included). Element 0 always starts a segment.
 *
 * @example
 * ```ts
 * const heads = new Uint8Array([1, 0, 0, 1, 0]);
 * await segmentedDistribute(ctx, new Uint32Array([1, 2, 3, 4, 5]), heads); // Uint32Array [1, 1, 1, 4, 4]
 * await segmentedDistribute(ctx, new Uint32Array([1, 2, 3, 4, 5]), heads, { backward: true }); // [3, 3, 3, 5, 5]
 * ```
 */
export async function segmentedDistribute<A extends ScanTypedArray>(
  ctx: ScanContext,
  data: A,
  headFlags: HeadFlags,
  options?: SegmentedDirectionOptions,
): Promise<A> {
  assertUsable(ctx);
  const type = checkData(data, 'data');
  checkHeadFlags(headFlags, data.length, 'headFlags');
  const backward = checkBackward(options);
  const n = data.length;
  if (n === 0) return typedArrayFor(type, 0) as A;
  return withSession(ctx, 'segmentedDistribute', async (s) => {
    const plan = await s.plan(createSegmentedDistributePlan(ctx, { type, backward }));
    const input = s.upload(data, 'segmented distribute input');
    const headBits = s.upload(packHeadFlags(headFlags), 'segmented distribute head bits');
    const output = s.buffer(4 * n, 'segmented distribute output');
    plan.encode(s.encoder, { input, headBits, output, count: n });
    const read = s.readback(output, 4 * n);
    s.submit();
    return typedArrayOver(data, await read());
  });
}

/**
 * Segmented enumerate on the GPU: for each element, how many flags are 1 strictly before it within
 * its segment (backward: strictly after it). Flags hold 0/1 and are as long as the head flags.
 *
 * @example
 * ```ts
 * // The paper's enumerate([t f f t f t t]), cut into [t f f][t f t t]:
 * await segmentedEnumerate(ctx, new Uint8Array([1, 0, 0, 1, 0, 1, 1]), new Uint8Array([1, 0, 0, 1, 0, 0, 0]));
 * // Uint32Array [0, 1, 1, 0, 1, 1, 2]
 * ```
 */
export async function segmentedEnumerate(
  ctx: ScanContext,
  flags: Uint8Array | Uint32Array,
  headFlags: HeadFlags,
  options?: SegmentedDirectionOptions,
): Promise<Uint32Array> {
  assertUsable(ctx);
  checkFlags(flags, lengthOf(flags), 'flags');
  checkHeadFlags(headFlags, flags.length, 'headFlags');
  const backward = checkBackward(options);
  const n = flags.length;
  if (n === 0) return new Uint32Array(0);
  return withSession(ctx, 'segmentedEnumerate', async (s) => {
    const plan = await s.plan(createSegmentedEnumeratePlan(ctx, { backward }));
    const flagsBuffer = s.uploadFlags(flags);
    const headBits = s.upload(packHeadFlags(headFlags), 'segmented enumerate head bits');
    const output = s.buffer(4 * n, 'segmented enumerate output');
    plan.encode(s.encoder, { flags: flagsBuffer, headBits, output, count: n });
    const read = s.readback(output, 4 * n);
    s.submit();
    return new Uint32Array(await read());
  });
}

/**
 * Split-and-segment on the GPU (the paper's §2.3.3, with its 2 scans): a stable split inside every
 * segment — the elements flagged 0 first, then those flagged 1 — and each segment becomes two, the
 * falses and the trues. A part with no elements is no segment, so a segment of all falses or all
 * trues stays one. The returned head flags have the input head flags' array type.
 *
 * @example
 * ```ts
 * // The paper: split-and-segment([at bf ct][df et ff]) = [bf][at ct][df ff][et], with a..f = 1..6:
 * await splitAndSegment(ctx, new Uint32Array([1, 2, 3, 4, 5, 6]), new Uint8Array([1, 0, 1, 0, 1, 0]), new Uint8Array([1, 0, 0, 1, 0, 0]));
 * // { output: Uint32Array [2, 1, 3, 4, 6, 5], headFlags: Uint8Array [1, 1, 0, 1, 0, 1] }
 * ```
 */
export async function splitAndSegment<A extends ScanTypedArray, F extends HeadFlags>(
  ctx: ScanContext,
  data: A,
  flags: Uint8Array | Uint32Array,
  headFlags: F,
): Promise<SplitAndSegmentResult<A, F>> {
  assertUsable(ctx);
  const type = checkData(data, 'data');
  checkFlags(flags, data.length, 'flags');
  checkHeadFlags(headFlags, data.length, 'headFlags');
  const n = data.length;
  const FlagArray = headFlags.constructor as new (source: ArrayLike<number>) => F;
  if (n === 0) return { output: typedArrayFor(type, 0) as A, headFlags: new FlagArray([]) };
  return withSession(ctx, 'splitAndSegment', async (s) => {
    const plan = await s.plan(createSplitAndSegmentPlan(ctx, { type }));
    const words = packedFlagWords(n);
    const input = s.upload(data, 'split-and-segment input');
    const flagsBuffer = s.uploadFlags(flags);
    const headBits = s.upload(packHeadFlags(headFlags), 'split-and-segment head bits');
    const output = s.buffer(4 * n, 'split-and-segment output');
    const outputHeadBits = s.buffer(4 * words, 'split-and-segment output head bits');
    plan.encode(s.encoder, { input, flags: flagsBuffer, headBits, output, outputHeadBits, count: n });
    const readData = s.readback(output, 4 * n);
    const readBits = s.readback(outputHeadBits, 4 * words);
    s.submit();
    const [bytes, bits] = await Promise.all([readData(), readBits()]);
    const unpacked = unpackHeadFlags(new Uint32Array(bits), n);
    return { output: typedArrayOver(data, bytes), headFlags: unpacked instanceof FlagArray ? unpacked : new FlagArray(unpacked) };
  });
}
