import { createStorageBuffer, type ScanContext, ScanError } from '@scan/core';
import { type BufferRef, type PlanPart, RecipeBuilder, RecipeExecutor } from '@scan/core/kit';
import { createSegmentedScanPlan, packedFlagWords } from '@scan/segmented';
import { createSortPlan, type SortEncodeArgs } from '@scan/sort';
import { COMBINE_WORKGROUP, recordHeadsKernel, recordScatterKernel } from './combine-kernels.js';

/** Bits that hold every index below `n` (at least 1: the sort needs a non-empty range). */
const bitsFor = (n: number): number => Math.max(1, Math.ceil(Math.log2(Math.max(2, n))));

/**
 * The records combine of a product plan: the leaves write their run sums as records (key the
 * output index, value the partial) into `recordKeys`/`recordValues`, counting them in
 * `recordCount[0]` (which the product's recipe clears before its leaves); `encode` then reduces
 * them into y on the GPU, without read-back or allocation.
 *
 * @example
 * ```ts
 * const combine = createSegmentedCombine(ctx, { capacity: leafEntries, outLength });
 * // leaves bind combine.buffers.recordCount / recordKeys / recordValues, then:
 * combine.encode(encoder, y);
 * combine.destroy();
 * ```
 */
export interface SegmentedCombine extends PlanPart {
  /** Resolves when its kernels, the sort's and the scan's are compiled. */
  readonly ready: Promise<void>;
  /** Records the arrays hold (an upper bound on the records the leaves write). */
  readonly capacity: number;
  /** The count (u32 at word 0), the record keys (u32) and values (f32) the leaves write. */
  readonly buffers: { readonly recordCount: GPUBuffer; readonly recordKeys: GPUBuffer; readonly recordValues: GPUBuffer };
  /** Sort, reduce by key, scatter: y[key] = the sum of the records of key (y cleared before). */
  encode(encoder: GPUCommandEncoder, y: GPUBuffer): void;
}

/**
 * Partials reduced by a segmented reduction, the second way to combine the leaves' sums without
 * float atomics (the first being compare-and-swap on the f32 bits). Phases, all on the GPU:
 *
 * 1. **sort** — the records written are sorted by key (`@scan/sort`'s one-sweep radix sort on the
 *    bits of the output length, values moving with the keys; its count is the u32 the leaves
 *    left in `recordCount`, read on the GPU, so only the records written are sorted);
 * 2. **reduce by key** — head flags where a key differs from the previous one (and at every slot
 *    past the count), then an inclusive segmented scan over the capacity (`@scan/segmented`; its
 *    count must be known on the host, which the record count is not, so a scan rather than a
 *    segmented reduction, whose outputs per segment would need the number of segments): the last
 *    element of each run is the run's sum;
 * 3. **scatter** — the last record of each run writes y[key].
 *
 * `capacity` (the census's leaf entries: a leaf writes at most one record per entry) sizes the
 * arrays; past `maxStorageBufferBindingSize` it is a `TOO_LARGE` ScanError. Memory, fixed when it
 * is made: keys, values and scan output (4 bytes each per record), bit-packed head flags, the sort's
 * scratch (keys and values again) and the scan's look-back status — about 20 bytes per leaf entry —
 * and a parameter ring per part, with the parameter blocks the sort's count fixup fills. Every encode
 * binds the same whole buffers with the same counts (the capacity; the record count is read on the
 * GPU: by the sort's count fixup, and by the heads' and the scatter's kernels from `recordCount`),
 * so it creates nothing.
 *
 * @example
 * ```ts
 * const combine = createSegmentedCombine(ctx, { capacity: 1 << 20, outLength: 4096 });
 * combine.encode(encoder, y); // after the leaves have written their records
 * ```
 */
