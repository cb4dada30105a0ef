import { identityOf, type ScanTypedArray, typedArrayFor } from '../element-types.js';
import { scanWith } from '../operators/cpu-operator.js';
import type { HostArray } from '../operators/host-records.js';
import { builtinNameOf, userOperatorOf } from '../operators/user-operator.js';
import { checkData, checkOptions, normalizeScanOptions, type ScanOptions } from '../validate.js';
import { combine } from './ops.js';

/**
 * CPU reference of `scan`: the prefix combination of `data` under `op`, one element at a time, in
 * the element type's own arithmetic (see {@link combine}).
 *
 * - exclusive forward: `out[0] = identity`, `out[i] = op(out[i-1], data[i-1])`
 * - inclusive forward: `out[i] = op(out[i-1], data[i])`
 * - backward: the same from the end, e.g. exclusive `out[n-1] = identity`, `out[i] = op(data[i+1], out[i+1])`
 *
 * `options.algorithm` is accepted (so one options object serves GPU and CPU) and ignored.
 *
 * @example
 * ```ts
 * scan(new Uint32Array([3, 1, 7, 0, 4])); // Uint32Array [0, 3, 4, 11, 11]
 * scan(new Int32Array([3, 1, 7]), { op: 'max', inclusive: true }); // Int32Array [3, 3, 7]
 * scan(new Uint32Array([1, 2, 3]), { backward: true }); // Uint32Array [5, 3, 0]
 * const max = defineOperator({ type: 'i32', identity: -(2 ** 31), wgsl: 'return max(a, b);', cpu: Math.max });
 * scan(new Int32Array([3, 1, 7]), { op: max, inclusive: true }); // Int32Array [3, 3, 7]
 * ```
 */
export function scan<T extends ScanTypedArray | HostArray>(data: T, options?: ScanOptions): T {
  const given = checkOptions(options, ['op', 'inclusive', 'backward', 'algorithm']);
  const user = userOperatorOf(given['op'], undefined);
  if (user) {
    // A user-defined operator: its records, combined in array order (operators/cpu-operator.ts).
    const { inclusive, backward } = normalizeScanOptions({ ...given, op: undefined }, 'u32');
    return scanWith(user, data as HostArray, { inclusive, backward }) as T;
  }
  const type = checkData(data);
  userOperatorOf(given['op'], type);
  const { op, inclusive, backward } = normalizeScanOptions({ ...given, op: builtinNameOf(given['op']) }, type);
  const f = combine(op, type);
  const n = data.length;
  const out = typedArrayFor(type, n) as ScanTypedArray;
  let acc = identityOf(op, type);
  if (!backward) {
    for (let i = 0; i < n; i++) {
      if (inclusive) acc = f(acc, (data as ScanTypedArray)[i]!);
      out[i] = acc;
      if (!inclusive) acc = f(acc, (data as ScanTypedArray)[i]!);
    }
  } else {
    for (let i = n - 1; i >= 0; i--) {
      if (inclusive) acc = f((data as ScanTypedArray)[i]!, acc);
      out[i] = acc;
      if (!inclusive) acc = f((data as ScanTypedArray)[i]!, acc);
    }
  }
  return out as T;
}
