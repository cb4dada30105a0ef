import { createArgMaxPlan, createHistogramPlan, createSearchPlan } from '@scan/core';
import { argMax as cpuArgMax, histogram as cpuHistogram, lowerBound as cpuLowerBound } from '@scan/core/cpu';
import { createTopKPlan } from '@scan/sort';
import { topK as cpuTopK } from '@scan/sort/cpu';
import { benchModule } from '../bench-module.js';
import type { Case, PlanTuning } from '../case-types.js';
import { encodeFill, encodeReduceTree, fillConstant, runCheck } from '../child/device-ops.js';
import { BufferPool, encodeKernel, submitAndWait } from '../child/gpu.js';
import { checkEqualKernel } from '../child/kernels/check-equal.js';
import {
  checkArgMaxKernel,
  checkBoundsKernel,
  checkTopKKernel,
  histogramCountsKernel,
  sortedKeysKernel,
  topKCountsKernel,
} from '../child/kernels/toolbox-checks.js';
import { countDifferences, POISON, readArray } from '../child/workload.js';

// The toolbox cases of issue 49 that need no segments: histogram, arg-max, top-k and sorted search.
// Each moves at least its input once: the bytes are the input's (search: keys, needles and results).

const WORD = 4;

/** A histogram case: u32 samples over the whole u32 range in `bins` even bins (`tuning`: the plan's, for sweeps). */
export type HistogramCase = Case<'histogram', { bins: number; tuning?: PlanTuning }>;

/**
 * `histogram` in the registry: random u32 samples into 256 and 65,536 even bins over [0, 2^32)
 * (the private sub-histograms and the wide path), through `createHistogramPlan`. Checked against the
 * bench's own atomic count per sample, bin for bin. Bound by reading the samples once.
 *
 * @example
 * ```ts
 * HISTOGRAM.shapes(selection).map((s) => s.bins); // [256, 65536]
 * ```
 */
export const HISTOGRAM = benchModule<HistogramCase>({
  package: '@scan/core',
  primitives: ['histogram'],
  readBound: true,
  // A software adapter's default run: 256 bins (65,536 take seconds a run on SwiftShader).
  sample: (shapes) => shapes.filter((s) => s.bins === 256),
  // `--tuning` (e.g. '{"path":"global"}') reaches the plan's options.tuning, to compare its paths.
  shapes: (selection) =>
    [256, 65536].map((bins) => ({
      primitive: 'histogram' as const,
      type: 'u32' as const,
      bins,
      ...(selection.tuning ? { tuning: selection.tuning } : {}),
    })),
  async workload(ctx, c) {
    const pool = new BufferPool(ctx);
    const { n, bins } = c;
    const samples = pool.storage(WORD * n, 'histogram samples');
    const counts = pool.storage(WORD * bins, 'histogram counts');
    const expected = pool.storage(WORD * bins, 'histogram expected counts');
    const setup = ctx.device.createCommandEncoder();
    encodeFill(ctx, pool, setup, samples, n, 'random', c.seed);
    encodeFill(ctx, pool, setup, counts, bins, 'constant', 0, POISON);
    await submitAndWait(ctx, setup);
    const range: [number, number] = [0, 2 ** 32];
    const plan = createHistogramPlan(ctx, { type: 'u32', bins, range, ...(c.tuning ? { tuning: c.tuning } : {}) });
    await plan.ready;
    const equal = checkEqualKernel({ mode: 'copy' });
    return {
      bytes: WORD * n,
      output: counts,
      encode: (encoder) => plan.encode(encoder, { samples, histogram: counts, count: n }),
      verify: () =>
        runCheck(ctx, pool, (encoder, errors) => {
          encoder.clearBuffer(expected);
          const shift = 32 - Math.log2(bins);
          encodeKernel(
            ctx,
            encoder,
            histogramCountsKernel,
            { samples, counts: expected, params: pool.params(histogramCountsKernel, { n, shift }) },
            { invocations: n },
          );
          encodeKernel(
            ctx,
            encoder,
            equal,
            { inp: expected, out: counts, err: errors, params: pool.params(equal, { n: bins }) },
            { invocations: bins },
          );
        }),
      async compareWithCpu() {
        const data = (await readArray(ctx, samples, n, 'u32')) as Uint32Array;
        return countDifferences(cpuHistogram(data, { bins, range }), await readArray(ctx, counts, bins, 'u32'));
      },
      destroy() {
        plan.destroy();
        pool.destroy();
      },
    };
  },
});

