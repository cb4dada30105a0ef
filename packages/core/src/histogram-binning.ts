import type { ElementType } from './element-types.js';
import { invalidArgument, ScanError } from './errors.js';
import { checkOptions } from './validate.js';

/** The most bins a histogram may have (2^20). */
export const MAX_HISTOGRAM_BINS = 1 << 20;

/** Numeric typed arrays that may hold histogram edges (converted to the samples' type, exactly). */
export type HistogramEdges =
  | Uint8Array
  | Uint8ClampedArray
  | Int8Array
  | Uint16Array
  | Int16Array
  | Uint32Array
  | Int32Array
  | Float32Array
  | Float64Array;

/**
 * How a histogram bins its samples: `bins` even bins over `range: [lower, upper)`, or the bins
 * between consecutive `edges` (`[edges[i], edges[i+1])`, strictly increasing). Samples outside and
 * NaN are not counted.
 */
export type HistogramOptions = { bins: number; range: readonly [number, number] } | { edges: HistogramEdges };

/**
 * The binning of a histogram after validation, as the kernels and the CPU reference both use it.
 * Samples are compared as u32 *keys* that order like their values: u32 as is, i32 with its sign bit
 * flipped, f32 by the usual total-order flip (−0 made +0 first; NaN has no key and is not counted).
 *
 * - `'int'` (u32/i32 samples, even bins): key `k` is counted when `lowerKey ≤ k` and
 *   `d = k − lowerKey ≤ widthMinus1`; its bin is ⌊d · bins / (widthMinus1 + 1)⌋ computed exactly
 *   (`shift ≥ 0` when that is `d >> shift`). `scale` (f32 bins / width) is the kernel's first guess.
 * - `'float'` (f32 samples, even bins): x is counted when `lower ≤ x < upper` (both rounded to f32)
 *   and its bin is `min(⌊f32(f32(x − lower) · scale)⌋, bins − 1)` with `scale = f32(bins / (upper − lower))`.
 * - `'edges'`: the edges' keys; x is counted when `keys[0] ≤ key < keys[bins]`, in bin i with
 *   `keys[i] ≤ key < keys[i + 1]`.
 */
export type HistogramBinning =
  | {
      readonly kind: 'int';
      readonly bins: number;
      readonly lowerKey: number;
      readonly widthMinus1: number;
      readonly shift: number;
      readonly scale: number;
    }
  | { readonly kind: 'float'; readonly bins: number; readonly lower: number; readonly upper: number; readonly scale: number }
  | { readonly kind: 'edges'; readonly bins: number; readonly keys: Uint32Array };

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The bits of f32 `x`. */
export function f32Bits(x: number): number {
  f32[0] = x;
  return u32[0] as number;
}

/**
 * The order-preserving u32 key of a sample's 32-bit word `w` of type `type`, or -1 for a NaN.
 *
 * @example
 * ```ts
 * sampleKey('i32', 0xffffffff); // 0x7fffffff: -1 sorts just below 0 (0x80000000)
 * ```
 */
export function sampleKey(type: ElementType, w: number): number {
  if (type === 'u32') return w >>> 0;
  if (type === 'i32') return (w ^ 0x80000000) >>> 0;
  if ((w & 0x7fffffff) >>> 0 > 0x7f800000) return -1;
  const v = w === 0x80000000 ? 0 : w >>> 0;
  return (v & 0x80000000 ? ~v : v | 0x80000000) >>> 0;
}

/** The key of a number exact in `type` (integers of its range, or an f32 value). */
function keyOfValue(type: ElementType, v: number): number {
  if (type === 'f32') return sampleKey('f32', f32Bits(v));
  return sampleKey(type, v >>> 0);
}

/** Whether `v` is exactly a value of `type`. */
function exactIn(type: ElementType, v: number): boolean {
  if (type === 'u32') return Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
  if (type === 'i32') return Number.isInteger(v) && v >= -0x80000000 && v <= 0x7fffffff;
  return !Number.isNaN(v) && Math.fround(v) === v;
}

/** The smallest f32 that is normal: a scale below it could be flushed to zero on the GPU. */
const MIN_NORMAL_F32 = 2 ** -126;

function checkBins(bins: unknown, argument: string): number {
  if (typeof bins !== 'number' || !Number.isInteger(bins) || bins < 1) invalidArgument(argument, bins, 'expected an integer ≥ 1');
  if (bins > MAX_HISTOGRAM_BINS) {
    throw new ScanError('TOO_LARGE', `${argument} = ${bins}: more than the ${MAX_HISTOGRAM_BINS} (2^20) bins a histogram may have`, {
      argument,
    });
  }
  return bins;
}

/**
 * Validates a histogram's options for samples of `type` and returns its binning. `argument` names
 * the options in messages. Bad input throws a `ScanError` naming `options.bins`, `options.range`
 * or `options.edges` (with the index of the first edge at fault).
 *
 * @example
 * ```ts
 * histogramBinning('u32', { bins: 256, range: [0, 2 ** 32] }); // { kind: 'int', shift: 24, … }
 * histogramBinning('f32', { edges: new Float32Array([0, 1, 10]) }); // { kind: 'edges', bins: 2, … }
 * ```
 */
