import { createStorageBuffer, encodeReadback, type ScanContext, ScanError, uploadArray } from '@scan/core';
import { dispatchShape, type KernelSpec, RecipeBuilder, RecipeExecutor, runGuarded } from '@scan/core/kit';
import { FORMAT_VERSION, NULL_POINTER, POOL_HEADER_WORDS, POOL_MAGIC } from '../../format/layout.js';
import type { GpuHiSparseParts } from '../parts.js';
import { checkAddOperands, checkGpuOperand } from './args.js';
import { addParams, CONTROL, CONTROL_WORDS, FLAG, ITEM_WORDS, NO_PARENT } from './items.js';
import { fillKernel } from './kernels/fill-kernel.js';
import { unionCountKernel } from './kernels/union-count-kernel.js';

/** The range of the item array that holds one level's pairs. */
interface LevelRange {
  readonly first: number;
  readonly count: number;
}

/** What every level's kernel needs besides its range: the operands' state as flags and scales. */
interface AddState {
  readonly d: number;
  readonly levels: number;
  readonly swapB: boolean;
  readonly scaleA: number;
  readonly scaleB: number;
  readonly capacity: number;
}

/** One level's dispatch (one workgroup per pair, 2-D past 65,535) as a recipe. */
function levelRecipe(ctx: ScanContext, kernel: KernelSpec, state: AddState, level: number, range: LevelRange, withPoolC: boolean) {
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const flags =
    (level === state.levels - 1 ? FLAG.leaf : 0) |
    (state.swapB ? FLAG.swapB : 0) |
    (state.scaleA === 1 ? FLAG.aScaleOne : 0) |
    (state.scaleB === 1 ? FLAG.bScaleOne : 0);
  const b = new RecipeBuilder();
  const p = b.paramBlock(
    addParams({
      first: range.first,
      count: range.count,
      dispatchX: dispatchShape(range.count, maxDim).x,
      flags,
      scaleA: state.scaleA,
      scaleB: state.scaleB,
      capacity: state.capacity,
    }),
  );
  const whole = (role: string) => ({ role, offset: 0 });
  const bindings = [p, whole('poolA'), whole('poolB'), whole('items'), whole('control')];
  if (withPoolC) bindings.push(whole('poolC'));
  b.dispatch(kernel, bindings, range.count);
  return b.build();
}

/** Refuses buffers past one storage binding: each of these is bound whole. */
function checkBindable(ctx: ScanContext, bytes: number, what: string): void {
  const limit = ctx.caps.limits.maxStorageBufferBindingSize;
  if (bytes > limit) {
    throw new ScanError('TOO_LARGE', `hisparse add: ${what} needs ${bytes} bytes, past maxStorageBufferBindingSize ${limit}`);
  }
}

/** A pool holding only the header: the sum of two matrices without entries. */
function emptyPool(ctx: ScanContext): GPUBuffer {
  return uploadArray(ctx, Uint32Array.of(POOL_MAGIC, FORMAT_VERSION, 0, 0), 'hisparse pool');
}

/**
 * C = A + B of the logical matrices on the GPU, by the paper's joint top-down traversal (Derler et
 * al., ICS 2017, §6), level by level:
 *
 * 1. **Union counting** (one kernel per level, top-down): each queued pair of nodes — A's and B's
 *    node at the same place, or one of them alone — counts the union of its slot lists, adds its
 *    output node's size (type by the format's rule from the union count) to the pool total, and
 *    queues its children as the next level's pairs: common children to be traversed together,
 *    children only one side has to be copied. The host reads back two counters per level (the
 *    queue tail, the total).
 * 2. **Pool allocation**: the output pool is created with exactly the words counted (so no upper
 *    bound is needed — a bound from the input pools would be about 3.6× their words in the worst
 *    case — and C's `poolWords` equals the canonical pool's size), zero-filled, with the header.
 * 3. **Fill** (one kernel per level, top-down, one submission): each pair takes its node's words from
 *    the pool with an atomic counter, links the node into its parent's slot, and writes
 *    coordinates and, at the leaves, the sums (common entries) or scaled copies.
 *
 * Operand state: C is built in A's stored orientation with scale 1, as the CPU `hisparseAdd`
 * builds it — B's slots are swapped (and the node re-sorted, by a bucket scatter in workgroup
 * memory) where B's transposed flag differs from A's, and each side's scale is applied to its leaf
 * values (f32; bits unchanged for a scale of exactly 1). Subtrees only one side has are **always
 * copied** into C's fresh pool rather than shared: C's pool is a buffer the caller owns and may
 * destroy independently of A's and B's, and sharing across buffers is impossible (a pointer is an
 * offset into one pool). Values: common leaf entries are `sA·a + sB·b` in f32, which equals the CPU
 * reference's f64 sum rounded once whenever the products are exact (scales 1 or powers of two) and
 * is otherwise within a rounding or two of it. C's pool is valid but not canonical: nodes lie in the
 * atomic counter's order.
 *
 * Throws `INVALID_ARGUMENT` when the logical shapes or the node sizes differ (as `hisparseAdd`),
 * `TOO_LARGE` when a buffer passes one storage binding. The inputs are not changed; the caller owns
 * C's pool buffer.
 *
 * @example
 * ```ts
 * const A = uploadHiSparse(ctx, hisparseFromCsr(poisson2d(64), { nodeSize: 16 }));
 * const C = await addOnGpu(ctx, A, { ...A, scale: 2 }); // 3·A, as csrgeam with B = 2A
 * const host = await downloadHiSparse(ctx, C); // hisparseToCsr(host) to read it
 * C.pool.destroy();
 * ```
 */
