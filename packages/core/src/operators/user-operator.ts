import { ScanError } from '../errors.js';
import { isOperator } from './define-operator.js';
import type { Operator } from './operator-type.js';

/**
 * The user-defined operator an `op` option holds, or `undefined` when it holds a built-in: a name,
 * or a built-in `Operator` (`builtinOperator`) on u32, i32 or f32, which takes core's built-in path
 * (the same kernels, with their hardware paths). A built-in `Operator` on another element type
 * than the data's is a `ScanError` naming the argument.
 *
 * @example
 * ```ts
 * userOperatorOf('add', 'u32'); // undefined: the built-in path
 * userOperatorOf(builtinOperator('max', 'f32'), 'f32'); // undefined
 * userOperatorOf(affine, undefined); // affine
 * ```
 */
export function userOperatorOf(op: unknown, type: string | undefined, argument = 'options.op'): Operator<unknown> | undefined {
  if (!isOperator(op)) return undefined;
  if (op.builtin === undefined) return op;
  if (type !== undefined && op.type !== type) {
    throw new ScanError('INVALID_ARGUMENT', `${argument} = ${op.name} on ${String(op.type)}: the data holds ${type} elements`, {
      argument,
    });
  }
  return undefined;
}

/**
 * The built-in operator name an `op` option stands for: the name itself, or a built-in
 * `Operator`'s (anything else is left to the caller's check of names).
 *
 * @example
 * ```ts
 * builtinNameOf(builtinOperator('min', 'i32')); // 'min'
 * builtinNameOf('xor'); // 'xor'
 * ```
 */
export function builtinNameOf(op: unknown): unknown {
  return isOperator(op) && op.builtin !== undefined ? op.builtin : op;
}

/**
 * The algorithms a user-defined operator's scan runs: the single pass (`'auto'` is it). The
 * multi-pass algorithms serve the built-in operators only.
 *
 * @example
 * ```ts
 * checkOperatorAlgorithm('auto', affine); // fine
 * checkOperatorAlgorithm('blelloch', affine); // ScanError UNSUPPORTED naming options.algorithm
 * ```
 */
export function checkOperatorAlgorithm(algorithm: string, op: Operator<unknown>): void {
  if (algorithm !== 'auto' && algorithm !== 'decoupled-fallback') {
    throw new ScanError(
      'UNSUPPORTED',
      `options.algorithm = "${algorithm}": the operator ${op.name} is scanned by 'decoupled-fallback' (or 'auto'); the multi-pass algorithms take the built-in operators`,
      { argument: 'options.algorithm' },
    );
  }
}
