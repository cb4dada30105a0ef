/**
 * `@scan/tridiag`: batched tridiagonal solvers on WebGPU — cyclic reduction (Sengupta, Harris,
 * Zhang, Owens 2007, §4.3), parallel cyclic reduction and the CR+PCR hybrid (Zhang, Cohen, Owens
 * 2010) — at the array level (`solveTridiagonal`) and the buffer level (`createTridiagonalPlan`),
 * with the Thomas algorithm as CPU reference (`@scan/tridiag/cpu`) and a residual helper.
 * No pivoting is done: the systems should be diagonally dominant.
 *
 * @packageDocumentation
 */

export { tridiagonalResidual } from './cpu/thomas.js';
export { solveTridiagonal } from './ops/solve.js';
export {
  createTridiagonalPlan,
  DEFAULT_SWITCH_SIZE,
  DEFAULT_WORKGROUP_SIZE,
  resolveAlgorithm,
  WORKGROUP_MEMORY_TARGET,
  workgroupCapacity,
} from './plans/tridiagonal-plan.js';
export {
  TRIDIAGONAL_ALGORITHMS,
  TRIDIAGONAL_LAYOUTS,
  type TridiagonalAlgorithm,
  type TridiagonalEncodeArgs,
  type TridiagonalLayout,
  type TridiagonalPlan,
  type TridiagonalPlanOptions,
  type TridiagonalResidual,
  type TridiagonalSolveOptions,
  type TridiagonalSystems,
} from './types.js';