export async function addOnGpu(ctx: ScanContext, A: GpuHiSparseParts, B: GpuHiSparseParts): Promise<GpuHiSparseParts> {
  const a = checkGpuOperand(A, 'A');
  const b = checkGpuOperand(B, 'B');
  checkAddOperands(a, b);
  const state = {
    storedRows: a.storedRows,
    storedCols: a.storedCols,
    nodeSize: a.nodeSize,
    levels: a.levels,
    transposed: a.transposed,
    scale: 1,
  };
  if (a.root === NULL_POINTER && b.root === NULL_POINTER) {
    return { ...state, root: NULL_POINTER, pool: emptyPool(ctx), poolWords: POOL_HEADER_WORDS };
  }
  // Every output node sits where A or B has a node, and every reachable node takes at least 4 of
  // its pool's words after the header: the queue never holds more pairs than this.
  const capacity = Math.max(1, Math.floor((a.poolWords + b.poolWords) / 4));
  checkBindable(ctx, 4 * ITEM_WORDS * capacity, 'the pair queue');
  const add: AddState = {
    d: a.nodeSize,
    levels: a.levels,
    swapB: a.transposed !== b.transposed,
    scaleA: a.scale,
    scaleB: b.scale,
    capacity,
  };
  return runGuarded(ctx, 'hisparse add', async () => {
    const exec = new RecipeExecutor(ctx, 'hisparse add');
    const items = createStorageBuffer(ctx, 4 * ITEM_WORDS * capacity, 'hisparse add items');
    ctx.device.queue.writeBuffer(items, 0, Uint32Array.of(a.root, b.root, NO_PARENT, 0, 0, 0));
    const control = new Uint32Array(CONTROL_WORDS);
    control[CONTROL.items] = 1;
    control[CONTROL.total] = POOL_HEADER_WORDS;
    control[CONTROL.alloc] = POOL_HEADER_WORDS;
    const controlBuffer = uploadArray(ctx, control, 'hisparse add control');
    const roles = { poolA: a.pool, poolB: b.pool, items, control: controlBuffer };
    let pool: GPUBuffer | undefined;
    try {
      const ranges = await countUnions(ctx, exec, add, roles);
      const total = ranges.total;
      checkBindable(ctx, 4 * total, 'the output pool');
      pool = createStorageBuffer(ctx, 4 * total, 'hisparse pool');
      ctx.device.queue.writeBuffer(pool, 0, Uint32Array.of(POOL_MAGIC, FORMAT_VERSION, 0, 0));
      const words = await fillNodes(ctx, exec, add, ranges.levels, { ...roles, poolC: pool });
      if (words[CONTROL.overflow] !== 0 || words[CONTROL.alloc] !== total) {
        throw new ScanError('GPU_ERROR', `hisparse add: the fill allocated ${words[CONTROL.alloc]} words of the ${total} counted`);
      }
      const result: GpuHiSparseParts = { ...state, root: words[CONTROL.root] as number, pool, poolWords: total };
      pool = undefined;
      return result;
    } finally {
      pool?.destroy();
      exec.destroy();
      items.destroy();
      controlBuffer.destroy();
    }
  });
}

/**
 * Phase 1, union counting: one kernel per level, top-down, reading back the control words after
 * each (the next level's queue tail, and at the end the pool's total words).
 */
async function countUnions(
  ctx: ScanContext,
  exec: RecipeExecutor,
  add: AddState,
  roles: Record<string, GPUBuffer>,
): Promise<{ levels: LevelRange[]; total: number }> {
  const kernel = unionCountKernel(add.d);
  const levels: LevelRange[] = [];
  let first = 0;
  let end = 1;
  let total = POOL_HEADER_WORDS;
  for (let level = 0; level < add.levels && end > first; level++) {
    const range = { first, count: end - first };
    levels.push(range);
    const encoder = ctx.device.createCommandEncoder({ label: 'hisparse add: union counting' });
    exec.encode(encoder, `count/${level}`, () => levelRecipe(ctx, kernel, add, level, range, false), roles);
    const read = encodeReadback(ctx, encoder, roles['control'] as GPUBuffer, 0, 4 * CONTROL_WORDS);
    ctx.device.queue.submit([encoder.finish()]);
    const words = new Uint32Array(await read());
    if (words[CONTROL.overflow] !== 0) {
      throw new ScanError('INVALID_ARGUMENT', 'A, B: the pools hold more nodes than their words allow (not valid HiSparse pools)', {
        argument: 'A',
      });
    }
    first = end;
    end = words[CONTROL.items] as number;
    total = words[CONTROL.total] as number;
  }
  return { levels, total };
}

/**
 * Phase 3, fill: every level's kernel in one submission (top-down, so a parent's node exists before
 * its children link into it); returns the control words read back after it.
 */
async function fillNodes(
  ctx: ScanContext,
  exec: RecipeExecutor,
  add: AddState,
  levels: readonly LevelRange[],
  roles: Record<string, GPUBuffer>,
): Promise<Uint32Array> {
  const kernel = fillKernel(add.d);
  const encoder = ctx.device.createCommandEncoder({ label: 'hisparse add: fill' });
  levels.forEach((range, level) => {
    exec.encode(encoder, `fill/${level}`, () => levelRecipe(ctx, kernel, add, level, range, true), roles);
  });
  const read = encodeReadback(ctx, encoder, roles['control'] as GPUBuffer, 0, 4 * CONTROL_WORDS);
  ctx.device.queue.submit([encoder.finish()]);
  return new Uint32Array(await read());
}
