import { checkOp, identityOf, type ScanTypedArray } from '../element-types.js';
import { checkData, checkOptions, type ReduceOptions } from '../validate.js';
import { combine } from './ops.js';

/**
 * CPU reference of `reduce`: `op` over every element from first to last, in the element type's
 * arithmetic; the identity of `op` for an empty array.
 *
 * @example
 * ```ts
 * reduce(new Uint32Array([3, 1, 7])); // 11
 * reduce(new Float32Array([]), { op: 'min' }); // Infinity
 * reduce(new Int32Array([0x7fffffff, 1])); // -2147483648 (wraps like WGSL)
 * ```
 */
export function reduce(data: ScanTypedArray, options?: ReduceOptions): number {
  const type = checkData(data);
  const o = checkOptions(options, ['op']);
  const op = checkOp(o['op'], type, 'options.op');
  const f = combine(op, type);
  let acc = identityOf(op, type);
  for (let i = 0; i < data.length; i++) acc = f(acc, data[i]!);
  return acc;
}
