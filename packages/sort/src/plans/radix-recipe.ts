import type { ScanContext } from '@scan/core';
import { type BindingsOf, type BufferRef, dispatchShape, type Kernel, type ParamFields, type Recipe, RecipeBuilder } from '@scan/core/kit';
import { COPY_HOME_WORKGROUP, copyHomeKernel } from '../kernels/copy-home.js';
import { RADIX } from '../kernels/radix-digits.js';
import { DIGIT_STARTS_WORD, digitScanKernel, radixHistogramKernel } from '../kernels/radix-histogram.js';
import { onesweepKernel, sortStatusBytes, type ValueMode } from '../kernels/radix-onesweep.js';
import { smallSortKernel } from '../kernels/small-sort.js';
import { MAX_HISTOGRAM_WORKGROUPS, type RadixConfig } from './radix-config.js';

/**
 * Bytes at the front of a radix sort's `status` scratch: the global digit histogram of every pass,
 * then its exclusive scan (the digit starts). The passes' look-back areas follow.
 */
export const DIGITS_BYTES = (DIGIT_STARTS_WORD + 4 * RADIX) * 4;

/** Where a sort's count comes from: a number, or a u32 the GPU wrote (word `word` of role `count`). */
export type CountSource = { readonly kind: 'direct' } | { readonly kind: 'indirect'; readonly word: number };

/** The count given on the host. */
export const DIRECT_COUNT: CountSource = { kind: 'direct' };

/** One dispatch as every recipe of a sort has it: the kernel and its bindings never change with the count. */
interface FixedDispatch<K extends Kernel> {
  readonly kernel: K;
  readonly bindings: BindingsOf<K['bindingNames'][number]>;
}

/** The dispatches of a sort for one count source: histogram, digit scan, one one-sweep pass per digit. */
interface Layout {
  readonly histogram: FixedDispatch<ReturnType<typeof radixHistogramKernel>>;
  readonly scan: FixedDispatch<ReturnType<typeof digitScanKernel>>;
  readonly passes: readonly FixedDispatch<ReturnType<typeof onesweepKernel>>[];
  /** With a GPU count and an odd number of passes: the bounded copy back (see `copyHomeKernel`). */
  readonly copyHome?: FixedDispatch<ReturnType<typeof copyHomeKernel>>;
}

/** Parameter values a recipe builder fills in place (see `radixRecipes`). */
type ParamSlots<P extends ParamFields> = { -readonly [K in keyof P]: number };

/**
 * Builds the recipes of one radix sort shape: `build(capacity, source)` is a sort of `capacity` keys
 * (the count, or the largest count an indirect count may give) in roles `keys` (and `values`),
 * ping-ponging with scratch `altKeys` (`altValues`):
 *
 * 1. **one clear** of the `status` scratch — the digit histogram ({@link DIGITS_BYTES}), then one
 *    look-back area per digit pass, each {@link sortStatusBytes} long; a pass finds its area through
 *    `params.status_base`, so the areas' offsets are parameters, not bindings;
 * 2. the global histogram pass and the digit scan;
 * 3. per digit a one-sweep pass;
 * 4. with an odd number of passes, a copy back into the caller's buffers — for a GPU count, a
 *    kernel that copies only the sorted elements (a copy of the capacity would overwrite the
 *    caller's elements past the count).
 *
 * Every dispatch runs in one compute pass (no clear between them), and binds whole buffers (the
 * kernels stop at `params.count`, or at the count the GPU wrote, capped there): the kernels and
 * bindings depend only on `source.kind`, which is the structure key's part. The kernels are made
 * once here, not per encode.
 *
 * @example
 * ```ts
 * const build = radixRecipes(ctx, config, 'move');
 * exec.encode(encoder, 'sort/direct', () => build(n, DIRECT_COUNT), { keys, values });
 * ```
 */
