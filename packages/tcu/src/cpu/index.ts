/**
 * `@scan/tcu/cpu`: CPU references of the tensor-core reduction and scan — the same f16 rounding as
 * the upload (round to nearest even, out-of-range values reported), f32 accumulation like the GPU,
 * and f64 versions to measure the error against.
 *
 * @example
 * ```ts
 * import { tcuReduce, tcuReduceF64 } from '@scan/tcu/cpu';
 * const data = new Float32Array([0.1, 0.2, 0.3]);
 * tcuReduce(data)[0]! - tcuReduceF64(data)[0]!; // the f32 accumulation error
 * ```
 * @module
 */
export { F16_MAX, type F16Options, f16ToFloat32, fromF16Bits, toF16Array, toF16Bits } from './f16.js';
export {
  sumErrorBound,
  type TcuCountOptions,
  type TcuReduceOptions,
  type TcuScanOptions,
  tcuCount,
  tcuReduce,
  tcuReduceF64,
  tcuScan,
  tcuScanF64,
} from './tcu.js';
