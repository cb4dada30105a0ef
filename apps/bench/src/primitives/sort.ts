import { benchModule } from '../bench-module.js';
import type { Case, CaseShape } from '../case-types.js';
import { type SortAlgorithmName, type SortFields, sortWorkload } from './shared/sort-data.js';

/** A keys-only sort case: the algorithm (`radix` or the paper's `split-radix`) and the direction. */
export type SortCase = Case<'sort', SortFields & { algorithm: SortAlgorithmName }>;

/**
 * `sort` in the registry: keys only, u32 with `radix` and the paper's `split-radix` (side by side
 * as in the paper's table), i32 and f32 with `radix`, and with `radix` 64-bit (`u64`) and 16-bit
 * (`u16`, `f16`: half floats by their bits) keys, checked by the bench's own kernels
 * (`prepareWideSortData`), all ascending (the workload and checks take
 * `descending` too, but each more radix specialization costs seconds of pipeline compilation per
 * case on SwiftShader). In place: the unsorted keys are restored before every run, untimed; checked
 * on the GPU by order and by the multiset checksum of the keys.
 *
 * @example
 * ```ts
 * SORT.shapes(selection)[0]; // { primitive: 'sort', algorithm: 'radix', type: 'u32' }
 * ```
 */
export const SORT = benchModule<SortCase>({
  package: '@scan/sort',
  primitives: ['sort'],
  shapes: (selection) => {
    const tuning = selection.tuning ? { tuning: selection.tuning } : {};
    const keys = (algorithm: SortAlgorithmName, type: SortCase['type']): CaseShape<SortCase> => ({
      primitive: 'sort',
      algorithm,
      type,
      ...tuning,
    });
    // 64- and 16-bit keys (radix only): the case type's `type` is an element type, and the sorts
    // alone also carry these key type names, which only their workload reads (sort-wide-data.ts).
    const wide = (['u64', 'u16', 'f16'] as const).map((type) => keys('radix', type as SortCase['type']));
    return [keys('radix', 'u32'), keys('split-radix', 'u32'), keys('radix', 'i32'), keys('radix', 'f32'), ...wide];
  },
  workload: (ctx, c) => sortWorkload(ctx, c, { pairs: false }),
});