export function radixRecipes(ctx: ScanContext, config: RadixConfig, values: ValueMode): (capacity: number, source: CountSource) => Recipe {
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const passes = config.passes;
  const P = passes.length;
  const tile = config.pass.workgroupSize * config.pass.elementsPerThread;
  const histChunk = config.histogramWorkgroupSize * config.histogramElements;
  const width = Math.max(...passes.map((pass) => pass.width));
  const layouts = [layoutOf(false), layoutOf(true)] as const;

  function layoutOf(indirect: boolean): Layout {
    const count: BufferRef | undefined = indirect ? { role: 'count', offset: 0 } : undefined;
    const keys: BufferRef = { role: 'keys', offset: 0 };
    const alt: BufferRef = { scratch: 'altKeys' };
    const vals: BufferRef | undefined = values === 'none' ? undefined : { role: 'values', offset: 0 };
    const altVals: BufferRef | undefined = values === 'none' ? undefined : { scratch: 'altValues' };
    // Two disjoint ranges of one buffer, both writable in the one-sweep pass (see the kernel).
    const digits: BufferRef = { scratch: 'status', offset: 0, size: DIGITS_BYTES };
    const status: BufferRef = { scratch: 'status', offset: DIGITS_BYTES };
    const histogram = {
      kernel: radixHistogramKernel({
        keyType: config.sort.keyType,
        descending: config.sort.descending,
        passes,
        workgroupSize: config.histogramWorkgroupSize,
        elementsPerThread: config.histogramElements,
        indirect,
      }),
      bindings: { keys, digits, count_buf: count },
    };
    const scan = { kernel: digitScanKernel({ passes: P }), bindings: { digits } };
    // A GPU count's sort copies only the sorted elements home (a kernel: the count is on the GPU).
    const copyHome =
      indirect && P % 2 === 1
        ? {
            kernel: copyHomeKernel({ values: values !== 'none' }),
            bindings: { count_buf: count, sorted_keys: alt, keys, sorted_values: altVals, values: vals },
          }
        : undefined;
    return {
      histogram,
      scan,
      ...(copyHome ? { copyHome } : {}),
      passes: passes.map((_, p) => {
        const fromCaller = p % 2 === 0;
        const mode: ValueMode = values === 'index' && p > 0 ? 'move' : values;
        return {
          kernel: onesweepKernel({ ...config.pass, width, values: mode, indirect }),
          bindings: {
            keys_in: fromCaller ? keys : alt,
            keys_out: fromCaller ? alt : keys,
            values_in: mode === 'move' ? (fromCaller ? vals : altVals) : undefined,
            values_out: mode === 'none' ? undefined : fromCaller ? altVals : vals,
            status,
            digits,
            count_buf: count,
          },
        };
      }),
    };
  }

  // Parameter values, filled in place at every build: a recipe holds only their words, so an encode
  // allocates what it did when it wrote the words itself.
  const histogramValues: ParamSlots<Layout['histogram']['kernel']['params']> = { count: 0, count_word: 0, tiles: 0, dispatch_x: 0 };
  const passValues: ParamSlots<Layout['passes'][number]['kernel']['params']> = {
    count: 0,
    count_word: 0,
    shift: 0,
    mask: 0,
    digit_starts: 0,
    status_base: 0,
  };
  const copyHomeValues: ParamSlots<NonNullable<Layout['copyHome']>['kernel']['params']> = { capacity: 0, count_word: 0, dispatch_x: 0 };

  return (capacity, source) => {
    const layout = layouts[source.kind === 'indirect' ? 1 : 0];
    const countWord = source.kind === 'indirect' ? source.word : 0;
    const b = new RecipeBuilder();
    const bytes = 4 * capacity;
    const tiles = Math.ceil(capacity / tile);
    const histWorkgroups = Math.min(Math.ceil(capacity / histChunk), MAX_HISTOGRAM_WORKGROUPS);
    const passWords = sortStatusBytes(tiles) / 4;
    const statusBytes = DIGITS_BYTES + 4 * P * passWords;

    b.needScratch('status', statusBytes);
    b.needScratch('altKeys', bytes);
    if (values !== 'none') b.needScratch('altValues', bytes);
    // The digit histogram and every pass's look-back status, cleared at once.
    b.clear({ scratch: 'status', offset: 0, size: statusBytes });
    histogramValues.count = capacity;
    histogramValues.count_word = countWord;
    histogramValues.tiles = histWorkgroups;
    histogramValues.dispatch_x = dispatchShape(histWorkgroups, maxDim).x;
    b.dispatch(layout.histogram.kernel, layout.histogram.bindings, histWorkgroups, histogramValues);
    b.dispatch(layout.scan.kernel, layout.scan.bindings, 1);
    passValues.count = capacity;
    passValues.count_word = countWord;
    for (let p = 0; p < P; p++) {
      const pass = passes[p]!;
      const fixed = layout.passes[p]!;
      passValues.shift = pass.shift;
      passValues.mask = 2 ** pass.width - 1;
      passValues.digit_starts = DIGIT_STARTS_WORD + p * RADIX;
      passValues.status_base = p * passWords;
      b.dispatch(fixed.kernel, fixed.bindings, tiles, passValues);
    }
    if (layout.copyHome) {
      // An odd number of passes ends in the scratch: the sorted elements go home, the rest stays.
      const groups = Math.ceil(capacity / COPY_HOME_WORKGROUP);
      copyHomeValues.capacity = capacity;
      copyHomeValues.count_word = countWord;
      copyHomeValues.dispatch_x = dispatchShape(groups, maxDim).x;
      b.dispatch(layout.copyHome.kernel, layout.copyHome.bindings, groups, copyHomeValues);
    } else if (P % 2 === 1) {
      // An odd number of passes ends in the scratch: copy the result home.
      b.copy({ scratch: 'altKeys' }, { role: 'keys', offset: 0 }, bytes);
      if (values !== 'none') b.copy({ scratch: 'altValues' }, { role: 'values', offset: 0 }, bytes);
    }
    return b.build();
  };
}