export function createSegmentedCombine(ctx: ScanContext, options: { capacity: number; outLength: number }): SegmentedCombine {
  const capacity = Math.max(1, options.capacity);
  const bindable = ctx.caps.limits.maxStorageBufferBindingSize;
  if (4 * capacity > bindable) {
    throw new ScanError(
      'TOO_LARGE',
      `createHiSparseSpmvPlan: with options.combine = 'segmented', A's ${capacity} leaf records need ${4 * capacity} bytes per array, past maxStorageBufferBindingSize (${bindable}); combine 'atomic' (the default) keeps no records`,
      { argument: 'options.combine' },
    );
  }
  const headWords = packedFlagWords(capacity);
  const owned: GPUBuffer[] = [];
  const own = (bytes: number, label: string) => {
    const b = createStorageBuffer(ctx, bytes, label);
    owned.push(b);
    return b;
  };
  const recordCount = own(16, 'hisparse records count');
  const recordKeys = own(4 * capacity, 'hisparse record keys');
  const recordValues = own(4 * capacity, 'hisparse record values');
  const sums = own(4 * capacity, 'hisparse record run sums');
  const headBits = own(4 * headWords, 'hisparse record heads');
  const parts: PlanPart[] = [];
  let sort: ReturnType<typeof createSortPlan>;
  let scan: ReturnType<typeof createSegmentedScanPlan>;
  try {
    // The keys are output indices: the sort needs only the bits of the output length.
    sort = createSortPlan(ctx, { keyType: 'u32', valueType: 'f32', bits: [0, bitsFor(options.outLength)], maxCount: capacity });
    parts.push(sort);
    scan = createSegmentedScanPlan(ctx, { type: 'f32', op: 'add', inclusive: true, maxCount: capacity });
    parts.push(scan);
  } catch (e) {
    for (const part of parts) part.destroy();
    for (const b of owned) b.destroy();
    throw e;
  }
  const exec = new RecipeExecutor(ctx, 'hisparse segmented combine', 'A');
  parts.push(exec);

  const whole = (role: string): BufferRef => ({ role, offset: 0 });
  // The record count the leaves left on the GPU (word 0 of `recordCount`) is read by the two
  // kernels themselves (see recordHeadsKernel): one dispatch each, no count fixup before them.
  const recordCountRef = whole('recordCount');
  const heads = (() => {
    const b = new RecipeBuilder();
    const bindings = { record_count: recordCountRef, keys: whole('recordKeys'), head_bits: whole('headBits') };
    b.dispatch(recordHeadsKernel(), bindings, Math.ceil(headWords / COMBINE_WORKGROUP), { capacity, words: headWords });
    return b.build();
  })();
  const scatter = (() => {
    const b = new RecipeBuilder();
    const bindings = { record_count: recordCountRef, keys: whole('recordKeys'), sums: whole('sums'), y: whole('y') };
    b.dispatch(recordScatterKernel(), bindings, Math.ceil(capacity / COMBINE_WORKGROUP), { capacity });
    return b.build();
  })();
  const ownedBytes = owned.reduce((sum, b) => sum + b.size, 0);
  // Nobody has to await `ready` (see planOf): a failed compilation must not be an unhandled rejection.
  const ready = Promise.all([exec.load([heads, scatter]), sort.ready, scan.ready]).then(() => undefined);
  ready.catch(() => undefined);
  const sortArgs: SortEncodeArgs = { keys: recordKeys, values: recordValues, countBuffer: recordCount, countOffset: 0 };

  return {
    capacity,
    buffers: { recordCount, recordKeys, recordValues },
    encode(encoder: GPUCommandEncoder, y: GPUBuffer) {
      // Sort: the records written, by key (the count stays on the GPU).
      sort.encode(encoder, sortArgs);
      // Reduce by key: head flags, then the inclusive segmented scan (last of a run = its sum).
      const roles = { recordCount, recordKeys, headBits, sums, y };
      exec.encode(encoder, () => heads, roles);
      scan.encode(encoder, { input: recordValues, headBits, output: sums, count: capacity });
      // Scatter: y[key] = the run's sum.
      exec.encode(encoder, () => scatter, roles);
    },
    destroy() {
      for (const part of parts) part.destroy();
      for (const b of owned) b.destroy();
    },
    ready,
    get scratchBytes() {
      return ownedBytes + parts.reduce((sum, part) => sum + part.scratchBytes, 0);
    },
    get memoryBytes() {
      return ownedBytes + parts.reduce((sum, part) => sum + part.memoryBytes, 0);
    },
    get allocations() {
      return owned.length + parts.reduce((sum, part) => sum + part.allocations, 0);
    },
  };
}
