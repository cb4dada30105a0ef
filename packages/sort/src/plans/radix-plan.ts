import type { Plan, ScanContext } from '@scan/core';
import { dispatchShape, invalidArgument, planOf, type Recipe, RecipeBuilder, RecipeExecutor } from '@scan/core/kit';
import { type DigitPass, digitPasses, RADIX } from '../kernels/radix-digits.js';
import { DIGIT_STARTS_WORD, digitScanKernel, radixHistogramKernel } from '../kernels/radix-histogram.js';
import { type OnesweepSpec, onesweepKernel, onesweepWorkgroupBytes, sortStatusBytes, type ValueMode } from '../kernels/radix-onesweep.js';
import type { SortShape } from './sort-shape.js';

/** Tuning of the one-sweep radix sort; internal (tests and the bench's sweeps), not part of the contract. */
export interface RadixTuning {
  workgroupSize?: number;
  elementsPerThread?: number;
  maxSpin?: number;
  forceFallback?: boolean;
  /** Test hook: the portable path (workgroup memory instead of subgroup ballots). */
  subgroups?: boolean;
  /** Unroll the per-key steps of the one-sweep pass. */
  unrolled?: boolean;
  lookBackWindow?: number;
}

/** Everything the passes of one radix sort share, after defaults and the device's limits. */
export interface RadixConfig {
  readonly sort: SortShape;
  readonly passes: readonly DigitPass[];
  readonly pass: Omit<OnesweepSpec, 'width' | 'values' | 'indirect'>;
  readonly histogramWorkgroupSize: number;
  readonly histogramElements: number;
}

/** Keys per histogram workgroup per stride step, and the cap on histogram workgroups (grid stride beyond). */
const HISTOGRAM_ELEMENTS = 16;
const MAX_HISTOGRAM_WORKGROUPS = 2048;

/**
 * The shape of a radix sort on this device. With subgroups: 256 invocations where subgroups have
 * at least 32 lanes, fewer where they may be smaller (at most 8 groups, so the per-group digit
 * counters stay 8 KiB), 13 keys per invocation (a 3328-key tile: 23.3 G keys/s at 2^28 on the H100, against
 * 22.3 at 12, 21.3 at 11 and 16.5 at 16 — see BENCHMARKS.md), fewer when the device allows less
 * workgroup memory. Without subgroups: 64 invocations of 8 keys (the ranking compares digits in
 * workgroup memory, quadratic in the workgroup size).
 *
 * @example
 * ```ts
 * const config = radixConfig(ctx, { keyType: 'u32', valueType: undefined, descending: false, bits: [0, 32] }, {});
 * ```
 */
export function radixConfig(ctx: ScanContext, sort: SortShape, t: RadixTuning): RadixConfig {
  const limits = ctx.caps.limits;
  const subgroups = ctx.caps.features.subgroups && t.subgroups !== false;
  const minSize = ctx.caps.subgroupMinSize ?? 4;
  const maxSize = ctx.caps.subgroupMaxSize ?? 128;
  const defaultWg = subgroups ? Math.min(256, 8 * minSize) : 64;
  const workgroupSize = t.workgroupSize ?? Math.min(defaultWg, limits.maxComputeInvocationsPerWorkgroup);
  if (!Number.isInteger(workgroupSize) || workgroupSize < 1 || (workgroupSize & (workgroupSize - 1)) !== 0) {
    invalidArgument('options.workgroupSize', workgroupSize, 'expected a power of two');
  }
  const maxGroups = subgroups ? Math.max(1, workgroupSize / Math.min(minSize, workgroupSize)) : 1;
  let elementsPerThread = t.elementsPerThread ?? (subgroups ? 13 : 8);
  if (!Number.isInteger(elementsPerThread) || elementsPerThread < 1 || elementsPerThread > 64) {
    invalidArgument('options.elementsPerThread', elementsPerThread, 'expected an integer in [1, 64]');
  }
  const fits = (e: number) =>
    onesweepWorkgroupBytes({ workgroupSize, elementsPerThread: e, maxGroups, subgroups }) <= limits.maxComputeWorkgroupStorageSize;
  if (t.elementsPerThread === undefined) {
    while (elementsPerThread > 1 && !fits(elementsPerThread)) elementsPerThread--;
  }
  if (!fits(elementsPerThread)) {
    invalidArgument(
      'options.elementsPerThread',
      elementsPerThread,
      `a tile of ${workgroupSize} × ${elementsPerThread} keys needs more workgroup memory than the device's ${limits.maxComputeWorkgroupStorageSize} bytes`,
    );
  }
  return {
    sort,
    passes: digitPasses(sort.bits),
    pass: {
      keyType: sort.keyType,
      descending: sort.descending,
      subgroups,
      maskWords: maxSize <= 32 ? 1 : 4,
      workgroupSize,
      elementsPerThread,
      maxGroups,
      maxSpin: t.maxSpin ?? 64,
      lookBackWindow: t.lookBackWindow ?? 8,
      forceFallback: t.forceFallback ?? false,
      // Unrolled per-key steps keep the keys in registers (15-20% faster on the H100); SwiftShader
      // compiles LLVM on the CPU and takes seconds per unrolled pipeline, so it gets loops.
      unrolled: t.unrolled ?? !/swiftshader/i.test(ctx.caps.adapter.description),
    },
    histogramWorkgroupSize: Math.min(256, limits.maxComputeInvocationsPerWorkgroup),
    histogramElements: HISTOGRAM_ELEMENTS,
  };
}

/** Where a sort's count comes from: a number, or a u32 the GPU wrote (word `word` of role `count`). */
export type CountSource = { readonly kind: 'direct' } | { readonly kind: 'indirect'; readonly word: number };

