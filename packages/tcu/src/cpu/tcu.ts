import { COUNT_KEYS, checkCountFlags, checkHalfData, checkSegmentation, normalizeTcuOptions, REDUCE_KEYS, SCAN_KEYS } from '../validate.js';
import { fromF16Bits, toF16Array } from './f16.js';

/** Options of `tcuReduce` (CPU and GPU). */
export interface TcuReduceOptions {
  /** Elements per segment; omitted: the whole array is one segment. */
  segmentSize?: number;
  /** Allow a segment size that does not divide the length: the last segment is shorter (zero-padded). */
  pad?: boolean;
  /** Clamp finite values past the f16 range to ±65504 instead of throwing. */
  saturate?: boolean;
  /** GPU only (the CPU ignores it): `'auto'` (default), `'subgroup-matrix'` or `'emulated'`. */
  path?: 'auto' | 'subgroup-matrix' | 'emulated';
}

/** Options of `tcuScan` (CPU and GPU). */
export interface TcuScanOptions extends TcuReduceOptions {
  /** Include each element in its own result (default false: exclusive, each segment starts at 0). */
  inclusive?: boolean;
}

/** Options of `tcuCount` (CPU and GPU). */
export interface TcuCountOptions {
  /** Flags per segment; omitted: the whole array. */
  segmentSize?: number;
  /** Allow a segment size that does not divide the length (the last segment is shorter). */
  pad?: boolean;
  /** GPU only (the CPU ignores it). */
  path?: 'auto' | 'subgroup-matrix' | 'emulated';
}

function halves(data: Float32Array | Uint16Array, saturate: boolean): Float64Array {
  const bits = toF16Array(data, { saturate });
  const out = new Float64Array(bits.length);
  for (let i = 0; i < bits.length; i++) out[i] = fromF16Bits(bits[i]!);
  return out;
}

function prepare(data: unknown, options: unknown, keys: readonly string[]) {
  checkHalfData(data);
  const o = normalizeTcuOptions(options, keys);
  const seg = checkSegmentation(data.length, o.segmentSize, o.pad);
  return { values: halves(data, o.saturate), seg, inclusive: o.inclusive };
}

/**
 * Regular segmented sum, as the GPU computes it: values rounded to f16 (round to nearest even; a
 * `Uint16Array` is taken as f16 bits), each segment summed in f32. One sum per segment; the whole
 * array (one sum) when `segmentSize` is omitted.
 *
 * @example
 * ```ts
 * tcuReduce(new Float32Array([1, 2, 3, 4]), { segmentSize: 2 }); // Float32Array [3, 7]
 * tcuReduce(new Float32Array([0.1, 0.2])); // Float32Array [0.2999267578125] (f16 inputs, f32 sum)
 * ```
 */
export function tcuReduce(data: Float32Array | Uint16Array, options?: TcuReduceOptions): Float32Array {
  const { values, seg } = prepare(data, options, REDUCE_KEYS);
  const out = new Float32Array(seg.segments);
  for (let k = 0; k < seg.segments; k++) {
    let acc = 0;
    const end = Math.min(values.length, (k + 1) * seg.segmentSize);
    for (let i = k * seg.segmentSize; i < end; i++) acc = Math.fround(acc + values[i]!);
    out[k] = acc;
  }
  return out;
}

/**
 * {@link tcuReduce} in f64 (the f16-rounded values summed in double precision): the yardstick for
 * the error of the f32 accumulation.
 *
 * @example
 * ```ts
 * tcuReduceF64(new Float32Array([0.1, 0.2])); // Float64Array [0.2999267578125]
 * ```
 */
export function tcuReduceF64(data: Float32Array | Uint16Array, options?: TcuReduceOptions): Float64Array {
  const { values, seg } = prepare(data, options, REDUCE_KEYS);
  const out = new Float64Array(seg.segments);
  for (let k = 0; k < seg.segments; k++) {
    let acc = 0;
    const end = Math.min(values.length, (k + 1) * seg.segmentSize);
    for (let i = k * seg.segmentSize; i < end; i++) acc += values[i]!;
    out[k] = acc;
  }
  return out;
}

function scanInto(out: Float32Array | Float64Array, values: Float64Array, segmentSize: number, inclusive: boolean, round: boolean): void {
  for (let start = 0; start < values.length; start += segmentSize) {
    let acc = 0;
    const end = Math.min(values.length, start + segmentSize);
    for (let i = start; i < end; i++) {
      if (!inclusive) out[i] = acc;
      acc = round ? Math.fround(acc + values[i]!) : acc + values[i]!;
      if (inclusive) out[i] = acc;
    }
  }
}

/**
 * Regular segmented prefix sum, as the GPU computes it: values rounded to f16, accumulated in f32;
 * exclusive by default (each segment starts at 0), `inclusive: true` includes each element.
 *
 * @example
 * ```ts
 * tcuScan(new Float32Array([1, 2, 3, 4]), { segmentSize: 2 }); // Float32Array [0, 1, 0, 3]
 * tcuScan(new Float32Array([1, 2, 3, 4]), { inclusive: true }); // Float32Array [1, 3, 6, 10]
 * ```
 */
export function tcuScan(data: Float32Array | Uint16Array, options?: TcuScanOptions): Float32Array {
  const { values, seg, inclusive } = prepare(data, options, SCAN_KEYS);
  const out = new Float32Array(values.length);
  scanInto(out, values, seg.segmentSize, inclusive, true);
  return out;
}

/**
 * {@link tcuScan} in f64: the error yardstick.
 *
 * @example
 * ```ts
 * tcuScanF64(new Float32Array([1, 2, 3]), { inclusive: true }); // Float64Array [1, 3, 6]
 * ```
 */
export function tcuScanF64(data: Float32Array | Uint16Array, options?: TcuScanOptions): Float64Array {
  const { values, seg, inclusive } = prepare(data, options, SCAN_KEYS);
  const out = new Float64Array(values.length);
  scanInto(out, values, seg.segmentSize, inclusive, false);
  return out;
}

/**
 * Counts the ones among 0/1 flags per segment (exact, as the GPU does through u8 × u8 → u32 matrix
 * products). Flags other than 0/1 throw a `ScanError` naming the first.
 *
 * @example
 * ```ts
 * tcuCount(new Uint8Array([1, 0, 1, 1]), { segmentSize: 2 }); // Uint32Array [1, 2]
 * tcuCount(new Uint8Array([1, 0, 1, 1])); // Uint32Array [3]
 * ```
 */
export function tcuCount(flags: Uint8Array, options?: TcuCountOptions): Uint32Array {
  checkCountFlags(flags);
  const o = normalizeTcuOptions(options, COUNT_KEYS);
  const seg = checkSegmentation(flags.length, o.segmentSize, o.pad);
  const out = new Uint32Array(seg.segments);
  for (let i = 0; i < flags.length; i++) out[Math.floor(i / seg.segmentSize)]! += flags[i]!;
  return out;
}

/**
 * The error bound the tests use for an f32 sum of `terms` f16 values whose magnitudes add up to
 * `sumAbs`, computed in any order: (2 · terms + 8) · 2^-24 · sumAbs (each of two f32 summations is
 * off by at most (terms − 1) · u · Σ|x| with u = 2^-24; the 8 covers the few extra roundings of the
 * matrix formulation's partial products).
 *
 * @example
 * ```ts
 * sumErrorBound(256, 100); // ≈ 3.1e-3
 * ```
 */
export function sumErrorBound(terms: number, sumAbs: number): number {
  return (2 * terms + 8) * 2 ** -24 * sumAbs;
}
