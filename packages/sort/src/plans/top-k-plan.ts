import type { Plan, ScanContext } from '@scan/core';
import { ScanError } from '@scan/core';
import {
  assertUsable,
  type BindingsOf,
  type BufferRef,
  checkBoolean,
  checkCount,
  checkElementType,
  checkEncodeArgs,
  checkOptions,
  dispatchShape,
  invalidArgument,
  planOf,
  type Recipe,
  RecipeBuilder,
  RecipeExecutor,
} from '@scan/core/kit';
import { ELEMENTWISE_WORKGROUP } from '../kernels/elementwise.js';
import { TOPK_STATE_BYTES, type TopKPassSpec, topKGatherKernel, topKPassKernel, topKSelectKernel } from '../kernels/top-k.js';
import { checkSortCount } from '../limits.js';
import type { TopKEncodeArgs, TopKPlanOptions } from '../top-k-types.js';
import type { SortValueType } from '../types.js';
import { isSwiftShader } from './radix-config.js';
import { createRadixSort } from './radix-plan.js';

/** Invocations per workgroup and keys per invocation of the select's passes over the keys. */
const PASS_WORKGROUP = 256;
const PASS_KEYS_PER_THREAD = 16;
/**
 * Most workgroups of a pass (default): each strides over the keys, so its histogram reaches the
 * global one once; more would only add global atomics (up to 2048 a workgroup). About what an H100
 * keeps resident (132 SMs × 8 workgroups of 256).
 */
const MAX_PASS_WORKGROUPS = 1024;

/**
 * Candidates each level keeps in scratch: a quarter of the keys (uniform floats in [0, 1) put a
 * quarter of them in the top 11-bit bucket). Past it the next pass reads every key again instead,
 * which costs about what reading that many candidates would.
 *
 * @example
 * ```ts
 * candidateCapacity(1 << 20); // 262144
 * ```
 */
export function candidateCapacity(count: number): number {
  return Math.max(4, Math.ceil(count / 4));
}

/** The radix select's shape: what its kernels are specialized on. */
export interface TopKShape {
  readonly keyType: SortValueType;
  readonly largest: boolean;
  /** Workgroup histograms and unrolled per-key steps (see `TopKPassSpec`): everywhere but SwiftShader by default. */
  readonly privateHistogram: boolean;
  readonly unrolled: boolean;
  /** Keys per invocation of a pass over the keys. */
  readonly elementsPerThread: number;
  /** Most workgroups of a pass over the keys (they stride over them). */
  readonly maxWorkgroups: number;
}

const KEYS: BufferRef = { role: 'keys', offset: 0 };
const OUT_KEYS: BufferRef = { role: 'outKeys', offset: 0 };
const OUT_IDX: BufferRef = { role: 'outIndices', offset: 0 };
const STATE: BufferRef = { scratch: 'state' };
const CAND1: BufferRef = { scratch: 'cand1' };
const CAND2: BufferRef = { scratch: 'cand2' };

/**
 * The recipe of the radix select of the best `k` of `count` keys (1 ≤ k ≤ count) into roles
 * `outKeys` and `outIndices` (unordered): one clear of the state, the histogram of the top digit
 * and its select, then per lower digit a filter and a select, then the last filter. Nine steps, all
 * sized by the count on the host; every count has one structure.
 *
 * @example
 * ```ts
 * exec.encode(encoder, () => topKSelectRecipe(ctx, shape, n, k), { keys, outKeys, outIndices });
 * ```
 */
export function topKSelectRecipe(ctx: ScanContext, shape: TopKShape, count: number, k: number): Recipe {
  const b = new RecipeBuilder();
  const cap = candidateCapacity(count);
  b.needScratch('state', TOPK_STATE_BYTES);
  b.needScratch('cand1', 4 * cap);
  b.needScratch('cand2', 4 * cap);
  const tiles = Math.min(Math.ceil(count / (PASS_WORKGROUP * shape.elementsPerThread)), shape.maxWorkgroups);
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const pass = (level: TopKPassSpec['level']) => topKPassKernel({ ...shape, level, workgroupSize: PASS_WORKGROUP });
  const params = b.paramsFor(pass(0), { count, tiles, dispatch_x: dispatchShape(tiles, maxDim).x, cap, k });
  b.clear(STATE);
  b.dispatch(pass(0), { keys: KEYS, state: STATE }, tiles, params);
  b.dispatch(topKSelectKernel({ level: 0 }), { state: STATE }, 1, params);
  b.dispatch(pass(1), { keys: KEYS, cand_out: CAND1, out_keys: OUT_KEYS, out_idx: OUT_IDX, state: STATE }, tiles, params);
  b.dispatch(topKSelectKernel({ level: 1 }), { state: STATE }, 1, params);
  const level2: BindingsOf<string> = { keys: KEYS, cand_in: CAND1, cand_out: CAND2, out_keys: OUT_KEYS, out_idx: OUT_IDX, state: STATE };
  b.dispatch(pass(2), level2, tiles, params);
  b.dispatch(topKSelectKernel({ level: 2 }), { state: STATE }, 1, params);
  b.dispatch(pass(3), { keys: KEYS, cand_in: CAND2, out_keys: OUT_KEYS, out_idx: OUT_IDX, state: STATE }, tiles, params);
  return b.build();
}

