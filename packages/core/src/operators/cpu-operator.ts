import { type HostArray, newHostArray, type RecordAccess, recordAccess } from './host-records.js';
import { checkHeads, checkOperator, checkOperatorScanOptions, type HeadFlags, type OperatorScanOptions } from './operator-args.js';
import type { Operator } from './operator-type.js';
import { valueFromLanes, valueLanes, valueRounder } from './operator-values.js';

// CPU references of the scan family with a user-defined operator: one record at a time, in array
// order, following the definitions literally (inclusive scans start from the first record, not
// from the identity; exclusive forward scans start from it). Every combined value is rounded
// through the record's storage types, as the GPU stores it between steps: without that, a double
// accumulator would be more accurate than the GPU and differ from it.

/**
 * CPU reference of a scan with `op`: forward inclusive `out[i] = x0 ⊕ … ⊕ xi`, exclusive
 * `out[i] = id ⊕ x0 ⊕ … ⊕ x(i−1)`; backward inclusive `out[i] = xi ⊕ … ⊕ x(n−1)`, exclusive
 * `out[i] = x(i+1) ⊕ … ⊕ x(n−1)` with `out[n−1] = id`. The result is a new array of `data`'s class
 * and layout.
 *
 * @example
 * ```ts
 * const affine = defineOperator({
 *   type: { a: 'f32', b: 'f32' },
 *   identity: { a: 1, b: 0 },
 *   wgsl: 'var r = a; r.a = a.a * b.a; r.b = b.a * a.b + b.b; return r;',
 *   cpu: (x, y) => ({ a: x.a * y.a, b: y.a * x.b + y.b }),
 * });
 * scanWith(affine, new Float32Array([2, 1, 3, 0]), { inclusive: true }); // Float32Array [2, 1, 6, 3]
 * ```
 */
export function scanWith<T, A extends HostArray>(op: Operator<T>, data: A, options?: OperatorScanOptions): A {
  checkOperator(op);
  const { inclusive, backward } = checkOperatorScanOptions(options);
  const input = recordAccess(op, data);
  const out = newHostArray(op, data, input.count);
  scanSegments(op, input, recordAccess(op, out), undefined, inclusive, backward);
  return out;
}

/**
 * CPU reference of a reduction with `op`: `x0 ⊕ … ⊕ x(n−1)`, the identity when `data` is empty, as
 * a new value of the operator's type (a number, an array, or a plain object).
 *
 * @example
 * ```ts
 * reduceWith(builtinOperator('max', 'i32'), new Int32Array([4, -2, 9])); // 9
 * reduceWith(builtinOperator('max', 'i32'), new Int32Array(0)); // -2147483648, the identity
 * ```
 */
export function reduceWith<T>(op: Operator<T>, data: HostArray): T {
  checkOperator(op);
  const input = recordAccess(op, data);
  const combine = combiner(op);
  let acc: T | undefined;
  for (let i = 0; i < input.count; i++) {
    const x = input.read(i);
    acc = acc === undefined ? x : combine(acc, x);
  }
  return acc === undefined ? identityOf(op) : acc;
}

/**
 * CPU reference of a segmented scan with `op`: `scanWith` within every segment. `heads` has
 * one 0/1 flag per record; a 1 starts a segment, and record 0 always starts one.
 *
 * @example
 * ```ts
 * segmentedScanWith(builtinOperator('add', 'u32'), new Uint32Array([1, 2, 3, 4]), new Uint8Array([1, 0, 1, 0]), { inclusive: true });
 * // Uint32Array [1, 3, 3, 7]
 * ```
 */
export function segmentedScanWith<T, A extends HostArray>(op: Operator<T>, data: A, heads: HeadFlags, options?: OperatorScanOptions): A {
  checkOperator(op);
  const input = recordAccess(op, data);
  checkHeads(heads, input.count);
  const { inclusive, backward } = checkOperatorScanOptions(options);
  const out = newHostArray(op, data, input.count);
  scanSegments(op, input, recordAccess(op, out), heads, inclusive, backward);
  return out;
}

/**
 * CPU reference of a segmented reduction with `op`: one record per segment, `op` over the segment's
 * records from first to last, in a new array of `data`'s class (no records for empty data).
 *
 * @example
 * ```ts
 * segmentedReduceWith(builtinOperator('min', 'i32'), new Int32Array([5, 2, 7, 1]), new Uint8Array([1, 0, 1, 0])); // Int32Array [2, 1]
 * ```
 */
export function segmentedReduceWith<T, A extends HostArray>(op: Operator<T>, data: A, heads: HeadFlags): A {
  checkOperator(op);
  const input = recordAccess(op, data);
  checkHeads(heads, input.count);
  let segments = 0;
  for (let i = 0; i < input.count; i++) if (i === 0 || heads[i] === 1) segments++;
  const out = newHostArray(op, data, segments);
  const output = recordAccess(op, out);
  const combine = combiner(op);
  let k = -1;
  let acc: T | undefined;
  for (let i = 0; i < input.count; i++) {
    if (i === 0 || heads[i] === 1) {
      if (acc !== undefined) output.write(k, acc);
      k++;
      acc = undefined;
    }
    const x = input.read(i);
    acc = acc === undefined ? x : combine(acc, x);
  }
  if (acc !== undefined) output.write(k, acc);
  return out;
}

/** Scans `input` into `output`, restarting at every head (none: one segment). */
function scanSegments<T>(
  op: Operator<T>,
  input: RecordAccess<T>,
  output: RecordAccess<T>,
  heads: HeadFlags | undefined,
  inclusive: boolean,
  backward: boolean,
): void {
  const combine = combiner(op);
  const n = input.count;
  // `undefined`: nothing combined yet in this segment (inclusive forward, and backward scans,
  // whose definitions have no identity in them).
  let acc: T | undefined;
  if (!backward) {
    for (let i = 0; i < n; i++) {
      if (i === 0 || heads?.[i] === 1) acc = inclusive ? undefined : identityOf(op);
      const x = input.read(i);
      if (inclusive) {
        acc = acc === undefined ? x : combine(acc, x);
        output.write(i, acc);
      } else {
        output.write(i, acc!);
        acc = combine(acc!, x);
      }
    }
    return;
  }
  for (let i = n - 1; i >= 0; i--) {
    // Record i ends its segment when the next record starts one.
    if (i === n - 1 || heads?.[i + 1] === 1) acc = undefined;
    const x = input.read(i);
    if (inclusive) {
      acc = acc === undefined ? x : combine(x, acc);
      output.write(i, acc);
    } else {
      output.write(i, acc === undefined ? identityOf(op) : acc);
      acc = acc === undefined ? x : combine(x, acc);
    }
  }
}

/** `op.cpu` with its result rounded through the storage types (a wrong shape is an error naming it). */
function combiner<T>(op: Operator<T>): (a: T, b: T) => T {
  const round = valueRounder<T>(op, 'definition.cpu');
  const cpu = op.cpu;
  return (a, b) => round(cpu(a, b));
}

/** A new copy of the identity: `op.identity` is frozen, and a CPU function may modify its operands. */
function identityOf<T>(op: Operator<T>): T {
  return valueFromLanes(op, valueLanes(op, op.identity)) as T;
}
