import { checkOp, identityOf, type ScanTypedArray } from '../element-types.js';
import { reduceWith } from '../operators/cpu-operator.js';
import type { HostArray } from '../operators/host-records.js';
import { builtinNameOf, userOperatorOf } from '../operators/user-operator.js';
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
 * const max = defineOperator({ type: 'f32', identity: -Infinity, wgsl: 'return max(a, b);', cpu: Math.max });
 * reduce(new Float32Array([3, 9, 1]), { op: max }); // 9
 * ```
 */
export function reduce<T = number>(data: ScanTypedArray | HostArray, options?: ReduceOptions): T {
  const o = checkOptions(options, ['op']);
  const user = userOperatorOf(o['op'], undefined);
  // A user-defined operator: its records, combined in array order (operators/cpu-operator.ts).
  if (user) return reduceWith(user, data as HostArray) as T;
  const type = checkData(data);
  userOperatorOf(o['op'], type);
  const op = checkOp(builtinNameOf(o['op']), type, 'options.op');
  const f = combine(op, type);
  let acc = identityOf(op, type);
  for (let i = 0; i < data.length; i++) acc = f(acc, (data as ScanTypedArray)[i]!);
  return acc as T;
}
