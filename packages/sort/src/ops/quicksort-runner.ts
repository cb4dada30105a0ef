import { BufferUsage, type ScanContext, ScanError } from '@scan/core';
import { assertUsable, checkEncodeArgs } from '@scan/core/kit';
import { createQuicksortRounds } from '../plans/quicksort-rounds.js';
import type { SortBuffers, SortShape } from '../plans/sort-shape.js';

/**
 * Most rounds recorded between two read-backs of the stop test. Batches double from 2 up to this:
 * a sort that needs R rounds runs fewer than 2R + 64, in about log2(R) + R / 64 round trips.
 */
export const QUICKSORT_MAX_BATCH = 64;

/**
 * The hard cap on the rounds of a quicksort of `count` keys: first-element pivots split every
 * unsorted segment within two rounds, so 2·(count − 1) rounds always suffice (reversed keys take
 * about that many); past the cap something is wrong, and the sort throws rather than loop.
 *
 * @example
 * ```ts
 * maxQuicksortRounds(1000); // 2064
 * ```
 */
export function maxQuicksortRounds(count: number): number {
  return 2 * count + QUICKSORT_MAX_BATCH;
}

/** Test and benchmark hooks of {@link quicksortBuffers}; not part of the contract. */
export interface QuicksortHooks {
  /** The hard cap on rounds (default {@link maxQuicksortRounds} of the count); tests lower it to reach the guard. */
  maxRounds?: number;
  /** Filled in as the sort runs: rounds recorded and stop tests read back. */
  stats?: { rounds: number; checks: number };
}

/**
 * Sorts `buffers` in place on the GPU with the segmented quicksort of Sengupta et al. 2007 (§4.1):
 * every segment's first key is its pivot, keys compare with it `>` and `>=` on alternate rounds,
 * split-and-segment partitions each segment in two, and a global reduction — the number of
 * adjacent out-of-order pairs — decides when to stop (see `createQuicksortRounds` for a round).
 * Stable; values move with their keys; keys and values come back bit for bit. `shape.bits` must be
 * the whole key, `[0, 32]` (a comparison sort has no bit range).
 *
 * The host reads back only the 4-byte stop count, after batches of 2, 4, 8, … up to
 * {@link QUICKSORT_MAX_BATCH} rounds: the extra rounds of a batch are harmless (a sorted array stays
 * sorted), and batches of even length leave the keys in the caller's buffers, so no copy is needed
 * at the end. Rounds on reversed keys grow like 2·count (one key leaves its segment per two
 * rounds), as in the paper; past {@link maxQuicksortRounds} it throws `GPU_ERROR`.
 *
 * Run it inside the caller's error scopes (`withSession` / `runGuarded`), which turn WebGPU
 * validation and out-of-memory errors into `ScanError`s; the buffers need STORAGE usage.
 *
 * @example
 * ```ts
 * await withSession(ctx, 'sort', async (s) => {
 *   const keys = s.upload(new Float32Array([3, -1, NaN, 2]), 'keys');
 *   await quicksortBuffers(ctx, { keyType: 'f32', valueType: undefined, descending: false, bits: [0, 32] }, { keys, count: 4 });
 *   // keys now holds [-1, 2, 3, NaN]
 * });
 * ```
 */
export async function quicksortBuffers(
  ctx: ScanContext,
  shape: SortShape,
  buffers: SortBuffers,
  hooks: QuicksortHooks = {},
): Promise<void> {
  assertUsable(ctx);
  if (shape.bits[0] !== 0 || shape.bits[1] !== 32) {
    throw new ScanError(
      'UNSUPPORTED',
      `quicksort: shape.bits = [${shape.bits[0]}, ${shape.bits[1]}]: the quicksort compares whole keys, [0, 32]`,
      {
        argument: 'shape.bits',
      },
    );
  }
  const hasValues = shape.valueType !== undefined;
  const n = checkEncodeArgs('quicksort', buffers, hasValues ? { keys: 4, values: 4 } : { keys: 4 });
  if (!hasValues && buffers.values !== undefined) {
    throw new ScanError(
      'INVALID_ARGUMENT',
      'quicksort: buffers.values is given but the shape sorts keys only (shape.valueType is undefined)',
      {
        argument: 'buffers.values',
      },
    );
  }
  if (n <= 1) return;
  const device = ctx.device;
  const rounds = createQuicksortRounds(ctx, shape, buffers);
  const staging = device.createBuffer({ label: 'quicksort stop test', size: 4, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
  const limit = hooks.maxRounds ?? maxQuicksortRounds(n);
  const stats = hooks.stats ?? { rounds: 0, checks: 0 };
  try {
    // Every pipeline compiled ahead, without stalling, rather than on the spot at the first round.
    await rounds.ready;
    let batch = 2;
    for (let first = true; ; first = false) {
      const encoder = device.createCommandEncoder({ label: 'quicksort' });
      if (first) rounds.encodeStart(encoder);
      rounds.encodeRounds(encoder, batch);
      encoder.copyBufferToBuffer(rounds.encodeDisorder(encoder), 0, staging, 0, 4);
      device.queue.submit([encoder.finish()]);
      await staging.mapAsync(0x0001 /* GPUMapMode.READ */);
      const outOfOrder = new Uint32Array(staging.getMappedRange())[0]!;
      staging.unmap();
      stats.rounds = rounds.rounds;
      stats.checks++;
      if (outOfOrder === 0) break;
      if (rounds.rounds >= limit) {
        throw new ScanError(
          'GPU_ERROR',
          `quicksort: ${outOfOrder} adjacent pairs still out of order after ${rounds.rounds} rounds (count = ${n}); ` +
            `first-element pivots sort any input within 2·(count − 1) rounds, so the GPU results are wrong`,
        );
      }
      batch = Math.min(2 * batch, QUICKSORT_MAX_BATCH);
    }
    // Batches of even length end in the caller's buffers; this records nothing unless that changes.
    if (!rounds.home) {
      const encoder = device.createCommandEncoder({ label: 'quicksort' });
      rounds.encodeHome(encoder);
      device.queue.submit([encoder.finish()]);
    }
  } finally {
    // Buffers used by submitted work may be destroyed at once: WebGPU frees them after the work.
    staging.destroy();
    rounds.destroy();
  }
}