/**
 * The recipe of one radix sort of `capacity` keys (the count, or the largest count an indirect count
 * may give): clear the histogram, the global histogram pass, the digit scan, then per digit a
 * cleared look-back status and a one-sweep pass, ping-ponging between the caller's buffers (roles
 * `keys`, `values`) and scratch (`altKeys`, `altValues`); an odd number of passes ends with a copy
 * back. `values`: 'none', 'move', or 'index' (argsort: the first pass writes each key's index).
 *
 * @example
 * ```ts
 * exec.encode(encoder, key, () => radixRecipe(ctx, config, n, { kind: 'direct' }, 'none'), { keys });
 * ```
 */
export function radixRecipe(ctx: ScanContext, config: RadixConfig, capacity: number, source: CountSource, values: ValueMode): Recipe {
  const b = new RecipeBuilder();
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const indirect = source.kind === 'indirect';
  const countWord = indirect ? source.word : 0;
  const bytes = 4 * capacity;
  const P = config.passes.length;
  const tile = config.pass.workgroupSize * config.pass.elementsPerThread;
  const tiles = Math.ceil(capacity / tile);
  const histChunk = config.histogramWorkgroupSize * config.histogramElements;
  const histWorkgroups = Math.min(Math.ceil(capacity / histChunk), MAX_HISTOGRAM_WORKGROUPS);

  const digits = b.needScratch('digits', (DIGIT_STARTS_WORD + 4 * RADIX) * 4);
  const status = b.needScratch('status', sortStatusBytes(tiles));
  const count = indirect ? { role: 'count', offset: 0 } : undefined;
  const keys = { role: 'keys', offset: 0, size: bytes };
  const alt = b.needScratch('altKeys', bytes);
  const vals = values === 'none' ? undefined : { role: 'values', offset: 0, size: bytes };
  const altVals = values === 'none' ? undefined : b.needScratch('altValues', bytes);

  b.clear(digits);
  const histParams = b.paramBlock([capacity, countWord, histWorkgroups, dispatchShape(histWorkgroups, maxDim).x]);
  b.dispatch(
    radixHistogramKernel({
      keyType: config.sort.keyType,
      descending: config.sort.descending,
      passes: config.passes,
      workgroupSize: config.histogramWorkgroupSize,
      elementsPerThread: config.histogramElements,
      indirect,
    }),
    [keys, undefined, undefined, undefined, histParams, digits, undefined, count],
    histWorkgroups,
  );
  b.dispatch(digitScanKernel(P), [undefined, undefined, undefined, undefined, undefined, digits], 1);

  const dispatchX = dispatchShape(tiles, maxDim).x;
  const width = Math.max(...config.passes.map((pass) => pass.width));
  config.passes.forEach((pass, p) => {
    const passParams = b.paramBlock([
      capacity,
      countWord,
      tiles,
      dispatchX,
      pass.shift,
      2 ** pass.width - 1,
      DIGIT_STARTS_WORD + p * RADIX,
    ]);
    const fromCaller = p % 2 === 0;
    const mode: ValueMode = values === 'index' && p > 0 ? 'move' : values;
    b.clear(status);
    b.dispatch(
      onesweepKernel({ ...config.pass, width, values: mode, indirect }),
      [
        fromCaller ? keys : alt,
        fromCaller ? alt : keys,
        mode === 'move' ? (fromCaller ? vals : altVals) : undefined,
        mode === 'none' ? undefined : fromCaller ? altVals : vals,
        passParams,
        status,
        digits,
        count,
      ],
      tiles,
    );
  });
  if (P % 2 === 1) {
    b.copy(alt, keys, bytes);
    if (vals && altVals) b.copy(altVals, vals, bytes);
  }
  return b.build();
}

/** Buffers of one internal radix sort (already validated by the public plan). */
export interface RadixBuffers {
  readonly keys: GPUBuffer;
  /** The values, or (values 'index') where the permutation goes. */
  readonly values?: GPUBuffer;
  readonly count: number | { readonly buffer: GPUBuffer; readonly offset: number };
}

/**
 * A one-sweep radix sort plan over validated buffers: recipes per count (or one for an indirect
 * count of at most `maxCount`), scratch owned and reused.
 *
 * @example
 * ```ts
 * const radix = createRadixSort(ctx, shape, { values: 'move', maxCount: 1 << 20 });
 * radix.encode(encoder, { keys, values, count: n });
 * ```
 */
export function createRadixSort(
  ctx: ScanContext,
  sort: SortShape,
  options: { values: ValueMode; maxCount?: number; tuning?: RadixTuning },
): Plan<RadixBuffers> {
  const config = radixConfig(ctx, sort, options.tuning ?? {});
  const exec = new RecipeExecutor(ctx, 'sort plan');
  const { values, maxCount } = options;
  if (maxCount !== undefined && maxCount > 0) exec.reserve(radixRecipe(ctx, config, maxCount, { kind: 'direct' }, values));
  return planOf([exec], {
    encode(encoder, args) {
      const roles: Record<string, GPUBuffer> = { keys: args.keys };
      if (args.values) roles.values = args.values;
      if (typeof args.count === 'number') {
        // One key is sorted already, but argsort's index must still be written.
        if (args.count === 0 || (args.count === 1 && values !== 'index')) return;
        const n = args.count;
        exec.encode(encoder, `${n}`, () => radixRecipe(ctx, config, n, { kind: 'direct' }, values), roles);
        return;
      }
      const capacity = maxCount ?? 0;
      if (capacity === 0) return;
      const word = args.count.offset / 4;
      roles.count = args.count.buffer;
      exec.encode(encoder, `indirect@${word}`, () => radixRecipe(ctx, config, capacity, { kind: 'indirect', word }, values), roles);
    },
  });
}
