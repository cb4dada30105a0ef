import { enumerateCases } from '../src/cases.js';
import type { LiveSelection } from './live.js';

// Kept apart from live.ts so the page can count cases without loading the packages' kernels: those
// load (a chunk of their own) when a live run starts.

/**
 * The number of cases a selection makes, for the progress bar before the run starts.
 *
 * @example
 * ```ts
 * liveCaseCount({ primitives: ['scan'], sizes: [4096], runs: 5, warmup: 1 }); // 3 (three scan algorithms)
 * ```
 */
export function liveCaseCount(selection: LiveSelection): number {
  if (selection.primitives.length === 0 || selection.sizes.length === 0) return 0;
  return enumerateCases({ sizes: [...selection.sizes], only: [...selection.primitives], runs: 1, warmup: 0, seed: 1, density: 0.5 }).length;
}
