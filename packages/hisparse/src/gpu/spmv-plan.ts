import { BufferUsage, createStorageBuffer, type Plan, type ScanContext, ScanError } from '@scan/core';
import { type BufferRef, checkEncodeArgs, planOf, RecipeBuilder, RecipeExecutor } from '@scan/core/kit';
import { f32Bits } from '../cpu/bits.js';
import { type Census, childSpan, NODE_TYPES, queueBases } from './census.js';
import { createSegmentedCombine, type SegmentedCombine } from './combine/segmented-combine.js';
import { EXPAND_BINDINGS, expandKernel, expandShape, QUEUE_ENTRY_WORDS } from './kernels/expand-kernel.js';
import { LEAF_BINDINGS, type LeafCombine, leafKernel, leafShape } from './kernels/leaf-kernel.js';
import { ARGS_BINDINGS, queueArgsKernel, SEED_BINDINGS, seedKernel } from './kernels/queue-kernels.js';
import type { GpuHiSparseParts } from './parts.js';

/** Buffers of one HiSparse product: `x` (f32, the product's input length) and `y` (f32, its output length; overwritten). */
export interface HiSparseSpmvEncodeArgs {
  x: GPUBuffer;
  y: GPUBuffer;
}

/**
 * Options of {@link createHiSparseSpmvPlan}.
 *
 * @example
 * ```ts
 * const options: HiSparseSpmvPlanOptions = { transpose: false, combine: 'segmented' };
 * ```
 */
export interface HiSparseSpmvPlanOptions {
  /** Multiply by the transpose of the logical matrix. */
  transpose: boolean;
  /**
   * How the leaves' sums reach y (default `'atomic'`): compare-and-swap on the f32 bits of y, or
   * records reduced by a sort and a segmented scan (`./combine/segmented-combine.ts`).
   */
  combine?: LeafCombine;
}

/** A recorded traversal of one matrix: `encode` writes `y = s·op(A)·x`; `outLength`/`inLength` are its vector lengths. */
export interface HiSparseSpmvPlan extends Plan<HiSparseSpmvEncodeArgs> {
  readonly inLength: number;
  readonly outLength: number;
}

/**
 * A product plan over a matrix on the GPU (Derler et al. §5): every `encode` clears y, puts the
 * root in the first queue, and walks the tree level by level — per level one small kernel sizes
 * the four per-type queues' dispatches on the GPU (`dispatchWorkgroupsIndirect`), then the inner
 * nodes of each type push their children into the next level's queues; the last level runs the
 * leaf kernel of each type, which adds into y by compare-and-swap (`combine: 'atomic'`) or writes
 * its sums as records that a sort by key, a segmented scan and a scatter reduce into y
 * (`combine: 'segmented'`; the plan owns the record arrays, sized from the census's leaf entries,
 * and the sort and scan plans). Nothing is read back. The queues
 * are owned by the plan and sized from the census (the nodes per level and type), so a product
 * allocates nothing. `transpose` multiplies by the transpose of the logical matrix; with the
 * matrix's own transposed flag this decides whether the leaves read their blocks transposed.
 *
 * @example
 * ```ts
 * const plan = createHiSparseSpmvPlan(ctx, parts, census, { transpose: false });
 * plan.encode(encoder, { x, y });
 * plan.destroy();
 * const records = createHiSparseSpmvPlan(ctx, parts, census, { transpose: false, combine: 'segmented' });
 * records.encode(encoder, { x, y }); // the same y, no compare-and-swap on it
 * records.destroy();
 * ```
 */
