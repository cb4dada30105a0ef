/**
 * `@scan/core/cpu`: synchronous CPU references of the `@scan/core` array-level functions, with the
 * same names, options, validation and results (bit for bit where the GPU result is defined by its
 * order of operations), minus the `ctx`. Tests use them as oracles; users may use them as fallbacks.
 *
 * @example
 * ```ts
 * import { scan, enumerate } from '@scan/core/cpu';
 * scan(new Uint32Array([1, 2, 3])); // Uint32Array [0, 1, 3]
 * enumerate(new Uint8Array([1, 0, 0, 1])); // Uint32Array [0, 1, 1, 1]
 * ```
 * @module
 */

export type { ElementType, ScanOp, ScanTypedArray } from '../element-types.js';
export { ScanError } from '../errors.js';
export type { HistogramEdges, HistogramOptions } from '../histogram-binning.js';
export { builtinOperator } from '../operators/builtin-operators.js';
export { defineOperator } from '../operators/define-operator.js';
export type { HostArray } from '../operators/host-records.js';
export type { Operator, OperatorDefinition } from '../operators/operator-type.js';
export type { CompareOp } from '../predicate.js';
export type { DirectionOptions, ReduceOptions, ScanOptions } from '../validate.js';
// The toolbox: arg-min/max and sorted search (issue 49).
export { argMax, argMin } from './arg-extremum.js';
export { distribute } from './distribute.js';
export { enumerate } from './enumerate.js';
export { histogram } from './histogram.js';
export { type CombineFn, combine } from './ops.js';
export { pack, packIf } from './pack.js';
export { reduce } from './reduce.js';
export { scan } from './scan.js';
export { lowerBound, upperBound } from './search.js';
export { type SplitResult, split } from './split.js';
export { newLike, wordsOf } from './words.js';
