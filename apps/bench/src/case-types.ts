import type { ElementType, ScanOp } from '@scan/core';

// The vocabulary of a benchmark case: the primitive and algorithm names of every package and the
// case records. The modules that build cases (cases.ts and the *-cases.ts of each package) and the
// child that runs them import it; it imports none of them, so no import goes in a circle.

/** What a case measures: a primitive of one of the packages (or the water step), or one of the two bandwidth baselines. */
export type Primitive =
  | 'scan'
  | 'reduce'
  | 'enumerate'
  | 'distribute'
  | 'split'
  | 'pack'
  | 'segmented-scan'
  | 'segmented-reduce'
  | 'copy'
  | 'read-only'
  | SortPrimitive
  | TridiagPrimitive
  | WaterPrimitive
  | TcuPrimitive
  | SpmvPrimitive
  | HiSparsePrimitive
  | FrameCasePrimitive;

/**
 * The primitives timed by the common path (verify, warm up, time runs between two timestamps, the
 * copy baseline beside): every primitive but the frame cases, which report per-frame records instead.
 */
export type ThroughputPrimitive = Exclude<Primitive, FrameCasePrimitive>;

/** The primitives of `@scan/core`, in report order. */
export const CORE_PRIMITIVES: readonly Primitive[] = ['scan', 'reduce', 'enumerate', 'distribute', 'split', 'pack'];

/** The primitives of `@scan/segmented`, in report order. */
export const SEGMENTED_PRIMITIVES: readonly Primitive[] = ['segmented-scan', 'segmented-reduce'];

/**
 * The cases of `@scan/sort`: keys only (`sort`), keys with u32 values (`sort-pairs`), and the
 * segmented sort of keys (`segmented-sort`), each sorting in place.
 */
export const SORT_PRIMITIVES = ['sort', 'sort-pairs', 'segmented-sort'] as const;
export type SortPrimitive = (typeof SORT_PRIMITIVES)[number];

/** Sort algorithms the bench runs side by side (the names of `createSortPlan`'s `algorithm`). */
export const SORT_ALGORITHM_NAMES = ['radix', 'split-radix'] as const;
export type SortAlgorithmName = (typeof SORT_ALGORITHM_NAMES)[number];

/** Kernels written in the bench itself that bound what a primitive can reach. */
export const BASELINES: readonly Primitive[] = ['copy', 'read-only'];

/**
 * The cases of `@scan/tcu` (`--only tcu-reduce,tcu-scan`): the regular segmented sum and the
 * inclusive segmented prefix sum of f16 values with f32 results, as matrix products.
 */
export const TCU_PRIMITIVES = ['tcu-reduce', 'tcu-scan'] as const;
export type TcuPrimitive = (typeof TCU_PRIMITIVES)[number];

/** The two paths of `@scan/tcu`, run side by side; the case's `algorithm` names the path. */
export const TCU_PATHS = ['subgroup-matrix', 'emulated'] as const;
export type TcuPathName = (typeof TCU_PATHS)[number];

/** The tridiagonal cases, one per algorithm of `@scan/tridiag` (`--only tridiag-cr-pcr`, …). */
export const TRIDIAG_PRIMITIVES = ['tridiag-cr', 'tridiag-pcr', 'tridiag-cr-pcr', 'tridiag-partition'] as const;
export type TridiagPrimitive = (typeof TRIDIAG_PRIMITIVES)[number];

/** The shallow-water case: one full ADI step of `apps/water` (`--only water-adi-step`). */
export const WATER_PRIMITIVES = ['water-adi-step'] as const;
export type WaterPrimitive = (typeof WATER_PRIMITIVES)[number];

/**
 * The cases of `@scan/spmv` (`--only spmv,spmv-t,spmm`), over a matrix suite instead of sizes:
 * `y = A·x`, `y = Aᵀ·x`, and `Y = A·X` with X of several columns.
 */
export const SPMV_PRIMITIVES = ['spmv', 'spmv-t', 'spmm'] as const;
export type SpmvPrimitive = (typeof SPMV_PRIMITIVES)[number];

/**
 * The product cases of `@scan/hisparse` (`--only hisparse-spmv,hisparse-spmv-t`), over the SpMV
 * matrix suite: `y = A·x` and `y = Aᵀ·x` through the HiSparse traversal, at several node sizes.
 */
export const HISPARSE_PRIMITIVES = ['hisparse-spmv', 'hisparse-spmv-t'] as const;

/**
 * The sparse addition of `@scan/hisparse` (`--only hisparse-add`): `C = A.add(A.scale(2))` over the
 * same suite and node sizes, the anchor of cuSPARSE `csrgeam`. Not one encodable command (it reads
 * counts back and allocates C between submissions), so it is timed by wall clock (see `AsyncWorkload`).
 */