/**
 * Builds the recipes of the one-workgroup sort of small counts (`smallSortKernel`):
 * `build(capacity, count, source)` is ONE dispatch of ONE workgroup running the network of
 * `capacity` slots (a tier of `config.small`) over `count` keys (or, with a GPU count, at most
 * `count`: the plan's capacity) in roles `keys` (and `values`), in place. No clear, no scratch, no
 * copy back. The kernels (per tier and count source) are made once, on first use.
 *
 * @example
 * ```ts
 * const small = smallSortRecipes(config, 'move');
 * exec.encode(encoder, 'sort/small1024', () => small(1024, n, DIRECT_COUNT), { keys, values });
 * ```
 */
export function smallSortRecipes(config: RadixConfig, values: ValueMode): (capacity: number, count: number, source: CountSource) => Recipe {
  const kernels = new Map<string, FixedDispatch<ReturnType<typeof smallSortKernel>>>();
  const fixed = (capacity: number, indirect: boolean): FixedDispatch<ReturnType<typeof smallSortKernel>> => {
    const name = `${capacity}/${indirect}`;
    let f = kernels.get(name);
    if (!f) {
      const bindings = {
        keys: { role: 'keys', offset: 0 },
        values: values === 'none' ? undefined : { role: 'values', offset: 0 },
        count_buf: indirect ? { role: 'count', offset: 0 } : undefined,
      };
      const kernel = smallSortKernel({
        keyType: config.sort.keyType,
        descending: config.sort.descending,
        bits: config.sort.bits,
        values,
        indirect,
        workgroupSize: config.small.workgroupSize,
        capacity,
        padded: config.small.padded[config.small.tiers.indexOf(capacity)] ?? false,
      });
      f = { kernel, bindings };
      kernels.set(name, f);
    }
    return f;
  };
  // Filled in place at every build (see `radixRecipes`).
  const smallValues: ParamSlots<ReturnType<typeof smallSortKernel>['params']> = { count: 0, count_word: 0 };
  return (capacity, count, source) => {
    const f = fixed(capacity, source.kind === 'indirect');
    const b = new RecipeBuilder();
    smallValues.count = count;
    smallValues.count_word = source.kind === 'indirect' ? source.word : 0;
    b.dispatch(f.kernel, f.bindings, 1, smallValues);
    return b.build();
  };
}
