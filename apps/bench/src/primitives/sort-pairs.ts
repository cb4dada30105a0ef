import type { ElementType } from '@scan/core';
import { benchModule } from '../bench-module.js';
import type { Case, CaseShape } from '../case-types.js';
import { type SortAlgorithmName, type SortFields, sortWorkload } from './shared/sort-data.js';

/** A key–value sort case: the algorithm, the direction, and the type of the values that move with the keys. */
export type SortPairsCase = Case<
  'sort-pairs',
  SortFields & {
    algorithm: SortAlgorithmName;
    valueType: ElementType;
    /** Bytes of one value, 8, 12 or 16 (`radix`; records whose words are the original index); absent: 4. */
    valueWidth?: 8 | 12 | 16;
  }
>;

/**
 * `sort-pairs` in the registry: u32 keys with u32 values (their original indices, restored with
 * the keys before every run, untimed) with `radix` and `split-radix`, and with `radix` values of
 * `valueWidth` 8, 12 and 16 bytes (records whose every word is the original index; bytes moved
 * 4n + 4 · 2 · n · (4 + w)). Checked exactly on the GPU:
 * order, `key[i] == original[value[i]]`, and stability (equal keys keep increasing values).
 *
 * @example
 * ```ts
 * SORT_PAIRS.shapes(selection)[0]; // { primitive: 'sort-pairs', algorithm: 'radix', type: 'u32', valueType: 'u32' }
 * ```
 */
export const SORT_PAIRS = benchModule<SortPairsCase>({
  package: '@scan/sort',
  primitives: ['sort-pairs'],
  shapes: (selection) => {
    const tuning = selection.tuning ? { tuning: selection.tuning } : {};
    const narrow = (['radix', 'split-radix'] as const).map(
      (algorithm): CaseShape<SortPairsCase> => ({ primitive: 'sort-pairs', algorithm, type: 'u32', valueType: 'u32', ...tuning }),
    );
    const wide = ([8, 12, 16] as const).map(
      (valueWidth): CaseShape<SortPairsCase> => ({
        primitive: 'sort-pairs',
        algorithm: 'radix',
        type: 'u32',
        valueType: 'u32',
        valueWidth,
        ...tuning,
      }),
    );
    return [...narrow, ...wide];
  },
  workload: (ctx, c) => sortWorkload(ctx, c, { pairs: true, valueType: c.valueType }),
});
