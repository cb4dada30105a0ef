import type { ScanContext } from '@scan/core';
import { assertUsable, withSession } from '@scan/core/kit';
import { toF16Array } from '../cpu/f16.js';
import type { TcuCountOptions, TcuReduceOptions, TcuScanOptions } from '../cpu/tcu.js';
import { createTcuCountPlan, createTcuReducePlan, createTcuScanPlan, type TcuPlan } from '../plans/tcu-plans.js';
import { prepareTcu } from '../support.js';
import { COUNT_KEYS, checkCountFlags, checkHalfData, checkSegmentation, normalizeTcuOptions, REDUCE_KEYS, SCAN_KEYS } from '../validate.js';

/** f16 bits packed two per u32 word (element 2i in the low half): the plans' input format. */
export function packHalves(bits: Uint16Array): Uint32Array<ArrayBuffer> {
  const words = new Uint32Array(Math.max(1, Math.ceil(bits.length / 2)));
  new Uint16Array(words.buffer).set(bits);
  return words;
}

/** 0/1 bytes packed four per u32 word: the count plan's input format. */
export function packBytes(flags: Uint8Array): Uint32Array<ArrayBuffer> {
  const words = new Uint32Array(Math.max(1, Math.ceil(flags.length / 4)));
  new Uint8Array(words.buffer).set(flags);
  return words;
}

/**
 * Runs one plan over uploaded words. The plan is made for this count and segment size
 * (`maxCount`, `maxSegmentSize`): its scratch is sized once, and `ready` compiles the kernels of
 * counts up to this one before the encode.
 */
async function run<T extends Float32Array | Uint32Array>(
  ctx: ScanContext,
  what: string,
  plan: (sizes: { maxCount: number; maxSegmentSize: number }) => TcuPlan,
  words: Uint32Array,
  count: number,
  segmentSize: number,
  outLength: number,
  make: (b: ArrayBuffer) => T,
): Promise<T> {
  return withSession(ctx, what, async (s) => {
    const p = await s.plan(plan({ maxCount: count, maxSegmentSize: segmentSize }));
    const input = s.upload(words, `${what} input`);
    const output = s.buffer(4 * Math.max(1, outLength), `${what} output`);
    p.encode(s.encoder, { input, output, count, segmentSize });
    const read = s.readback(output, 4 * outLength);
    s.submit();
    return make(await read());
  });
}

/**
 * Regular segmented sum on the GPU as matrix products (Dakkak et al. 2019): values are rounded to
 * f16 on upload (round to nearest even; a `Uint16Array` is taken as f16 bits), summed in f32; one
 * sum per segment, the whole array when `segmentSize` is omitted. Tensor cores (subgroup matrices)
 * where the device has them, the same formulation emulated in workgroup memory elsewhere.
 *
 * @example
 * ```ts
 * await tcuReduce(ctx, new Float32Array([1, 2, 3, 4]), { segmentSize: 2 }); // Float32Array [3, 7]
 * await tcuReduce(ctx, new Float32Array(1000).fill(0.5)); // Float32Array [500]
 * ```
 */
export async function tcuReduce(ctx: ScanContext, data: Float32Array | Uint16Array, options?: TcuReduceOptions): Promise<Float32Array> {
  assertUsable(ctx);
  checkHalfData(data);
  const o = normalizeTcuOptions(options, REDUCE_KEYS);
  const seg = checkSegmentation(data.length, o.segmentSize, o.pad);
  const bits = toF16Array(data, { saturate: o.saturate });
  if (data.length === 0) return new Float32Array(seg.segments);
  await prepareTcu(ctx);
  return run(
    ctx,
    'tcuReduce',
    (sizes) => createTcuReducePlan(ctx, { path: o.path, ...sizes }),
    packHalves(bits),
    data.length,
    seg.segmentSize,
    seg.segments,
    (b) => new Float32Array(b),
  );
}

/**
 * Regular segmented prefix sum on the GPU as matrix products: f16 inputs, f32 results, exclusive
 * by default (`inclusive: true` includes each element); the whole array when `segmentSize` is
 * omitted.
 *
 * @example
 * ```ts
 * await tcuScan(ctx, new Float32Array([1, 2, 3, 4]), { segmentSize: 2 }); // Float32Array [0, 1, 0, 3]
 * await tcuScan(ctx, new Float32Array([1, 2, 3]), { inclusive: true }); // Float32Array [1, 3, 6]
 * ```
 */
export async function tcuScan(ctx: ScanContext, data: Float32Array | Uint16Array, options?: TcuScanOptions): Promise<Float32Array> {
  assertUsable(ctx);
  checkHalfData(data);
  const o = normalizeTcuOptions(options, SCAN_KEYS);
  const seg = checkSegmentation(data.length, o.segmentSize, o.pad);
  const bits = toF16Array(data, { saturate: o.saturate });
  if (data.length === 0) return new Float32Array(0);
  await prepareTcu(ctx);
  return run(
    ctx,
    'tcuScan',
    (sizes) => createTcuScanPlan(ctx, { path: o.path, inclusive: o.inclusive, ...sizes }),
    packHalves(bits),
    data.length,
    seg.segmentSize,
    data.length,
    (b) => new Float32Array(b),
  );
}

/**
 * Exact count of the ones among 0/1 flags per segment, through u8 × u8 → u32 matrix products
 * (the adapter's integer subgroup-matrix config, or u32 arithmetic when emulated). Flags other
 * than 0/1 throw a `ScanError` naming the first.
 *
 * @example
 * ```ts
 * await tcuCount(ctx, new Uint8Array([1, 0, 1, 1]), { segmentSize: 2 }); // Uint32Array [1, 2]
 * ```
 */
export async function tcuCount(ctx: ScanContext, flags: Uint8Array, options?: TcuCountOptions): Promise<Uint32Array> {
  assertUsable(ctx);
  checkCountFlags(flags);
  const o = normalizeTcuOptions(options, COUNT_KEYS);
  const seg = checkSegmentation(flags.length, o.segmentSize, o.pad);
  if (flags.length === 0) return new Uint32Array(seg.segments);
  await prepareTcu(ctx);
  return run(
    ctx,
    'tcuCount',
    (sizes) => createTcuCountPlan(ctx, { path: o.path, ...sizes }),
    packBytes(flags),
    flags.length,
    seg.segmentSize,
    seg.segments,
    (b) => new Uint32Array(b),
  );
}
