import type { ScanContext } from '@scan/core';
import { invalidArgument } from '@scan/core/kit';
import { type DigitPass, digitPasses } from '../kernels/radix-digits.js';
import { type OnesweepSpec, onesweepWorkgroupBytes } from '../kernels/radix-onesweep.js';
import { smallSortWorkgroupBytes } from '../kernels/small-sort.js';
import { keyWordsOf } from '../key-order.js';
import type { SortTuning } from './sort-plan-types.js';
import type { SortShape } from './sort-shape.js';

/**
 * Tuning of the one-sweep radix sort: the public, unstable {@link SortTuning} (`createSortPlan`'s
 * `options.tuning`, each key documented there), plus test hooks the package's own tests set.
 */
export interface RadixTuning extends SortTuning {
  /**
   * Test hook: words of the ranking's ballot masks, 1 (subgroups of up to 32 lanes) or 4 (up to 128);
   * default from the device's largest subgroup. 4 on a narrower subgroup runs the wide masks' code
   * with their upper words zero, which is how CI covers the GPUs with 64- and 128-lane subgroups.
   */
  maskWords?: 1 | 4;
  lookBackWindow?: number;
}

/** The one-workgroup sort of small counts (see `smallSortKernel`) on this device. */
export interface SmallSortConfig {
  /** Network sizes in use, ascending: a count takes the smallest that holds it. Empty: no small path. */
  readonly tiers: readonly number[];
  /** Per tier, whether its slots are padded against bank conflicts (where the padded slots fit). */
  readonly padded: readonly boolean[];
  /** Counts up to this take the small path (0: none). */
  readonly max: number;
  readonly workgroupSize: number;
}

/** Everything the passes of one radix sort share, after defaults and the device's limits. */
export interface RadixConfig {
  readonly sort: SortShape;
  readonly passes: readonly DigitPass[];
  readonly pass: Omit<OnesweepSpec, 'width' | 'values'>;
  readonly histogramWorkgroupSize: number;
  readonly histogramElements: number;
  readonly small: SmallSortConfig;
}

/** Whether the adapter is SwiftShader (Chromium leaves the description empty and names it in the architecture; Dawn in Node, the other way round). */
export function isSwiftShader(caps: ScanContext['caps']): boolean {
  return /swiftshader/i.test(`${caps.adapter.architecture} ${caps.adapter.description}`);
}

/** The ballot mask words: `requested` (1 or 4) where it holds the widest subgroup, else what that needs. */
function maskWordsOf(requested: unknown, maxSubgroupSize: number): 1 | 4 {
  const needed = maxSubgroupSize <= 32 ? 1 : 4;
  if (requested === undefined) return needed;
  if (requested !== 1 && requested !== 4) invalidArgument('options.tuning.maskWords', requested, 'expected 1 or 4');
  if (requested < needed) invalidArgument('options.tuning.maskWords', requested, `subgroups of up to ${maxSubgroupSize} lanes need 4`);
  return requested;
}

/** Keys per histogram invocation per stride step. */
const HISTOGRAM_ELEMENTS = 16;
/** The cap on histogram workgroups (a grid stride beyond), so the global atomics stay few. */
export const MAX_HISTOGRAM_WORKGROUPS = 2048;

/**
 * Network sizes of the one-workgroup sort: 1024 slots (8 KiB of workgroup memory, 8.5 padded) for
 * up to 1024 keys, 4096 (32 KiB, 34 padded) for up to 4096. A device whose workgroup memory cannot
 * hold 4096 slots gets the largest power of two it holds instead (2048 at WebGPU's default 16 KiB).
 */
export const SMALL_SORT_TIERS = [1024, 4096] as const;

/**
 * The default `smallSortMax` on SwiftShader (a CPU): it compiles the zero-initialisation of
 * workgroup memory word by word, about 7 s for a kernel of 32 KiB against well under 2 s for 8 KiB
 * (Chromium 2026-11), so by default it gets the 1024-slot network only.
 */
export const SWIFTSHADER_SMALL_SORT_MAX = 1024;

/**
 * The small-count path on a device: the tiers whose workgroup memory fits, cut to those that counts
 * up to `smallSortMax` reach (default: the largest tier, {@link SWIFTSHADER_SMALL_SORT_MAX} on
 * SwiftShader), whether each is padded (where the padded slots fit too), and the workgroup size (a
 * power of two, at most 1024).
 *
 * @example
 * ```ts
 * smallSortConfig(ctx.caps, {}); // on the H100 (48 KiB): { tiers: [1024, 4096], padded: [true, true], max: 4096, workgroupSize: 1024 }
 * smallSortConfig(ctx.caps, { smallSortMax: 1000 }); // { tiers: [1024], max: 1000, … }
 * ```
 */
