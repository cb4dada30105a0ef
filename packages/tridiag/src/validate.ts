import { ScanError } from '@scan/core';
import { checkOneOf, checkOptions, invalidArgument } from '@scan/core/kit';
import {
  TRIDIAGONAL_ALGORITHMS,
  TRIDIAGONAL_LAYOUTS,
  type TridiagonalAlgorithm,
  type TridiagonalLayout,
  type TridiagonalSystems,
} from './types.js';

// Argument validation shared by the CPU reference and the GPU functions of `@scan/tridiag`, so
// both reject the same inputs with the same messages (core's form `argument = value: why`).

/**
 * Throws an `INVALID_ARGUMENT` {@link ScanError} `argument = value: why`.
 *
 * @example
 * ```ts
 * invalidTridiagonalArgument('systems.n', 0, 'expected a positive integer');
 * ```
 */
export function invalidTridiagonalArgument(argument: string, value: unknown, why: string): never {
  return invalidArgument(argument, value, why);
}

/**
 * A positive safe integer (n or batch), else an `INVALID_ARGUMENT` error naming `argument`.
 *
 * @example
 * ```ts
 * checkPositiveInteger(64, 'systems.batch'); // 64
 * checkPositiveInteger(0.5, 'systems.batch'); // throws: systems.batch = 0.5: expected a positive integer
 * ```
 */
export function checkPositiveInteger(value: unknown, argument: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return value;
  return invalidTridiagonalArgument(argument, value, 'expected a positive integer');
}

/**
 * A layout name (`'contiguous'` when undefined).
 *
 * @example
 * ```ts
 * checkLayout('interleaved', 'systems.stride'); // 'interleaved'
 * ```
 */
export function checkLayout(value: unknown, argument: string): TridiagonalLayout {
  return checkOneOf<TridiagonalLayout>(value, TRIDIAGONAL_LAYOUTS, argument, 'contiguous');
}

/**
 * An algorithm name (`'auto'` when undefined).
 *
 * @example
 * ```ts
 * checkAlgorithm('pcr', 'options.algorithm'); // 'pcr'
 * ```
 */
export function checkAlgorithm(value: unknown, argument: string): TridiagonalAlgorithm {
  return checkOneOf<TridiagonalAlgorithm>(value, ['auto', ...TRIDIAGONAL_ALGORITHMS], argument, 'auto');
}

/** {@link TridiagonalSystems} after validation, every default filled in. */
export interface NormalizedSystems {
  readonly a: Float32Array;
  readonly b: Float32Array;
  readonly c: Float32Array;
  readonly d: Float32Array;
  readonly n: number;
  readonly batch: number;
  readonly stride: TridiagonalLayout;
}

/**
 * Checks a batch of systems: an object with exactly the keys `a`, `b`, `c`, `d`, `n`, `batch` and
 * optionally `stride`; `n` and `batch` positive integers; each array a `Float32Array` of `n·batch`
 * values.
 *
 * @example
 * ```ts
 * const s = checkSystems({ a, b, c, d, n: 1024, batch: 64 }); // s.stride === 'contiguous'
 * ```
 */
export function checkSystems(systems: unknown): NormalizedSystems {
  if (systems === null || typeof systems !== 'object' || Array.isArray(systems) || ArrayBuffer.isView(systems)) {
    return invalidTridiagonalArgument('systems', systems, 'expected { a, b, c, d, n, batch, stride? }');
  }
  const o = checkOptions(systems, ['a', 'b', 'c', 'd', 'n', 'batch', 'stride'], 'systems');
  const n = checkPositiveInteger(o['n'], 'systems.n');
  const batch = checkPositiveInteger(o['batch'], 'systems.batch');
  const stride = checkLayout(o['stride'], 'systems.stride');
  const total = n * batch;
  const arrays = (['a', 'b', 'c', 'd'] as const).map((key) => {
    const value = o[key];
    if (!(value instanceof Float32Array)) return invalidTridiagonalArgument(`systems.${key}`, value, 'expected a Float32Array');
    if (value.length !== total) {
      invalidTridiagonalArgument(`systems.${key}`, value, `length ${value.length} does not match n·batch = ${n}·${batch} = ${total}`);
    }
    return value;
  }) as [Float32Array, Float32Array, Float32Array, Float32Array];
  const [a, b, c, d] = arrays;
  return { a, b, c, d, n, batch, stride } satisfies TridiagonalSystems;
}

/**
 * Validates the options of `solveTridiagonal`: only `algorithm` (default `'auto'`).
 *
 * @example
 * ```ts
 * checkSolveOptions({ algorithm: 'cr' }); // 'cr'
 * checkSolveOptions({ algo: 'cr' }); // throws: options.algo = "cr": unknown option (allowed: algorithm)
 * ```
 */
export function checkSolveOptions(options: unknown): TridiagonalAlgorithm {
  return checkAlgorithm(checkOptions(options, ['algorithm'])['algorithm'], 'options.algorithm');
}

/**
 * Index of element `i` of system `s` in an array of `batch` systems of `n` unknowns.
 *
 * @example
 * ```ts
 * elementIndex('interleaved', 3, 1, 10, 4); // 1·4 + 3 = 7
 * ```
 */
export function elementIndex(stride: TridiagonalLayout, s: number, i: number, n: number, batch: number): number {
  return stride === 'contiguous' ? s * n + i : i * batch + s;
}

/**
 * The error of a zero pivot (or a non-finite solution) in system `system`.
 *
 * @example
 * ```ts
 * throw zeroPivotError(3);
 * ```
 */
export function zeroPivotError(system: number): ScanError {
  return new ScanError(
    'INVALID_ARGUMENT',
    `systems: system ${system} met a zero pivot or gave a non-finite solution (no pivoting is done: the systems should be diagonally dominant)`,
    { argument: 'systems' },
  );
}
