import type { CaseModule } from './case-module.js';
import { BASELINES, type CaseShape } from './case-types.js';

/**
 * The two bandwidth baselines as cases of their own (they also run inside every case's process,
 * for the ×copy and ×read columns): the vec4 copy and the vec4 read-only kernel, u32.
 *
 * @example
 * ```ts
 * baselineShapes(); // [{ primitive: 'copy', type: 'u32' }, { primitive: 'read-only', type: 'u32' }]
 * ```
 */
export function baselineShapes(): CaseShape[] {
  return BASELINES.map((primitive): CaseShape => ({ primitive, type: 'u32' }));
}

/**
 * The bench's own kernels in the case registry; always last, so they close the report.
 *
 * @example
 * ```ts
 * BASELINE_CASES.primitives; // ['copy', 'read-only']
 * ```
 */
export const BASELINE_CASES: CaseModule = { package: '@scan/bench', primitives: BASELINES, shapes: baselineShapes };
