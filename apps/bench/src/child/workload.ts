import type { ElementType, ScanContext } from '@scan/core';
import type { CaseCommon } from '../case-types.js';
import type { SpmvMatrixInfo } from '../report.js';
import type { CheckOutcome } from './device-ops.js';
import { readWords } from './gpu.js';

/** Largest size whose output is also read back and compared with `@scan/core/cpu`. */
export const CPU_COMPARE_MAX = 2 ** 16;

/** What every workload has, whichever way its run is recorded and timed. */
interface WorkloadBase {
  /** Bytes the operation must move (see `bytesMoved`). */
  readonly bytes: number;
  /** The buffer the checks read (the primitive's output; the partial sums of read-only; hisparse-add: C·x/3). */
  readonly output: GPUBuffer;
  /** 1-flags in the generated flags (enumerate, split, pack). */
  readonly ones?: number;
  /** Segments in the generated head flags (segmented cases). */
  readonly segments?: number;
  /** SpMV cases: the matrix and what the plan chose. */
  readonly matrix?: SpmvMatrixInfo;
  /** Checks the output of the last run on the GPU with an independent kernel. */
  verify(): Promise<CheckOutcome>;
  /** Reads inputs and output back and counts elements that differ from the CPU reference. */
  compareWithCpu?(): Promise<number>;
  /** Frees every buffer and plan (and, for an {@link AsyncWorkload}, the last run's result). */
  destroy(): void;
}

/**
 * One measured operation with its data already on the GPU, recorded into one command encoder and
 * timed with the GPU timer (timestamps where the device has them). `encode` must be repeatable:
 * every timed run recomputes the same output from the same inputs (unchanged, or restored by `prepare`).
 */
export interface EncodedWorkload extends WorkloadBase {
  /**
   * Untimed work that must come before every run: an in-place primitive (the sorts) restores its
   * unsorted input here. It is submitted on its own and waited for before the run is recorded (see
   * `prepareRun`), so no timestamp can include it.
   */
  prepare?(encoder: GPUCommandEncoder): void;
  /** Records one run (after `prepare`, when there is one). */
  encode(encoder: GPUCommandEncoder): void;
  readonly run?: undefined;
}

/**
 * One measured operation that cannot be recorded into one encoder (hisparse-add: it counts on the
 * GPU, reads a few words back, allocates its result, then fills it in several submissions). `run`
 * performs one whole operation; it is timed by wall clock, from the call to the queue's
 * `onSubmittedWorkDone` after it resolves (`measure`), and the case reports `timer: 'wall-clock'`.
 */
export interface AsyncWorkload extends WorkloadBase {
  /** Performs one whole operation, making a new result each time (kept until `discard`). */
  run(): Promise<void>;
  /**
   * Untimed, before every run (see `prepareRun`): frees the result the previous run made, so
   * memory does not grow over the timed runs. The last run's result stays for the checks; `destroy` frees it.
   */
  discard?(): void;
  readonly encode?: undefined;
  readonly prepare?: undefined;
}

/** A workload in either form: {@link EncodedWorkload} (most) or {@link AsyncWorkload}. */
export type Workload = EncodedWorkload | AsyncWorkload;

/**
 * Thrown by a workload factory when the device lacks what the case needs (a feature, not a size):
 * the case becomes a `skipped` row with this message rather than an error.
 *
 * @example
 * ```ts
 * throw new UnsupportedCaseError('unsupported on this device: no chromium-experimental-subgroup-matrix');
 * ```
 */
export class UnsupportedCaseError extends Error {
  override readonly name = 'UnsupportedCaseError';
}

/**
 * Throws {@link UnsupportedCaseError} (the case is skipped) when `n` elements of `bytes` bytes each
 * pass what one storage binding of this device holds, or one buffer: the plans take at most a
 * binding of records, and a case past it would only fail in its setup.
 *
 * @example
 * ```ts
 * checkFitsBinding(ctx, n, 16, 'values'); // n = 2^28 on an H100: skipped (4 GiB of 16-byte values)
 * ```
 */
export function checkFitsBinding(ctx: ScanContext, n: number, bytes: number, what: string): void {
  const total = bytes * n;
  const limits = pastBinding(ctx, total);
  if (limits !== undefined) throw new UnsupportedCaseError(`n = ${n} ${what} of ${bytes} bytes need ${total}-byte buffers; ${limits}`);
}

/**
 * The device's limits, as the end of a message, when a buffer of `bytes` passes one storage
 * binding or one buffer of it; undefined when it fits. The one size check behind
 * {@link checkFitsBinding} and the runner's check of a case's own arrays.
 *
 * @example
 * ```ts
 * pastBinding(ctx, 2 ** 33); // 'the device binds at most … and allocates at most …'
 * ```
 */
export function pastBinding(ctx: ScanContext, bytes: number): string | undefined {
  const { maxStorageBufferBindingSize: binding, maxBufferSize } = ctx.caps.limits;
  return bytes > Math.min(binding, maxBufferSize)
    ? `the device binds at most ${binding} and allocates at most ${maxBufferSize}`
    : undefined;
}

/** Builds the workload of a case: allocates, generates the inputs on the GPU, creates the plan. */
export type WorkloadFactory<C extends CaseCommon = CaseCommon> = (ctx: ScanContext, c: C) => Promise<Workload>;

/** A host typed array of `type` (small read-backs only). */
export type HostArray = Uint32Array | Int32Array | Float32Array;

/**
 * Reads `n` elements of `buffer` as a typed array of `type` (for CPU comparison at small sizes).
 *
 * @example
 * ```ts
 * const input = await readArray(ctx, buffer, n, 'f32'); // Float32Array(n)
 * ```
 */
export async function readArray(ctx: ScanContext, buffer: GPUBuffer, n: number, type: ElementType): Promise<HostArray> {
  const words = await readWords(ctx, buffer, n);
  if (type === 'i32') return new Int32Array(words.buffer, 0, n);
  if (type === 'f32') return new Float32Array(words.buffer, 0, n);
  return words;
}

/**
 * Elements where `actual` differs from `expected` (NaN equals NaN; +0 equals -0), counting a length
 * difference as that many mismatches.
 *
 * @example
 * ```ts
 * countDifferences(new Uint32Array([1, 2]), new Uint32Array([1, 3])); // 1
 * ```
 */
export function countDifferences(expected: ArrayLike<number>, actual: ArrayLike<number>): number {
  let wrong = Math.abs(expected.length - actual.length);
  const n = Math.min(expected.length, actual.length);
  for (let i = 0; i < n; i++) {
    const e = expected[i]!;
    const a = actual[i]!;
    if (e !== a && !(Number.isNaN(e) && Number.isNaN(a))) wrong++;
  }
  return wrong;
}

/** The type-appropriate generator of random inputs (f32 gets small integers so sums stay exact). */
export function randomFillMode(type: ElementType): 'random' | 'small-f32' {
  return type === 'f32' ? 'small-f32' : 'random';
}

/** The poison written into outputs before the first run, so unwritten elements fail the check. */
export const POISON = 0xdeadbeef;
