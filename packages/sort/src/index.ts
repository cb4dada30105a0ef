/**
 * `@scan/sort`: sorting on WebGPU — a one-sweep radix sort (Adinets & Merrill 2022; keys, key–value
 * pairs, argsort, bit ranges, a count read on the GPU), the split radix sort and segmented quicksort
 * of Sengupta et al. 2007 beside it, and segmented sort, at the array level (typed arrays in and out)
 * and the buffer level (plans that record into your encoder), with CPU references in
 * `@scan/sort/cpu`. Keys are u32, i32 or f32 (floats in a total order, NaNs last), and u64 or i64
 * for `sort`, `argsort` and `createSortPlan`; every sort is stable.
 *
 * @packageDocumentation
 */

export { segmentedSort } from './ops/segmented-sort.js';
export { argsort, sort } from './ops/sort.js';
export { topK } from './ops/top-k.js';
export { createSegmentedSortPlan } from './plans/segmented-sort-plan.js';
export { createSortPlan } from './plans/sort-plan.js';
export type {
  SegmentedSortEncodeArgs,
  SegmentedSortPlanOptions,
  SortEncodeArgs,
  SortPlanOptions,
  SortTuning,
} from './plans/sort-plan-types.js';
export { createTopKPlan } from './plans/top-k-plan.js';
export type { TopKEncodeArgs, TopKOptions, TopKPlanOptions, TopKResult } from './top-k-types.js';
export {
  type ArgsortOptions,
  type BitRange,
  type HalfKeyType,
  type SegmentedSortOptions,
  SORT_ALGORITHMS,
  type SortAlgorithm,
  type SortArray,
  type SortKeyArray,
  type SortKeyType,
  type SortOptions,
  type SortResult,
  type SortValueArray,
  type SortValueType,
  type SortValueWidth,
} from './types.js';
