import { uploadArray } from '../buffers.js';
import { assertUsable, type ScanContext } from '../context.js';
import { checkElementType, type ElementType } from '../element-types.js';
import { invalidArgument, ScanError } from '../errors.js';
import { type HistogramBinning, type HistogramOptions, histogramBinning } from '../histogram-binning.js';
import { GPU_COUNT_FIELDS, type HistogramSpec, histogramKernel } from '../kernels/histogram.js';
import { checkBoolean, checkOneOf, checkOptions, checkPositiveInteger } from '../validate.js';
import { RecipeExecutor } from './executor.js';
import { gpuCountOf } from './gpu-count.js';
import { checkEncodeArgs } from './plan-args.js';
import { planOf } from './plan-of.js';
import { type BufferRef, type Recipe, RecipeBuilder } from './recipe.js';
import type { CountSource, Plan } from './types.js';

/**
 * Tuning of the histogram kernel; internal (tests force each path with it, the bench sweeps it),
 * not part of the contract.
 */
export interface HistogramTuning {
  /** `'private'`: sub-histograms in workgroup memory (in windows of bins when they do not fit); `'global'`: an atomic per sample. */
  path?: 'private' | 'global';
  /** The most bins one private window holds (default: what workgroup memory holds). */
  privateBins?: number;
  /** Copies of the private sub-histogram (a power of two; default up to 8, within 8 KiB). */
  copies?: number;
  /** Where the edges are searched (default workgroup memory when they fit in half of it). */
  edges?: 'workgroup' | 'global';
  /** Windows the private path may take before the global path is chosen instead (default 2). */
  maxWindows?: number;
  workgroupSize?: number;
  /** The most workgroups of the grid-stride loop (default 2048; 1024 for private windows of 4096 bins or more). */
  workgroups?: number;
  /** vec4s per invocation per round (default 2). */
  unroll?: number;
}

/** Options of {@link createHistogramPlan}: the binning (as `histogram`'s), the samples' type, and whether to add into the histogram. */
export type HistogramPlanOptions = HistogramOptions & {
  /** Element type of the samples (default `'u32'`). */
  type?: ElementType;
  /**
   * Add the counts into the histogram's current contents instead of zeroing it first (default
   * `false`): several encodes, or several sample buffers, into one histogram.
   */
  accumulate?: boolean;
  /** The most samples an encode with a GPU-written count (`countBuffer`) counts; needed for one. */
  maxCount?: number;
  tuning?: HistogramTuning;
};

/**
 * Buffers of one histogram encode: `count` samples in (or a count the GPU wrote: `countBuffer`, a
 * u32 at `countOffset`, which needs the plan's `maxCount`), `bins` u32 counts out.
 */
export interface HistogramEncodeArgs extends CountSource {
  samples: GPUBuffer;
  /** At least `4 · bins` bytes; needs `COPY_DST` usage unless the plan accumulates (it is cleared with `clearBuffer`). */
  histogram: GPUBuffer;
}

/** A histogram plan, which knows its number of bins. */
export interface HistogramPlan extends Plan<HistogramEncodeArgs> {
  /** Counts the plan writes: `bins`, or `edges.length − 1`. */
  readonly bins: number;
}

const TUNING_KEYS = ['path', 'privateBins', 'copies', 'edges', 'maxWindows', 'workgroupSize', 'workgroups', 'unroll'];

const SAMPLES4: BufferRef = { role: 'samples', offset: 0, multipleOf: 16 };
const SAMPLES: BufferRef = { role: 'samples', offset: 0 };
const EDGES: BufferRef = { role: 'edges', offset: 0 };
const HISTOGRAM: BufferRef = { role: 'histogram', offset: 0 };
const COUNT_SRC: BufferRef = { role: 'countBuffer', offset: 0 };

function nextPow2(x: number): number {
  return 2 ** Math.ceil(Math.log2(x));
}

function tuningInteger(t: Record<string, unknown>, key: string, fallback: number, min: number, max: number): number {
  const v = t[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    invalidArgument(`options.tuning.${key}`, v, `expected an integer in [${min}, ${max}]`);
  }
  return v;
}

