/**
 * The primitives the harness times (the `--only` names), named as the bench's
 * (`apps/bench/src/primitives`) so that each record is a row of the bench's report: luma's
 * `GPUSort` always moves values, so it is `sort-pairs`. The last four are issue 49's toolbox.
 */
export const LUMA_PRIMITIVES = [
  'scan',
  'reduce',
  'pack',
  'sort-pairs',
  'histogram',
  'lower-bound',
  'reduce-by-key',
  'scan-by-key',
] as const;

/** One of {@link LUMA_PRIMITIVES}. */
export type LumaPrimitive = (typeof LUMA_PRIMITIVES)[number];

/**
 * The toolbox primitives (issue 49), which run when named (`--only toolbox` or their names): the
 * default run stays the four primitives that `summary-call.sh` and `gpu-run.sh` time in their
 * budgets.
 */
export const LUMA_TOOLBOX_PRIMITIVES: readonly LumaPrimitive[] = ['histogram', 'lower-bound', 'reduce-by-key', 'scan-by-key'];

/**
 * The cases the harness times, in report order (within a size): one per primitive, except the
 * histogram, which has one per bin count of the bench's (256 and 65,536). A case's name is its
 * primitive's where the primitive has one case.
 */
export const LUMA_CASE_NAMES = [
  'scan',
  'reduce',
  'pack',
  'sort-pairs',
  'histogram-256',
  'histogram-65536',
  'lower-bound',
  'reduce-by-key',
  'scan-by-key',
] as const;

/** One of {@link LUMA_CASE_NAMES}. */
export type LumaCaseName = (typeof LUMA_CASE_NAMES)[number];

/** Result of checking a GPU output against the CPU. */
export interface Verification {
  readonly ok: boolean;
  /** What was compared, or the first difference. */
  readonly detail: string;
  /** Output words that differ from the reference (set when the check fails). */
  readonly mismatches?: number;
}

/**
 * A primitive set up at one size, ready to be recorded again and again.
 * `encode` records the work into the caller's encoder (nothing else: no submission, no read-back).
 */
export interface Workload {
  /** What luma ran, for the report (classes, mode, algorithm and strategy luma chose). */
  readonly describe: Readonly<Record<string, string | number | boolean>>;
  /** pack: the elements kept (1-flags), known from the inputs; the bytes model counts their writes. */
  readonly ones?: number;
  /**
   * The bytes of the bench's model of the paired row (the toolbox cases, which the bench's
   * `bytesMoved` does not cover: there each module states its bytes); absent: `bytesMoved`.
   */
  readonly bytes?: number;
  /** reduce-by-key: the runs (groups) of the input, known from it (the bench's `segments`). */
  readonly segments?: number;
  /** The buffers `verify` reads (tests corrupt a word of each to see the check fail). */
  readonly outputs: readonly GPUBuffer[];
  /** Records one run into `encoder`. */
  encode(encoder: GPUCommandEncoder): void;
  /** Poisons the outputs (before the first run), so an unwritten element fails the check. */
  poison(): void;
  /** Reads the outputs back and compares every element with the CPU reference. */
  verify(): Promise<Verification>;
  /**
   * A check on inputs of its own (sort: stability on keys with many duplicates), run and awaited
   * before the timed input is verified; it leaves the timed input in place.
   */
  selfTest?(): Promise<Verification>;
  /** Counts of the last recording (luma: compute passes, graph nodes, staging uploads). */
  stats?(): Readonly<Record<string, string | number>>;
  destroy(): void;
}
