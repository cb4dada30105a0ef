import type { ScanContext } from '@scan/core';
import {
  type BindingsOf,
  type BufferRef,
  countedParams,
  dispatchShape,
  type Kernel,
  type ParamFields,
  type Recipe,
  RecipeBuilder,
  recordCountFixup,
} from '@scan/core/kit';
import { COPY_HOME_WORKGROUP, copyHomeHalvesKernel, copyHomeKernel, zeroHalvesKernel } from '../kernels/copy-home.js';
import { RADIX } from '../kernels/radix-digits.js';
import { digitScanKernel, digitStartsWord, radixHistogramKernel } from '../kernels/radix-histogram.js';
import { onesweepKernel, sortStatusBytes, type ValueMode } from '../kernels/radix-onesweep.js';
import { smallSortKernel } from '../kernels/small-sort.js';
import { isHalfKey, keyWordsOf } from '../key-order.js';
import { MAX_HISTOGRAM_WORKGROUPS, type RadixConfig } from './radix-config.js';

/**
 * Bytes at the front of a radix sort's `status` scratch for `passes` digit passes: the global
 * digit histogram of every pass, then its exclusive scan (the digit starts), 2 KiB a pass (8 KiB
 * for 32-bit keys, 16 for 64-bit ones). The passes' look-back areas follow.
 *
 * @example
 * ```ts
 * digitsBytes(4); // 8192
 * ```
 */
export function digitsBytes(passes: number): number {
  return 2 * digitStartsWord(passes) * 4;
}

/** A count fixup fills at most this many parameter blocks (`recordCountFixup`): more take another fixup. */
const FIXUP_BLOCKS = 8;

/** Where a sort's count comes from: a number, or a u32 the GPU wrote (word `word` of role `gpuCount`). */
export type CountSource = { readonly kind: 'direct' } | { readonly kind: 'indirect'; readonly word: number };

/** The count given on the host. */
export const DIRECT_COUNT: CountSource = { kind: 'direct' };

/** One dispatch as every recipe of a sort has it: the kernel and its bindings never change with the count. */
interface FixedDispatch<K extends Kernel> {
  readonly kernel: K;
  readonly bindings: BindingsOf<K['bindingNames'][number]>;
}

/**
 * The dispatches of a sort for one count source: histogram, digit scan, one one-sweep pass per
 * digit. The kernels are the same for both sources: they read the count from their parameters.
 */
interface Layout {
  readonly histogram: FixedDispatch<ReturnType<typeof radixHistogramKernel>>;
  readonly scan: FixedDispatch<ReturnType<typeof digitScanKernel>>;
  readonly passes: readonly FixedDispatch<ReturnType<typeof onesweepKernel>>[];
  /** With a GPU count and an odd number of passes: the bounded copy back (see `copyHomeKernel`). */
  readonly copyHome?: FixedDispatch<ReturnType<typeof copyHomeKernel>>;
  /** 16-bit keys, one pass: the copy back of the packed keys (both count sources; see `copyHomeHalvesKernel`). */
  readonly copyHalves?: FixedDispatch<ReturnType<typeof copyHomeHalvesKernel>>;
  /** 16-bit keys, two passes: the zeroing of the caller's words before the last pass ORs its keys in. */
  readonly zero?: FixedDispatch<ReturnType<typeof zeroHalvesKernel>>;
}

/** Parameter values a recipe builder fills in place (see `radixRecipes`). */
type ParamSlots<P extends ParamFields> = { -readonly [K in keyof P]: number };

/** What a count the GPU wrote fills in of every sort kernel's parameters: the count (`SORT_COUNT_PARAMS`). */
const GPU_FILLED = { count: 'count' } as const;

/**
 * Builds the recipes of one radix sort shape: `build(capacity, source)` is a sort of `capacity` keys
 * (the count, or the largest count an indirect count may give) in roles `keys` (and `values`),
 * ping-ponging with scratch `altKeys` (`altValues`):
 *
 * 1. **one clear** of the `status` scratch — the digit histogram ({@link digitsBytes}), then one
 *    look-back area per digit pass, each {@link sortStatusBytes} long; a pass finds its area through
 *    `params.status_base`, so the areas' offsets are parameters, not bindings;
 * 2. the global histogram pass and the digit scan;
 * 3. per digit a one-sweep pass;
 * 4. with an odd number of passes, a copy back into the caller's buffers — for a GPU count, a
 *    kernel that copies only the sorted elements (a copy of the capacity would overwrite the
 *    caller's elements past the count).
 *
 * With a GPU count (word `source.word` of role `gpuCount`) a count fixup comes first
 * (`recordCountFixup`): ONE dispatch that fills the parameter block of every kernel after it — their
 * `count` from min(the GPU's count, `capacity`), the other fields as the host wrote them — so the
 * kernels are those of a host count. Every dispatch runs in one compute pass (no clear between them),
 * and binds whole buffers (the kernels stop at `params.count`): the bindings depend only on
 * `source.kind` (the fixup, the copy home), so every count of one source has one structure. The kernels are made
 * once here, not per encode.
 *
 * @example
 * ```ts
 * const build = radixRecipes(ctx, config, 'move');
 * exec.encode(encoder, () => build(n, DIRECT_COUNT), { keys, values });
 * ```
 */
