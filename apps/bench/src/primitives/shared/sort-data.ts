import type { ElementType, ScanContext } from '@scan/core';
import { createSortPlan, type SortTuning } from '@scan/sort';
import { sort as cpuSort } from '@scan/sort/cpu';
import type { Case, PlanTuning } from '../../case-types.js';
import { type CheckOutcome, runCheck } from '../../child/device-ops.js';
import { BufferPool, encodeKernel, readWords, submitAndWait } from '../../child/gpu.js';
import { fillKernel } from '../../child/kernels/fill.js';
import { CHECKSUM_WORDS, checkSortOrderKernel, checksumCompareKernel, sortChecksumKernel } from '../../child/kernels/sort-checks.js';
import { sortKeysKernel } from '../../child/kernels/sort-keys.js';
import { checkFitsBinding, countDifferences, readArray, type Workload } from '../../child/workload.js';
import { bytesMoved } from '../../metrics.js';
import { keyBytesOfName, prepareWideSortData, type SortKeyName, sortBytes } from './sort-wide-data.js';

// What the sorts share: their algorithms, the keys (and values) generated on the GPU and restored
// before every run, the checks of the sorted output, and the workload of sort and sort-pairs.

/** Sort algorithms the bench runs side by side (the names of `createSortPlan`'s `algorithm`). */
export const SORT_ALGORITHM_NAMES = ['radix', 'split-radix'] as const;
export type SortAlgorithmName = (typeof SORT_ALGORITHM_NAMES)[number];

/**
 * The fields every sort case has: largest key first when `descending` (absent means ascending), and
 * the radix sort's internal tuning of a sweep (`--tuning`, e.g. `{"elementsPerThread":16}`).
 */
export type SortFields = { readonly descending?: boolean; readonly tuning?: PlanTuning };

/** What the input of a sort depends on. */
export type SortInputs = { readonly n: number; readonly seed: number; readonly type: ElementType } & SortFields;

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
  /** Checks the sorted keys (and values) on the GPU (see `checkSortOrderKernel`, `sortChecksumKernel`). */
  verify(): Promise<CheckOutcome>;
}

/**
 * Generates the input of a sort case on the GPU and builds its checks: random keys of `c.type`
 * (see `sortKeysKernel`) into `original` and `keys`, values `0..n−1` when `pairs`, and — for keys
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
  c: SortInputs,
  options: { pairs: boolean; segments?: SortSegments; original?: GPUBuffer },
): Promise<SortData> {
  const n = c.n;
  const { pairs, segments } = options;
  const original = options.original ?? pool.storage(4 * n, 'sort original keys');
  const keys = pool.storage(4 * n, 'sort keys');
  const values = pairs ? pool.storage(4 * n, 'sort values') : undefined;
  const iota = fillKernel({ mode: 'iota-u32' });
  const iotaParams = pool.params(iota, { n, seed: 0, arg: 0 });
  const restore = (encoder: GPUCommandEncoder) => {
    encoder.copyBufferToBuffer(original, 0, keys, 0, 4 * n);
    if (values) encodeKernel(ctx, encoder, iota, { out: values, params: iotaParams }, { invocations: n });
  };
  const setup = ctx.device.createCommandEncoder();
  const generate = sortKeysKernel({ type: c.type });
  encodeKernel(
    ctx,
    setup,
    generate,
    { out: original, params: pool.params(generate, { n, seed: c.seed + KEY_SEED_OFFSET }) },
    { invocations: n },
  );
  restore(setup);
  await submitAndWait(ctx, setup);

  const order = checkSortOrderKernel({ type: c.type, descending: c.descending ?? false, pairs, segmented: segments !== undefined });
  // Keys only: the order alone does not prove a permutation, so the multiset checksum of the
  // keys must also match that of the unsorted ones (pairs are proved exactly by the order check).
  const checksum = sortChecksumKernel({ segmented: segments !== undefined });
  const checksumParams = pool.params(checksum, { n, salt: CHECKSUM_SALT });
  const encodeChecksum = (encoder: GPUCommandEncoder, of: GPUBuffer, sums: GPUBuffer) => {
    encoder.clearBuffer(sums);
    const bits = segments ? { bits: segments.bits, heads_through_word: segments.headsThroughWord } : {};
    encodeKernel(ctx, encoder, checksum, { keys: of, sums, ...bits, params: checksumParams }, { invocations: n });
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
  const orderParams = pool.params(order, { n });
  return {
    keys,
    original,
    ...(values ? { values } : {}),
    restore,
    verify: () =>
      runCheck(ctx, pool, (encoder, errors) => {
        const pairBuffers = values ? { vals: values, original } : {};
        const bits = segments ? { bits: segments.bits } : {};
        encodeKernel(ctx, encoder, order, { keys, ...pairBuffers, ...bits, err: errors, params: orderParams }, { invocations: n });
        if (want && got) {
          encodeChecksum(encoder, keys, got);
          encodeKernel(ctx, encoder, checksumCompareKernel, { got, want, err: errors }, { groups: 1 });
        }
      }),
  };
}

/**
 * The bits of a typed array as u32 words, so that −0 ≠ +0 and NaN payloads count.
 *
 * @example
 * ```ts
 * bitsOf(Float32Array.of(-0)); // Uint32Array [0x80000000]
 * ```
 */