export const HISPARSE_ADD_PRIMITIVES = ['hisparse-add'] as const;
export type HiSparsePrimitive = (typeof HISPARSE_PRIMITIVES)[number] | (typeof HISPARSE_ADD_PRIMITIVES)[number];

/**
 * How a HiSparse product combines the leaves' sums (the names of `createSpmvPlan`'s `combine`).
 *
 * @example
 * ```ts
 * const combine: HiSparseCombineName = HISPARSE_COMBINE_NAMES[1]; // 'segmented'
 * ```
 */
export const HISPARSE_COMBINE_NAMES = ['atomic', 'segmented'] as const;
export type HiSparseCombineName = (typeof HISPARSE_COMBINE_NAMES)[number];

/**
 * What a real-time application pays for a plan (`--only frame-loop`, opt-in): a plan recorded into
 * the frame's own encoder every frame with a count that changes every frame (JavaScript encode
 * time, GPU time, GPU objects created per frame).
 *
 * @example
 * ```ts
 * enumerateCases({ ...selection, only: [...FRAME_LOOP_PRIMITIVES] });
 * ```
 */
export const FRAME_LOOP_PRIMITIVES = ['frame-loop'] as const;

/**
 * The first use of a plan in a fresh process (`--only first-call`, opt-in): creation, `ready`,
 * the first encode and the first frame, by wall clock.
 *
 * @example
 * ```ts
 * enumerateCases({ ...selection, only: [...FIRST_CALL_PRIMITIVES] });
 * ```
 */
export const FIRST_CALL_PRIMITIVES = ['first-call'] as const;
export type FrameCasePrimitive = (typeof FRAME_LOOP_PRIMITIVES)[number] | (typeof FIRST_CALL_PRIMITIVES)[number];

/**
 * The plans a frame case records, as the applications use them: `sort` the descending key–value
 * sort of f32 depths with u32 indices (a Gaussian-splat viewer), `pack` the compaction of u32
 * elements by u32 flags, `scan` the exclusive u32 add scan (a particle system's live list and bins)
 * and `segmented-scan` the exclusive segmented add scan (its per-cell offsets).
 *
 * @example
 * ```ts
 * const workload: FrameWorkloadName = FRAME_WORKLOADS[0]; // 'sort'
 * ```
 */
export const FRAME_WORKLOADS = ['sort', 'pack', 'scan', 'segmented-scan'] as const;
export type FrameWorkloadName = (typeof FRAME_WORKLOADS)[number];

/**
 * Where a frame's count comes from: `host`, the number in `encode`'s arguments; `gpu`, a word of a
 * storage buffer written before the frame (standing for a culling pass's output), read by the plan.
 *
 * @example
 * ```ts
 * const source: CountSource = COUNT_SOURCES[1]; // 'gpu'
 * ```
 */
export const COUNT_SOURCES = ['host', 'gpu'] as const;
export type CountSource = (typeof COUNT_SOURCES)[number];

/**
 * The two ways of a first call: `wait` awaits the plan's `ready` promise (its pipelines) before the
 * first encode; `no-wait` encodes at once.
 *
 * @example
 * ```ts
 * const variant: FirstCallVariant = FIRST_CALL_VARIANTS[0]; // 'wait'
 * ```
 */
export const FIRST_CALL_VARIANTS = ['wait', 'no-wait'] as const;
export type FirstCallVariant = (typeof FIRST_CALL_VARIANTS)[number];

/**
 * Whether a primitive is a frame case (`frame-loop`, `first-call`), which runs its own loop and
 * reports its own record instead of a throughput measurement.
 *
 * @example
 * ```ts
 * isFrameCasePrimitive('frame-loop'); // true
 * isFrameCasePrimitive('scan'); // false
 * ```
 */
export function isFrameCasePrimitive(p: Primitive): p is FrameCasePrimitive {
  return (FRAME_LOOP_PRIMITIVES as readonly string[]).includes(p) || (FIRST_CALL_PRIMITIVES as readonly string[]).includes(p);
}

/** SpMV algorithms the bench runs side by side (the names of `createSpmvPlan`'s `algorithm`). */
export const SPMV_ALGORITHM_NAMES = ['auto', 'row', 'segmented', 'branchless', 'merge'] as const;
export type SpmvAlgorithmName = (typeof SPMV_ALGORITHM_NAMES)[number];

/** Scan algorithms `--algorithms` accepts (the names of `createScanPlan`). */
export const SCAN_ALGORITHM_NAMES = ['auto', 'blelloch', 'reduce-then-scan', 'decoupled-fallback'] as const;
export type ScanAlgorithmName = (typeof SCAN_ALGORITHM_NAMES)[number];

/** Segmented scan algorithms the bench runs side by side (the names of `createSegmentedScanPlan`). */
export const SEGMENTED_ALGORITHM_NAMES = ['single-pass', 'tree'] as const;
export type SegmentedAlgorithmName = (typeof SEGMENTED_ALGORITHM_NAMES)[number];

