/**
 * `@scan/tcu`: reduction and scan as matrix products — the algorithms of Dakkak et al. 2019,
 * "Accelerating reduction and scan using tensor core units" (Reduction16, Reduction256N, Scan16,
 * Scan256N, block and grid levels) — over WebGPU subgroup matrices (tensor cores), with the same
 * formulation emulated in workgroup memory on devices without them. f16 data, f32 accumulation;
 * exact counting of 0/1 flags through u8 matrices. CPU references in `@scan/tcu/cpu`.
 *
 * This entry holds what an application uses: the array-level functions, the plans and their
 * options, and the support check (`prepareTcu`). The kernel families and the selection table are in
 * `@scan/tcu/kit`, for package authors and tuning sweeps.
 *
 * @packageDocumentation
 */
export type { TcuCountOptions, TcuReduceOptions, TcuScanOptions } from './cpu/tcu.js';
export type { Family, MatrixPath, MatrixShape } from './kernels/matrix.js';
export { packBytes, packHalves, tcuCount, tcuReduce, tcuScan } from './ops/tcu-ops.js';
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
  prepareTcu,
  type TcuFamilySupport,
  type TcuPathOption,
  type TcuSupport,
  tcuSupportOf,
} from './support.js';