/** The kernel shape and windows of a histogram on this device. */
interface HistogramShape {
  readonly spec: HistogramSpec;
  /** Private windows (dispatches); 1 on the global path. */
  readonly windows: number;
  readonly maxWorkgroups: number;
}

function histogramShape(ctx: ScanContext, type: ElementType, binning: HistogramBinning, tuning: unknown): HistogramShape {
  const t = checkOptions(tuning, TUNING_KEYS, 'options.tuning');
  const limits = ctx.caps.limits;
  const workgroupSize = tuningInteger(
    t,
    'workgroupSize',
    Math.min(256, limits.maxComputeInvocationsPerWorkgroup),
    1,
    limits.maxComputeInvocationsPerWorkgroup,
  );
  const maxWords = Math.floor(limits.maxComputeWorkgroupStorageSize / 4);
  const bins = binning.bins;
  // Edges in workgroup memory when they fit in half of it, the other half for the sub-histograms.
  let edgeWords = 0;
  if (binning.kind === 'edges') {
    const where = checkOneOf(t['edges'], ['workgroup', 'global'] as const, 'options.tuning.edges', 'workgroup');
    // 256 words for every small set of edges, so they share one kernel.
    const words = nextPow2(Math.max(256, bins + 1));
    if (where === 'workgroup' && words <= maxWords / 2) edgeWords = words;
  }
  const avail = maxWords - edgeWords;
  const cap = tuningInteger(t, 'privateBins', Math.max(32, Math.floor(avail / 32) * 32), 1, avail);
  // At least 256 bins a window, so that small bin counts share one kernel.
  const windowBins = Math.min(nextPow2(Math.max(bins, 256)), cap);
  const windows = Math.ceil(bins / windowBins);
  // Each private window is a pass over the samples (about 1 ms at 2^28 on an H100 for windows of
  // thousands of bins), while one global pass at 65,536 bins took 3.42 ms against 5.96 for six
  // windows (H100, 2026-12-07): past two windows the global path is the faster.
  const maxWindows = tuningInteger(t, 'maxWindows', 2, 1, MAX_WINDOWS);
  const path = checkOneOf(t['path'], ['private', 'global'] as const, 'options.tuning.path', windows <= maxWindows ? 'private' : 'global');
  if (path === 'private' && windows > MAX_WINDOWS) {
    invalidArgument('options.tuning.path', path, `${windows} windows of ${windowBins} bins: more than ${MAX_WINDOWS}`);
  }
  // Copies cut the collisions of lanes on one bin; up to 8 of them within 8 KiB, so occupancy stays
  // high (and software adapters, whose compile time grows with workgroup memory, stay quick).
  let fit = 1;
  while (fit < 8 && 2 * fit * windowBins <= Math.min(avail, 2048)) fit *= 2;
  const copies = tuningInteger(t, 'copies', fit, 1, 64);
  if ((copies & (copies - 1)) !== 0 || (path === 'private' && copies * windowBins > avail)) {
    invalidArgument('options.tuning.copies', copies, `expected a power of two with copies · ${windowBins} bins ≤ ${avail} words`);
  }
  const kind = binning.kind === 'int' ? (binning.shift >= 0 ? 'shift' : 'exact') : binning.kind;
  return {
    spec: {
      keys: type === 'f32' ? 'f32' : 'int',
      binning: kind,
      privateBins: path === 'private' ? windowBins : 0,
      copies: path === 'private' ? copies : 1,
      edgeWords,
      subgroups: ctx.caps.features.subgroups,
      workgroupSize,
      unroll: tuningInteger(t, 'unroll', 2, 1, 8),
      gpuCount: false,
    },
    windows: path === 'private' ? windows : 1,
    // Each workgroup ends with an atomic per non-zero bin of its window: with large windows, fewer
    // workgroups (each over more samples) keep those from rivalling the samples' own count.
    maxWorkgroups: Math.min(
      tuningInteger(t, 'workgroups', path === 'private' && windowBins >= 4096 ? 1024 : 2048, 1, 1 << 20),
      limits.maxComputeWorkgroupsPerDimension,
    ),
  };
}

