import { type Plan, type ScanContext, ScanError } from '@scan/core';
import {
  assertUsable,
  checkBoolean,
  checkCount,
  checkElementType,
  checkEncodeArgs,
  checkOneOf,
  checkOptions,
  gpuCountOf,
  invalidArgument,
  planOf,
} from '@scan/core/kit';
import { keyBitsOf, keyBytesOf, keyWordsOf } from '../key-order.js';
import { checkCopyTargets, checkSortCount, checkSortValueBytes } from '../limits.js';
import type { SortKeyType } from '../types.js';
import { checkAlgorithmTakes, checkAlgorithmTakesValues, checkBitRange, checkValueWidth } from '../validate.js';
import { createRadixSort, type RadixTuning } from './radix-plan.js';
import type { SortEncodeArgs, SortPlanOptions } from './sort-plan-types.js';
import type { SortShape, ValueWords } from './sort-shape.js';
import { createSplitRadixSort } from './split-radix-plan.js';

const PLAN_KEYS = ['keyType', 'valueType', 'valueWidth', 'descending', 'algorithm', 'bits', 'maxCount', 'tuning'];
/** The numeric and on/off keys of `options.tuning` (`SortTuning`): the tests' and the bench's sweeps, not part of the contract. */
const NUMBER_TUNING_KEYS = ['workgroupSize', 'elementsPerThread', 'maxSpin'] as const;
const BOOLEAN_TUNING_KEYS = ['forceFallback', 'subgroups', 'unrolled', 'padLast', 'batchScatter', 'leaderPopcount', 'skipClears'] as const;
const TUNING_KEYS = [...NUMBER_TUNING_KEYS, ...BOOLEAN_TUNING_KEYS, 'smallSortMax'];

/** `options.tuning` checked key by key (`radixConfig` checks the ranges that depend on the device). */
function tuningOf(tuning: unknown): RadixTuning {
  const o = checkOptions(tuning, TUNING_KEYS, 'options.tuning');
  const t: RadixTuning = {};
  for (const key of NUMBER_TUNING_KEYS) {
    const value = o[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      invalidArgument(`options.tuning.${key}`, value, 'expected a positive integer');
    }
    t[key] = value;
  }
  for (const key of BOOLEAN_TUNING_KEYS) {
    // The fallback is never used: only a given value is checked.
    if (o[key] !== undefined) t[key] = checkBoolean(o[key], `options.tuning.${key}`, false);
  }
  if (o.smallSortMax !== undefined) t.smallSortMax = checkCount(o.smallSortMax, 'options.tuning.smallSortMax');
  return t;
}

/**
 * A sort at the buffer level: records into your encoder a sort of the first `count` keys of
 * `keys` (and the values of `values`, which move with them) in place, stable, with no read-back.
 * The count may come from the GPU (`countBuffer`, e.g. written by a culling pass): then the plan
 * sorts min(that count, `maxCount`) keys — one small kernel first (a count fixup) writes that count
 * into the parameters of the sort's kernels, which are the same as for a host count.
 *
 * `'radix'` (default) is the one-sweep radix sort: one histogram pass and one pass per 8-bit digit
 * of the bit range (four for whole 32-bit keys, eight for `keyType` `'u64'` or `'i64'`, whose keys
 * are 8 bytes each in `keys`, two for `'u16'` or `'f16'`, two keys to a word in `keys`), all in one
 * compute pass after one clear. Small
 * counts — up to 4096 keys where the device's workgroup memory holds 32 KiB (2048 at 16 KiB; 1024
 * on SwiftShader, which compiles large workgroup memory slowly) — take a one-workgroup bitonic sort
 * instead: ONE dispatch that sorts (key, index) pairs in workgroup memory, stable, with the same
 * result. At a few thousand keys the radix sort's time is its six dispatches, not its work: on the
 * H100 a key–value sort of 2^10 keys takes 19.5 µs this way against 49.8, 2^12 keys 38.8 against
 * 52.7. A GPU count takes it when `maxCount` is that small.
 * `'split-radix'` is the paper's, one split per bit.
 *
 * Values may be records of `valueWidth` bytes (4, 8, 12 or 16; radix only): each digit pass moves
 * them word by word through the keys' staging, so a 16-byte value costs four times a 4-byte one's
 * traffic and staging rounds (see the README's "Value widths").
 *
 * Made to be encoded every frame. Memory: the radix sort holds the keys and values once more, a
 * status area (per digit pass 2 KiB, plus 1 KiB per tile of 3328 keys on most GPUs) and a 4-slot
 * parameter ring (the small-count sort needs no scratch: a plan whose `maxCount` it covers
 * holds only the ring), and with a GPU count the 32-byte parameter blocks the count fixup fills
 * (256 bytes apart: one for the small-count sort; else the histogram's, one per digit pass and, with
 * an odd number of passes, the copy home's); the split radix sort holds the keys and values once more, a byte per key of
 * flags, and what its split holds (a look-back status and a parameter ring). Scratch grows by
 * doubling when a count needs more (or is sized once by `maxCount`); once warm, an encode with a
 * new count, or a new `countOffset`, creates nothing: it writes parameters. `await plan.ready`
 * before the first frame to have the pipelines compiled.
 *
 * @example
 * ```ts
 * const plan = createSortPlan(ctx, { keyType: 'f32', valueType: 'u32', maxCount: 1 << 20 });
 * await plan.ready;
 * const encoder = device.createCommandEncoder();
 * plan.encode(encoder, { keys, values, countBuffer: visibleCount });
 * device.queue.submit([encoder.finish()]);
 * ```
 */
