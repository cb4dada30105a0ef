/**
 * `@scan/gpu-testing`: what the scan family's GPU tests share — a WebGPU device in headless
 * Chromium, seeded data generators, oracle comparisons, output poisoning and edge sizes.
 * Node device acquisition is in `@scan/gpu-testing/node`, apart, so browser tests never load it.
 *
 * @example
 * ```ts
 * import { edgeSizes, expectEqualArrays, getTestContext, randomData } from '@scan/gpu-testing';
 * const ctx = await getTestContext();
 * for (const n of edgeSizes(1024)) {
 *   const data = randomData('u32', n, n);
 *   expectEqualArrays(await scan(ctx, data), cpu.scan(data), `scan n=${n}`);
 * }
 * ```
 * @module
 */
export { bufferOf, type Job, poisoned, runBatch } from './batch.js';
export {
  type CloseOptions,
  expectCloseArrays,
  expectEqualArrays,
  expectScanClose,
  type NumericArray,
  type ScanCloseOptions,
} from './compare.js';
export { type CountedDevice, countDeviceCalls, type DeviceCounts } from './counting.js';
export { freshTestContext, freshTestDevice, getTestContext, type TestContextOptions } from './device.js';
export {
  type EncodeRejection,
  type EncodeRejectionOptions,
  encodeRejectionFaults,
  encodeRejections,
  type PlanRejectionCase,
  planRejectionFaults,
} from './encode-rejections.js';
export { type FrameLoopCounts, type FrameLoopOptions, frameCounts, runFrameLoop } from './frame-loop.js';
export {
  ALGEBRA_FIELD_NAMES,
  type Component,
  combineLanes,
  componentLanes,
  componentWidth,
  type DrawnData,
  type DrawnOperator,
  type DrawOperatorOptions,
  describeDrawn,
  drawData,
  drawOperator,
  drawValueLanes,
  encodeRecords,
  type IntLane,
  identityLanes,
  lanesOf,
  operatorOf,
  operatorSeeds,
  PORTABLE_SCAN_VARIANTS,
  PROPERTY_SIZES,
  PROPERTY_TILE_EDGES,
  propertyProblem,
  recordMismatch,
  recordOf,
  SCAN_VARIANTS,
  wgslLanes,
} from './operator-algebra.js';
export { add4, affine16, affineRecord, argmaxRecord, hashRecord, matrix2x2, operatorData, userAddF32 } from './operators.js';
export { isPoison, POISON_U32, poisonBuffer } from './poison.js';
export {
  createRng,
  DATA_KINDS,
  type DataKind,
  dataKindsFor,
  type Rng,
  randomData,
  randomFlags,
  randomSegmentFlags,
  type TestElementType,
  type TestTypedArrayOf,
} from './random.js';
export { type EdgeSizeOptions, edgeSizes, largeSizesRequested } from './sizes.js';
