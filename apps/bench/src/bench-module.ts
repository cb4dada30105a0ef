import type { ScanContext } from '@scan/core';
import type { CaseCommon, CaseSelection, CaseShape, SizedShape } from './case-types.js';
import type { Workload } from './child/workload.js';
import type { CaseResult } from './report.js';

// What one primitive's module gives the registry (registry.ts): its cases and how they run. Types
// only, importing no module: every module imports this file and the registry imports the modules,
// so nothing goes in a circle.

/**
 * A measurement that runs in the same child process beside a case and is reported in the case's
 * row: `scan`, the unsegmented scan a segmented scan is compared with (`ratioScanTime`), or `spmv`,
 * the single-vector product an spmm is compared with (`ratioSpmvTime`). Its case belongs to
 * another module (the registry finds that module's workload by the case's primitive).
 *
 * @example
 * ```ts
 * const companion: Companion = { field: 'scan', case: { ...c, primitive: 'scan', algorithm: 'decoupled-fallback', … } };
 * ```
 */
export type Companion = { readonly field: 'scan' | 'spmv'; readonly case: CaseCommon };

/**
 * One primitive's module: its cases and its workload, in one file under `src/primitives/`. Adding a
 * primitive means one module exporting one of these (made with {@link benchModule}) and one line in
 * `BENCH_MODULES` (registry.ts). A module may name several primitives when they share everything
 * but the name (tridiag's four algorithms, spmv, spmv-t and spmm).
 *
 * `C` is the module's case type, `Case<'name', { …its fields }>`: the child gets exactly the case
 * its module's `shapes` made (as JSON), so the workload reads its fields without checks.
 *
 * @example
 * ```ts
 * export type ReduceCase = Case<'reduce', { op: ScanOp }>;
 * export const REDUCE = benchModule<ReduceCase>({
 *   package: '@scan/core',
 *   primitives: ['reduce'],
 *   shapes: () => [{ primitive: 'reduce', type: 'u32', op: 'add' }],
 *   workload: async (ctx, c) => ({ bytes: 4 * c.n, output, encode, verify, destroy }),
 * });
 * ```
 */
export interface BenchModule<C extends CaseCommon = CaseCommon> {
  /** The package measured (`@scan/core`; the bench's own baseline kernels are `@scan/bench`). */
  readonly package: string;
  /** The names `--only` accepts for it, in report order. */
  readonly primitives: readonly C['primitive'][];
  /**
   * The shapes that stand for the module in a software adapter's default run (`selection.sample`),
   * for a module whose full list costs minutes there (pipeline compilation and read-backs on the
   * CPU): one representative of each kind it measures. Every shape runs when absent, on a GPU, and
   * whenever `--only` names the module.
   */
  sample?(shapes: readonly SizedShape<C>[]): readonly SizedShape<C>[];
  /** Kept whatever `--types` says (the baselines: they move bits, not values). */
  readonly anyType?: boolean;
  /**
   * Its configurations in report order, before the `--only` and `--types` filters, with every
   * field of its case but the size and run settings; a shape with `n` has that size whatever
   * `--sizes` says (an SpMV case has its matrix's nonzeros).
   */
  shapes(selection: CaseSelection): readonly SizedShape<C>[];
  /**
   * Sizes of this module's cases when the command line gives none (`defaulted` has `'sizes'`),
   * instead of the run's default sizes; `--sizes` and a software adapter's sizes still apply.
   */
  readonly defaultSizes?: readonly number[];
  /** The n a case runs (and reports) for a requested size; the size itself when absent. */
  caseSize?(size: number): number;
  /** Whether a shape runs at size n (all do when absent): the tcu cases skip a segment longer than the array. */
  runsAt?(shape: CaseShape<C>, n: number): boolean;
  /**
   * The workload of a case timed by the common path (verify, warm up, time runs between two
   * timestamps, the copy baseline beside): allocates, generates the inputs on the GPU, creates the
   * plan. It may throw `UnsupportedCaseError` (the case is then `skipped`).
   */
  workload?(ctx: ScanContext, c: C): Promise<Workload>;
  /**
   * Instead of `workload`: runs the case its own way and returns its row (the frame cases, which
   * report per-frame records rather than a throughput; no copy baseline).
   */
  run?(ctx: ScanContext, c: C): Promise<CaseResult>;
  /** Bound by reading the input once: the read-only baseline runs beside the copy (`ratioReadOnly`). */
  readonly readBound?: boolean;
  /** A measurement of another primitive to run and report beside a case, if any (see {@link Companion}). */
  companion?(c: C): Companion | undefined;
}

/**
 * Declares a primitive's module, checking it against its case type `C` (the workload gets `C`,
 * `shapes` must make `C`'s fields).
 *
 * @example
 * ```ts
 * export const WATER = benchModule<WaterCase>({ package: '@scan/water', primitives: ['water-adi-step'], shapes, caseSize, workload });
 * ```
 */
export function benchModule<C extends CaseCommon>(module: BenchModule<C>): BenchModule<C> {
  if ((module.workload === undefined) === (module.run === undefined)) {
    throw new Error(`internal error: module ${module.primitives.join(', ')} needs exactly one of workload and run`);
  }
  return module;
}
