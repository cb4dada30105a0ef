import type { ElementType, ScanOp } from '../element-types.js';

/** Scan algorithms of `@scan/core`. */
export type ScanAlgorithm = 'auto' | 'blelloch' | 'reduce-then-scan' | 'decoupled-fallback';

/** Every concrete scan algorithm, in a stable order. */
export const SCAN_ALGORITHMS: readonly Exclude<ScanAlgorithm, 'auto'>[] = ['blelloch', 'reduce-then-scan', 'decoupled-fallback'];

/** What every plan has: it records into the caller's encoder and owns (and frees) its scratch. */
export interface Plan<Args> {
  /**
   * Records the operation into `encoder`. Buffers are the caller's and bound from offset 0; the
   * plan reuses its scratch between calls and allocates only when `count` grows past what it has.
   * Several `encode` calls may go into one encoder before it is submitted.
   */
  encode(encoder: GPUCommandEncoder, args: Args): void;
  /** Frees the plan's scratch buffers; the plan cannot be used afterwards. */
  destroy(): void;
  /** Bytes of scratch the plan holds now (for tests and memory accounting). */
  readonly scratchBytes: number;
  /** How many times the plan has allocated scratch (reuse means this stays put). */
  readonly allocations: number;
}

/** Options shared by scan-like plans. */
export interface ScanPlanOptions {
  /** Element type of input and output (default `'u32'`). */
  type?: ElementType;
  /** Operator (default `'add'`); bitwise operators need integer types. */
  op?: ScanOp;
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
}

/** Buffers of one scan: `count` elements of `input` scanned into `output` (distinct buffers). */
export interface ScanEncodeArgs {
  input: GPUBuffer;
  output: GPUBuffer;
  count: number;
}
