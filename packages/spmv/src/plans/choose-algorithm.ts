import type { CsrStats, SpmvAlgorithm } from '../types.js';

/** The algorithms `'auto'` chooses among. */
export type ConcreteAlgorithm = Exclude<SpmvAlgorithm, 'auto'>;

/**
 * `'auto'`'s rule. The row kernel (CSR-vector) is the fastest when rows are alike: it reads each
 * row once with no analysis and no second pass. Its time is bounded below by the longest row,
 * which one group of at most 32 lanes walks alone, so when the longest row is far above the mean
 * (the paper's biased matrices, power-law graphs) an algorithm that splits the nonzeros evenly
 * wins. Measured on the H100 (BENCHMARKS.md, "SpMV", commit 090d581), the branchless segmented
 * scan is the fastest of those on every skewed suite matrix (biased 1M and 16M, power law), for
 * one right-hand side (merge path 1.2–3.3× slower, the 2007 method 1.2–1.7×) and for eight (merge
 * path 2.7–4.5×); on the regular ones (the transposed biased matrices included) the row kernel is
 * 1.07–4× faster than it.
 *
 * @example
 * ```ts
 * chooseAlgorithm({ rows: 1e6, cols: 1e6, nnz: 2e6 - 1, meanRowLength: 2, maxRowLength: 1e6, rowLengthStdDev: 1000, emptyRows: 0 }); // 'branchless'
 * ```
 */
export function chooseAlgorithm(stats: CsrStats | undefined): ConcreteAlgorithm {
  if (!stats) return 'branchless';
  if (stats.nnz === 0) return 'row';
  const skewed = stats.maxRowLength > Math.max(256, 8 * stats.meanRowLength + 4 * stats.rowLengthStdDev);
  return skewed ? 'branchless' : 'row';
}