export function bitsOf(a: Uint32Array | Int32Array | Float32Array): Uint32Array {
  return new Uint32Array(a.buffer, a.byteOffset, a.length);
}

/**
 * The workload of a keys-only sort (`sort`) or a key–value sort (`sort-pairs`, u32 values that
 * are the original indices): n random keys of `c.type` sorted in place with the case's algorithm,
 * restored from a pristine copy before every run, untimed (`prepare`); checked on the GPU (see
 * {@link prepareSortData}) and bit for bit against `@scan/sort/cpu` at small sizes.
 *
 * @example
 * ```ts
 * const w = await sortWorkload(ctx, c, { pairs: true, valueType: 'u32' });
 * ```
 */
export async function sortWorkload(
  ctx: ScanContext,
  c: Case<'sort' | 'sort-pairs', SortFields & { algorithm: SortAlgorithmName; valueWidth?: number }>,
  pairs: { pairs: false } | { pairs: true; valueType: ElementType },
): Promise<Workload> {
  // 64- and 16-bit keys (a sort case's `type` names them) and values wider than 4 bytes have their
  // own input and checks (sort-wide-data.ts); 32-bit keys with 4-byte values keep these.
  const keyName = c.type as SortKeyName;
  const valueWidth = pairs.pairs ? (c.valueWidth ?? 4) : 0;
  if (keyBytesOfName(keyName) !== 4 || valueWidth > 4) return wideSortWorkload(ctx, c, keyName, valueWidth);
  const n = c.n;
  const descending = c.descending ?? false;
  const pool = new BufferPool(ctx);
  let plan: ReturnType<typeof createSortPlan> | undefined;
  try {
    const d = await prepareSortData(ctx, pool, c, { pairs: pairs.pairs });
    plan = createSortPlan(ctx, {
      keyType: c.type,
      ...(pairs.pairs ? { valueType: pairs.valueType } : {}),
      descending,
      algorithm: c.algorithm,
      maxCount: n,
      // The radix sort's unstable tuning (`SortTuning`), checked by the plan: a sweep's keys and values.
      ...(c.algorithm === 'radix' && c.tuning ? { tuning: c.tuning as SortTuning } : {}),
    });
    const sortPlan = plan;
    const args = { keys: d.keys, ...(d.values ? { values: d.values } : {}), count: n };
    return {
      bytes: bytesMoved(c.primitive, n),
      output: d.keys,
      prepare: d.restore,
      encode: (encoder) => sortPlan.encode(encoder, args),
      verify: d.verify,
      async compareWithCpu() {
        const input = await readArray(ctx, d.original, n, c.type);
        const indices = Uint32Array.from({ length: n }, (_, i) => i);
        const expected = pairs.pairs ? cpuSort(input, { values: indices, descending }) : cpuSort(input, { descending });
        let wrong = countDifferences(bitsOf(expected.keys), await readWords(ctx, d.keys, n));
        if (pairs.pairs && d.values) {
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
}

/**
 * The workload of a sort of 64- or 16-bit keys (`c.type` `'u64'`, `'u16'`, `'f16'`), or of u32 keys
 * with values of `valueWidth` bytes (8, 12, 16): as {@link sortWorkload}'s, with the input and checks
 * of `prepareWideSortData`, the bytes of `sortBytes`, and the CPU comparison at small sizes.
 *
 * @example
 * ```ts
 * const w = await wideSortWorkload(ctx, c, 'u16', 0);
 * ```
 */
export async function wideSortWorkload(
  ctx: ScanContext,
  c: Case<'sort' | 'sort-pairs', SortFields & { algorithm: SortAlgorithmName }>,
  keyType: SortKeyName,
  valueWidth: number,
): Promise<Workload> {
  const n = c.n;
  const descending = c.descending ?? false;
  const valueWords = valueWidth / 4;
  // Values of 8–16 bytes at 2^28 pass one binding (the sort takes at most one): skipped, not an error.
  checkFitsBinding(ctx, n, keyBytesOfName(keyType), 'keys');
  if (valueWords > 0) checkFitsBinding(ctx, n, valueWidth, 'values');
  const pool = new BufferPool(ctx);
  let plan: ReturnType<typeof createSortPlan> | undefined;
  try {
    const d = await prepareWideSortData(ctx, pool, { n, seed: c.seed, type: keyType, descending }, valueWords);
    plan = createSortPlan(ctx, {
      keyType,
      ...(valueWords > 0 ? { valueWidth: valueWidth as 4 | 8 | 12 | 16 } : {}),
      descending,
      algorithm: c.algorithm,
      maxCount: n,
      ...(c.algorithm === 'radix' && c.tuning ? { tuning: c.tuning as SortTuning } : {}),
    });
    const sortPlan = plan;
    const args = { keys: d.keys, ...(d.values ? { values: d.values } : {}), count: n };
    return {
      bytes: sortBytes(keyType, valueWidth, n),
      output: d.keys,
      prepare: d.restore,
      encode: (encoder) => sortPlan.encode(encoder, args),
      verify: d.verify,
      async compareWithCpu() {
        const words = await readWords(ctx, d.original, d.keyWords);
        const input =
          keyType === 'u64'
            ? new BigUint64Array(words.buffer, 0, n)
            : keyType === 'u16' || keyType === 'f16'
              ? new Uint16Array(words.buffer, 0, n)
              : keyType === 'i32'
                ? new Int32Array(words.buffer, 0, n)
                : keyType === 'f32'
                  ? new Float32Array(words.buffer, 0, n)
                  : new Uint32Array(words.buffer, 0, n);
        const records = Uint32Array.from({ length: valueWords * n }, (_, j) => Math.floor(j / valueWords));
        const options = { descending, ...(keyType === 'f16' ? { keyType } : {}), ...(valueWords > 0 ? { values: records } : {}) } as const;
        const expected = cpuSort(input, options);
        const keyWords = new Uint32Array(expected.keys.buffer, expected.keys.byteOffset, Math.floor(expected.keys.byteLength / 4));
        const got = await readWords(ctx, d.keys, d.keyWords);
        let wrong = countDifferences(keyWords, got.subarray(0, keyWords.length));
        if (expected.keys.byteLength % 4 !== 0) {
          // An odd count of 16-bit keys: the last key is the low half of the last word.
          wrong += (got[d.keyWords - 1]! & 0xffff) === (expected.keys as Uint16Array)[n - 1] ? 0 : 1;
        }
        if (d.values && expected.values) {
          wrong += countDifferences(new Uint32Array(expected.values.buffer), await readWords(ctx, d.values, valueWords * n));
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
}