/** An arg-max case: f32 keys uniform in [0, 1). */
export type ArgMaxCase = Case<'arg-max'>;

/**
 * `arg-max` in the registry: f32 keys uniform in [0, 1) (multiples of 2^-24, so large arrays hold
 * ties), through `createArgMaxPlan`. Checked against the bench's own maximum (its tree reduction)
 * and a scan for an earlier equal key. Bound by reading the keys once.
 *
 * @example
 * ```ts
 * ARG_MAX.shapes(selection); // [{ primitive: 'arg-max', type: 'f32' }]
 * ```
 */
export const ARG_MAX = benchModule<ArgMaxCase>({
  package: '@scan/core',
  primitives: ['arg-max'],
  readBound: true,
  shapes: () => [{ primitive: 'arg-max', type: 'f32' }],
  async workload(ctx, c) {
    const pool = new BufferPool(ctx);
    const n = c.n;
    const input = pool.storage(WORD * n, 'arg-max input');
    const output = pool.storage(16, 'arg-max output');
    const setup = ctx.device.createCommandEncoder();
    encodeFill(ctx, pool, setup, input, n, 'unit-f32', c.seed);
    encodeFill(ctx, pool, setup, output, 4, 'constant', 0, POISON);
    await submitAndWait(ctx, setup);
    const plan = createArgMaxPlan(ctx, { type: 'f32' });
    await plan.ready;
    return {
      bytes: WORD * n,
      output,
      encode: (encoder) => plan.encode(encoder, { input, output, count: n }),
      verify: () =>
        runCheck(ctx, pool, (encoder, errors) => {
          const best = encodeReduceTree(ctx, pool, encoder, input, n, 'f32', 'max');
          encodeKernel(
            ctx,
            encoder,
            checkArgMaxKernel,
            { inp: input, out: output, best, err: errors, params: pool.params(checkArgMaxKernel, { n }) },
            { invocations: n },
          );
        }),
      async compareWithCpu() {
        const expected = cpuArgMax((await readArray(ctx, input, n, 'f32')) as Float32Array);
        const [bits, index] = await readArray(ctx, output, 2, 'u32');
        const value = new Float32Array(new Uint32Array([bits ?? 0]).buffer)[0];
        return countDifferences([expected.value, expected.index], [value ?? Number.NaN, index ?? -1]);
      },
      destroy() {
        plan.destroy();
        pool.destroy();
      },
    };
  },
});

/** A top-k case: the k largest of f32 keys uniform in [0, 1). */
export type TopKCase = Case<'top-k', { k: number }>;

/**
 * `top-k` in the registry: the k ∈ {1, 32, 1024} largest of f32 keys uniform in [0, 1), with their
 * indices, through `createTopKPlan` (a radix select, then a sort of the k). Checked on the GPU:
 * keys non-increasing, each index holding its key, and fewer than k input keys above the k-th
 * with at least k at or above it; against `@scan/sort/cpu`'s keys at small sizes. Bound by
 * reading the keys.
 *
 * @example
 * ```ts
 * TOP_K.shapes(selection).map((s) => s.k); // [1, 32, 1024]
 * ```
 */
