import type { ElementType } from '@scan/core';
import type { MatrixSource } from './spmv-suite.js';

/**
 * The plans' unstable tuning of a sweep (`--tuning`): numbers, booleans and strings, passed as
 * `options.tuning` (`ScatterTuning` of split and pack, `SortTuning` of the radix sort), which checks
 * the keys and values.
 *
 * @example
 * ```ts
 * const tuning: PlanTuning = { elementsPerThread: 12, padLast: false };
 * ```
 */
export type PlanTuning = Readonly<Record<string, number | boolean | string>>;

// The vocabulary every primitive's module shares: the fields of any case, the case and shape types
// a module builds its own from, and what the command line selects. A leaf: it imports no module,
// so the modules, the registry and the child can all import it without going in a circle.

/**
 * The fields every case has, whatever its primitive: what the runner, the report and the parent
 * read. A module's case adds its own fields (see {@link Case}).
 *
 * @example
 * ```ts
 * const c: CaseCommon = { id: 'copy u32@1024', series: 'copy u32', primitive: 'copy', type: 'u32', n: 1024, seed: 1, runs: 10, warmup: 0 };
 * ```
 */
export type CaseCommon<P extends string = string> = {
  /** Unique within a run: `series@n`. */
  readonly id: string;
  /** The configuration without the size; the dashboard draws one line per series. */
  readonly series: string;
  /** The primitive (a name of one module's `primitives`). */
  readonly primitive: P;
  /** Output (and accumulation) type; the key type of the sorts; the tcu cases read f16 (`inputType`). */
  readonly type: ElementType;
  /** Elements; for the SpMV cases the matrix's nonzeros; for frame-loop the plan's maxCount. */
  readonly n: number;
  readonly seed: number;
  readonly runs: number;
  readonly warmup: number;
};

/**
 * The case type of one primitive: the common fields, its name, and the fields of its own (a type
 * alias, not an interface: a case is plain JSON sent to the child).
 *
 * @example
 * ```ts
 * type ReduceCase = Case<'reduce', { op: ScanOp }>;
 * ```
 */
export type Case<P extends string, F extends object = Record<never, never>> = CaseCommon<P> & Readonly<F>;

/**
 * A case without its size and run settings: what a module's `shapes` makes (distributes over a
 * union of cases).
 *
 * @example
 * ```ts
 * const shape: CaseShape<ReduceCase> = { primitive: 'reduce', type: 'u32', op: 'add' };
 * ```
 */
export type CaseShape<C extends CaseCommon = CaseCommon> = C extends unknown
  ? Omit<C, 'id' | 'series' | 'n' | 'seed' | 'runs' | 'warmup'>
  : never;

/**
 * A case shape, of fixed size when it has `n` (the SpMV cases carry their matrix's nonzeros
 * instead of taking `--sizes`).
 *
 * @example
 * ```ts
 * const shape: SizedShape<SpmvCase> = { primitive: 'spmv', algorithm: 'auto', type: 'f32', matrix: 'biased-1K', n: 1999 };
 * ```
 */
export type SizedShape<C extends CaseCommon = CaseCommon> = CaseShape<C> & { readonly n?: number };

/**
 * A case as a report row or the child's command line carries it, for code that reads any case:
 * the common fields, and the fields of its primitive's case type as JSON values. Reports of other
 * tools (the CUDA baselines) and of older runs have primitives and fields no module declares.
 *
 * @example
 * ```ts
 * const matrix = typeof r.case.matrix === 'string' ? r.case.matrix : undefined;
 * ```
 */
export type CaseRecord = CaseCommon & { readonly [field: string]: unknown };

/**
 * A field of any case as text: its value when it is a string, else undefined (for code that reads
 * reports, where a field may belong to another primitive or be absent).
 *
 * @example
 * ```ts
 * caseText(r.case, 'matrix'); // 'biased-1M' for an SpMV row, undefined for a scan row
 * ```
 */
export function caseText(c: CaseRecord, field: string): string | undefined {
  const value = c[field];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Settings the command line can leave to their defaults, which then depend on the adapter
 * (`CaseSelection.defaulted`): a software adapter gets smaller ones (software-adapter.ts).
 */
export type DefaultedSetting = 'sizes' | 'runs' | 'warmup' | 'matrices';

/** Scan algorithms `--algorithms` accepts (the names of `createScanPlan`). */
export const SCAN_ALGORITHM_NAMES = ['auto', 'blelloch', 'reduce-then-scan', 'decoupled-fallback'] as const;
export type ScanAlgorithmName = (typeof SCAN_ALGORITHM_NAMES)[number];

/** Element types `--types` accepts. */
export const ELEMENT_TYPE_NAMES: readonly ElementType[] = ['u32', 'i32', 'f32'];

/** What `enumerateCases` and every module's `shapes` get from the command line. */
export interface CaseSelection {
  readonly sizes: readonly number[];
  /**
   * The adapter-dependent settings the command line left out. A module with `defaultSizes` runs
   * those when `'sizes'` is here; a software adapter's options list none (their sizes are its own).
   */
  readonly defaulted?: readonly DefaultedSetting[];
  /** Primitive filter; undefined means every primitive (the default list). */
  readonly only?: readonly string[];
  /**
   * A software adapter's default run (no `--only`): the modules with a `sample` run only the shapes
   * it keeps, so that the run still covers every primitive and ends within minutes (software-adapter.ts).
   */
  readonly sample?: boolean;
  /** Element-type filter (baselines always stay: they move bits, not values). */
  readonly types?: readonly ElementType[];
  /** Scan algorithms; when given, each named algorithm gets the full set of scan variants. */
  readonly algorithms?: readonly ScanAlgorithmName[];
  /** Mean segment lengths of the segmented cases (default `DEFAULT_SEGMENT_MEANS`). */
  readonly segmentMeans?: readonly number[];
  /** Node sizes of the HiSparse cases (`--node-sizes`; default `HISPARSE_NODE_SIZES`). */
  readonly nodeSizes?: readonly number[];
  /** The HiSparse products also on pools with region leaves, built on the host (`--region-leaves`). */
  readonly regionLeaves?: boolean;
  readonly runs: number;
  readonly warmup: number;
  readonly seed: number;
  readonly density: number;
  /** The unstable `options.tuning` of the split, pack and sort plans (`--tuning`), for sweeps. */
  readonly tuning?: PlanTuning;
  /** Matrices of the SpMV cases (`--matrices`, `--mtx`); default the suite `DEFAULT_MATRICES`. */
  readonly matrices?: readonly MatrixSource[];
  /** frame-loop: measured frames, from `--runs` when it is given (else the module's default). */
  readonly frames?: number;
  /** frame-loop: warm-up frames, from `--warmup` when it is given (else the module's default). */
  readonly warmupFrames?: number;
}