export function smallSortConfig(caps: ScanContext['caps'], t: Pick<RadixTuning, 'smallSortMax'>, keyWords: 1 | 2 = 1): SmallSortConfig {
  const limits = caps.limits;
  const fits = (capacity: number, padded: boolean) =>
    smallSortWorkgroupBytes(capacity, padded, keyWords) <= limits.maxComputeWorkgroupStorageSize;
  let largest = SMALL_SORT_TIERS[SMALL_SORT_TIERS.length - 1] as number;
  while (largest >= 2 && !fits(largest, false)) largest /= 2;
  if (largest < 2) largest = 0;
  const requested = t.smallSortMax ?? (isSwiftShader(caps) ? Math.min(largest, SWIFTSHADER_SMALL_SORT_MAX) : largest);
  if (!Number.isSafeInteger(requested) || requested < 0) {
    invalidArgument('options.tuning.smallSortMax', requested, 'expected a non-negative integer');
  }
  const max = Math.min(requested, largest);
  const sizes = [...SMALL_SORT_TIERS.filter((cap) => cap < largest), largest];
  // A tier is reached when some count in (previous tier, tier] is at most max.
  const tiers = sizes.filter((_, i) => max > 0 && (i === 0 ? 0 : (sizes[i - 1] as number)) < max);
  let workgroupSize = Math.min(1024, limits.maxComputeInvocationsPerWorkgroup, limits.maxComputeWorkgroupSizeX);
  workgroupSize = 2 ** Math.floor(Math.log2(workgroupSize));
  return { tiers, padded: tiers.map((cap) => fits(cap, true)), max: tiers.length > 0 ? max : 0, workgroupSize };
}

/** The network size the one-workgroup sort uses for `count` keys, or undefined when the radix passes sort them. */
export function smallSortCapacity(small: SmallSortConfig, count: number): number | undefined {
  if (count > small.max) return undefined;
  return small.tiers.find((cap) => cap >= count);
}

/**
 * The shape of a radix sort on this device. With subgroups: 256 invocations where subgroups have
 * at least 32 lanes, fewer where they may be smaller (at most 8 groups, so the per-group digit
 * counters stay 8 KiB), 13 keys per invocation (a 3328-key tile: 23.3 G keys/s at 2^28 on the H100, against
 * 22.3 at 12, 21.3 at 11 and 16.5 at 16; on the H200 11.2 ms against 11.8 at 12 and 15.3–17.2 at 14–18,
 * where a CUDA port of the pass is fastest at 16 — see BENCHMARKS.md), fewer when the device allows less
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
    invalidArgument('options.tuning.workgroupSize', workgroupSize, 'expected a power of two');
  }
  const maxGroups = subgroups ? Math.max(1, workgroupSize / Math.min(minSize, workgroupSize)) : 1;
  let elementsPerThread = t.elementsPerThread ?? (subgroups ? 13 : 8);
  if (!Number.isInteger(elementsPerThread) || elementsPerThread < 1 || elementsPerThread > 64) {
    invalidArgument('options.tuning.elementsPerThread', elementsPerThread, 'expected an integer in [1, 64]');
  }
  const fits = (e: number) =>
    onesweepWorkgroupBytes({ workgroupSize, elementsPerThread: e, maxGroups, subgroups, keyType: sort.keyType }) <=
    limits.maxComputeWorkgroupStorageSize;
  if (t.elementsPerThread === undefined) {
    while (elementsPerThread > 1 && !fits(elementsPerThread)) elementsPerThread--;
  }
  if (!fits(elementsPerThread)) {
    invalidArgument(
      'options.tuning.elementsPerThread',
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
      maskWords: maskWordsOf(t.maskWords, maxSize),
      workgroupSize,
      elementsPerThread,
      maxGroups,
      maxSpin: t.maxSpin ?? 64,
      lookBackWindow: t.lookBackWindow ?? 8,
      forceFallback: t.forceFallback ?? false,
      // Unrolled per-key steps keep the keys in registers (15-20% faster on the H100); SwiftShader
      // compiles LLVM on the CPU and takes seconds per unrolled pipeline, so it gets loops.
      unrolled: t.unrolled ?? !isSwiftShader(ctx.caps),
      padLast: t.padLast ?? true,
      batchScatter: t.batchScatter ?? false,
      // These two on: 10.75 → 9.94 ms for 2^28 keys on the H100, 2026-12-05 (benchmark-history).
      leaderPopcount: t.leaderPopcount ?? true,
      skipClears: t.skipClears ?? true,
    },
    histogramWorkgroupSize: Math.min(256, limits.maxComputeInvocationsPerWorkgroup),
    histogramElements: HISTOGRAM_ELEMENTS,
    small: smallSortConfig(ctx.caps, t, keyWordsOf(sort.keyType)),
  };
}