export function radixRecipes(ctx: ScanContext, config: RadixConfig, values: ValueMode): (capacity: number, source: CountSource) => Recipe {
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const passes = config.passes;
  const P = passes.length;
  const tile = config.pass.workgroupSize * config.pass.elementsPerThread;
  const histChunk = config.histogramWorkgroupSize * config.histogramElements;
  const width = Math.max(...passes.map((pass) => pass.width));
  // Words of one moved value (argsort's index, and values 'none', one).
  const valueWords = values === 'move' ? (config.sort.valueWords ?? 1) : 1;
  // 16-bit keys lie two to a word in the caller's buffer (one or two passes): the first pass reads
  // them so, the passes between them write and read one a word (scratch of 4 bytes a key), and the
  // last pass ORs them into zeroed words (the caller's, zeroed by a small kernel after the first pass
  // has read them; or with one pass the scratch's, cleared, then copied home). Bytes moved for n
  // keys, two passes: 2n histogram + (2n + 4n) + 2n zeroing + (4n + 2n) = 16n, against 36n for a
  // 32-bit key's four passes (2.25×); a widening and a narrowing kernel around a 32-bit sort of two
  // passes would move 2n + 4n + 4n + 16n + 4n + 2n = 32n.
  const half = isHalfKey(config.sort.keyType);
  const layouts = [layoutOf(false), layoutOf(true)] as const;

  function layoutOf(indirect: boolean): Layout {
    const keys: BufferRef = { role: 'keys', offset: 0 };
    const alt: BufferRef = { scratch: 'altKeys' };
    const vals: BufferRef | undefined = values === 'none' ? undefined : { role: 'values', offset: 0 };
    const altVals: BufferRef | undefined = values === 'none' ? undefined : { scratch: 'altValues' };
    // Two disjoint ranges of one buffer, both writable in the one-sweep pass (see the kernel).
    const digits: BufferRef = { scratch: 'status', offset: 0, size: digitsBytes(P) };
    const status: BufferRef = { scratch: 'status', offset: digitsBytes(P) };
    const histogram = {
      kernel: radixHistogramKernel({
        keyType: config.sort.keyType,
        descending: config.sort.descending,
        passes,
        workgroupSize: config.histogramWorkgroupSize,
        elementsPerThread: config.histogramElements,
      }),
      bindings: { keys, digits },
    };
    const scan = { kernel: digitScanKernel({ passes: P }), bindings: { digits } };
    // A GPU count's sort copies only the sorted elements home (a kernel: the count is on the GPU).
    const copyHalves =
      half && P % 2 === 1
        ? {
            kernel: copyHomeHalvesKernel({ values: values !== 'none', ...(valueWords > 1 ? { valueWords } : {}) }),
            bindings: { sorted_keys: alt, keys, sorted_values: altVals, values: vals },
          }
        : undefined;
    const zero = half && P === 2 ? { kernel: zeroHalvesKernel({}), bindings: { keys } } : undefined;
    const copyHome =
      !half && indirect && P % 2 === 1
        ? {
            kernel: copyHomeKernel({ values: values !== 'none', keyType: config.sort.keyType, valueWords }),
            bindings: { sorted_keys: alt, keys, sorted_values: altVals, values: vals },
          }
        : undefined;
    return {
      histogram,
      scan,
      ...(copyHome ? { copyHome } : {}),
      ...(copyHalves ? { copyHalves } : {}),
      ...(zero ? { zero } : {}),
      passes: passes.map((_, p) => {
        const fromCaller = p % 2 === 0;
        const mode: ValueMode = values === 'index' && p > 0 ? 'move' : values;
        return {
          kernel: onesweepKernel({
            ...config.pass,
            width,
            values: mode,
            ...(valueWords > 1 ? { valueWords } : {}),
            ...(half && p === 0 ? { packedIn: true } : {}),
            ...(half && p === P - 1 ? { packedOut: true } : {}),
          }),
          bindings: {
            keys_in: fromCaller ? keys : alt,
            keys_out: fromCaller ? alt : keys,
            values_in: mode === 'move' ? (fromCaller ? vals : altVals) : undefined,
            values_out: mode === 'none' ? undefined : fromCaller ? altVals : vals,
            status,
            digits,
          },
        };
      }),
    };
  }

  // Parameter values, filled in place at every build: a recipe holds only their words, so an encode
  // allocates what it did when it wrote the words itself.
  const histogramValues: ParamSlots<Layout['histogram']['kernel']['params']> = { count: 0, tiles: 0, dispatch_x: 0 };
  const passValues: ParamSlots<Layout['passes'][number]['kernel']['params']> = {
    count: 0,
    shift: 0,
    mask: 0,
    digit_starts: 0,
    status_base: 0,
  };
  const copyHomeValues: ParamSlots<NonNullable<Layout['copyHome']>['kernel']['params']> = { count: 0, dispatch_x: 0 };
  // The 16-bit keys' kernels, one invocation a word.
  const wordValues: ParamSlots<NonNullable<Layout['zero']>['kernel']['params']> = { count: 0, dispatch_x: 0 };

  return (capacity, source) => {
    const layout = layouts[source.kind === 'indirect' ? 1 : 0];
    const b = new RecipeBuilder();
    const bytes = 4 * valueWords * capacity;
    // 16-bit keys: the scratch holds them one a word (between two passes) or packed (one pass).
    const keyBytes = 4 * keyWordsOf(config.sort.keyType) * capacity;
    const packedBytes = 4 * Math.ceil(capacity / 2);
    const tiles = Math.ceil(capacity / tile);
    const histWorkgroups = Math.min(Math.ceil(capacity / histChunk), MAX_HISTOGRAM_WORKGROUPS);
    const passWords = sortStatusBytes(tiles) / 4;
    const statusBytes = digitsBytes(P) + 4 * P * passWords;

    b.needScratch('status', statusBytes);
    b.needScratch('altKeys', keyBytes);
    if (values !== 'none') b.needScratch('altValues', bytes);
    // The digit histogram and every pass's look-back status, cleared at once.
    b.clear({ scratch: 'status', offset: 0, size: statusBytes });
    // One pass of 16-bit keys ORs them into the scratch.
    if (half && P === 1) b.clear({ scratch: 'altKeys', offset: 0, size: packedBytes });
    const wordGroups = Math.ceil(packedBytes / 4 / COPY_HOME_WORKGROUP);
    wordValues.count = capacity;
    wordValues.dispatch_x = dispatchShape(wordGroups, maxDim).x;
    const copyGroups = Math.ceil(capacity / COPY_HOME_WORKGROUP);
    histogramValues.count = capacity;
    histogramValues.tiles = histWorkgroups;
    histogramValues.dispatch_x = dispatchShape(histWorkgroups, maxDim).x;
    passValues.count = capacity;
    copyHomeValues.count = capacity;
    copyHomeValues.dispatch_x = dispatchShape(copyGroups, maxDim).x;
    const passValuesOf = (p: number) => {
      const pass = passes[p]!;
      passValues.shift = pass.shift;
      passValues.mask = 2 ** pass.width - 1;
      passValues.digit_starts = digitStartsWord(P) + p * RADIX;
      passValues.status_base = p * passWords;
      return passValues;
    };
    // Every kernel's parameters: the host's values, or with a GPU count the blocks the fixup fills
    // from them and the count (the histogram's, each pass's, the copy home's).
    // Block i is the histogram's (0), a pass's (1 + p) or the copy home's (1 + P). A fixup fills at
    // most FIXUP_BLOCKS blocks, so a sort of more passes (64-bit keys) records a second one right
    // before the first kernel it serves: the blocks are read when their kernel runs, so it may
    // reuse the first one's.
    let fixedAt: (i: number) => BufferRef | undefined = () => undefined;
    if (source.kind === 'indirect') {
      const blocks = [countedParams(layout.histogram.kernel, GPU_FILLED, histogramValues)];
      for (let p = 0; p < P; p++) blocks.push(countedParams(layout.passes[p]!.kernel, GPU_FILLED, passValuesOf(p)));
      if (layout.copyHome) blocks.push(countedParams(layout.copyHome.kernel, GPU_FILLED, copyHomeValues));
      if (layout.copyHalves) blocks.push(countedParams(layout.copyHalves.kernel, GPU_FILLED, wordValues));
      if (layout.zero) blocks.push(countedParams(layout.zero.kernel, GPU_FILLED, wordValues));
      let fixed: BufferRef[] = [];
      fixedAt = (i) => {
        if (i % FIXUP_BLOCKS === 0) {
          fixed = recordCountFixup(b, { word: source.word, capacity, blocks: blocks.slice(i, i + FIXUP_BLOCKS) });
        }
        return fixed[i % FIXUP_BLOCKS];
      };
    }
    b.dispatch(layout.histogram.kernel, layout.histogram.bindings, histWorkgroups, fixedAt(0) ?? histogramValues);
    b.dispatch(layout.scan.kernel, layout.scan.bindings, 1);
    // Blocks after the passes': the copy home's (either kind), then the zeroing's.
    const zeroBlock = 1 + P + (layout.copyHome || layout.copyHalves ? 1 : 0);
    for (let p = 0; p < P; p++) {
      const pass = layout.passes[p]!;
      if (p === P - 1 && layout.zero) {
        // The first pass has read the caller's packed keys: zero the words the last one ORs into.
        b.dispatch(layout.zero.kernel, layout.zero.bindings, wordGroups, fixedAt(zeroBlock) ?? wordValues);
      }
      b.dispatch(pass.kernel, pass.bindings, tiles, fixedAt(1 + p) ?? passValuesOf(p));
    }
    if (layout.copyHalves) {
      b.dispatch(layout.copyHalves.kernel, layout.copyHalves.bindings, wordGroups, fixedAt(1 + P) ?? wordValues);
    } else if (layout.copyHome) {
      // An odd number of passes ends in the scratch: the sorted elements go home, the rest stays.
      b.dispatch(layout.copyHome.kernel, layout.copyHome.bindings, copyGroups, fixedAt(1 + P) ?? copyHomeValues);
    } else if (P % 2 === 1) {
      // An odd number of passes ends in the scratch: copy the result home.
      b.copy({ scratch: 'altKeys' }, { role: 'keys', offset: 0 }, keyBytes);
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
 * copy back; a GPU count adds the count fixup before it, which writes the kernel's parameter (the
 * count) into a 32-byte uniform scratch. The kernels (per tier, the same for both count sources) are
 * made once, on first use.
 *
 * @example
 * ```ts
 * const small = smallSortRecipes(config, 'move');
 * exec.encode(encoder, () => small(1024, n, DIRECT_COUNT), { keys, values });
 * ```
 */
export function smallSortRecipes(config: RadixConfig, values: ValueMode): (capacity: number, count: number, source: CountSource) => Recipe {
  const kernels = new Map<number, FixedDispatch<ReturnType<typeof smallSortKernel>>>();
  const fixed = (capacity: number): FixedDispatch<ReturnType<typeof smallSortKernel>> => {
    let f = kernels.get(capacity);
    if (!f) {
      const bindings = {
        keys: { role: 'keys', offset: 0 },
        values: values === 'none' ? undefined : { role: 'values', offset: 0 },
      };
      const kernel = smallSortKernel({
        keyType: config.sort.keyType,
        descending: config.sort.descending,
        bits: config.sort.bits,
        values,
        ...(values === 'move' && (config.sort.valueWords ?? 1) > 1 ? { valueWords: config.sort.valueWords } : {}),
        workgroupSize: config.small.workgroupSize,
        capacity,
        padded: config.small.padded[config.small.tiers.indexOf(capacity)] ?? false,
      });
      f = { kernel, bindings };
      kernels.set(capacity, f);
    }
    return f;
  };
  // Filled in place at every build (see `radixRecipes`).
  const smallValues: ParamSlots<ReturnType<typeof smallSortKernel>['params']> = { count: 0 };
  return (capacity, count, source) => {
    const f = fixed(capacity);
    const b = new RecipeBuilder();
    smallValues.count = count;
    // A GPU count: the fixup writes the whole block (its one field is the count, at most `count`).
    const params =
      source.kind === 'indirect'
        ? (recordCountFixup(b, { word: source.word, capacity: count, blocks: [countedParams(f.kernel, GPU_FILLED, {})] })[0] as BufferRef)
        : smallValues;
    b.dispatch(f.kernel, f.bindings, 1, params);
    return b.build();
  };
}
