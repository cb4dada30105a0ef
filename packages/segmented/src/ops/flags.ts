import type { ScanContext } from '@scan/core';
import { assertUsable, type GpuSession, withSession } from '@scan/core/kit';
import { unpackHeadFlags } from '../cpu/pack-head-flags.js';
import { createHeadFlagsToOffsetsPlan, createOffsetsToHeadFlagsPlan, createPackHeadFlagsPlan } from '../plans/flag-plans.js';
import { type HeadFlags, packedFlagWords } from '../types.js';
import { checkHeadFlags, checkOffsets, flagLength } from '../validate.js';

// Array-level conversions between segment representations on the GPU: typed arrays in, new typed
// arrays out, the same results and errors as the CPU references in `@scan/segmented/cpu`.

/**
 * Uploads head flags as the pack plan reads them: a `Uint32Array` as it is (`'u32'`), a
 * `Uint8Array` as it is too, four flags per word (`'u8'`) — a quarter of the bytes of widening it —
 * padded to whole words because `writeBuffer` moves multiples of 4 bytes.
 */
function uploadHeadFlags(s: GpuSession, headFlags: HeadFlags): { buffer: GPUBuffer; flagType: 'u8' | 'u32' } {
  if (headFlags instanceof Uint32Array) return { buffer: s.upload(headFlags, 'head flags'), flagType: 'u32' };
  const padded = headFlags.length % 4 === 0 ? headFlags : new Uint8Array(Math.ceil(headFlags.length / 4) * 4);
  if (padded !== headFlags) padded.set(headFlags);
  return { buffer: s.upload(padded, 'head flags'), flagType: 'u8' };
}

/**
 * Records the pack of uploaded head flags into a new buffer of ⌈n / 32⌉ words and returns it, once
 * the pack plan's kernel is compiled (`plan.ready`).
 */
async function encodePack(ctx: ScanContext, s: GpuSession, headFlags: HeadFlags): Promise<GPUBuffer> {
  const n = headFlags.length;
  const { buffer, flagType } = uploadHeadFlags(s, headFlags);
  const plan = await s.plan(createPackHeadFlagsPlan(ctx, { flagType }));
  const bits = s.buffer(4 * packedFlagWords(n), 'head bits');
  plan.encode(s.encoder, { flags: buffer, output: bits, count: n });
  return bits;
}

/**
 * Bit-packs head flags on the GPU (bit `i % 32` of word `⌊i / 32⌋`; element 0's bit always set,
 * bits past the end 0), like the CPU `packHeadFlags`. Flags must be 0 or 1.
 *
 * @example
 * ```ts
 * await packHeadFlags(ctx, new Uint8Array([0, 0, 1, 0, 1])); // Uint32Array [21]
 * ```
 */
export async function packHeadFlags(ctx: ScanContext, headFlags: HeadFlags): Promise<Uint32Array> {
  assertUsable(ctx);
  checkHeadFlags(headFlags, flagLength(headFlags));
  const n = headFlags.length;
  if (n === 0) return new Uint32Array(0);
  return withSession(ctx, 'packHeadFlags', async (s) => {
    const bits = await encodePack(ctx, s, headFlags);
    const read = s.readback(bits, 4 * packedFlagWords(n));
    s.submit();
    return new Uint32Array(await read());
  });
}

/**
 * Segment offsets of head flags on the GPU (pack, then number the heads by a scan and scatter
 * their indices), like the CPU `headFlagsToOffsets`: `segments + 1` entries, the last being the
 * length; `[0]` for no elements. Element 0 always starts a segment.
 *
 * @example
 * ```ts
 * await headFlagsToOffsets(ctx, new Uint8Array([1, 0, 0, 1, 0])); // Uint32Array [0, 3, 5]
 * ```
 */
export async function headFlagsToOffsets(ctx: ScanContext, headFlags: HeadFlags): Promise<Uint32Array> {
  assertUsable(ctx);
  checkHeadFlags(headFlags, flagLength(headFlags));
  const n = headFlags.length;
  if (n === 0) return new Uint32Array([0]);
  return withSession(ctx, 'headFlagsToOffsets', async (s) => {
    const bits = await encodePack(ctx, s, headFlags);
    const plan = await s.plan(createHeadFlagsToOffsetsPlan(ctx));
    const output = s.buffer(4 * (n + 1), 'offsets');
    const segmentCount = s.buffer(4, 'segment count');
    plan.encode(s.encoder, { headBits: bits, output, count: n, segmentCount });
    // One submission reads both; the worst case (n + 1 words) is as large as the input anyway.
    const readOffsets = s.readback(output, 4 * (n + 1));
    const readCount = s.readback(segmentCount, 4);
    s.submit();
    const segments = new Uint32Array(await readCount())[0]!;
    return new Uint32Array(await readOffsets(4 * (segments + 1)));
  });
}

/**
 * Head flags of segment offsets on the GPU, like the CPU `offsetsToHeadFlags`: a `Uint8Array` of
 * `offsets[last]` elements with a 1 at each segment's first element. Empty segments cannot be
 * represented and vanish. Offsets must start at 0 and be non-decreasing.
 *
 * @example
 * ```ts
 * await offsetsToHeadFlags(ctx, new Uint32Array([0, 3, 3, 5])); // Uint8Array [1, 0, 0, 1, 0]
 * ```
 */
export async function offsetsToHeadFlags(ctx: ScanContext, offsets: Uint32Array): Promise<Uint8Array> {
  assertUsable(ctx);
  // The offsets define the length, so the last-offset check holds by construction.
  const n = offsets instanceof Uint32Array && offsets.length > 0 ? offsets[offsets.length - 1]! : 0;
  checkOffsets(offsets, n);
  if (n === 0) return new Uint8Array(0);
  const segments = offsets.length - 1;
  return withSession(ctx, 'offsetsToHeadFlags', async (s) => {
    const plan = await s.plan(createOffsetsToHeadFlagsPlan(ctx));
    const input = s.upload(offsets, 'offsets');
    const words = packedFlagWords(n);
    const bits = s.buffer(4 * words, 'head bits');
    plan.encode(s.encoder, { offsets: input, segments, output: bits, count: n });
    const read = s.readback(bits, 4 * words);
    s.submit();
    // One bit per element crosses the bus; the bytes are spread out here.
    return unpackHeadFlags(new Uint32Array(await read()), n);
  });
}
