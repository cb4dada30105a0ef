import type { ScanContext } from '@scan/core';
import type { NodeCase } from './case.js';

/** One checked call of a case. */
export interface CaseRun {
  readonly name: string;
  readonly size: number;
  /** Wall time of the array-level call: uploads, GPU work and read-backs (ms). */
  readonly callMs: number;
  /** `undefined` when the result matched the CPU reference, else what differed. */
  readonly error: string | undefined;
}

/**
 * Prepares `c` at `size` from `seed`, runs its array-level call on `ctx`, and checks the result
 * against the CPU reference. A rejected call counts as a failure like a wrong result.
 *
 * @example
 * ```ts
 * const run = await runCase(ctx, NODE_CASES[0], 1 << 22, 1);
 * if (run.error) throw new Error(run.error);
 * ```
 */
export async function runCase(ctx: ScanContext, c: NodeCase, size: number, seed: number): Promise<CaseRun> {
  const prepared = c.prepare(size, seed);
  const start = performance.now();
  let result: unknown;
  try {
    result = await prepared.call(ctx);
  } catch (error) {
    return { name: c.name, size, callMs: performance.now() - start, error: `rejected: ${describe(error)}` };
  }
  const callMs = performance.now() - start;
  try {
    prepared.check(result);
    return { name: c.name, size, callMs, error: undefined };
  } catch (error) {
    return { name: c.name, size, callMs, error: describe(error) };
  }
}

function describe(error: unknown): string {
  if (error instanceof Error)
    return `${error.name === 'ScanError' ? `ScanError ${(error as { code?: string }).code}: ` : ''}${error.message}`;
  return String(error);
}
