/**
 * `@scan/segmented/cpu`: synchronous CPU references of the `@scan/segmented` array-level functions,
 * with the same names, options, validation and results, minus the `ctx`; and the conversions
 * between segment representations (head flags, offsets, bit-packed flags). Tests use them as
 * oracles; users may use them as fallbacks.
 *
 * @example
 * ```ts
 * import { segmentedScan, headFlagsToOffsets } from '@scan/segmented/cpu';
 * const heads = new Uint8Array([1, 0, 0, 1, 0]);
 * segmentedScan(new Uint32Array([1, 2, 3, 4, 5]), heads); // Uint32Array [0, 1, 3, 0, 4]
 * headFlagsToOffsets(heads); // Uint32Array [0, 3, 5]
 * ```
 * @module
 */

export type { ElementType, ScanOp, ScanTypedArray } from '@scan/core';
export { ScanError } from '@scan/core';
export type { HeadFlags, SegmentedScanOptions, SegmentOffsets } from '../types.js';
export {
  type ReduceByKeyOptions,
  type ReduceByKeyResult,
  type RunLengthEncodeResult,
  reduceByKey,
  runLengthEncode,
  type ScanByKeyOptions,
  scanByKey,
  type UniqueByKeyResult,
  unique,
  uniqueByKey,
} from './by-key.js';
export { headFlagsToOffsets } from './head-flags-to-offsets.js';
export { offsetsToHeadFlags } from './offsets-to-head-flags.js';
export { packHeadFlags, unpackHeadFlags } from './pack-head-flags.js';
export { type SegmentedDirectionOptions, segmentedDistribute } from './segmented-distribute.js';
export { segmentedEnumerate } from './segmented-enumerate.js';
export { type SegmentedReduceOptions, segmentedReduce } from './segmented-reduce.js';
export { segmentedScan } from './segmented-scan.js';
export { type SplitAndSegmentResult, splitAndSegment } from './split-and-segment.js';
