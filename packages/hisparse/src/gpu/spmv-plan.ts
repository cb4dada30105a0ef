import { BufferUsage, createStorageBuffer, type Plan, type ScanContext, ScanError } from '@scan/core';
import { type BufferRef, checkEncodeArgs, planOf, RecipeBuilder, RecipeExecutor } from '@scan/core/kit';
import { f32Bits } from '../cpu/bits.js';
import { NODE_TYPE, type NodeType } from '../format/layout.js';
import { type Census, censusRegionLeaves, childSpan, NODE_TYPES, queueBases } from './census.js';
import { createSegmentedCombine, type SegmentedCombine } from './combine/segmented-combine.js';
import { expandKernel, expandShape, QUEUE_ENTRY_WORDS } from './kernels/expand-kernel.js';
import { type LeafCombine, leafKernel, leafShape } from './kernels/leaf-kernel.js';
import { queueArgsKernel, seedKernel } from './kernels/queue-kernels.js';
import { CLASS_COUNTER_WORDS, CLASS_WORD, sizeClassKernel, sizeClassWorkgroups } from './kernels/size-class-kernels.js';
import { COO4_SIZE_CLASSES } from './kernels/size-classes.js';
import { SPILL_SLOTS, spillFlushKernel } from './kernels/spill-kernels.js';
import { encodeLeafOrder } from './leaf-order.js';
import type { GpuHiSparseParts } from './parts.js';

/** Buffers of one HiSparse product: `x` (f32, the product's input length) and `y` (f32, its output length; overwritten). */
export interface HiSparseSpmvEncodeArgs {
  x: GPUBuffer;
  y: GPUBuffer;
}

/**
 * Options of {@link createPoolSpmvPlan}.
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
  /** @internal Tests: with `'atomic'`, every sum goes through the spill table of hot outputs. */
  spillAlways?: boolean;
}

/** A recorded traversal of one matrix: `encode` writes `y = s·op(A)·x`; `outLength`/`inLength` are its vector lengths. */
export interface HiSparseSpmvPlan extends Plan<HiSparseSpmvEncodeArgs> {
  readonly inLength: number;
  readonly outLength: number;
}

/**
 * A product plan over a matrix on the GPU (Derler et al. §5). **Traversal**, once, when the plan is
 * made (submitted to the device queue right away, so it runs before any product recorded later):
 * the root goes into the first queue, and the tree is walked level by level — per level one small
 * kernel sizes the four per-type queues' dispatches on the GPU (`dispatchWorkgroupsIndirect`), then
 * the inner nodes of each type push their children into the next level's queues — until the leaf
 * level's queues are filled and sized; the COO4 leaves are split into per-size queues
 * (`size-class-kernels.ts`) and every leaf queue ordered by the block of outputs its leaves add
 * into (`leaf-order.ts`: a stable sort, so a workgroup's leaves share outputs and its table merges
 * their sums). Region leaves (FORMAT.md), met at inner levels, go into a queue of their own, which
 * one kernel multiplies, a workgroup per region leaf. Nothing is read back. **Product**, every
 * `encode`: clear y, then the leaf kernel of each type over those queues, which adds into y by
 * compare-and-swap (`combine: 'atomic'`) or writes its sums as records that a sort by key, a
 * segmented scan and a scatter reduce into y (`combine: 'segmented'`; the plan owns the record
 * arrays, sized from the census's leaf entries, and the sort and scan plans).
 *
 * Walking the tree once per plan instead of once per product is sound because a matrix's nodes
 * never change (edits append new paths; `createHiSparseSpmvPlan` makes the plan again when
 * an edit moves the pool to a larger buffer), and it leaves a product with as many dispatches as
 * leaf types instead of five per level. The queues are sized from the census (the nodes per level
 * and type); the inner levels' queue is freed after the traversal and the leaf queue kept.
 * `transpose` multiplies by the transpose of the logical matrix; with the matrix's own transposed
 * flag this decides whether the leaves read their blocks transposed.
 *
 * Memory, fixed when the plan is made: the leaf queues (12 bytes per leaf and per region leaf),
 * the queue counters (a few words per level), with `'atomic'` the 512 KiB spill table, with
 * `'segmented'` the records (about 20 bytes per leaf entry: keys, values, run sums, head bits,
 * the sort's and the scan's scratch, and the parameter blocks the sort's count fixup fills from
 * the record count), and a 4-slot parameter ring per part (a block per leaf dispatch). A product has no scalar (the scale is
 * the matrix's) and binds whole buffers, so once warm an encode with any x and y creates no buffer,
 * bind group or pipeline (bind groups are kept per pair of x and y buffers, in a bounded cache).
 * `await plan.ready` compiles the product's kernels before the first frame (the traversal's ran
 * when the plan was made).
 *
 * @example
 * ```ts
 * const plan = createPoolSpmvPlan(ctx, parts, census, { transpose: false });
 * await plan.ready;
 * plan.encode(encoder, { x, y });
 * plan.destroy();
 * const records = createPoolSpmvPlan(ctx, parts, census, { transpose: false, combine: 'segmented' });
 * records.encode(encoder, { x, y }); // the same y, no compare-and-swap on it
 * records.destroy();
 * ```
 */