/**
 * The recipe that gathers the values of the `k` chosen keys: `outValues[i] = values[outIndices[i]]`.
 *
 * @example
 * ```ts
 * exec.encode(encoder, () => topKGatherRecipe(ctx, k), { values, outIndices, outValues });
 * ```
 */
export function topKGatherRecipe(ctx: ScanContext, k: number): Recipe {
  const b = new RecipeBuilder();
  const groups = Math.ceil(k / ELEMENTWISE_WORKGROUP);
  b.dispatch(
    topKGatherKernel({}),
    { values: { role: 'values', offset: 0 }, indices: OUT_IDX, out: { role: 'outValues', offset: 0 } },
    groups,
    { count: k, dispatch_x: dispatchShape(groups, ctx.caps.limits.maxComputeWorkgroupsPerDimension).x },
  );
  return b.build();
}

const PLAN_KEYS = ['type', 'k', 'maxK', 'largest', 'values', 'maxCount', 'tuning'];

/**
 * Top-k at the buffer level: records into your encoder the selection of the `k` largest (or, with
 * `largest: false`, smallest) of the first `count` keys of `keys`, best first, into `outKeys`, with
 * their indices into `outIndices` and, for a plan made with `values`, `values[index]` into
 * `outValues`. The keys are read, never written. Among equal keys any may be taken. NaNs (f32) are
 * the largest keys, as in `sort`.
 *
 * How: a radix select (AIR top-k, CUB's `DeviceTopK`). The keys' order bits (as `sort` orders them)
 * are cut into digits of 11, 11 and 10 bits from the most significant. One pass counts the top
 * digit of every key; a one-workgroup select finds the bucket of the k-th best key; the next pass
 * reads the keys again, writes those of better buckets to the output, keeps the indices of that
 * bucket's keys as candidates and counts their next digit — and the lower digits work on the
 * candidates only (or, when more than a quarter of the keys are candidates, on every key again
 * filtered by the prefix). The last pass writes as many keys equal to the k-th as are missing.
 * Then the plan's radix sort orders the k chosen keys with their indices (for k up to a few
 * thousand one dispatch), and a gather fetches their values. Every pass is sized on the host,
 * nothing is read back. Cost: two reads of the keys for typical data (plus the candidates), four
 * when most keys share their top 21 bits; never a sort of all of them.
 *
 * Made to be encoded every frame: once warm an encode with a new count or k creates nothing (it
 * writes parameters). Memory: a 20.5 KiB state, two candidate buffers of a quarter of the keys each
 * (grown by doubling, or sized once by `maxCount`), a 4-slot parameter ring, and the sort of k
 * keys' scratch (none while `maxK` fits the one-workgroup sort: 4096 keys on most GPUs).
 *
 * @example
 * ```ts
 * const plan = createTopKPlan(ctx, { type: 'f32', k: 32, values: 'u32' });
 * await plan.ready;
 * const encoder = device.createCommandEncoder();
 * plan.encode(encoder, { keys: scores, count: n, outKeys: best, outIndices: where, values: ids, outValues: bestIds });
 * device.queue.submit([encoder.finish()]);
 * ```
 */
