import type { RunStats } from './stats.js';
import type { LumaCaseName, LumaPrimitive } from './workload.js';

// What a run produces in memory, before build-report.ts writes it as the bench's report
// (`scan-bench/1`, `baseline: 'webgpu'`), and what the table prints.

/** The library and version every row names (`case.baseline`); the pinned devDependency of apps/bench. */
export const LUMA_LIBRARY = 'luma.gl 9.4.2';

/** How a time was taken: GPU timestamps around the recorded work, or submit → done by wall clock. */
export type TimingMethod = 'timestamp' | 'wall-clock';

/** One timed kernel or primitive: the run statistics and how they were taken. */
export interface Timing extends RunStats {
  readonly method: TimingMethod;
}

/** One primitive at one size, as the harness measured it. */
export interface LumaRecord {
  readonly primitive: LumaPrimitive;
  /** The harness's case (`histogram-256`); absent: the primitive's own name (the reports before the toolbox cases). */
  readonly caseName?: LumaCaseName;
  readonly n: number;
  readonly log2n: number;
  /** `ok`: verified and timed; `failed`: a wrong result (not timed); `error`: something threw or a GPU error was raised. */
  readonly status: 'ok' | 'failed' | 'error';
  /** Every check passed: before the timed runs and again after them. */
  readonly verified: boolean;
  /** What the checks compared, or the first difference. */
  readonly verification: string;
  /** Output words that differed from the CPU reference (failed records whose check got that far). */
  readonly mismatches?: number;
  readonly message?: string;
  /** Timing method of the primitive (null when it was not timed). */
  readonly timing: TimingMethod | null;
  readonly medianMs: number | null;
  readonly p10Ms: number | null;
  readonly p90Ms: number | null;
  readonly minMs: number | null;
  readonly maxMs: number | null;
  readonly runs: number;
  readonly samplesMs: readonly number[];
  /** pack: the elements kept (the bench's `ones`; its bytes model counts their writes). */
  readonly ones?: number;
  /** The bench's bytes of the paired row where `bytesMoved` has no model of it (the toolbox cases). */
  readonly bytes?: number;
  /** reduce-by-key: the runs of the input (the bench's `segments`). */
  readonly segments?: number;
  /** Median of the bench's vec4 copy kernel over n u32, same process, timed right after. */
  readonly copyMedianMs: number | null;
  readonly copy: (Timing & { readonly verified: boolean }) | null;
  /** copy median ÷ primitive median (the bench's ×copy for primitives that move 2·n·4 bytes, e.g. scan). */
  readonly copyTimeRatio: number | null;
  /** What luma ran: class, mode, algorithm and strategy it chose, compute passes and graph nodes per run. */
  readonly luma: Readonly<Record<string, string | number | boolean>>;
}

/**
 * The case a record is of: its `caseName`, else its primitive's (the four primitives before the
 * toolbox cases had one case each, under the primitive's name).
 *
 * @example
 * ```ts
 * caseNameOf({ primitive: 'scan' }); // 'scan'
 * ```
 */
export function caseNameOf(record: Pick<LumaRecord, 'primitive' | 'caseName'>): LumaCaseName {
  if (record.caseName !== undefined) return record.caseName;
  if (record.primitive === 'histogram') throw new Error('a histogram record names its case (histogram-256 or histogram-65536)');
  return record.primitive;
}
