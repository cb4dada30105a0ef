import type { CaseRecord, PlanTuning } from './case-types.js';
import type { TimingStats } from './stats.js';

/** Identifies the report format; bump when a field changes meaning. */
export const REPORT_SCHEMA = 'scan-bench/1';

/**
 * How a case ended. `failed`: the result was wrong (never timed). `error`: the child threw (plan
 * rejected the input, GPU validation error, missing export). `crashed`: the child died without a
 * result (Dawn in Node, see DESIGN.md). `timeout`: killed after `--timeout`. `skipped`: too large
 * for the device's limits, or unsupported on this device (a missing feature, e.g. the tcu cases'
 * subgroup-matrix path without subgroup matrices).
 */
export type CaseStatus = 'ok' | 'failed' | 'error' | 'crashed' | 'timeout' | 'skipped';

/** Timing of one kernel sequence, with throughput over the bytes it must move. */
export interface Measurement extends TimingStats {
  readonly samplesMs: readonly number[];
  readonly bytes: number;
  readonly gbps: number;
  readonly gelemsPerS: number;
}

/**
 * What the GPU (and, at small sizes, the CPU reference) said about the result. A tool whose check
 * is not a GPU kernel (the luma.gl baseline reads every output word back and compares it on the
 * CPU) leaves `gpuMismatches` out and gives `cpuCompared`, `cpuMismatches` and `detail`.
 */
export interface Verification {
  /** Elements the independent GPU check kernel found wrong (0 = verified); absent where no GPU check ran. */
  readonly gpuMismatches?: number;
  /** First wrong index in scan order, when there was one. */
  readonly firstMismatch?: number;
  /** Whether the output was also read back and compared with `@scan/core/cpu` (sizes ≤ 2^16). */
  readonly cpuCompared: boolean;
  readonly cpuMismatches?: number;
  /** Mismatches found by the GPU check after the timed runs (catches races that come and go). */
  readonly gpuMismatchesAfterTiming?: number;
  /** What the check compared, in words (the luma baseline: `exclusive scan: 1024 words equal`). */
  readonly detail?: string;
}

/**
 * Whether a result counts as verified: the bench's GPU check found nothing wrong, or, for a tool
 * without one, the whole output was compared on the CPU and nothing differed.
 *
 * @example
 * ```ts
 * isVerified({ gpuMismatches: 0, cpuCompared: false }); // true
 * isVerified({ cpuCompared: true, cpuMismatches: 0, detail: 'sum of 1024 words = 7' }); // true
 * ```
 */
export function isVerified(v: Verification | undefined): boolean {
  if (!v) return false;
  if (v.gpuMismatches !== undefined) return v.gpuMismatches === 0;
  return v.cpuCompared && v.cpuMismatches === 0;
}

/**
 * The kinds of report that hold other libraries' results instead of the project's: `cuda` from
 * `baselines/cuda.py` (CUB, cuSPARSE, torch), `webgpu` from `baselines/luma` (luma.gl). Each row's
 * library is its `case.baseline`.
 */
export type BaselineKind = 'cuda' | 'webgpu';

/** Every {@link BaselineKind}, for validation. */
export const BASELINE_KINDS: readonly BaselineKind[] = ['cuda', 'webgpu'];

/** SpMV cases: the matrix multiplied and what the plan made of it. */
export interface SpmvMatrixInfo {
  /** Suite name (`biased-1M`) or the `.mtx` file's base name. */
  readonly name: string;
  readonly rows: number;
  readonly cols: number;
  readonly nnz: number;
  /** Right-hand sides (spmm: columns of X). */
  readonly k: number;
  /** The algorithm the plan runs (`plan.algorithm`: what `'auto'` chose). */
  readonly algorithm: string;
  /** Longest row of op(A) and the mean (from the plan's statistics). */
  readonly maxRowLength: number;
  readonly meanRowLength: number;
  /** HiSparse cases: bytes of the matrix in HiSparse (its reachable nodes and the pool header), and in CSR. */
  readonly memoryBytes?: number;
  readonly csrBytes?: number;
  /** HiSparse cases: levels of the tree. */
  readonly levels?: number;
}

/** Median and 90th percentile of per-frame samples, in milliseconds, with the samples themselves. */
export interface FrameStats {
  readonly medianMs: number;
  /** The 90th percentile (nearest rank): 1 frame in 10 takes longer. */
  readonly p90Ms: number;
  readonly minMs: number;
  readonly maxMs: number;
  readonly samplesMs: readonly number[];
}