export function createHiSparseSpmvPlan(
  ctx: ScanContext,
  parts: GpuHiSparseParts,
  census: Census,
  options: HiSparseSpmvPlanOptions,
): HiSparseSpmvPlan {
  const combine = options.combine ?? 'atomic';
  const L = parts.levels;
  const swap = parts.transposed !== options.transpose;
  const outLength = swap ? parts.storedCols : parts.storedRows;
  const inLength = swap ? parts.storedRows : parts.storedCols;
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const exec = new RecipeExecutor(ctx, 'hisparse spmv');
  const levelTotal = (level: number) => (census.nodes[level] ?? []).reduce((a, b) => a + b, 0);
  const queueBytes = (parity: number) => {
    let most = 1;
    for (let level = parity; level < L; level += 2) most = Math.max(most, levelTotal(level));
    return 4 * QUEUE_ENTRY_WORDS * most;
  };
  const owned: GPUBuffer[] = [];
  const traversal = parts.root !== 0;
  const bindable = ctx.caps.limits.maxStorageBufferBindingSize;
  for (const parity of [0, 1]) {
    if (traversal && queueBytes(parity) > bindable) {
      throw new ScanError(
        'TOO_LARGE',
        `hisparse spmv: the largest level's queue needs ${queueBytes(parity)} bytes, past maxStorageBufferBindingSize ${bindable}`,
      );
    }
  }
  if (traversal) {
    owned.push(createStorageBuffer(ctx, queueBytes(0), 'hisparse queue (even levels)'));
    owned.push(createStorageBuffer(ctx, queueBytes(1), 'hisparse queue (odd levels)'));
    owned.push(createStorageBuffer(ctx, 16 * L, 'hisparse queue counts'));
    owned.push(
      ctx.device.createBuffer({
        label: 'hisparse dispatch args',
        size: 48 * L,
        usage: BufferUsage.STORAGE | BufferUsage.INDIRECT | BufferUsage.COPY_DST,
      }),
    );
  }
  const [queueEven, queueOdd, counters, args] = owned;
  const queueBytesTotal = owned.reduce((sum, b) => sum + b.size, 0);
  // The records combine: at most one record per leaf entry (a run sum covers one or more entries).
  const leafEntries = (census.entries[L - 1] ?? []).reduce((a, b) => a + b, 0);
  let records: SegmentedCombine | undefined;
  if (traversal && combine === 'segmented') {
    try {
      records = createSegmentedCombine(ctx, { capacity: leafEntries, outLength });
    } catch (e) {
      for (const b of owned) b.destroy();
      throw e;
    }
  }

  const build = () => {
    const b = new RecipeBuilder();
    const whole = (role: string): BufferRef => ({ role, offset: 0 });
    b.clear({ role: 'y', offset: 0, size: 4 * outLength });
    if (!traversal) return b.build();
    const queueOf = (level: number) => whole(level % 2 === 0 ? 'queueEven' : 'queueOdd');
    b.clear(whole('counters'));
    if (records) b.clear(whole('recordCount'));
    const seed: (BufferRef | undefined)[] = [];
    seed[SEED_BINDINGS.counters] = whole('counters');
    seed[SEED_BINDINGS.queue] = queueOf(0);
    seed[SEED_BINDINGS.params] = b.paramBlock([parts.root]);
    b.dispatch(seedKernel(), seed, 1);
    for (let level = 0; level < L; level++) {
      const leaf = level === L - 1;
      const shape = leaf ? leafShape : expandShape;
      const perGroup = NODE_TYPES.map((t) => shape(t).workgroupSize / shape(t).lanes);
      // Queue sizing: this level's counts, written by the previous level's pushes, become dispatch sizes.
      const sizing: (BufferRef | undefined)[] = [];
      sizing[ARGS_BINDINGS.counters] = whole('counters');
      sizing[ARGS_BINDINGS.args] = whole('args');
      sizing[ARGS_BINDINGS.params] = b.paramBlock([4 * level, ...perGroup, maxDim]);
      b.dispatch(queueArgsKernel(), sizing, 1);
      const counts = census.nodes[level] as readonly number[];
      const bases = queueBases(counts);
      const nextBases = leaf ? [0, 0, 0, 0] : queueBases(census.nodes[level + 1] as readonly number[]);
      for (const type of NODE_TYPES) {
        if (counts[type] === 0) continue;
        const argsRef: BufferRef = { role: 'args', offset: 12 * (4 * level + type), size: 12 };
        const bindings: (BufferRef | undefined)[] = [];
        if (leaf) {
          bindings[LEAF_BINDINGS.pool] = whole('pool');
          bindings[LEAF_BINDINGS.queueIn] = queueOf(level);
          bindings[LEAF_BINDINGS.counters] = whole('counters');
          bindings[LEAF_BINDINGS.x] = whole('x');
          if (records) {
            bindings[LEAF_BINDINGS.recordCount] = whole('recordCount');
            bindings[LEAF_BINDINGS.recordKeys] = whole('recordKeys');
            bindings[LEAF_BINDINGS.recordValues] = whole('recordValues');
          } else {
            bindings[LEAF_BINDINGS.y] = whole('y');
          }
          bindings[LEAF_BINDINGS.params] = b.paramBlock([bases[type] as number, 4 * level + type, swap ? 1 : 0, f32Bits(parts.scale)]);
          b.dispatchIndirect(leafKernel({ nodeSize: parts.nodeSize, type, combine }), bindings, argsRef);
        } else {
          bindings[EXPAND_BINDINGS.pool] = whole('pool');
          bindings[EXPAND_BINDINGS.queueIn] = queueOf(level);
          bindings[EXPAND_BINDINGS.counters] = whole('counters');
          bindings[EXPAND_BINDINGS.queueOut] = queueOf(level + 1);
          bindings[EXPAND_BINDINGS.params] = b.paramBlock([
            bases[type] as number,
            4 * level + type,
            4 * (level + 1),
            ...nextBases,
            childSpan(parts.nodeSize, L, level),
          ]);
          b.dispatchIndirect(expandKernel({ nodeSize: parts.nodeSize, type, mode: 'push', leaf: false }), bindings, argsRef);
        }
      }
    }
    return b.build();
  };

  const queues = { destroy: () => owned.forEach((b) => b.destroy()), scratchBytes: queueBytesTotal, allocations: owned.length };
  return Object.assign(
    planOf([exec, queues, ...(records ? [records] : [])], {
      encode(encoder: GPUCommandEncoder, a: HiSparseSpmvEncodeArgs) {
        checkEncodeArgs('hisparse spmv plan', { ...a, count: 1 }, { x: { bytes: 4 * inLength }, y: { bytes: 4 * outLength } });
        const roles: Record<string, GPUBuffer> = { pool: parts.pool, x: a.x, y: a.y };
        if (traversal) Object.assign(roles, { queueEven, queueOdd, counters, args });
        if (records) Object.assign(roles, records.buffers);
        // Clear y, traverse, leaves (they add into y, or write records).
        exec.encode(encoder, 'spmv', build, roles);
        // Sort, reduce by key, scatter (records only).
        records?.encode(encoder, a.y);
      },
    }),
    { inLength, outLength },
  );
}