export const TOP_K = benchModule<TopKCase>({
  package: '@scan/sort',
  primitives: ['top-k'],
  readBound: true,
  // A software adapter's default run: one k (the select's passes are the same for each).
  sample: (shapes) => shapes.filter((s) => s.k === 32),
  shapes: () => [1, 32, 1024].map((k) => ({ primitive: 'top-k' as const, type: 'f32' as const, k })),
  runsAt: (shape, n) => shape.k <= n,
  async workload(ctx, c) {
    const pool = new BufferPool(ctx);
    const { n, k } = c;
    const keys = pool.storage(WORD * n, 'top-k keys');
    const outKeys = pool.storage(WORD * k, 'top-k out keys');
    const outIndices = pool.storage(WORD * k, 'top-k out indices');
    const counts = pool.storage(8, 'top-k check counts');
    const setup = ctx.device.createCommandEncoder();
    encodeFill(ctx, pool, setup, keys, n, 'unit-f32', c.seed);
    await submitAndWait(ctx, setup);
    await fillConstant(ctx, pool, POISON, [outKeys, k], [outIndices, k]);
    const plan = createTopKPlan(ctx, { type: 'f32', k, largest: true, maxCount: n });
    await plan.ready;
    return {
      bytes: WORD * n,
      output: outKeys,
      encode: (encoder) => plan.encode(encoder, { keys, count: n, outKeys, outIndices }),
      verify: () =>
        runCheck(ctx, pool, (encoder, errors) => {
          encoder.clearBuffer(counts);
          encodeKernel(
            ctx,
            encoder,
            topKCountsKernel,
            { inp: keys, out_keys: outKeys, counts, params: pool.params(topKCountsKernel, { n, k }) },
            { invocations: n },
          );
          encodeKernel(
            ctx,
            encoder,
            checkTopKKernel,
            { inp: keys, out_keys: outKeys, out_indices: outIndices, counts, err: errors, params: pool.params(checkTopKKernel, { n, k }) },
            { invocations: k },
          );
        }),
      async compareWithCpu() {
        const expected = cpuTopK((await readArray(ctx, keys, n, 'f32')) as Float32Array, k, { largest: true });
        return countDifferences(expected.keys, await readArray(ctx, outKeys, k, 'f32'));
      },
      destroy() {
        plan.destroy();
        pool.destroy();
      },
    };
  },
});

/** A sorted-search case: n random u32 needles into n sorted u32 keys. */
export type SearchCase = Case<'lower-bound'>;

/**
 * `lower-bound` in the registry: n random u32 needles into n sorted u32 keys spread over the u32
 * range (in equal pairs), through `createSearchPlan({ side: 'lower' })`. Checked needle by needle
 * against the keys on either side of its result. Moves the keys, the needles and the results
 * (torch.searchsorted's work at the same n).
 *
 * @example
 * ```ts
 * SEARCH.shapes(selection); // [{ primitive: 'lower-bound', type: 'u32' }]
 * ```
 */
export const SEARCH = benchModule<SearchCase>({
  package: '@scan/core',
  primitives: ['lower-bound'],
  shapes: () => [{ primitive: 'lower-bound', type: 'u32' }],
  async workload(ctx, c) {
    const pool = new BufferPool(ctx);
    const n = c.n;
    const sorted = pool.storage(WORD * n, 'search sorted keys');
    const needles = pool.storage(WORD * n, 'search needles');
    const output = pool.storage(WORD * n, 'search output');
    const setup = ctx.device.createCommandEncoder();
    const step = Math.floor(2 ** 32 / Math.ceil(n / 2));
    encodeKernel(
      ctx,
      setup,
      sortedKeysKernel,
      { out: sorted, params: pool.params(sortedKeysKernel, { n, seed: c.seed, step }) },
      { invocations: n },
    );
    encodeFill(ctx, pool, setup, needles, n, 'random', c.seed + 1);
    encodeFill(ctx, pool, setup, output, n, 'constant', 0, POISON);
    await submitAndWait(ctx, setup);
    const plan = createSearchPlan(ctx, { type: 'u32', side: 'lower' });
    await plan.ready;
    const check = checkBoundsKernel({ upper: false });
    return {
      bytes: 3 * WORD * n,
      output,
      encode: (encoder) => plan.encode(encoder, { sorted, sortedCount: n, needles, needleCount: n, output }),
      verify: () =>
        runCheck(ctx, pool, (encoder, errors) =>
          encodeKernel(
            ctx,
            encoder,
            check,
            { sorted, needles, out: output, err: errors, params: pool.params(check, { n, needles: n }) },
            { invocations: n },
          ),
        ),
      async compareWithCpu() {
        const keys = (await readArray(ctx, sorted, n, 'u32')) as Uint32Array;
        const wanted = (await readArray(ctx, needles, n, 'u32')) as Uint32Array;
        return countDifferences(cpuLowerBound(keys, wanted), await readArray(ctx, output, n, 'u32'));
      },
      destroy() {
        plan.destroy();
        pool.destroy();
      },
    };
  },
});