/**
 * GPU objects created through the device, by method. `pipelines` counts `createComputePipeline`
 * (a synchronous compile), `asyncPipelines` `createComputePipelineAsync`.
 */
export interface CreationCounts {
  readonly buffers: number;
  readonly bindGroups: number;
  readonly pipelines: number;
  readonly asyncPipelines: number;
}

/** A plan's memory accounting at one moment (the fields the plan has). */
export interface PlanMemory {
  /** How many times the plan has allocated scratch (`plan.allocations`). */
  readonly allocations?: number;
  /** Bytes of scratch it holds (`plan.scratchBytes`). */
  readonly scratchBytes?: number;
  /** Every byte it holds, scratch and parameters (`plan.memoryBytes`, where the plan has it). */
  readonly memoryBytes?: number;
}

/**
 * frame-loop: a plan recorded into the frame's own encoder every frame, with a seeded random count
 * in [n/2, n] that changes every frame (see the README's frame-loop section).
 */
export interface FrameLoopRecord {
  /** Measured frames and the untimed warm-up frames before them. */
  readonly frames: number;
  readonly warmupFrames: number;
  /** Smallest and largest count of the measured frames. */
  readonly countMin: number;
  readonly countMax: number;
  /** The count of the last frame, whose output was verified after the loop. */
  readonly lastCount: number;
  /** JavaScript time of `plan.encode(...)` alone (performance.now() around the call), per frame. */
  readonly encode: FrameStats;
  /**
   * GPU time per frame: timestamps of two empty compute passes around the plan's commands. Absent
   * without `timestamp-query`. Read through a ring of `inFlight` read-back buffers, so frames run
   * back to back with at most that many in flight; nothing waits for a frame's own result.
   */
  readonly gpu?: FrameStats;
  /** Frames submitted before the loop waits for the oldest one's timestamps (the ring's length). */
  readonly inFlight: number;
  /** Wall-clock time of the measured frames ÷ frames: the frame interval the loop sustained (CPU or GPU bound). */
  readonly wallMsPerFrame: number;
  /** Objects created through the device over the measured frames (the bench itself creates none there). */
  readonly created: CreationCounts;
  /** `created` ÷ frames. */
  readonly createdPerFrame: CreationCounts;
  /** The part of `created` made outside `plan.encode` (work the plan deferred, e.g. to a callback). */
  readonly createdOutsideEncode: CreationCounts;
  /** The plan's memory after creation, before the measured frames (after the warm-up) and after them. */
  readonly planAtCreation: PlanMemory;
  readonly planBefore: PlanMemory;
  readonly planAfter: PlanMemory;
  /** Milliseconds `await plan.ready` took after creation; absent when the plan has no `ready`. */
  readonly readyMs?: number;
}

/** first-call: the first use of a plan in a fresh process (its pipelines not compiled yet). Wall-clock milliseconds. */
export interface FirstCallRecord {
  /** `create*Plan(...)`. */
  readonly createMs: number;
  /** `await plan.ready` (the `wait` variant); absent for `no-wait`. */
  readonly readyMs?: number;
  /** Whether the plan has `ready` (false: old plans; the `wait` variant then reports `ready: n/a`). */
  readonly hasReady: boolean;
  /** JavaScript time of the first `plan.encode(...)`. */
  readonly encodeMs: number;
  /** From `queue.submit` to `onSubmittedWorkDone` of the first frame. */
  readonly frameMs: number;
  /** From before creation to the first frame done: create + ready + encode + submit-to-done (+ small gaps). */
  readonly totalMs: number;
  /** The count the first frame ran (n). */
  readonly count: number;
  /** Objects created from `create*Plan` until the first frame was done. */
  readonly created: CreationCounts;
}