/** Throws unless the plan may clear `histogram` (COPY_DST), or accumulates into it. */
function checkClearable(accumulate: boolean, histogram: GPUBuffer): void {
  if (!accumulate && typeof histogram.usage === 'number' && (histogram.usage & 0x0008) === 0) {
    throw new ScanError(
      'INVALID_ARGUMENT',
      'histogram plan: args.histogram needs GPUBufferUsage.COPY_DST (and STORAGE): the plan clears it first (or create the plan with accumulate: true)',
      { argument: 'args.histogram' },
    );
  }
}

/** Dispatches of one encode at most (windows of the private path). */
const MAX_WINDOWS = 64;

const f32 = new Float32Array(1);
const bits = new Uint32Array(f32.buffer);
function f32BitsOf(x: number): number {
  f32[0] = x;
  return bits[0] as number;
}

/**
 * The plan behind `createHistogramPlan` and `histogram`, from a validated binning.
 *
 * @example
 * ```ts
 * const plan = histogramPlanOf(ctx, 'u32', histogramBinning('u32', { bins: 256, range: [0, 256] }), false, undefined);
 * ```
 */
export function histogramPlanOf(
  ctx: ScanContext,
  type: ElementType,
  binning: HistogramBinning,
  accumulate: boolean,
  tuning: unknown,
  maxCount?: number,
): HistogramPlan {
  const shape = histogramShape(ctx, type, binning, tuning);
  const { spec } = shape;
  const kernel = histogramKernel(spec);
  const gpuKernel = maxCount === undefined ? undefined : histogramKernel({ ...spec, gpuCount: true });
  const bins = binning.bins;
  const exec = new RecipeExecutor(ctx, 'histogram');
  const edges = binning.kind === 'edges' ? uploadArray(ctx, binning.keys, 'histogram edges') : undefined;
  const fixed = {
    bins,
    lower: binning.kind === 'int' ? binning.lowerKey : binning.kind === 'float' ? f32BitsOf(binning.lower) : 0,
    upper: binning.kind === 'float' ? f32BitsOf(binning.upper) : type === 'i32' ? 0x80000000 : 0,
    scale: binning.kind === 'edges' ? 0 : binning.scale,
    width_m1: binning.kind === 'int' ? binning.widthMinus1 : 0,
    shift: binning.kind === 'int' ? Math.max(0, binning.shift) : 0,
  };
  const bindings = { samples4: SAMPLES4, samples: SAMPLES, edges: edges ? EDGES : undefined, histogram: HISTOGRAM };
  const clear: BufferRef = { role: 'histogram', offset: 0, size: 4 * bins };
  const windowBins = spec.privateBins;
  const vecsPerGroup = spec.workgroupSize * spec.unroll;
  const gpuBindings = { ...bindings, count_src: COUNT_SRC };
  // With a GPU count, `count` is maxCount (the dispatch's size) and `word` where the count is.
  const build = (count: number, word?: number): Recipe => {
    const b = new RecipeBuilder();
    if (!accumulate) b.clear(clear);
    const workgroups = Math.min(Math.ceil(Math.ceil(count / 4) / vecsPerGroup), shape.maxWorkgroups);
    const gpu = word === undefined ? undefined : b.uniformBlock(GPU_COUNT_FIELDS, { word });
    for (let w = 0; w < shape.windows; w++) {
      const params = { count, base: w * windowBins, ...fixed };
      if (gpu && gpuKernel) b.dispatch(gpuKernel, { ...gpuBindings, gpu_count: gpu }, workgroups, params);
      else b.dispatch(kernel, bindings, workgroups, params);
    }
    return b.build();
  };
  const roles: Record<string, GPUBuffer> = {};
  const bindingCount = Math.floor(ctx.caps.limits.maxStorageBufferBindingSize / 4);
  const plan = planOf<HistogramEncodeArgs>(
    [
      exec,
      {
        destroy: () => edges?.destroy(),
        scratchBytes: 0,
        get memoryBytes() {
          return edges?.size ?? 0;
        },
        allocations: edges ? 1 : 0,
      },
    ],
    {
      what: 'histogram plan',
      encode(encoder, args) {
        const gpu = gpuCountOf('histogram plan', args, maxCount);
        if (gpu && maxCount !== undefined) {
          // The samples must hold maxCount: the plan reads up to min(the GPU's count, maxCount).
          checkEncodeArgs(
            'histogram plan',
            { ...args, count: maxCount },
            { samples: 4, histogram: { bytes: 4 * bins }, countBuffer: { bytes: 4 } },
          );
          checkClearable(accumulate, args.histogram);
          roles['samples'] = args.samples;
          roles['histogram'] = args.histogram;
          roles['countBuffer'] = gpu.buffer;
          if (edges) roles['edges'] = edges;
          exec.encode(encoder, () => build(maxCount, gpu.offset / 4), roles);
          delete roles['countBuffer'];
          return;
        }
        const count = checkEncodeArgs('histogram plan', args, { samples: 4, histogram: { bytes: 4 * bins } });
        if (count > bindingCount) {
          throw new ScanError(
            'TOO_LARGE',
            `histogram plan: args.count = ${count}: more samples than one binding holds (maxStorageBufferBindingSize = ${4 * bindingCount} bytes)`,
            { argument: 'args.count' },
          );
        }
        checkClearable(accumulate, args.histogram);
        roles['samples'] = args.samples;
        roles['histogram'] = args.histogram;
        if (edges) roles['edges'] = edges;
        exec.encode(encoder, () => build(count), roles);
      },
      ready: exec.load(maxCount === undefined ? [build(4)] : [build(4), build(4, 0)]),
    },
  );
  return Object.assign(plan, { bins });
}

