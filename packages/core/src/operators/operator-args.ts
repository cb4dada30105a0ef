import { invalidArgument } from '../errors.js';
import { checkBoolean, checkOptions } from '../validate.js';
import { isOperator } from './define-operator.js';

// Argument checks of the functions that take an operator, shared by the CPU references and (later)
// the GPU functions, so both reject the same inputs with the same messages.

/** Options of a scan with an operator. */
export interface OperatorScanOptions {
  /** `out[i]` includes `x[i]` (default false: exclusive, the identity first). */
  readonly inclusive?: boolean;
  /** From the last record towards the first (default false). */
  readonly backward?: boolean;
}

/** Head flags: one 0/1 per record; a 1 starts a segment (record 0 always starts one). */
export type HeadFlags = Uint8Array | Uint32Array;

/**
 * Checks that `op` is an operator made by `defineOperator` or `builtinOperator`.
 *
 * @example
 * ```ts
 * checkOperator(builtinOperator('max', 'i32')); // ok
 * checkOperator('max'); // throws: op = "max": expected an operator made by defineOperator (or a built-in one)
 * ```
 */
export function checkOperator(op: unknown, argument = 'op'): void {
  if (!isOperator(op)) invalidArgument(argument, op, 'expected an operator made by defineOperator (or a built-in one)');
}

/**
 * Scan options: `undefined` means `{}`; an unknown key or a non-boolean value is rejected.
 *
 * @example
 * ```ts
 * checkOperatorScanOptions({ backward: true }); // { inclusive: false, backward: true }
 * ```
 */
export function checkOperatorScanOptions(options: unknown, argument = 'options'): { inclusive: boolean; backward: boolean } {
  const record = checkOptions(options, ['inclusive', 'backward'], argument);
  return {
    inclusive: checkBoolean(record['inclusive'], `${argument}.inclusive`, false),
    backward: checkBoolean(record['backward'], `${argument}.backward`, false),
  };
}

/**
 * Checks head flags against the record count: a Uint8Array or Uint32Array of `records` 0/1 values.
 *
 * @example
 * ```ts
 * checkHeads(new Uint8Array([1, 0, 1]), 3); // ok
 * checkHeads(new Uint8Array([1, 2]), 2); // throws: heads[1] = 2: expected 0 or 1
 * ```
 */
export function checkHeads(heads: unknown, records: number, argument = 'heads'): asserts heads is HeadFlags {
  if (!(heads instanceof Uint8Array) && !(heads instanceof Uint32Array)) {
    invalidArgument(argument, heads, 'expected a Uint8Array or Uint32Array of 0/1 head flags, one per record');
  }
  if (heads.length !== records) {
    invalidArgument(argument, heads, `length ${heads.length} does not match the ${records} records of the data (one flag per record)`);
  }
  for (let i = 0; i < heads.length; i++) {
    if (heads[i]! > 1) invalidArgument(`${argument}[${i}]`, heads[i], 'expected 0 or 1');
  }
}
