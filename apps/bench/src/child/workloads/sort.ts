import type { ScanContext } from '@scan/core';
import { createSortPlan } from '@scan/sort';
import { sort as cpuSort } from '@scan/sort/cpu';
import type { BenchCase } from '../../case-types.js';
import { bytesMoved } from '../../metrics.js';
import { sortAlgorithmOf } from '../../sort-cases.js';
import { type CheckOutcome, runCheck } from '../device-ops.js';
import { BufferPool, encodeKernel, readWords, submitAndWait } from '../gpu.js';
import { fillWgsl } from '../kernels/fill.js';
import {
  CHECKSUM_WORDS,
  checkSortOrderWgsl,
  checksumCompareWgsl,
  type SortCheckLayout,
  sortCheckBindings,
  sortChecksumWgsl,
} from '../kernels/sort-checks.js';
import { sortKeysWgsl } from '../kernels/sort-keys.js';
import { countDifferences, readArray, type WorkloadFactory } from '../workload.js';

/** Offset between the case seed and the keys' seed, so sort keys differ from other cases' data. */
const KEY_SEED_OFFSET = 0x50a7;

/** Salt of the unsegmented checksum (any constant; the segmented one salts by segment). */
const CHECKSUM_SALT = 0x2545f491;

/** Segments of a segmented sort as the checks read them. */
export interface SortSegments {
  /** ⌈n/32⌉ words of bit-packed head flags. */
  readonly bits: GPUBuffer;
  /** Inclusive prefix sum of the heads per word (the bench's own), for the segment of an element. */
  readonly headsThroughWord: GPUBuffer;
}

/** The GPU-resident data of a sort case and its checks. */
export interface SortData {
  /** The buffer the plan sorts in place (the checks read it). */
  readonly keys: GPUBuffer;
  /** The unsorted keys, never written after setup: `restore` copies them into `keys`. */
  readonly original: GPUBuffer;
  /** The values (sort-pairs): their original indices, written again by `restore`. */
  readonly values?: GPUBuffer;
  /** Records the untimed restore of the unsorted input before a run (the plan sorts in place). */
  restore(encoder: GPUCommandEncoder): void;
  /** Checks the sorted keys (and values) on the GPU (see `checkSortOrderWgsl`, `sortChecksumWgsl`). */
  verify(): Promise<CheckOutcome>;
}

/**
 * Generates the input of a sort case on the GPU and builds its checks: random keys of `c.type`
 * (see `sortKeysWgsl`) into `original` and `keys`, values `0..n−1` when `pairs`, and — for keys
 * only — the multiset checksum of the unsorted keys (salted by segment when `segments` is given).
 *
 * @example
 * ```ts
 * const d = await prepareSortData(ctx, pool, c, { pairs: true });
 * ```
 */
export async function prepareSortData(
  ctx: ScanContext,
  pool: BufferPool,
  c: BenchCase,
  options: { pairs: boolean; segments?: SortSegments; original?: GPUBuffer },
): Promise<SortData> {
  const n = c.n;
  const { pairs, segments } = options;
  const original = options.original ?? pool.storage(4 * n, 'sort original keys');
  const keys = pool.storage(4 * n, 'sort keys');
  const values = pairs ? pool.storage(4 * n, 'sort values') : undefined;
  const iota = { key: 'bench/fill/iota-u32', wgsl: () => fillWgsl('iota-u32') };
  const iotaParams = pool.params(n);
  const restore = (encoder: GPUCommandEncoder) => {
    encoder.copyBufferToBuffer(original, 0, keys, 0, 4 * n);
    if (values) encodeKernel(ctx, encoder, iota, [values, iotaParams], { invocations: n });
  };
  const setup = ctx.device.createCommandEncoder();
  const generate = { key: `bench/sort-keys/${c.type}`, wgsl: () => sortKeysWgsl(c.type) };
  encodeKernel(ctx, setup, generate, [original, pool.params(n, c.seed + KEY_SEED_OFFSET)], { invocations: n });
  restore(setup);
  await submitAndWait(ctx, setup);

  const layout: SortCheckLayout = { pairs, segmented: segments !== undefined };
  const direction = c.descending ? 'desc' : 'asc';
  const order = {
    key: `bench/check-sort/${c.type}/${direction}/${pairs ? 'pairs' : 'keys'}/${segments ? 'segmented' : 'whole'}`,
    wgsl: () => checkSortOrderWgsl(c.type, c.descending ?? false, layout),
  };
  // Keys only: the order alone does not prove a permutation, so the multiset checksum of the
  // keys must also match that of the unsorted ones (pairs are proved exactly by the order check).
  const checksum = { key: `bench/sort-checksum/${segments ? 'segmented' : 'plain'}`, wgsl: () => sortChecksumWgsl(segments !== undefined) };
  const compare = { key: 'bench/sort-checksum-compare', wgsl: checksumCompareWgsl };
  const checksumParams = pool.params(n, CHECKSUM_SALT);
  const encodeChecksum = (encoder: GPUCommandEncoder, of: GPUBuffer, sums: GPUBuffer) => {
    encoder.clearBuffer(sums);
    const extra = segments ? [segments.bits, segments.headsThroughWord] : [];
    encodeKernel(ctx, encoder, checksum, [of, sums, ...extra, checksumParams], { invocations: n });
  };
  let want: GPUBuffer | undefined;
  let got: GPUBuffer | undefined;
  if (!pairs) {
    want = pool.storage(4 * CHECKSUM_WORDS, 'sort checksum of the input');
    got = pool.storage(4 * CHECKSUM_WORDS, 'sort checksum of the output');
    const sums = ctx.device.createCommandEncoder();
    encodeChecksum(sums, original, want);
    await submitAndWait(ctx, sums);
  }
  const orderParams = pool.params(n);
  return {
    keys,
    original,
    ...(values ? { values } : {}),
    restore,
    verify: () =>
      runCheck(ctx, pool, (encoder, errors) => {
        const bindings = sortCheckBindings(layout, {
          keys,
          ...(values ? { values } : {}),
          original,
          ...(segments ? { bits: segments.bits } : {}),
          errors,
          params: orderParams,
        });
        encodeKernel(ctx, encoder, order, bindings, { invocations: n });
        if (want && got) {
          encodeChecksum(encoder, keys, got);
          encodeKernel(ctx, encoder, compare, [got, want, errors], { groups: 1 });
        }
      }),
  };
}