/**
 * Histogram at the buffer level: counts `count` samples of `samples` (u32, i32 or f32 words, as
 * `options.type` says) into `bins` u32 counters of `histogram` (`bins`, or `edges.length − 1`),
 * binned as the array-level `histogram` bins them (even bins over `range`, or between `edges`;
 * samples outside and NaN not counted). The plan zeroes the histogram first (a `clearBuffer` of its
 * `4 · bins` bytes, so it needs `COPY_DST` usage) unless `accumulate: true`, which adds into what
 * it holds. Counts wrap past 2^32 − 1. With `maxCount`, an encode may take the count from a buffer
 * the GPU wrote (`countBuffer`, `countOffset`): the dispatch is sized for maxCount, and the kernel
 * counts min(that count, maxCount) samples.
 *
 * Up to what workgroup memory holds (4096 bins on a 16 KiB device, 12,288 on 48 KiB), each
 * workgroup counts into private sub-histograms and adds its non-zero bins to the histogram at the
 * end; up to 2 windows of that many bins take one pass over the samples each; past that, every
 * sample is an atomic add into the histogram. The edges (given here, uploaded once) sit in
 * workgroup memory when they fit in half of it. Memory: the edges' buffer and a parameter ring; an
 * encode creates nothing once warm.
 *
 * @example
 * ```ts
 * const plan = createHistogramPlan(ctx, { type: 'f32', bins: 64, range: [0, 10] });
 * plan.encode(encoder, { samples, histogram: counts, count });
 * ```
 */
export function createHistogramPlan(ctx: ScanContext, options: HistogramPlanOptions): HistogramPlan {
  assertUsable(ctx);
  const given = checkOptions(options, ['bins', 'range', 'edges', 'type', 'accumulate', 'maxCount', 'tuning'], 'options');
  const type = given['type'] === undefined ? 'u32' : checkElementType(given['type'], 'options.type');
  const accumulate = checkBoolean(given['accumulate'], 'options.accumulate', false);
  const maxCount = given['maxCount'] === undefined ? undefined : checkPositiveInteger(given['maxCount'], 'options.maxCount');
  if (maxCount !== undefined && 4 * maxCount > ctx.caps.limits.maxStorageBufferBindingSize) {
    throw new ScanError('TOO_LARGE', `options.maxCount = ${maxCount}: more samples than one binding holds`, {
      argument: 'options.maxCount',
    });
  }
  const { type: _t, accumulate: _a, maxCount: _m, tuning, ...rest } = given;
  const binning = histogramBinning(type, rest);
  return histogramPlanOf(ctx, type, binning, accumulate, tuning, maxCount);
}
