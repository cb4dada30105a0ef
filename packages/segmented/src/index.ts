/**
 * `@scan/segmented`: segmented scan — the main contribution of Sengupta et al. 2007 — as a
 * first-class WebGPU primitive, with segmented reduce, distribute, enumerate and split-and-segment,
 * conversions between head flags, offsets and bit-packed flags, buffer-level plans, and CPU
 * references (`@scan/segmented/cpu`). The argument checks the other packages share
 * (`checkHeadFlags`, `checkOffsets`, `checkSegments`) are in `@scan/segmented/kit`, for package
 * authors.
 *
 * @packageDocumentation
 */

export type { FlagType } from '@scan/core';
export type {
  ReduceByKeyOptions,
  ReduceByKeyResult,
  RunLengthEncodeResult,
  ScanByKeyOptions,
  SegmentedDirectionOptions,
  SplitAndSegmentResult,
  UniqueByKeyResult,
} from './cpu/index.js';
export { reduceByKey, runLengthEncode, scanByKey, unique, uniqueByKey } from './ops/by-key.js';
export {
  headFlagsToOffsets,
  offsetsToHeadFlags,
  packHeadFlags,
} from './ops/flags.js';
export { segmentedDistribute, segmentedEnumerate, splitAndSegment } from './ops/segmented-primitives.js';
export { segmentedReduce } from './ops/segmented-reduce.js';
export { segmentedScan } from './ops/segmented-scan.js';
export {
  createReduceByKeyPlan,
  createRunLengthEncodePlan,
  createScanByKeyPlan,
  createUniqueByKeyPlan,
  createUniquePlan,
  type KeyType,
  type ReduceByKeyEncodeArgs,
  type ReduceByKeyPlanOptions,
  type RunLengthEncodeEncodeArgs,
  type RunsPlanOptions,
  type ScanByKeyEncodeArgs,
  type ScanByKeyPlanOptions,
  type UniqueByKeyEncodeArgs,
  type UniqueEncodeArgs,
} from './plans/by-key-plan.js';
export {
  createHeadFlagsToOffsetsPlan,
  createOffsetsToHeadFlagsPlan,
  createPackHeadFlagsPlan,
  type HeadFlagsToOffsetsEncodeArgs,
  type HeadFlagsToOffsetsPlanOptions,
  type OffsetsToHeadFlagsEncodeArgs,
  type OffsetsToHeadFlagsPlanOptions,
  type PackHeadFlagsEncodeArgs,
  type PackHeadFlagsPlanOptions,
} from './plans/flag-plans.js';
export {
  createSegmentedDistributePlan,
  createSegmentedEnumeratePlan,
  createSplitAndSegmentPlan,
  type SegmentedDistributeEncodeArgs,
  type SegmentedDistributePlanOptions,
  type SegmentedEnumerateEncodeArgs,
  type SegmentedEnumeratePlanOptions,
  type SplitAndSegmentEncodeArgs,
  type SplitAndSegmentPlanOptions,
} from './plans/segmented-primitives.js';
export {
  createSegmentedReducePlan,
  type SegmentedReduceEncodeArgs,
  type SegmentedReducePlanOptions,
} from './plans/segmented-reduce-plan.js';
export {
  createSegmentedScanPlan,
  type SegmentedScanEncodeArgs,
  type SegmentedScanPlan,
  type SegmentedScanPlanOptions,
} from './plans/segmented-scan-plan.js';
export {
  FLAG_BITS_PER_WORD,
  type HeadFlags,
  packedFlagWords,
  SEGMENTED_SCAN_ALGORITHMS,
  type SegmentedScanAlgorithm,
  type SegmentedScanOptions,
  type SegmentOffsets,
} from './types.js';
