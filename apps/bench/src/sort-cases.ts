import type { CaseModule } from './case-module.js';
import { type CaseShape, SORT_PRIMITIVES, type SortAlgorithmName } from './case-types.js';

/**
 * Mean segment length of the `segmented-sort` case (random segments, geometric lengths, like the
 * segmented scan cases). Fixed: `--segment-means` sets the segmented scan and reduce cases only.
 */
export const SORT_SEGMENT_MEAN = 1024;

/** Bits of one digit of the one-sweep radix sort the bytes model assumes (`'radix'`: 8-bit digits). */
export const RADIX_DIGIT_BITS = 8;

/**
 * Scatter passes of an LSD radix sort of 32-bit keys with {@link RADIX_DIGIT_BITS}-bit digits: 4.
 *
 * @example
 * ```ts
 * radixPasses(); // 4
 * radixPasses(16); // 2
 * ```
 */
export function radixPasses(keyBits = 32): number {
  return Math.ceil(keyBits / RADIX_DIGIT_BITS);
}

/**
 * The sort configurations, in report order: keys only with `radix` and the paper's `split-radix`
 * (u32), `radix` on i32 and f32 keys; u32 keys with u32 values (their original indices) with both
 * algorithms; and the segmented sort of u32 keys over random segments of mean
 * {@link SORT_SEGMENT_MEAN}. All ascending: the workloads and checks take `descending` too, but each
 * more radix specialization costs seconds of pipeline compilation per case on SwiftShader.
 *
 * @example
 * ```ts
 * sortShapes()[0]; // { primitive: 'sort', algorithm: 'radix', type: 'u32' }
 * sortShapes().length; // 7
 * ```
 */
export function sortShapes(): CaseShape[] {
  const keys = (algorithm: SortAlgorithmName, type: CaseShape['type']): CaseShape => ({ primitive: 'sort', algorithm, type });
  const pairs = (algorithm: SortAlgorithmName): CaseShape => ({ primitive: 'sort-pairs', algorithm, type: 'u32', valueType: 'u32' });
  return [
    keys('radix', 'u32'),
    keys('split-radix', 'u32'),
    keys('radix', 'i32'),
    keys('radix', 'f32'),
    pairs('radix'),
    pairs('split-radix'),
    { primitive: 'segmented-sort', type: 'u32', segmentMean: SORT_SEGMENT_MEAN },
  ];
}

/**
 * The algorithm of a sort case (`'radix'` unless the case names `'split-radix'`).
 *
 * @example
 * ```ts
 * createSortPlan(ctx, { algorithm: sortAlgorithmOf(c) });
 * ```
 */
export function sortAlgorithmOf(c: Pick<CaseShape, 'algorithm'>): SortAlgorithmName {
  if (c.algorithm === undefined || c.algorithm === 'radix') return 'radix';
  if (c.algorithm === 'split-radix') return 'split-radix';
  throw new Error(`sort: algorithm ${c.algorithm} is not one of radix, split-radix`);
}

/**
 * `@scan/sort` in the case registry.
 *
 * @example
 * ```ts
 * SORT_CASES.primitives; // ['sort', 'sort-pairs', 'segmented-sort']
 * ```
 */
export const SORT_CASES: CaseModule = { package: '@scan/sort', primitives: SORT_PRIMITIVES, shapes: sortShapes };
