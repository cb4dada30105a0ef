import type { ElementType, ScanOp } from '../element-types.js';
import type { Operator } from '../operators/operator-type.js';

/** Scan algorithms of `@scan/core`. */
export type ScanAlgorithm = 'auto' | 'blelloch' | 'reduce-then-scan' | 'decoupled-fallback';

/** Every concrete scan algorithm, in a stable order. */
export const SCAN_ALGORITHMS: readonly Exclude<ScanAlgorithm, 'auto'>[] = ['blelloch', 'reduce-then-scan', 'decoupled-fallback'];

/**
 * What every plan has: it records into the caller's encoder and owns (and frees) its scratch.
 *
 * A plan is made to be encoded every frame. Its memory is bounded whatever counts and scalars it
 * sees: one scratch buffer per purpose (grown by doubling when a count needs more, exactly to
 * `maxCount` when that is given; outgrown buffers are held until `destroy`, less than the current
 * ones in total), a ring of parameter slots, and a bounded cache of bind groups (new caller
 * buffers make new bind groups; the least recently used are dropped). Once warm, an encode with a
 * new count creates no buffer, bind group or pipeline: it writes its parameters with
 * `queue.writeBuffer` and records its passes.
 */
export interface Plan<Args> {
  /**
   * Records the operation into `encoder`. Buffers are the caller's and bound from offset 0; the
   * plan reuses its scratch between calls and allocates only when `count` grows past what it has.
   * Several `encode` calls may go into one encoder before it is submitted, each with its own count.
   * Across encoders, up to four encodes of one plan may wait unsubmitted at the same time (a frame
   * recorded while the previous one is not submitted yet, several views); a fifth would reuse the
   * parameters of the first.
   */
  encode(encoder: GPUCommandEncoder, args: Args): void;
  /**
   * Resolves when every pipeline this plan may use is compiled. They start compiling, without
   * blocking, when the plan is created; `await plan.ready` before the first frame keeps that frame
   * from waiting for them. An `encode` before then still works: it compiles what it needs on the
   * spot, synchronously (milliseconds on a GPU, seconds on a software adapter). Rejects with a
   * `ScanError` (`GPU_ERROR`) when a kernel fails to compile.
   */
  readonly ready: Promise<void>;
  /** Frees the plan's buffers; the plan cannot be used afterwards. */
  destroy(): void;
  /** Bytes of scratch the plan holds now (the current buffer of each purpose). */
  readonly scratchBytes: number;
  /** Bytes of every GPU buffer the plan holds now: scratch, outgrown scratch, parameter slots, placeholders. */
  readonly memoryBytes: number;
  /** GPU buffers the plan has created over its life (reuse means this stays put). */
  readonly allocations: number;
}

/** Options shared by scan-like plans. */
export interface ScanPlanOptions {
  /** Element type of input and output (default `'u32'`). */
  type?: ElementType;
  /**
   * Operator (default `'add'`): a built-in name (bitwise operators need integer types) or an
   * `Operator` from `defineOperator` (then leave `type` out: the operator sets it).
   */
  // biome-ignore lint/suspicious/noExplicitAny: any operator's record type
  op?: ScanOp | Operator<any>;
  /** Inclusive (true) or exclusive (false, default) scan. */
  inclusive?: boolean;
  /** Scan from the last element to the first (the paper's backward scan). */
  backward?: boolean;
  /** Algorithm (default `'auto'`). */
  algorithm?: ScanAlgorithm;
  /** Largest `count` expected: scratch for it is allocated up front. */
  maxCount?: number;
  /**
   * Largest number of elements one dispatch handles; longer arrays are scanned in chunks with the
   * running total carried between them. Defaults to what one storage binding holds; tests lower it.
   */
  maxChunkElements?: number;
  /**
   * **Unstable**: the single-pass scan's tuning and test hooks, for benchmark sweeps and tests (see
   * {@link ScanTuning}). Not covered by semver: its keys may change or go away in any minor release.
   */
  tuning?: ScanTuning;
}

/**
 * The tuning keys of `createScanPlan` (`options.tuning`), which the repository's tests and
 * benchmark sweeps set; they shape the `'decoupled-fallback'` kernels (`workgroupSize` also the
 * multi-pass ones). **Unstable**: not part of the API contract, not covered by semver; any key may
 * change meaning, default or existence in any minor release. A value of the wrong kind is an
 * `INVALID_ARGUMENT` `ScanError` naming `options.tuning.<key>`.
 *
 * @example
 * ```ts
 * const plan = createScanPlan(ctx, { type: 'u32', tuning: { workgroupSize: 512, slotsPerThread: 2 } });
 * ```
 */
export interface ScanTuning {
  /** Test hook: every look-back falls back (and every count takes the chained kernel). Default false. */
  forceFallback?: boolean;
  /**
   * Invocations per workgroup of the chained kernel (default: the device's largest of 1024 and
   * 256); giving it or `slotsPerThread` also replaces the small-count tier.
   */
  workgroupSize?: number;
  /** Vec4 slots per invocation of the chained kernel (default 4). */
  slotsPerThread?: number;
  /** Look-back reads of a predecessor that is not ready before falling back (default 64). */
  maxSpin?: number;
  /**
   * The largest count one workgroup scans alone, walking the tiles in order (no status to clear,
   * no look-back); 0 turns that path off. Default 4096 (one workgroup of 256 × 4 vec4s).
   */
  oneWorkgroupMax?: number;
  /** Invocations of that one workgroup (default 256). */
  oneWorkgroupSize?: number;
  /** Vec4 slots per invocation of that one workgroup (default 4). */
  oneWorkgroupSlots?: number;
  /** How the partial last vec4 is handled: staged through scratch or read and written in place (default by count and buffers). */
  tail?: 'staged' | 'direct';
}

/**
 * Where an encode's element count comes from: `count`, a number, or `countBuffer`, a u32 the GPU
 * wrote (a culling pass, a previous pack's `packedCount`) at byte `countOffset`, read on the GPU
 * with no read-back. A GPU count needs the plan's `maxCount`: the plan records its work for that
 * many elements, handles min(GPU count, maxCount) of them, and the buffers must hold `maxCount`.
 */
export interface CountSource {
  /** Number of elements; give this or `countBuffer`. */
  count?: number;
  /** A buffer (STORAGE usage) holding the number of elements as a u32. */
  countBuffer?: GPUBuffer;
  /** Byte offset of the count in `countBuffer` (a multiple of 4, default 0). */
  countOffset?: number;
}

/** Buffers of one scan: `count` elements of `input` scanned into `output` (distinct buffers). */
export interface ScanEncodeArgs extends CountSource {
  input: GPUBuffer;
  output: GPUBuffer;
}
