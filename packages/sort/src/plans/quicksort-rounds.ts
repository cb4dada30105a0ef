import { createReducePlan, createStorageBuffer, type ScanContext } from '@scan/core';
import {
  type BindingsOf,
  dispatchShape,
  type Kernel,
  type ParamFields,
  type ParamValues,
  type Recipe,
  RecipeBuilder,
  RecipeExecutor,
} from '@scan/core/kit';
import { createSegmentedDistributePlan, createSplitAndSegmentPlan, packedFlagWords } from '@scan/segmented';
import { ELEMENTWISE_WORKGROUP } from '../kernels/elementwise.js';
import { quicksortCompareKernel } from '../kernels/quicksort-compare.js';
import { quicksortDisorderKernel } from '../kernels/quicksort-disorder.js';
import { quicksortGatherKernel, quicksortIotaKernel } from '../kernels/quicksort-permute.js';
import type { SortBuffers, SortShape } from './sort-shape.js';

/** Keys (and values) at one end of the ping-pong. */
interface Side {
  readonly keys: GPUBuffer;
  readonly values: GPUBuffer | undefined;
}

/**
 * The GPU side of one quicksort of fixed buffers: records rounds of the paper's segmented
 * quicksort and the stop test into the caller's encoders; the host loop that reads the test back
 * and decides is `quicksortBuffers`.
 */
export interface QuicksortRounds {
  /** Rounds recorded so far; the next one compares with `>` when this is even, `>=` when odd. */
  readonly rounds: number;
  /** Whether the current keys (and values) are in the caller's buffers rather than the scratch. */
  readonly home: boolean;
  /** Records the start: one segment spanning everything (head bits cleared), the identity permutation. */
  encodeStart(encoder: GPUCommandEncoder): void;
  /** Records `k` more rounds. */
  encodeRounds(encoder: GPUCommandEncoder, k: number): void;
  /**
   * Records the stop test: the number of adjacent out-of-order key pairs goes to byte 0 of the
   * returned buffer (16 bytes, COPY_SRC) — 0 when the keys are sorted.
   */
  encodeDisorder(encoder: GPUCommandEncoder): GPUBuffer;
  /** Records a copy of the keys (and values) back into the caller's buffers when they are in the scratch. */
  encodeHome(encoder: GPUCommandEncoder): void;
  /** Resolves when every pipeline the rounds use is compiled (await it before the first encode). */
  readonly ready: Promise<void>;
  /** Bytes of every GPU buffer the rounds hold: their scratch and their plans'. */
  readonly memoryBytes: number;
  /** Frees the scratch and the plans. */
  destroy(): void;
}

/**
 * The rounds of the segmented quicksort of Sengupta et al. 2007 (§4.1, after Blelloch) over
 * `buffers`. Head bits (bit-packed, `@scan/segmented`'s layout) mark the segments, starting as one
 * segment. One round, on every segment at once:
 *
 * 1. **pivot** — the first key of each segment, distributed across the segment (segmented
 *    distribute: keep the heads, segmented inclusive or-scan);
 * 2. **compare** — each key against its pivot, `>` on even rounds and `>=` on odd ones
 *    ({@link quicksortCompareKernel}), by order bits;
 * 3. **split-and-segment** — inside each segment, a stable split (0-flags first, then 1-flags)
 *    that makes the boundary between the two a new segment head. Keys only: the keys themselves
 *    are split. With values: the identity permutation is split and keys and values are gathered
 *    through it ({@link quicksortGatherKernel}), so one split-and-segment serves both.
 *
 * The stop test is the paper's global reduction: the count of adjacent out-of-order pairs
 * ({@link quicksortDisorderKernel}, then a reduce-add).
 *
 * **Stable** without a tie-break: keys with equal order bits compare the same way with any pivot,
 * so they always get the same flag, stay in the same segment and keep their relative order through
 * every stable split. Once the keys are sorted they are therefore the stable sort.
 *
 * **Termination**: a segment that is not constant splits into two non-empty ones within any two
 * consecutive rounds (its pivot is not both its largest and its smallest key, see the compare
 * kernel), and every split keeps each left part ≤ (or <) the right part. So after at most
 * 2·(n − 1) rounds every segment is constant and the keys are sorted. Extra rounds on sorted keys
 * change nothing (a stable split of a sorted segment by a threshold keeps it sorted).
 *
 * The data ping-pongs between the caller's buffers and the scratch each round, as do the head
 * bits. Scratch, sized once for the count: keys (and values) once more, pivots, flags (reused by
 * the stop test), two sets of head bits, and with values the identity and the permutation — plus
 * what the segmented plans and the reduction hold. The rounds of one count share one structure per
 * kernel (the comparison's `>` or `>=` is a parameter), so recording rounds creates nothing once
 * each kernel has run; `await r.ready` compiles them all first.
 *
 * @example
 * ```ts
 * const r = createQuicksortRounds(ctx, shape, { keys, count });
 * const encoder = device.createCommandEncoder();
 * r.encodeStart(encoder);
 * r.encodeRounds(encoder, 2);
 * encoder.copyBufferToBuffer(r.encodeDisorder(encoder), 0, staging, 0, 4);
 * device.queue.submit([encoder.finish()]);
 * ```
 */
