import type { ElementType } from '@scan/core';
import type { BenchCase, CaseShape, Primitive, ScanAlgorithmName } from './case-types.js';
import type { MatrixSource } from './spmv-suite.js';

// What one package's cases module gives the registry (case-modules.ts). Types only: every
// *-cases.ts module imports this file and the registry imports them, so nothing goes in a circle.

/**
 * Settings the command line can leave to their defaults, which then depend on the adapter
 * (`CaseSelection.defaulted`): a software adapter gets smaller ones (software-adapter.ts).
 */
export type DefaultedSetting = 'sizes' | 'runs' | 'warmup' | 'matrices';

/** What `enumerateCases` needs from the command line. */
export interface CaseSelection {
  readonly sizes: readonly number[];
  /**
   * The adapter-dependent settings the command line left out. A module with `defaultSizes` runs
   * those when `'sizes'` is here; a software adapter's options list none (their sizes are its own).
   */
  readonly defaulted?: readonly DefaultedSetting[];
  /** Primitive filter; undefined means every primitive of the modules that are not opt-in, and both baselines. */
  readonly only?: readonly Primitive[];
  /** Element-type filter (baselines always stay: they move bits, not values). */
  readonly types?: readonly ElementType[];
  /** Scan algorithms; when given, each named algorithm gets the full set of scan variants. */
  readonly algorithms?: readonly ScanAlgorithmName[];
  /** Mean segment lengths of the segmented cases (default `DEFAULT_SEGMENT_MEANS`). */
  readonly segmentMeans?: readonly number[];
  readonly runs: number;
  readonly warmup: number;
  readonly seed: number;
  readonly density: number;
  /** Internal plan options of the split and pack cases (`--tuning`), for sweeps. */
  readonly tuning?: Readonly<Record<string, number | boolean>>;
  /** Matrices of the SpMV cases (`--matrices`, `--mtx`); default the suite `DEFAULT_MATRICES`. */
  readonly matrices?: readonly MatrixSource[];
  /** frame-loop: measured frames, from `--runs` when it is given (else the module's default). */
  readonly frames?: number;
  /** frame-loop: warm-up frames, from `--warmup` when it is given (else the module's default). */
  readonly warmupFrames?: number;
}

/** A case shape, of fixed size when it has `n` (the SpMV cases carry their matrix's nonzeros instead of taking `--sizes`). */
export type SizedShape = CaseShape & { readonly n?: number };

/**
 * One package's cases: the primitives `--only` accepts for it and the configurations it runs.
 * Adding a package's cases means one module exporting one of these and one entry in `CASE_MODULES`.
 *
 * @example
 * ```ts
 * const WATER_CASES: CaseModule = { package: '@scan/water', primitives: WATER_PRIMITIVES, shapes: waterShapes, caseSize: waterCaseSize };
 * ```
 */
export interface CaseModule {
  /** The package measured (`@scan/core`; the bench's own baseline kernels are `@scan/bench`). */
  readonly package: string;
  /** Its primitives, in report order. */
  readonly primitives: readonly Primitive[];
  /** Run only when `--only` names one of its primitives (not in the default list). */
  readonly optIn?: boolean;
  /** Its configurations in report order, before the `--only` and `--types` filters. */
  readonly shapes: (selection: CaseSelection) => SizedShape[];
  /**
   * Sizes of this module's cases when the command line gives none (`defaulted` has `'sizes'`),
   * instead of the run's default sizes; `--sizes` and a software adapter's sizes still apply.
   */
  readonly defaultSizes?: readonly number[];
  /** The n a case runs (and reports) for a requested size; the size itself when absent. */
  readonly caseSize?: (size: number) => number;
  /** Fields a case takes from the selection besides its shape (the flag density, `--tuning`). */
  readonly caseFields?: (shape: CaseShape, selection: CaseSelection) => Partial<BenchCase>;
}
