import type { RunStats } from './stats.js';
import { LUMA_PRIMITIVES, type LumaPrimitive } from './workload.js';

/** The `schema` field of the report. */
export const LUMA_REPORT_SCHEMA = 'scan-luma-baseline/1';

/** The library every record names. */
export const LUMA_LIBRARY = 'luma.gl 9.4.2';

/** How a time was taken: GPU timestamps around the recorded work, or submit → done by wall clock. */
export type TimingMethod = 'timestamp' | 'wall-clock';

/** One timed kernel or primitive: the run statistics and how they were taken. */
export interface Timing extends RunStats {
  readonly method: TimingMethod;
}

/** One primitive at one size. */
export interface LumaRecord {
  readonly library: string;
  readonly primitive: LumaPrimitive;
  readonly n: number;
  readonly log2n: number;
  /** `ok`: verified and timed; `failed`: a wrong result (not timed); `error`: something threw or a GPU error was raised. */
  readonly status: 'ok' | 'failed' | 'error';
  /** Every check passed: before the timed runs and again after them. */
  readonly verified: boolean;
  /** What the checks compared, or the first difference. */
  readonly verification: string;
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
  /** Median of the bench's vec4 copy kernel over n u32, same process, timed right after. */
  readonly copyMedianMs: number | null;
  readonly copy: (Timing & { readonly verified: boolean }) | null;
  /** copy median ÷ primitive median (the bench's ×copy for primitives that move 2·n·4 bytes, e.g. scan). */
  readonly copyTimeRatio: number | null;
  /** The bench's row this is to be compared with (same n, same device). */
  readonly compareWith: string;
  /** What luma ran: class, mode, algorithm and strategy it chose, compute passes and graph nodes per run. */
  readonly luma: Readonly<Record<string, string | number | boolean>>;
}

/** The whole report written by `--out`. */
export interface LumaReport {
  readonly schema: typeof LUMA_REPORT_SCHEMA;
  readonly library: string;
  readonly date: string;
  readonly commit: string | null;
  readonly host: { readonly node: string; readonly platform: string; readonly arch: string };
  readonly device: {
    readonly vendor: string;
    readonly architecture: string;
    readonly description: string;
    readonly features: readonly string[];
    readonly subgroupMinSize: number | undefined;
    readonly subgroupMaxSize: number | undefined;
  };
  readonly toggles: readonly string[];
  readonly options: {
    readonly sizes: readonly number[];
    readonly only: readonly string[];
    readonly runs: number;
    readonly warmup: number;
    /** Milliseconds of back-to-back copies before each measurement (0: none). */
    readonly heatMs: number;
    readonly seed: number;
  };
  readonly results: readonly LumaRecord[];
}

/**
 * Lists what is wrong with `value` as a {@link LumaReport} (empty when nothing is): the fields,
 * their types, and for each `ok` record the times and verification.
 *
 * @example
 * ```ts
 * checkLumaReport(JSON.parse(text)); // []
 * ```
 */
export function checkLumaReport(value: unknown): string[] {
  const problems: string[] = [];
  const r = value as Partial<LumaReport> | null;
  if (typeof r !== 'object' || r === null) return ['report: expected an object'];
  if (r.schema !== LUMA_REPORT_SCHEMA) problems.push(`schema: expected ${LUMA_REPORT_SCHEMA}`);
  if (r.library !== LUMA_LIBRARY) problems.push(`library: expected ${LUMA_LIBRARY}`);
  if (typeof r.date !== 'string') problems.push('date: expected a string');
  if (r.commit !== null && typeof r.commit !== 'string') problems.push('commit: expected a string or null');
  if (typeof r.device?.description !== 'string') problems.push('device.description: expected a string');
  if (!Array.isArray(r.results)) return [...problems, 'results: expected an array'];
  r.results.forEach((rec, i) => {
    const at = `results[${i}]`;
    if (rec.library !== LUMA_LIBRARY) problems.push(`${at}.library: expected ${LUMA_LIBRARY}`);
    if (!LUMA_PRIMITIVES.includes(rec.primitive)) problems.push(`${at}.primitive: unknown "${rec.primitive}"`);
    if (!Number.isInteger(rec.n) || rec.n !== 2 ** rec.log2n) problems.push(`${at}.n: expected 2^log2n`);
    if (!['ok', 'failed', 'error'].includes(rec.status)) problems.push(`${at}.status: unknown "${rec.status}"`);
    if (typeof rec.verified !== 'boolean') problems.push(`${at}.verified: expected a boolean`);
    if (rec.status === 'ok') {
      if (!rec.verified) problems.push(`${at}: ok but not verified`);
      if (rec.timing !== 'timestamp' && rec.timing !== 'wall-clock') problems.push(`${at}.timing: expected timestamp or wall-clock`);
      for (const key of ['medianMs', 'p10Ms', 'p90Ms', 'minMs', 'maxMs'] as const) {
        const v = rec[key];
        if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) problems.push(`${at}.${key}: expected a time in ms`);
      }
      if (rec.samplesMs.length !== rec.runs) problems.push(`${at}.samplesMs: expected ${rec.runs} samples`);
    } else if (rec.medianMs !== null) problems.push(`${at}: ${rec.status} but timed`);
    if (rec.copyMedianMs !== null && rec.copyMedianMs !== rec.copy?.medianMs)
      problems.push(`${at}.copyMedianMs: differs from copy.medianMs`);
  });
  return problems;
}