/** Split and pack algorithms the bench runs side by side (the names of `createPackPlan`'s `algorithm`). */
export const COMPACT_ALGORITHM_NAMES = ['single-pass', 'scan-then-scatter'] as const;
export type CompactAlgorithmName = (typeof COMPACT_ALGORITHM_NAMES)[number];

/** Element types `--types` accepts. */
export const ELEMENT_TYPE_NAMES: readonly ElementType[] = ['u32', 'i32', 'f32'];

/** One measurement: a primitive in one configuration at one size. Sent to the child as JSON. */
export interface BenchCase {
  /** Unique within a run: `series@n`. */
  readonly id: string;
  /** The configuration without the size; the dashboard draws one line per series. */
  readonly series: string;
  readonly primitive: Primitive;
  /**
   * Scan algorithm (scan), segmented scan algorithm (segmented-scan), split/pack algorithm, sort
   * algorithm (sort, sort-pairs), path (tcu-*) or SpMV algorithm (spmv, spmv-t, spmm); no other
   * case has one.
   */
  readonly algorithm?:
    | ScanAlgorithmName
    | SegmentedAlgorithmName
    | CompactAlgorithmName
    | SortAlgorithmName
    | TcuPathName
    | SpmvAlgorithmName;
  /** Output (and accumulation) type; the tcu cases read `inputType` values; the key type of the sorts. */
  readonly type: ElementType;
  /** sort-pairs: the type of the values that move with the keys. */
  readonly valueType?: ElementType;
  /** Sorts: largest key first (absent means ascending). */
  readonly descending?: boolean;
  /** tcu cases: the input type (f16) when it differs from `type`; the variant shows it instead. */
  readonly inputType?: 'f16';
  /** Operator of scan and reduce. */
  readonly op?: ScanOp;
  /** Scan only. */
  readonly inclusive?: boolean;
  /** Scan, enumerate and distribute. */
  readonly backward?: boolean;
  /** Fraction of 1-flags for enumerate, split and pack. */
  readonly density?: number;
  /** Split and pack: how the plan reads the flags (a u32 or a byte each); absent means u32. */
  readonly flagType?: 'u32' | 'u8';
  /** Split and pack: internal plan options of a sweep (`--tuning`); absent in ordinary runs. */
  readonly tuning?: Readonly<Record<string, number | boolean>>;
  /** Mean segment length of segmented cases: each element is a head with probability 1/mean. */
  readonly segmentMean?: number;
  /** Segment size of the regular (fixed-size) segments of the tcu cases. */
  readonly segmentSize?: number;
  /** SpMV cases: the matrix, a suite name (`biased-1M`) or a `.mtx` file's base name. */
  readonly matrix?: string;
  /** SpMV cases from `--mtx`: the absolute path of the Matrix Market file. */
  readonly matrixPath?: string;
  /** spmm: columns of X and Y. */
  readonly k?: number;
  /** HiSparse cases: the node size d. */
  readonly nodeSize?: number;
  /**
   * HiSparse products: how the leaves' sums reach y (`HiSparseMatrix.createSpmvPlan`'s `combine`):
   * `'segmented'` (records sorted by key and reduced by a segmented scan); absent means `'atomic'`
   * (compare-and-swap into y), so the atomic series keep their names.
   */
  readonly combine?: HiSparseCombineName;
  /** Frame cases: the plan recorded (`sort`, `pack`, `scan`). */
  readonly frameWorkload?: FrameWorkloadName;
  /** frame-loop: where each frame's count comes from. */
  readonly countSource?: CountSource;
  /** first-call: whether `ready` is awaited before the first encode. */
  readonly firstCall?: FirstCallVariant;
  /** frame-loop: measured frames (`--runs` when given, else `DEFAULT_FRAMES`). */
  readonly frames?: number;
  /** frame-loop: untimed frames before them (`--warmup` when given, else `DEFAULT_WARMUP_FRAMES`). */
  readonly warmupFrames?: number;
  /** Elements; for the SpMV cases the matrix's nonzeros (stored entries of a `.mtx` file); for frame-loop the plan's maxCount. */
  readonly n: number;
  readonly seed: number;
  readonly runs: number;
  readonly warmup: number;
}

/** A case without size and run settings. */
export type CaseShape = Pick<
  BenchCase,
  | 'primitive'
  | 'algorithm'
  | 'type'
  | 'inputType'
  | 'valueType'
  | 'descending'
  | 'op'
  | 'inclusive'
  | 'backward'
  | 'segmentMean'
  | 'segmentSize'
  | 'flagType'
  | 'matrix'
  | 'matrixPath'
  | 'k'
  | 'nodeSize'
  | 'combine'
  | 'frameWorkload'
  | 'countSource'
  | 'firstCall'
>;
