/**
 * `@scan/sort/cpu`: synchronous CPU references of the `@scan/sort` array-level functions — `sort`,
 * `argsort`, `segmentedSort` — with the same names, options, validation and results, minus the
 * `ctx`. Every algorithm of the GPU side gives the one result these compute (stable, in the
 * documented key order), so tests use them as oracles; users may use them as fallbacks.
 *
 * @example
 * ```ts
 * import { argsort, segmentedSort, sort } from '@scan/sort/cpu';
 * sort(new Float32Array([2, NaN, -1])).keys; // Float32Array [-1, 2, NaN]
 * argsort(new Uint32Array([30, 10, 20])); // Uint32Array [1, 2, 0]
 * segmentedSort(new Uint32Array([2, 1, 4, 3]), new Uint8Array([1, 0, 1, 0])).keys; // Uint32Array [1, 2, 3, 4]
 * ```
 * @module
 */

export { ScanError } from '@scan/core';
export type { HeadFlags, SegmentOffsets } from '@scan/segmented';
export type { TopKOptions, TopKResult } from '../top-k-types.js';
export type {
  ArgsortOptions,
  BitRange,
  HalfKeyType,
  SegmentedSortOptions,
  SortAlgorithm,
  SortArray,
  SortKeyArray,
  SortKeyType,
  SortOptions,
  SortResult,
  SortValueArray,
  SortValueType,
  SortValueWidth,
} from '../types.js';
export { SORT_ALGORITHMS } from '../types.js';
export { argsort } from './argsort.js';
export { segmentedSort } from './segmented-sort.js';
export { sort } from './sort.js';
export { topK } from './top-k.js';
