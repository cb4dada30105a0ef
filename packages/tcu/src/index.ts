/**
 * `@scan/tcu`: reduction and scan as matrix products — the algorithms of Dakkak et al. 2019,
 * "Accelerating reduction and scan using tensor core units" (Reduction16, Reduction256N, Scan16,
 * Scan256N, block and grid levels) — over WebGPU subgroup matrices (tensor cores), with the same
 * formulation emulated in workgroup memory on devices without them. f16 data, f32 accumulation;
 * exact counting of 0/1 flags through u8 matrices. CPU references in `@scan/tcu/cpu`.
 *
 * @packageDocumentation
 */
export type { TcuCountOptions, TcuReduceOptions, TcuScanOptions } from './cpu/tcu.js';
export type { Family, MatrixPath, MatrixShape } from './kernels/matrix.js';
export {
  type InputKind,
  type SegmentClass,
  TCU_PARAMS,
  type TcuKernelSpec,
  tcuPropagateKernel,
  tcuReduceKernel,
  tcuScanKernel,
} from './kernels/tcu-kernels.js';
export { packBytes, packHalves, tcuCount, tcuReduce, tcuScan } from './ops/tcu-ops.js';
export {
  selectLevel,
  TCU_SELECTION_TABLE,
  type TcuDirectEntry,
  type TcuLevel,
  type TcuSelection,
  type TcuSelectionEntry,
} from './plans/select.js';
export {
  createTcuCountPlan,
  createTcuReducePlan,
  createTcuScanPlan,
  type TcuEncodeArgs,
  type TcuPlan,
  type TcuPlanOptions,
  type TcuScanPlanOptions,
} from './plans/tcu-plans.js';
export {
  type MatrixSyntax,
  pickConfig,
  prepareTcu,
  probeWgsl,
  resolvePath,
  type TcuFamilySupport,
  type TcuPathOption,
  type TcuSupport,
  tcuSupportOf,
} from './support.js';
