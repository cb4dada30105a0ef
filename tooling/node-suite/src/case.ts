import type { ScanContext } from '@scan/core';

/** One array-level call on prepared host data, and the check of its result. */
export interface PreparedCall {
  /** Calls the package function on the host arrays (the part the stress run times). */
  call(ctx: ScanContext): Promise<unknown>;
  /** Throws an `Error` saying where the result differs from the CPU reference. */
  check(result: unknown): void;
}

/** A package function exercised on seeded host data of any size. */
export interface NodeCase {
  /** `package.function` (a variant after a colon), e.g. `sort.sort:pairs`. */
  readonly name: string;
  /** What the data is, for reports. */
  readonly what: string;
  /**
   * Generates the inputs of about `size` host elements (the largest array passed in has `size`
   * entries, up to rounding to the case's shape) from `seed`, and computes nothing on the GPU.
   */
  prepare(size: number, seed: number): PreparedCall;
}

/**
 * Declares a case with a typed result: `prepare` returns the call and the check of what it
 * resolves to.
 *
 * @example
 * ```ts
 * const reduceCase = defineCase('core.reduce', 'i32 max', (size, seed) => {
 *   const data = randomData('i32', size, seed);
 *   return { call: (ctx) => reduce(ctx, data, { op: 'max' }), check: (got) => expectSame(got, cpu.reduce(data, { op: 'max' }), 'max') };
 * });
 * ```
 */
export function defineCase<R>(
  name: string,
  what: string,
  prepare: (size: number, seed: number) => { call(ctx: ScanContext): Promise<R>; check(result: R): void },
): NodeCase {
  return { name, what, prepare: prepare as NodeCase['prepare'] };
}

/**
 * Throws unless `actual` is `expected` (numbers: NaN meets NaN, and -0 meets +0).
 *
 * @example
 * ```ts
 * expectSame(falseCount, want.falseCount, 'split falseCount');
 * ```
 */
export function expectSame(actual: unknown, expected: unknown, label: string): void {
  const same = actual === expected || (Number.isNaN(actual) && Number.isNaN(expected));
  if (!same) throw new Error(`${label}: ${String(actual)}, expected ${String(expected)}`);
}