/** The bits of a typed array as u32 words, so that −0 ≠ +0 and NaN payloads count. */
export function bitsOf(a: Uint32Array | Int32Array | Float32Array): Uint32Array {
  return new Uint32Array(a.buffer, a.byteOffset, a.length);
}

function sortWorkload(pairs: boolean): WorkloadFactory {
  return async (ctx, c) => {
    const n = c.n;
    const primitive = pairs ? 'sort-pairs' : 'sort';
    const valueType = c.valueType ?? 'u32';
    const descending = c.descending ?? false;
    const pool = new BufferPool(ctx);
    let plan: ReturnType<typeof createSortPlan> | undefined;
    try {
      const d = await prepareSortData(ctx, pool, c, { pairs });
      plan = createSortPlan(ctx, {
        keyType: c.type,
        ...(pairs ? { valueType } : {}),
        descending,
        algorithm: sortAlgorithmOf(c),
        maxCount: n,
      });
      const sortPlan = plan;
      const args = { keys: d.keys, ...(d.values ? { values: d.values } : {}), count: n };
      return {
        bytes: bytesMoved(primitive, n),
        output: d.keys,
        prepare: d.restore,
        encode: (encoder) => sortPlan.encode(encoder, args),
        verify: d.verify,
        async compareWithCpu() {
          const input = await readArray(ctx, d.original, n, c.type);
          const indices = Uint32Array.from({ length: n }, (_, i) => i);
          const expected = pairs ? cpuSort(input, { values: indices, descending }) : cpuSort(input, { descending });
          let wrong = countDifferences(bitsOf(expected.keys), await readWords(ctx, d.keys, n));
          if (pairs && d.values) {
            if (!expected.values) return wrong + n;
            wrong += countDifferences(bitsOf(expected.values), await readWords(ctx, d.values, n));
          }
          return wrong;
        },
        destroy() {
          sortPlan.destroy();
          pool.destroy();
        },
      };
    } catch (error) {
      plan?.destroy();
      pool.destroy();
      throw error;
    }
  };
}

/**
 * In-place sort of n random keys of `c.type` (u32, i32, f32; ascending or descending) with the
 * case's algorithm, keys only. Before every run the unsorted keys are copied back from a pristine
 * buffer, untimed (`prepare`). Checked on the GPU: order by the documented key order, and the
 * multiset checksum of the keys equal to that of the input.
 *
 * @example
 * ```ts
 * const w = await sortKeysWorkload(ctx, c);
 * ```
 */
export const sortKeysWorkload: WorkloadFactory = sortWorkload(false);

/**
 * In-place sort of n random u32 keys with u32 values that are their original indices (restored
 * with the keys before every run, untimed). Checked exactly on the GPU: order, `key[i] ==
 * original[value[i]]`, and stability (equal keys keep increasing values).
 *
 * @example
 * ```ts
 * const w = await sortPairsWorkload(ctx, c);
 * ```
 */
export const sortPairsWorkload: WorkloadFactory = sortWorkload(true);
