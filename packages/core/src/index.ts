/**
 * `@scan/core`: the WebGPU context, buffers, errors and timing the scan family is built on, and the scan primitives of Sengupta et al. 2007 — scan, reduce, enumerate, distribute,
 * split and pack — at the array level (typed arrays in, typed arrays out) and the buffer level
 * (plans that record into your command encoder), with the buffer helpers and GPU timer that go with
 * them.
 *
 * This entry holds what an application uses. The building blocks that the other `@scan/*` packages
 * share (pipeline cache, recipes, slot views, group scans, look-back WGSL, argument checks) are the
 * separate entry `@scan/core/kit`, for package authors.
 *
 * @packageDocumentation
 */
export { BufferUsage, createStorageBuffer, encodeReadback, STORAGE_USAGE, uploadArray } from './buffers.js';
export type { ScanCaps, SubgroupMatrixConfig } from './caps.js';
export { SUBGROUP_MATRIX_FEATURE } from './caps.js';
export { type ContextOptions, createContext, type ScanContext } from './context.js';
export { SCAN_FEATURES, SCAN_LIMITS, scanDeviceDescriptor } from './device-descriptor.js';
export { ELEMENT_TYPES, type ElementType, SCAN_OPS, type ScanOp, type ScanTypedArray } from './element-types.js';
export { ScanError, type ScanErrorCode } from './errors.js';
export { type HistogramEdges, type HistogramOptions, MAX_HISTOGRAM_BINS } from './histogram-binning.js';
export { builtinOperator } from './operators/builtin-operators.js';
export { defineOperator } from './operators/define-operator.js';
export type { Float16ArrayLike, HostArray } from './operators/host-records.js';
export type {
  FieldType,
  LaneType,
  Operator,
  OperatorDefinition,
  OperatorLayout,
  OperatorShape,
  OperatorType,
  OperatorTypeFor,
  OperatorValue,
  OperatorWgsl,
  RecordType,
  ScalarType,
  VectorType,
} from './operators/operator-type.js';
export { argMax, argMin } from './ops/arg-extremum.js';
export { histogram } from './ops/histogram.js';
export { distribute, enumerate, pack, packIf, reduce, split } from './ops/primitives.js';
export { type ScanOptions, scan } from './ops/scan.js';
export { lowerBound, upperBound } from './ops/search.js';
export {
  type ArgExtremumEncodeArgs,
  type ArgExtremumPlan,
  type ArgExtremumPlanOptions,
  createArgMaxPlan,
  createArgMinPlan,
} from './plans/arg-extremum-plan.js';
export { createDispatchArgsPlan, type DispatchArgsEncodeArgs, type DispatchArgsPlanOptions } from './plans/dispatch-args-plan.js';
export {
  createHistogramPlan,
  type HistogramEncodeArgs,
  type HistogramPlan,
  type HistogramPlanOptions,
  type HistogramTuning,
} from './plans/histogram-plan.js';
export { createReducePlan, type ReduceEncodeArgs, type ReducePlan, type ReducePlanOptions } from './plans/reduce-plan.js';
export { createScanPlan, type ScanPlan } from './plans/scan-plan.js';
export {
  COMPACT_ALGORITHMS,
  type CompactAlgorithm,
  createPackIfPlan,
  createPackPlan,
  createSplitPlan,
  type FlagType,
  type PackEncodeArgs,
  type PackIfEncodeArgs,
  type PackIfPlanOptions,
  type ScatterPlanOptions,
  type ScatterTuning,
  type SplitEncodeArgs,
} from './plans/scatter-plans.js';
export { createSearchPlan, type SearchEncodeArgs, type SearchPlan, type SearchPlanOptions } from './plans/search-plan.js';
export {
  createDistributePlan,
  createEnumeratePlan,
  type DistributeEncodeArgs,
  type DistributePlanOptions,
  type EnumerateEncodeArgs,
  type EnumeratePlanOptions,
} from './plans/simple-plans.js';
export {
  type CountSource,
  type Plan,
  SCAN_ALGORITHMS,
  type ScanAlgorithm,
  type ScanEncodeArgs,
  type ScanPlanOptions,
  type ScanTuning,
} from './plans/types.js';
export { COMPARE_OPS, type CompareOp } from './predicate.js';
export { subgroupsChecked } from './subgroups-checked.js';
export { createGpuTimer, type GpuTimer } from './timing.js';