/** One row of the report. */
export interface CaseResult {
  /** The case as its module made it (a report read back may hold primitives and fields of other tools). */
  readonly case: CaseRecord;
  readonly status: CaseStatus;
  /** Why the status is not `ok`. */
  readonly message?: string;
  readonly timer?: 'timestamp' | 'wall-clock';
  /** The primitive's own timing. */
  readonly measurement?: Measurement;
  /** The vec4 copy kernel at the same size in the same process. */
  readonly copy?: Measurement;
  /** The vec4 read-only kernel at the same size (reduce cases). */
  readonly readOnly?: Measurement;
  /**
   * Primitive GB/s ÷ copy GB/s (equals copy time ÷ primitive time when both move 2·n·4 bytes).
   * Absent when either time is below the timer's resolution (0 ms).
   */
  readonly ratioCopy?: number;
  /** Primitive GB/s ÷ read-only GB/s (reduce, segmented-reduce). */
  readonly ratioReadOnly?: number;
  /**
   * segmented-scan: the unsegmented `decoupled-fallback` u32 add exclusive scan at the same size,
   * timed in the same process.
   */
  readonly scan?: Measurement;
  /** segmented-scan: median time ÷ the unsegmented scan's median time (lower is better). */
  readonly ratioScanTime?: number;
  /** 1-flags of the generated flags (enumerate, split, pack). */
  readonly ones?: number;
  /** Segments in the generated head flags, counted on the GPU (segmented cases). */
  readonly segments?: number;
  /** SpMV cases: the matrix, k and the algorithm the plan chose. */
  readonly matrix?: SpmvMatrixInfo;
  /** SpMV cases: 2·nnz·k ÷ median time, in 10^9 floating-point operations per second. */
  readonly gflops?: number;
  /** spmm: the single-vector product (`spmv` with `'auto'`) of the same matrix, same process. */
  readonly spmv?: Measurement;
  /** spmm: median time ÷ the single-vector product's median time (k columns cost this many products). */
  readonly ratioSpmvTime?: number;
  readonly verification?: Verification;
  /** frame-loop cases (instead of `measurement`; no copy baseline). */
  readonly frameLoop?: FrameLoopRecord;
  /** first-call cases (instead of `measurement`; no copy baseline). */
  readonly firstCall?: FirstCallRecord;
  /** Last lines of the child's stderr when it did not end cleanly. */
  readonly stderrTail?: string;
  readonly exit?: { readonly code: number | null; readonly signal: string | null };
  /** Wall-clock time of the whole child process (compiling, generating, verifying, timing). */
  readonly wallMs?: number;
  /**
   * A baseline report's row: what the other library ran, beyond the case (luma.gl: its class and
   * settings, the algorithm it chose, the kernels of its graph, compute passes per run).
   */
  readonly baselineInfo?: Readonly<Record<string, string | number | boolean>>;
}

/** The device as the child saw it (`ctx.caps`), copied into the report. */
export interface DeviceInfo {
  readonly adapter: {
    readonly vendor: string;
    readonly architecture: string;
    readonly description: string;
    /** The device name from Dawn's adapter info, when it has one. */
    readonly device?: string;
  };
  readonly features: Readonly<Record<string, boolean>>;
  readonly subgroupMinSize?: number;
  readonly subgroupMaxSize?: number;
  readonly limits: Readonly<Record<string, number>>;
}

/** The settings a run used, so a report can be reproduced. */
export interface ReportOptions {
  readonly sizes: readonly number[];
  readonly runs: number;
  readonly warmup: number;
  readonly seed: number;
  readonly density: number;
  readonly timeoutS: number;
  readonly only?: readonly string[];
  readonly types?: readonly string[];
  readonly algorithms?: readonly string[];
  /** Mean segment lengths of the segmented cases (absent in reports from before they existed). */
  readonly segmentMeans?: readonly number[];
  /** `SCAN_DAWN_TOGGLES` as the children saw it. */
  readonly dawnToggles?: string;
  /** Internal plan options of a sweep (`--tuning`); absent in ordinary runs. */
  readonly tuning?: PlanTuning;
  /** Matrices of the SpMV cases (`--matrices`, `--mtx`), when given. */
  readonly matrices?: readonly string[];
  /** Node sizes of the HiSparse cases (`--node-sizes`), when given. */
  readonly nodeSizes?: readonly number[];
  /** The HiSparse products also ran on pools with region leaves (`--region-leaves`), when given. */
  readonly regionLeaves?: boolean;
  /** Milliseconds of back-to-back copies before each measurement, where a tool sets it (the luma baseline's `--heat-ms`). */
  readonly heatMs?: number;
}

/** The JSON file `--out` writes and the dashboard reads. */
export interface BenchReport {
  readonly schema: typeof REPORT_SCHEMA;
  /** ISO 8601 time the run started. */
  readonly date: string;
  /** `git rev-parse HEAD` of the parent, or `--commit`; null when neither is available. */
  readonly commit: string | null;
  /** Whether the working tree had uncommitted changes (undefined when unknown). */
  readonly dirty?: boolean;
  /** Where the run happened; a dashboard live run has no Node and gives the browser's user agent. */
  readonly host: { readonly node: string; readonly platform: string; readonly arch: string; readonly userAgent?: string };
  readonly options: ReportOptions;
  /** From the first child that created a device; null if none did. */
  readonly device: DeviceInfo | null;
  /** Set when the rows are other libraries' results, not the project's (see {@link BaselineKind}). */
  readonly baseline?: BaselineKind;
  /** What a reader must know that the fields do not say (a converted report: where from, what was inferred). */
  readonly notes?: readonly string[];
  readonly results: readonly CaseResult[];
}

