import type { Operator, ScanTypedArray } from '@scan/core';
import { builtinOperator } from '@scan/core';
import { builtinNameOf, checkData, checkHostArray, checkOp, invalidArgument, userOperatorOf } from '@scan/core/kit';
import type { KeyType } from './plans/by-key-plan.js';

// The argument checks the run-based functions share, on the GPU and on the CPU (one set of rules,
// so both give the same ScanError for the same bad input).

/**
 * The keys' type: a `Uint32Array`, `Int32Array` or `Float32Array` (else `ScanError` naming `argument`).
 *
 * @example
 * ```ts
 * checkKeys(new Float32Array(4)); // 'f32'
 * ```
 */
export function checkKeys(keys: unknown, argument = 'keys'): KeyType {
  return checkData(keys, argument);
}

/**
 * The values' operator and record count for the by-key functions: a user-defined `Operator` over
 * host records of its type, or a built-in name (default `'add'`) or built-in `Operator` on the
 * values' element type. The record count must equal the keys' (`ScanError` naming `values`).
 *
 * @example
 * ```ts
 * valuesOperator(new Float32Array(3), 3, 'max'); // builtinOperator('max', 'f32')
 * ```
 */
export function valuesOperator(values: unknown, keys: number, op: unknown): Operator<unknown> {
  const user = userOperatorOf(op, undefined);
  let operator: Operator<unknown>;
  let records: number;
  if (user) {
    records = checkHostArray(user, values, 'values');
    operator = user;
  } else {
    const type = checkData(values, 'values');
    userOperatorOf(op, type);
    operator = builtinOperator(checkOp(builtinNameOf(op), type, 'options.op'), type) as Operator<unknown>;
    records = (values as ScanTypedArray).length;
  }
  if (records !== keys) invalidArgument('values', values, `holds ${records} records, expected one per key (${keys})`);
  return operator;
}

/**
 * One value per key for `uniqueByKey`: a 32-bit typed array of the keys' length.
 *
 * @example
 * ```ts
 * checkValuesOfKeys(new Uint32Array(3), 3);
 * ```
 */
export function checkValuesOfKeys(values: unknown, keys: number): void {
  checkData(values, 'values');
  if ((values as ScanTypedArray).length !== keys) {
    invalidArgument('values', values, `has length ${(values as ScanTypedArray).length}, expected one value per key (${keys})`);
  }
}

/**
 * Head flags of the runs of equal consecutive keys (JS `===`, as WGSL `==`: NaN keys each start a
 * run, -0 and +0 share one): 1 where a key differs from the one before, and at 0.
 *
 * @example
 * ```ts
 * runHeads(new Uint32Array([7, 7, 3])); // Uint8Array [1, 0, 1]
 * ```
 */
export function runHeads(keys: ScanTypedArray): Uint8Array {
  const heads = new Uint8Array(keys.length);
  for (let i = 0; i < keys.length; i++) heads[i] = i === 0 || keys[i] !== keys[i - 1] ? 1 : 0;
  return heads;
}