export function histogramBinning(
  type: ElementType,
  options: unknown,
  argument = 'options',
  extra: readonly string[] = [],
): HistogramBinning {
  if (options === undefined || options === null)
    invalidArgument(argument, options, 'expected { bins, range: [lower, upper] } or { edges }');
  const given = checkOptions(options, ['bins', 'range', 'edges', ...extra], argument);
  if (given['edges'] !== undefined) {
    if (given['bins'] !== undefined || given['range'] !== undefined) {
      invalidArgument(`${argument}.edges`, given['edges'], 'give either edges or bins and range, not both');
    }
    return edgesBinning(type, given['edges'], `${argument}.edges`);
  }
  const bins = checkBins(given['bins'], `${argument}.bins`);
  const range = given['range'];
  const rangeArg = `${argument}.range`;
  if (!Array.isArray(range) || range.length !== 2 || typeof range[0] !== 'number' || typeof range[1] !== 'number') {
    invalidArgument(rangeArg, range, 'expected [lower, upper], two numbers');
  }
  const [lower, upper] = range as [number, number];
  if (!Number.isFinite(lower) || !Number.isFinite(upper)) invalidArgument(rangeArg, range, 'expected finite numbers');
  if (type === 'f32') {
    const lo = Math.fround(lower);
    const hi = Math.fround(upper);
    if (!(lo < hi)) invalidArgument(rangeArg, range, 'expected lower < upper (after rounding to f32)');
    const scale = Math.fround(bins / (hi - lo));
    if (!(scale >= MIN_NORMAL_F32 && Number.isFinite(scale))) {
      invalidArgument(rangeArg, range, `bins / (upper − lower) = ${bins / (hi - lo)} is not a normal f32; use a wider or narrower range`);
    }
    return { kind: 'float', bins, lower: lo, upper: hi, scale };
  }
  const [min, max] = type === 'u32' ? [0, 2 ** 32] : [-(2 ** 31), 2 ** 31];
  if (!Number.isInteger(lower) || !Number.isInteger(upper) || lower < min || upper > max) {
    invalidArgument(rangeArg, range, `expected integers with ${min} ≤ lower < upper ≤ ${max} for ${type} samples`);
  }
  if (!(lower < upper)) invalidArgument(rangeArg, range, 'expected lower < upper');
  const width = upper - lower;
  // d >> shift when the bin width is a power of two (at most 2^31: a WGSL shift must be < 32).
  let shift = -1;
  if (width % bins === 0) {
    const w = width / bins;
    const s = Math.log2(w);
    if (Number.isInteger(s) && s < 32) shift = s;
  }
  return {
    kind: 'int',
    bins,
    lowerKey: keyOfValue(type, lower),
    widthMinus1: width - 1,
    shift,
    scale: Math.fround(bins / width),
  };
}

const EDGE_ARRAYS = [
  Uint8Array,
  Uint8ClampedArray,
  Int8Array,
  Uint16Array,
  Int16Array,
  Uint32Array,
  Int32Array,
  Float32Array,
  Float64Array,
] as const;

function edgesBinning(type: ElementType, edges: unknown, argument: string): HistogramBinning {
  if (!EDGE_ARRAYS.some((C) => edges instanceof C)) invalidArgument(argument, edges, 'expected a numeric typed array (not BigInt)');
  const e = edges as HistogramEdges;
  if (e.length < 2) invalidArgument(argument, e, 'expected at least 2 edges');
  checkBins(e.length - 1, `${argument}.length − 1`);
  const keys = new Uint32Array(e.length);
  for (let i = 0; i < e.length; i++) {
    const v = e[i] as number;
    if (!exactIn(type, v)) invalidArgument(`${argument}[${i}]`, v, `expected a value exact in the samples' type ${type}`);
    keys[i] = keyOfValue(type, v);
    if (i > 0 && !((keys[i] as number) > (keys[i - 1] as number))) {
      invalidArgument(`${argument}[${i}]`, v, `edges must be strictly increasing (edges[${i - 1}] = ${e[i - 1]})`);
    }
  }
  return { kind: 'edges', bins: e.length - 1, keys };
}

/** Exact ⌊d · bins / width⌋ for d < width ≤ 2^32, bins ≤ 2^20 (the products stay below 2^53). */
function exactBin(d: number, bins: number, width: number): number {
  const p = d * bins;
  let q = Math.floor(p / width);
  if (q * width > p) q--;
  else if ((q + 1) * width <= p) q++;
  return q;
}

/**
 * The bin of a sample's 32-bit word `w` (type `type`) under `binning`, or -1 when it is not counted.
 * The GPU kernels compute the same, bit for bit.
 *
 * @example
 * ```ts
 * binOf('u32', histogramBinning('u32', { bins: 4, range: [0, 8] }), 5); // 2
 * ```
 */
export function binOf(type: ElementType, binning: HistogramBinning, w: number): number {
  if (binning.kind === 'float') {
    f32[0] = 0;
    u32[0] = w;
    const x = f32[0] as number;
    if (!(x >= binning.lower && x < binning.upper)) return -1;
    const t = Math.fround(Math.fround(x - binning.lower) * binning.scale);
    return Math.min(Math.floor(t), binning.bins - 1);
  }
  const key = sampleKey(type, w);
  if (key < 0) return -1;
  if (binning.kind === 'int') {
    if (key < binning.lowerKey) return -1;
    const d = key - binning.lowerKey;
    if (d > binning.widthMinus1) return -1;
    return binning.shift >= 0 ? Math.floor(d / 2 ** binning.shift) : exactBin(d, binning.bins, binning.widthMinus1 + 1);
  }
  const k = binning.keys;
  if (key < (k[0] as number) || key >= (k[k.length - 1] as number)) return -1;
  let lo = 0;
  let hi = k.length - 1; // k[lo] ≤ key < k[hi]
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if ((k[mid] as number) <= key) lo = mid;
    else hi = mid;
  }
  return lo;
}