const STATUSES: readonly CaseStatus[] = ['ok', 'failed', 'error', 'crashed', 'timeout', 'skipped'];

/**
 * Checks that `value` has the shape of a {@link BenchReport}; returns the problems found (empty when
 * it is valid). The dashboard uses it to reject a wrong file with a useful message.
 *
 * @example
 * ```ts
 * const problems = validateReport(JSON.parse(text));
 * if (problems.length) throw new Error(problems.join('\n'));
 * ```
 */
export function validateReport(value: unknown): string[] {
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null) return ['report: not an object'];
  const r = value as Record<string, unknown>;
  if (r.schema !== REPORT_SCHEMA) problems.push(`schema: expected "${REPORT_SCHEMA}", got ${JSON.stringify(r.schema)}`);
  if (typeof r.date !== 'string' || Number.isNaN(Date.parse(r.date))) problems.push('date: expected an ISO date string');
  if (r.commit !== null && typeof r.commit !== 'string') problems.push('commit: expected a string or null');
  if (typeof r.options !== 'object' || r.options === null) problems.push('options: missing');
  if (r.baseline !== undefined && !BASELINE_KINDS.includes(r.baseline as BaselineKind))
    problems.push(`baseline: expected one of ${BASELINE_KINDS.join(', ')}, got ${JSON.stringify(r.baseline)}`);
  if (!Array.isArray(r.results)) return [...problems, 'results: expected an array'];
  for (const [i, row] of (r.results as unknown[]).entries()) {
    const x = row as Partial<CaseResult> | null;
    if (typeof x !== 'object' || x === null) {
      problems.push(`results[${i}]: not an object`);
      continue;
    }
    if (!x.case || typeof x.case.id !== 'string' || typeof x.case.n !== 'number') problems.push(`results[${i}].case: missing id or n`);
    if (!STATUSES.includes(x.status as CaseStatus)) problems.push(`results[${i}].status: ${JSON.stringify(x.status)} is not a status`);
    if (x.status === 'ok') {
      const m = x.measurement;
      if (x.frameLoop !== undefined || x.firstCall !== undefined) {
        problems.push(...frameRecordProblems(x, `results[${i}]`));
      } else if (!m || typeof m.medianMs !== 'number' || !Array.isArray(m.samplesMs) || m.samplesMs.length === 0) {
        // gbps may be null: a kernel faster than the timer's resolution measures 0 ms at tiny sizes.
        problems.push(`results[${i}].measurement: an ok case needs medianMs and samplesMs`);
      }
      if (!isVerified(x.verification)) problems.push(`results[${i}].verification: an ok case must be verified`);
    }
  }
  return problems;
}

const CREATION_KINDS: readonly (keyof CreationCounts)[] = ['buffers', 'bindGroups', 'pipelines', 'asyncPipelines'];

/** The problems of an ok row's frame-loop or first-call record (the views read these fields without checking). */
function frameRecordProblems(x: Partial<CaseResult>, where: string): string[] {
  const problems: string[] = [];
  const counts = (c: unknown, name: string) => {
    const r = c as Record<string, unknown> | undefined;
    if (!r || CREATION_KINDS.some((k) => typeof r[k] !== 'number'))
      problems.push(`${where}.${name}: expected ${CREATION_KINDS.join(', ')}`);
  };
  const f = x.frameLoop;
  if (f) {
    if (typeof f.frames !== 'number' || typeof f.encode?.medianMs !== 'number' || !Array.isArray(f.encode.samplesMs)) {
      problems.push(`${where}.frameLoop: an ok frame-loop case needs frames and encode.medianMs and samplesMs`);
    }
    counts(f.created, 'frameLoop.created');
    counts(f.createdPerFrame, 'frameLoop.createdPerFrame');
  }
  const c = x.firstCall;
  if (c) {
    if (['createMs', 'encodeMs', 'frameMs', 'totalMs'].some((k) => typeof (c as unknown as Record<string, unknown>)[k] !== 'number')) {
      problems.push(`${where}.firstCall: an ok first-call case needs createMs, encodeMs, frameMs and totalMs`);
    }
    counts(c.created, 'firstCall.created');
  }
  return problems;
}