export function createPoolSpmvPlan(
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
  // The products' executor: one structure (the leaf dispatches of this matrix), a ring of a few blocks.
  const exec = new RecipeExecutor(ctx, 'hisparse spmv', 'A');
  const levelTotal = (level: number) => (census.nodes[level] ?? []).reduce((a, b) => a + b, 0);
  const queueBytes = (parity: number) => {
    let most = 1;
    for (let level = parity; level < L; level += 2) most = Math.max(most, levelTotal(level));
    return 4 * QUEUE_ENTRY_WORDS * most;
  };
  const owned: GPUBuffer[] = [];
  // The per-level counters (four per level), the COO4 size classes' words, the region queue's count.
  const classCounter = 4 * L;
  const regionCounter = classCounter + CLASS_COUNTER_WORDS;
  const traversal = parts.root !== 0;
  const bindable = ctx.caps.limits.maxStorageBufferBindingSize;
  // Region leaves (FORMAT.md), met at inner levels, go into a queue of their own for one kernel.
  const regionLeaves = censusRegionLeaves(census);
  const regionEntries = (census.regions?.entries ?? []).reduce((a, b) => a + b, 0);
  for (const parity of [0, 1]) {
    if (traversal && queueBytes(parity) > bindable) {
      throw new ScanError(
        'TOO_LARGE',
        `createHiSparseSpmvPlan: A's largest level needs a queue of ${queueBytes(parity)} bytes, past maxStorageBufferBindingSize (${bindable})`,
        { argument: 'A' },
      );
    }
  }
  if (traversal) {
    owned.push(createStorageBuffer(ctx, queueBytes(0), 'hisparse queue (even levels)'));
    owned.push(createStorageBuffer(ctx, queueBytes(1), 'hisparse queue (odd levels)'));
    owned.push(createStorageBuffer(ctx, 4 * (regionCounter + 4), 'hisparse queue counts'));
    owned.push(
      ctx.device.createBuffer({
        label: 'hisparse dispatch args',
        // Four queues per inner level; the leaf level's dispatches are sized from the census.
        size: 12 * 4 * Math.max(1, L - 1),
        usage: BufferUsage.STORAGE | BufferUsage.INDIRECT | BufferUsage.COPY_DST,
      }),
    );
  }
  // The spill table of hot outputs (spill-kernels.ts), cleared by every product with that combine.
  if (traversal && combine === 'atomic') owned.push(createStorageBuffer(ctx, 8 * SPILL_SLOTS, 'hisparse spill'));
  const [queueEven, queueOdd, counters, args, spill] = owned;
  const regionBytes = 4 * QUEUE_ENTRY_WORDS * regionLeaves;
  if (regionBytes > bindable) {
    for (const b of owned) b.destroy();
    throw new ScanError(
      'TOO_LARGE',
      `createHiSparseSpmvPlan: A's ${regionLeaves} region leaves need a queue of ${regionBytes} bytes, past maxStorageBufferBindingSize (${bindable})`,
      { argument: 'A' },
    );
  }
  const regions = regionLeaves > 0 ? createStorageBuffer(ctx, regionBytes, 'hisparse region leaves') : undefined;
  if (regions) owned.push(regions);
  const allocated = owned.length;
  // The records combine: at most one record per leaf entry (a run sum covers one or more entries).
  const leafEntries = (census.entries[L - 1] ?? []).reduce((a, b) => a + b, 0) + regionEntries;
  let records: SegmentedCombine | undefined;
  if (traversal && combine === 'segmented') {
    try {
      records = createSegmentedCombine(ctx, { capacity: leafEntries, outLength });
    } catch (e) {
      for (const b of owned) b.destroy();
      throw e;
    }
  }

  const whole = (role: string): BufferRef => ({ role, offset: 0 });
  // The pool's written words, fixed for the plan's life (the plan is made again when an edit moves
  // the pool to another buffer). Sized, not "to the end of the buffer", which the executor would
  // cap at the context's binding limit: the build, an add and an edit keep a pool within one binding
  // of the device, and a context that claims a smaller limit (a test does) must not cut the tree short.
  const pool: BufferRef = { role: 'pool', offset: 0, size: 4 * parts.poolWords };
  const queueOf = (level: number) => whole(level % 2 === 0 ? 'queueEven' : 'queueOdd');
  const leafLevel = L - 1;
  // Nodes of a type one expansion workgroup takes.
  const perGroup = (type: NodeType) => expandShape(type).workgroupSize / expandShape(type).lanes;
  const coo4Leaves = traversal ? ((census.nodes[leafLevel] as readonly number[])[NODE_TYPE.coo4] as number) : 0;

  // The traversal (once, when the plan is made): the root into the first queue, then per level the
  // queue sizing and the inner nodes' pushes; it ends with the leaf level's queues filled and their
  // dispatch sizes written, which every product then reuses.
  const traverse = () => {
    const b = new RecipeBuilder();
    b.clear(whole('counters'));
    b.dispatch(seedKernel(), { counters: whole('counters'), queue: queueOf(0) }, 1, { root: parts.root });
    for (let level = 0; level < L; level++) {
      // The leaf level's queues are complete; the products size their dispatches from the census.
      if (level === leafLevel) {
        if (coo4Leaves > 0) sizeClasses(b);
        break;
      }
      // Queue sizing: this level's counts, written by the previous level's pushes, become dispatch sizes.
      const sizing = { counters: whole('counters'), args: whole('args') };
      const [per0, per1, per2, per3] = NODE_TYPES.map(perGroup) as [number, number, number, number];
      b.dispatch(queueArgsKernel(), sizing, 1, { first: 4 * level, per0, per1, per2, per3, max_dim: maxDim });
      const counts = census.nodes[level] as readonly number[];
      const bases = queueBases(counts);
      // The dense queue starts at 0 (queueBases): only the other three bases are parameters.
      const [, nb1, nb2, nb3] = queueBases(census.nodes[level + 1] as readonly number[]) as [number, number, number, number];
      for (const type of NODE_TYPES) {
        if (counts[type] === 0) continue;
        const bindings = {
          pool,
          queue_in: queueOf(level),
          counters: whole('counters'),
          queue_out: queueOf(level + 1),
          region_out: regions ? whole('regions') : undefined,
        };
        const params = {
          in_base: bases[type] as number,
          count_index: 4 * level + type,
          next_counter: 4 * (level + 1),
          nb1,
          nb2,
          nb3,
          child_span: childSpan(parts.nodeSize, L, level),
          region_counter: regionCounter,
        };
        const argsRef: BufferRef = { role: 'args', offset: 12 * (4 * level + type), size: 12 };
        const kernel = expandKernel({ nodeSize: parts.nodeSize, type, mode: 'push', leaf: false, regionQueue: regions !== undefined });
        b.dispatchIndirect(kernel, bindings, argsRef, params);
      }
    }
    return b.build();
  };

  // The per-size queues of the COO4 leaves: count per class, scatter into class runs, copy back.
  const leafBases = traversal ? queueBases(census.nodes[leafLevel] as readonly number[]) : [0, 0, 0, 0];
  function sizeClasses(b: RecipeBuilder): void {
    const bindings = { pool, queue: queueOf(leafLevel), counters: whole('counters') };
    const count = sizeClassKernel('count');
    const params = b.paramsFor(count, { first: leafBases[NODE_TYPE.coo4] as number, leaves: coo4Leaves, class_counter: classCounter });
    const groups = sizeClassWorkgroups(coo4Leaves);
    b.dispatch(count, bindings, groups, params);
    b.dispatch(sizeClassKernel('scatter'), { ...bindings, sorted: whole('sorted') }, groups, params);
    const bytes = 4 * QUEUE_ENTRY_WORDS * coo4Leaves;
    b.copy(whole('sorted'), { ...queueOf(leafLevel), offset: 4 * QUEUE_ENTRY_WORDS * (leafBases[NODE_TYPE.coo4] as number) }, bytes);
  }

  // What every leaf dispatch binds: the leaf queue and x, and y with the spill table or the records.
  const leaf = { pool, queue_in: queueOf(leafLevel), counters: whole('counters'), x: whole('x') };
  const leafBindings = records
    ? { ...leaf, record_count: whole('recordCount'), record_keys: whole('recordKeys'), record_values: whole('recordValues') }
    : { ...leaf, y: whole('y'), spill: whole('spill') };

  // A product: clear y, then the leaf kernel of each type over the leaf queues the traversal left.
  const product = () => {
    const b = new RecipeBuilder();
    b.clear({ role: 'y', offset: 0, size: 4 * outLength });
    if (!traversal) return b.build();
    if (records) b.clear(whole('recordCount'));
    else b.clear(whole('spill'));
    const counts = census.nodes[leafLevel] as readonly number[];
    // One dispatch per leaf type, and per size class for COO4 leaves; each reads its queue's count
    // and start from the counters. The workgroups are sized on the host from the census (leaves
    // per type, COO4 leaves per class: exactly what the traversal put in each queue), not by an
    // indirect dispatch: on the H100 every dispatchWorkgroupsIndirect cost about 0.6 ms outside
    // the pass (Dawn's validation of its arguments), ten times a whole Poisson product
    // (BENCHMARKS.md, "HiSparse third pass").
    const leafDispatch = (type: NodeType, sizeClass: number | undefined, leaves: number) => {
      const split = sizeClass !== undefined;
      const countIndex = split ? classCounter + CLASS_WORD.count + sizeClass : 4 * leafLevel + type;
      const startIndex = split ? classCounter + CLASS_WORD.start + sizeClass : classCounter + CLASS_WORD.zero;
      const shape = leafShape(type, sizeClass);
      const workgroups = Math.ceil(leaves / (shape.workgroupSize / shape.lanes));
      const params = {
        in_base: leafBases[type] as number,
        count_index: countIndex,
        swap: swap ? 1 : 0,
        scale_bits: f32Bits(parts.scale),
        start_index: startIndex,
      };
      const spillAlways = options.spillAlways === true;
      b.dispatch(leafKernel({ nodeSize: parts.nodeSize, type, combine, sizeClass, spillAlways }), leafBindings, workgroups, params);
    };
    for (const type of NODE_TYPES) {
      const leaves = counts[type] as number;
      if (leaves === 0) continue;
      if (type !== NODE_TYPE.coo4) leafDispatch(type, undefined, leaves);
      else
        COO4_SIZE_CLASSES.forEach((_, k) => {
          const inClass = census.coo4Classes[k] as number;
          if (inClass > 0) leafDispatch(type, k, inClass);
        });
    }
    if (regions) {
      // The region leaves: a workgroup each, from their own queue, into y or the records alike.
      const params = {
        in_base: 0,
        count_index: regionCounter,
        swap: swap ? 1 : 0,
        scale_bits: f32Bits(parts.scale),
        start_index: classCounter + CLASS_WORD.zero,
      };
      const kernel = leafKernel({
        nodeSize: parts.nodeSize,
        type: NODE_TYPE.coo4,
        combine,
        region: true,
        spillAlways: options.spillAlways === true,
      });
      b.dispatch(kernel, { ...leafBindings, queue_in: whole('regions') }, regionLeaves, params);
    }
    if (!records) {
      // The sums that lost their compare-and-swap attempts on a hot output, from the spill table into y.
      b.dispatch(spillFlushKernel(), { spill: whole('spill'), y: whole('y') }, SPILL_SLOTS / 256);
    }
    return b.build();
  };

  let traversalAllocations = 0;
  if (traversal) {
    // The traversal and the leaf ordering run once: their own executor (its parameter ring holds
    // a block per level and type) goes as soon as they are submitted.
    const walk = new RecipeExecutor(ctx, 'hisparse traversal', 'A');
    const encoder = ctx.device.createCommandEncoder({ label: 'hisparse traversal' });
    // Scratch of the size classes' scatter and the ordering by output block, only while they run.
    const leaves = levelTotal(leafLevel);
    const scratch = [
      createStorageBuffer(ctx, Math.max(16, 4 * QUEUE_ENTRY_WORDS * leaves), 'hisparse leaf order'),
      createStorageBuffer(ctx, Math.max(16, 4 * leaves), 'hisparse leaf keys'),
      createStorageBuffer(ctx, Math.max(16, 4 * leaves), 'hisparse leaf permutation'),
    ];
    const [sorted, keys, perm] = scratch as [GPUBuffer, GPUBuffer, GPUBuffer];
    let sort: { destroy(): void; readonly allocations: number } | undefined;
    try {
      const roles = { pool: parts.pool, queueEven, queueOdd, counters, args, sorted, ...(regions ? { regions } : {}) } as Record<
        string,
        GPUBuffer
      >;
      walk.encode(encoder, traverse, roles);
      if (leaves > 1) {
        const queue = (leafLevel % 2 === 0 ? queueEven : queueOdd) as GPUBuffer;
        const orderRoles = { queue, counters: counters as GPUBuffer, keys, perm, sorted };
        const spec = { leaves, bases: leafBases, classCounter, nodeSize: parts.nodeSize, swap, outLength };
        sort = encodeLeafOrder(ctx, walk, encoder, orderRoles, spec);
      }
      ctx.device.queue.submit([encoder.finish()]);
    } catch (error) {
      // The plan never came to be: nothing it made outlives the failure.
      for (const b of owned) b.destroy();
      records?.destroy();
      exec.destroy();
      throw error;
    } finally {
      // Submitted work keeps what it uses alive.
      traversalAllocations = walk.allocations + scratch.length + (sort?.allocations ?? 0);
      walk.destroy();
      sort?.destroy();
      for (const b of scratch) b.destroy();
    }
    // Only the leaf level's queue and the counters are read again; the other queue and the
    // dispatch arguments were the traversal's scratch.
    const spent = L > 1 ? [leafLevel % 2 === 0 ? queueOdd : queueEven, args] : [args];
    for (const buffer of spent) {
      buffer?.destroy();
      owned.splice(owned.indexOf(buffer as GPUBuffer), 1);
    }
  }

  const queueBytesTotal = owned.reduce((sum, b) => sum + b.size, 0);
  const queues = {
    destroy: () => owned.forEach((b) => b.destroy()),
    scratchBytes: queueBytesTotal,
    memoryBytes: queueBytesTotal,
    allocations: allocated + traversalAllocations,
  };
  return Object.assign(
    planOf([exec, queues, ...(records ? [records] : [])], {
      what: 'hisparse spmv plan',
      // The product's kernels (the records' sort and scan are the inner plans').
      ready: exec.load([product()]),
      encode(encoder: GPUCommandEncoder, a: HiSparseSpmvEncodeArgs) {
        checkEncodeArgs('hisparse spmv plan', { ...a, count: 1 }, { x: { bytes: 4 * inLength }, y: { bytes: 4 * outLength } });
        const roles: Record<string, GPUBuffer> = { pool: parts.pool, x: a.x, y: a.y };
        if (traversal)
          Object.assign(roles, {
            [leafLevel % 2 === 0 ? 'queueEven' : 'queueOdd']: leafLevel % 2 === 0 ? queueEven : queueOdd,
            counters,
            ...(spill ? { spill } : {}),
            ...(regions ? { regions } : {}),
          });
        if (records) Object.assign(roles, records.buffers);
        // Clear y, the leaves (they add into y, or write records).
        exec.encode(encoder, product, roles);
        // Sort, reduce by key, scatter (records only).
        records?.encode(encoder, a.y);
      },
    }),
    { inLength, outLength },
  );
}