export function createTopKPlan(ctx: ScanContext, options: TopKPlanOptions): Plan<TopKEncodeArgs> {
  assertUsable(ctx);
  const o = checkOptions(options, PLAN_KEYS, 'options');
  const type = o.type === undefined ? 'u32' : checkElementType(o.type, 'options.type');
  const fixedK = o.k === undefined ? undefined : checkCount(o.k, 'options.k');
  const maxK = o.maxK === undefined ? undefined : checkCount(o.maxK, 'options.maxK');
  if (fixedK === undefined && maxK === undefined) invalidArgument('options.k', undefined, 'give options.k or options.maxK');
  if (fixedK !== undefined && maxK !== undefined && fixedK > maxK) invalidArgument('options.k', fixedK, `more than options.maxK = ${maxK}`);
  const largest = checkBoolean(o.largest, 'options.largest', true);
  const valueType = o.values === undefined ? undefined : checkElementType(o.values, 'options.values');
  const maxCount =
    o.maxCount === undefined ? undefined : checkSortCount(ctx, checkCount(o.maxCount, 'options.maxCount'), 'options.maxCount');
  const mostK = (maxK ?? fixedK) as number;
  const tuning = checkOptions(o.tuning, ['privateHistogram', 'unrolled', 'elementsPerThread', 'workgroups'], 'options.tuning');
  const maxWorkgroups = tuning.workgroups === undefined ? MAX_PASS_WORKGROUPS : checkCount(tuning.workgroups, 'options.tuning.workgroups');
  if (maxWorkgroups < 1) invalidArgument('options.tuning.workgroups', maxWorkgroups, 'expected a positive integer');
  const elementsPerThread = tuning.elementsPerThread ?? PASS_KEYS_PER_THREAD;
  if (typeof elementsPerThread !== 'number' || !Number.isInteger(elementsPerThread) || elementsPerThread < 1 || elementsPerThread > 32) {
    invalidArgument('options.tuning.elementsPerThread', elementsPerThread, 'expected an integer in [1, 32]');
  }
  const fast = !isSwiftShader(ctx.caps);
  const privateHistogram = checkBoolean(tuning.privateHistogram, 'options.tuning.privateHistogram', fast);
  const unrolled = checkBoolean(tuning.unrolled, 'options.tuning.unrolled', fast);
  const shape: TopKShape = {
    keyType: type,
    largest,
    privateHistogram,
    unrolled,
    elementsPerThread: elementsPerThread as number,
    maxWorkgroups,
  };
  const exec = new RecipeExecutor(ctx, 'top-k plan');
  if (maxCount !== undefined && maxCount > 0) exec.reserve(topKSelectRecipe(ctx, shape, maxCount, 1));
  const sort = createRadixSort(
    ctx,
    { keyType: type, valueType: 'u32', descending: largest, bits: [0, 32] },
    { values: 'move', maxCount: mostK },
  );
  const paths = [topKSelectRecipe(ctx, shape, 1, 1)];
  if (valueType !== undefined) paths.push(topKGatherRecipe(ctx, 1));
  return planOf([exec, sort], {
    what: 'top-k plan',
    ready: exec.load(paths),
    encode(encoder, args) {
      const a = args as unknown as Record<string, unknown>;
      const k = a.k === undefined ? mostK : checkCount(a.k, 'args.k');
      if (k > mostK) invalidArgument('args.k', k, `more than the plan's ${maxK === undefined ? 'k' : 'maxK'} = ${mostK}`);
      const need: Record<string, number | { bytes: number }> = { keys: 4, outKeys: { bytes: 4 * k }, outIndices: { bytes: 4 * k } };
      if (valueType !== undefined) {
        need.values = 4;
        need.outValues = { bytes: 4 * k };
      } else if (a.values !== undefined || a.outValues !== undefined) {
        throw new ScanError('INVALID_ARGUMENT', 'top-k plan: args.values is given but the plan was made without options.values', {
          argument: a.values !== undefined ? 'args.values' : 'args.outValues',
        });
      }
      const count = checkEncodeArgs('top-k plan', a, need);
      checkSortCount(ctx, count, 'args.count');
      if (k > count) invalidArgument('args.k', k, `more than args.count = ${count}`);
      if (k === 0) return;
      const roles: Record<string, GPUBuffer> = {
        keys: a.keys as GPUBuffer,
        outKeys: a.outKeys as GPUBuffer,
        outIndices: a.outIndices as GPUBuffer,
      };
      exec.encode(encoder, () => topKSelectRecipe(ctx, shape, count, k), roles);
      sort.encode(encoder, { keys: roles.outKeys as GPUBuffer, values: roles.outIndices as GPUBuffer, count: k });
      if (valueType !== undefined) {
        exec.encode(encoder, () => topKGatherRecipe(ctx, k), {
          values: a.values as GPUBuffer,
          outIndices: roles.outIndices as GPUBuffer,
          outValues: a.outValues as GPUBuffer,
        });
      }
    },
  });
}
