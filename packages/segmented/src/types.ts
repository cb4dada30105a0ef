import type { Operator, ScanOp } from '@scan/core';

/**
 * Head flags: one per element, 1 marks the first element of a segment. Element 0 always starts a
 * segment — a 0 there is treated as a head (so `[0, 0, 1]` and `[1, 0, 1]` mean the same).
 */
export type HeadFlags = Uint8Array | Uint32Array;

/**
 * Segments as offsets (like CSR `rowPtr`): `offsets[k]` is the first element of segment k, and
 * `offsets[segments]` is the data length. Non-decreasing, starting at 0; equal neighbours are empty
 * segments, which head flags cannot express.
 */
export interface SegmentOffsets {
  readonly offsets: Uint32Array;
}

/** Segmented scan algorithms. */
export type SegmentedScanAlgorithm = 'auto' | 'tree' | 'single-pass';

/** Every concrete segmented scan algorithm, in a stable order. */
export const SEGMENTED_SCAN_ALGORITHMS: readonly Exclude<SegmentedScanAlgorithm, 'auto'>[] = ['tree', 'single-pass'];

/** Options of `segmentedScan`. */
export interface SegmentedScanOptions {
  /** Operator (default `'add'`); bitwise operators need integer data. */
  /** A built-in name, or an `Operator` from `defineOperator` (then leave `type` out: the operator sets it). */
  // biome-ignore lint/suspicious/noExplicitAny: any operator's record type
  op?: ScanOp | Operator<any>;
  /** Include each element in its own result (default false: each segment starts at the identity). */
  inclusive?: boolean;
  /**
   * Scan each segment from its last element to its first. As in the paper, reversing the data turns
   * the head flags into tail flags: the flags shift by one.
   */
  backward?: boolean;
  /** Algorithm (default `'auto'`, which is `'single-pass'`). */
  algorithm?: SegmentedScanAlgorithm;
}

/**
 * Bit-packed head flags, the layout every segmented plan reads on the GPU: bit `i % 32` of word
 * `⌊i / 32⌋` is the flag of element i (1 bit per element, what the paper wanted in 2007).
 */
export const FLAG_BITS_PER_WORD = 32;

/** Words of bit-packed flags for `count` elements. */
export function packedFlagWords(count: number): number {
  return Math.ceil(count / FLAG_BITS_PER_WORD);
}