export function createQuicksortRounds(ctx: ScanContext, shape: SortShape, buffers: SortBuffers): QuicksortRounds {
  const n = buffers.count;
  const withValues = buffers.values !== undefined;
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const owned: { destroy(): void }[] = [];
  const own = <T extends { destroy(): void }>(thing: T): T => {
    owned.push(thing);
    return thing;
  };
  let bufferBytes = 0;
  const buffer = (words: number, label: string) => {
    const b = own(createStorageBuffer(ctx, 4 * words, `quicksort ${label}`));
    bufferBytes += b.size;
    return b;
  };

  const sides: readonly [Side, Side] = [
    { keys: buffers.keys, values: buffers.values },
    { keys: buffer(n, 'keys'), values: withValues ? buffer(n, 'values') : undefined },
  ];
  const heads = [buffer(packedFlagWords(n), 'head bits'), buffer(packedFlagWords(n), 'head bits')] as const;
  const pivots = buffer(n, 'pivots');
  const flags = buffer(n, 'flags');
  const iota = withValues ? buffer(n, 'identity') : undefined;
  const perm = withValues ? buffer(n, 'permutation') : undefined;
  const disorder = buffer(1, 'disorder');

  // Elements move as raw words through u32 plans, whatever the key and value types.
  const distribute = own(createSegmentedDistributePlan(ctx, { type: 'u32', maxCount: n }));
  const splitAndSegment = own(createSplitAndSegmentPlan(ctx, { type: 'u32', maxCount: n }));
  const reduce = own(createReducePlan(ctx, { type: 'u32', op: 'add', maxCount: n }));
  const exec = own(new RecipeExecutor(ctx, 'quicksort', 'keys'));
  const compareKernel = quicksortCompareKernel({ keyType: shape.keyType, descending: shape.descending });
  const disorderKernel = quicksortDisorderKernel({ keyType: shape.keyType, descending: shape.descending });

  const workgroups = Math.ceil(n / ELEMENTWISE_WORKGROUP);
  const countParams = { count: n, dispatch_x: dispatchShape(workgroups, maxDim).x };
  // Whole buffers: the kernels stop at params.count.
  const whole = (role: string) => ({ role, offset: 0 });
  /** One element-wise dispatch over all n elements (the count is fixed, so are its parameters). */
  const elementwise =
    <B extends string, P extends ParamFields>(kernel: Kernel<B, P>, bindings: BindingsOf<B>, params: ParamValues<P>) =>
    (): Recipe => {
      const b = new RecipeBuilder();
      b.dispatch(kernel, bindings, workgroups, params);
      return b.build();
    };
  const compareBindings = { keys: whole('keys'), pivots: whole('pivots'), flags: whole('flags') };
  const recipes = {
    iota: elementwise(quicksortIotaKernel({}), { out: whole('out') }, countParams),
    compareGreater: elementwise(compareKernel, compareBindings, { ...countParams, or_equal: 0 }),
    compareGreaterEqual: elementwise(compareKernel, compareBindings, { ...countParams, or_equal: 1 }),
    gather: elementwise(
      quicksortGatherKernel({}),
      {
        perm: whole('perm'),
        keys_in: whole('keysIn'),
        keys_out: whole('keysOut'),
        values_in: whole('valuesIn'),
        values_out: whole('valuesOut'),
      },
      countParams,
    ),
    disorder: elementwise(disorderKernel, { keys: whole('keys'), out: whole('out') }, countParams),
  };

  let rounds = 0;
  let side = 0; // where the keys are: 0 the caller's buffers, 1 the scratch
  let head = 0; // which head bits are current

  const encodeRound = (encoder: GPUCommandEncoder) => {
    const from = sides[side as 0 | 1];
    const to = sides[(1 - side) as 0 | 1];
    const headBits = heads[head as 0 | 1];
    const outputHeadBits = heads[(1 - head) as 0 | 1];
    // 1. Pivot: every key gets its segment's first key.
    distribute.encode(encoder, { input: from.keys, headBits, output: pivots, count: n });
    // 2. Compare with the pivot, `>` and `>=` alternating.
    const orEqual = rounds % 2 === 1;
    exec.encode(encoder, orEqual ? recipes.compareGreaterEqual : recipes.compareGreater, {
      keys: from.keys,
      pivots,
      flags,
    });
    // 3. Split-and-segment: smaller keys to the head of each segment, larger to its end, a new head between.
    if (!iota || !perm || !from.values || !to.values) {
      splitAndSegment.encode(encoder, { input: from.keys, flags, headBits, output: to.keys, outputHeadBits, count: n });
    } else {
      splitAndSegment.encode(encoder, { input: iota, flags, headBits, output: perm, outputHeadBits, count: n });
      exec.encode(encoder, recipes.gather, {
        perm,
        keysIn: from.keys,
        keysOut: to.keys,
        valuesIn: from.values,
        valuesOut: to.values,
      });
    }
    side = 1 - side;
    head = 1 - head;
    rounds++;
  };

  const plans = [distribute, splitAndSegment, reduce];
  const kernelsUsed = withValues
    ? [recipes.iota, recipes.compareGreater, recipes.gather, recipes.disorder]
    : [recipes.compareGreater, recipes.disorder];
  const ready = Promise.all([exec.load(kernelsUsed.map((recipe) => recipe())), ...plans.map((p) => p.ready)]).then(() => undefined);
  // Awaiting is the caller's choice: a failed compilation must not surface as an unhandled rejection.
  ready.catch(() => undefined);

  return {
    ready,
    get memoryBytes() {
      return bufferBytes + exec.memoryBytes + plans.reduce((sum, p) => sum + p.memoryBytes, 0);
    },
    get rounds() {
      return rounds;
    },
    get home() {
      return side === 0;
    },
    encodeStart(encoder) {
      // Element 0 is always a head, so all-zero head bits are one segment spanning the array.
      encoder.clearBuffer(heads[head as 0 | 1]);
      if (iota) exec.encode(encoder, recipes.iota, { out: iota });
    },
    encodeRounds(encoder, k) {
      for (let i = 0; i < k; i++) encodeRound(encoder);
    },
    encodeDisorder(encoder) {
      // The comparison flags are dead after the split, so they hold the out-of-order flags.
      exec.encode(encoder, recipes.disorder, { keys: sides[side as 0 | 1].keys, out: flags });
      reduce.encode(encoder, { input: flags, output: disorder, count: n });
      return disorder;
    },
    encodeHome(encoder) {
      if (side === 0) return;
      encoder.copyBufferToBuffer(sides[1].keys, 0, sides[0].keys, 0, 4 * n);
      if (sides[1].values && sides[0].values) encoder.copyBufferToBuffer(sides[1].values, 0, sides[0].values, 0, 4 * n);
      side = 0;
    },
    destroy() {
      for (const thing of owned.splice(0)) thing.destroy();
    },
  };
}
