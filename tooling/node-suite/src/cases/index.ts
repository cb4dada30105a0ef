import type { NodeCase } from '../case.js';
import { coreCases } from './core.js';
import { segmentedCases } from './segmented.js';
import { sortCases } from './sort.js';
import { spmvCases } from './spmv.js';
import { tcuCases } from './tcu.js';
import { tridiagCases } from './tridiag.js';

/**
 * Every package's array-level functions, in layer order (core first), each on seeded host data
 * checked against its CPU reference.
 *
 * @example
 * ```ts
 * for (const c of NODE_CASES) { const p = c.prepare(1 << 22, 1); p.check(await p.call(ctx)); }
 * ```
 */
export const NODE_CASES: readonly NodeCase[] = [...coreCases, ...segmentedCases, ...sortCases, ...spmvCases, ...tcuCases, ...tridiagCases];
