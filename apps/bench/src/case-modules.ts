import { BASELINE_CASES } from './baseline-cases.js';
import type { CaseModule } from './case-module.js';
import { CORE_CASES } from './core-cases.js';
import { FIRST_CALL_CASES, FRAME_LOOP_CASES } from './frame-cases.js';
import { HISPARSE_ADD_CASES, HISPARSE_CASES } from './hisparse-cases.js';
import { SEGMENTED_CASES } from './segmented-cases.js';
import { SORT_CASES } from './sort-cases.js';
import { SPMV_CASES } from './spmv-cases.js';
import { TCU_CASES } from './tcu-cases.js';
import { TRIDIAG_CASES } from './tridiag-cases.js';
import { WATER_CASES } from './water-cases.js';

/**
 * Every package's cases, in report order: the one list `--only`, the default list and
 * `enumerateCases` are built from. A new package's cases are one module exporting a
 * {@link CaseModule} and one entry here (its workloads go in `child/workloads/index.ts`).
 *
 * @example
 * ```ts
 * CASE_MODULES.map((m) => m.package); // ['@scan/core', '@scan/segmented', …, '@scan/bench']
 * ```
 */
export const CASE_MODULES: readonly CaseModule[] = [
  CORE_CASES,
  SEGMENTED_CASES,
  SORT_CASES,
  TRIDIAG_CASES,
  WATER_CASES,
  TCU_CASES,
  SPMV_CASES,
  HISPARSE_CASES,
  HISPARSE_ADD_CASES,
  FRAME_LOOP_CASES,
  FIRST_CALL_CASES,
  BASELINE_CASES,
];
