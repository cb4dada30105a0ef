import { enumerateCases } from '../src/cases.js';
import type { BenchCase, Primitive } from '../src/registry.js';
import { parseMatrixList, SOFTWARE_MATRICES } from '../src/spmv-suite.js';

// What a live run runs, kept apart from live.ts (the runner and the device, a chunk of their own that
// loads when a run starts) so the page can count the cases. The case list comes from the registry,
// whose modules hold their workloads too, so the page's own chunk has the packages' code.

/**
 * The matrices the sparse products multiply in a live run: the bench's software suite (a 16² grid
 * and the paper's biased matrix at 1000 rows), or the suite's families at 1M rows. The bench's GPU
 * suite (up to 64M nonzeros) is more than a page should allocate.
 */
export const LIVE_MATRIX_SUITES = {
  small: SOFTWARE_MATRICES,
  '1M': ['poisson2d-1024', 'biased-1M', 'powerlaw-1M', 'uniform-1M', 'banded-1M'],
} as const satisfies Record<string, readonly string[]>;

/** A name of {@link LIVE_MATRIX_SUITES}. */
export type LiveMatrixSuite = keyof typeof LIVE_MATRIX_SUITES;

/** What the visitor picked. */
export interface LiveSelection {
  readonly primitives: readonly Primitive[];
  readonly sizes: readonly number[];
  readonly runs: number;
  readonly warmup: number;
  /** The sparse products' matrices (default `'1M'`). */
  readonly matrices?: LiveMatrixSuite;
}

/**
 * The cases of a selection, as the bench CLI would make them from the same options; none when
 * nothing is picked.
 *
 * @example
 * ```ts
 * liveCases({ primitives: ['scan'], sizes: [4096], runs: 5, warmup: 1 }).length; // 3 (three scan algorithms)
 * liveCases({ primitives: ['spmv'], sizes: [4096], runs: 5, warmup: 1, matrices: 'small' }).length; // 10 (5 algorithms × 2 matrices)
 * ```
 */
export function liveCases(selection: LiveSelection): BenchCase[] {
  if (selection.primitives.length === 0 || selection.sizes.length === 0) return [];
  return enumerateCases({
    sizes: [...selection.sizes],
    only: [...selection.primitives],
    runs: selection.runs,
    warmup: selection.warmup,
    seed: 1,
    density: 0.5,
    matrices: parseMatrixList(LIVE_MATRIX_SUITES[selection.matrices ?? '1M'].join(',')),
  });
}

/**
 * The number of cases a selection makes, for the progress bar before the run starts.
 *
 * @example
 * ```ts
 * liveCaseCount({ primitives: ['scan'], sizes: [4096], runs: 5, warmup: 1 }); // 3
 * ```
 */
export function liveCaseCount(selection: LiveSelection): number {
  return liveCases(selection).length;
}
