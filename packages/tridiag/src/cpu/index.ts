/**
 * `@scan/tridiag/cpu`: synchronous CPU references of `@scan/tridiag` — `solveTridiagonal` (the
 * Thomas algorithm, same arguments, validation and errors as the GPU function, minus `ctx`) and
 * `tridiagonalResidual`. Tests use them as oracles; users may use them as fallbacks.
 *
 * @example
 * ```ts
 * import { solveTridiagonal, tridiagonalResidual } from '@scan/tridiag/cpu';
 * const systems = {
 *   a: new Float32Array([0, 1, 1]), b: new Float32Array([2, 2, 2]),
 *   c: new Float32Array([1, 1, 0]), d: new Float32Array([3, 4, 3]), n: 3, batch: 1,
 * };
 * const x = solveTridiagonal(systems); // Float32Array [1, 1, 1]
 * tridiagonalResidual(systems, x).max; // 0
 * ```
 * @module
 */

export { ScanError } from '@scan/core';
export type {
  TridiagonalAlgorithm,
  TridiagonalLayout,
  TridiagonalResidual,
  TridiagonalSolveOptions,
  TridiagonalSystems,
} from '../types.js';
export { solveTridiagonal, tridiagonalResidual } from './thomas.js';