export function createSortPlan(ctx: ScanContext, options: SortPlanOptions = {}): Plan<SortEncodeArgs> {
  assertUsable(ctx);
  const o = checkOptions(options, PLAN_KEYS, 'options');
  const keyType: SortKeyType =
    o.keyType === undefined
      ? 'u32'
      : o.keyType === 'u64' || o.keyType === 'i64' || o.keyType === 'u16' || o.keyType === 'f16'
        ? o.keyType
        : checkElementType(o.keyType, 'options.keyType');
  const valueWidth = checkValueWidth(o.valueWidth, 'options.valueWidth');
  // A width alone says that values move too (the GPU moves raw words: their type does not matter).
  const valueType =
    o.valueType === undefined ? (o.valueWidth === undefined ? undefined : 'u32') : checkElementType(o.valueType, 'options.valueType');
  const valueWords = (valueWidth / 4) as ValueWords;
  const descending = checkBoolean(o.descending, 'options.descending', false);
  const algorithm = o.algorithm as string | undefined;
  if (algorithm === 'quicksort') {
    throw new ScanError(
      'UNSUPPORTED',
      'sort plan: options.algorithm = "quicksort": the quicksort reads its stop decision back every few rounds, so it runs only through the array-level sort()',
      { argument: 'options.algorithm' },
    );
  }
  const chosen = checkOneOf(algorithm, ['radix', 'split-radix'] as const, 'options.algorithm', 'radix');
  checkAlgorithmTakes(chosen, keyType, 'options.algorithm');
  checkAlgorithmTakesValues(chosen, valueWidth, 'options.algorithm');
  const bits = checkBitRange(o.bits, 'options.bits', keyBitsOf(keyType));
  const maxCount =
    o.maxCount === undefined
      ? undefined
      : checkSortCount(ctx, checkCount(o.maxCount, 'options.maxCount'), 'options.maxCount', keyWordsOf(keyType));
  if (maxCount !== undefined && valueType !== undefined) checkSortValueBytes(ctx, maxCount, valueWidth, 'options.maxCount');
  const tuning = tuningOf(o.tuning);
  const shape: SortShape = { keyType, valueType, ...(valueWords > 1 ? { valueWords } : {}), descending, bits };
  const values = valueType === undefined ? 'none' : 'move';
  const radix =
    chosen === 'radix'
      ? createRadixSort(ctx, shape, { values, ...(maxCount === undefined ? {} : { maxCount, gpuCount: true }), tuning })
      : undefined;
  const splitRadix = chosen === 'split-radix' ? createSplitRadixSort(ctx, shape, maxCount) : undefined;
  const inner = radix ?? (splitRadix as Plan<unknown>);
  // An odd number of digit passes ends in scratch and is copied back into the caller's buffers.
  const copiesBack = chosen === 'radix' && Math.ceil((bits[1] - bits[0]) / 8) % 2 === 1;
  return planOf([inner], {
    what: 'sort plan',
    encode(encoder, args) {
      const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
      if (a.countBuffer !== undefined && chosen !== 'radix') {
        throw new ScanError('UNSUPPORTED', `sort plan: args.countBuffer needs algorithm 'radix' (this plan is '${chosen}')`, {
          argument: 'args.countBuffer',
        });
      }
      const gpu = gpuCountOf('sort plan', a, maxCount);
      const indirect = gpu !== undefined;
      const need: Record<string, number> = { keys: keyBytesOf(keyType) };
      if (valueType !== undefined) need.values = valueWidth;
      if (indirect) need.countBuffer = 0;
      // Buffers are checked for the count given, or for maxCount when the GPU gives it.
      const count = checkEncodeArgs('sort plan', indirect ? { ...a, count: maxCount } : a, need);
      if (valueType === undefined && a.values !== undefined) {
        throw new ScanError(
          'INVALID_ARGUMENT',
          'sort plan: args.values is given but the plan sorts keys only (create it with options.valueType)',
          {
            argument: 'args.values',
          },
        );
      }
      if (!indirect) checkSortCount(ctx, count, 'args.count', keyWordsOf(keyType));
      if (!indirect && valueType !== undefined) checkSortValueBytes(ctx, count, valueWidth, 'args.count');
      const keys = a.keys as GPUBuffer;
      const vals = a.values as GPUBuffer | undefined;
      if (copiesBack || chosen === 'split-radix') checkCopyTargets('sort plan', { keys, ...(vals ? { values: vals } : {}) });
      if (radix) {
        const source = gpu ?? count;
        radix.encode(encoder, { keys, ...(vals ? { values: vals } : {}), count: source });
      } else {
        splitRadix?.encode(encoder, { keys, ...(vals ? { values: vals } : {}), count });
      }
    },
  });
}
