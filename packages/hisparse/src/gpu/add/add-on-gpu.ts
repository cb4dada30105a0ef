import { BufferUsage, createStorageBuffer, encodeReadback, type ScanContext, ScanError, uploadArray } from '@scan/core';
import { type KernelSpec, type Recipe, RecipeBuilder, RecipeExecutor, runGuarded } from '@scan/core/kit';
import { FORMAT_VERSION, NULL_POINTER, POOL_HEADER_WORDS, POOL_MAGIC } from '../../format/layout.js';
import type { Census } from '../census.js';
import type { GpuHiSparseParts } from '../parts.js';
import { checkAddOperands, checkGpuOperand } from './args.js';
import {
  addParams,
  CONTROL,
  controlWords,
  FLAG,
  ITEM_WORDS,
  LEVEL_WORDS,
  NO_PARENT,
  TALLY_COPIES,
  TALLY_WORDS,
  tallyStart,
} from './items.js';
import { fillKernel } from './kernels/fill-kernel.js';
import { levelArgsKernel } from './kernels/level-args-kernel.js';
import { mergePairKernel } from './kernels/merge-pair-kernels.js';
import { smallFillKernel, smallUnionCountKernel } from './kernels/small-pair-kernels.js';
import { unionCountKernel } from './kernels/union-count-kernel.js';

/** What every level's kernels need: the operands' state as flags and scales, and the bounds. */
interface AddState {
  readonly d: number;
  readonly levels: number;
  readonly swapB: boolean;
  readonly scaleA: number;
  readonly scaleB: number;
  readonly capacity: number;
  readonly maxDim: number;
}

/** The uniform block of `level`'s kernels. */
function levelParams(state: AddState, level: number): number[] {
  const flags =
    (level === state.levels - 1 ? FLAG.leaf : 0) |
    (state.swapB ? FLAG.swapB : 0) |
    (state.scaleA === 1 ? FLAG.aScaleOne : 0) |
    (state.scaleB === 1 ? FLAG.bScaleOne : 0);
  const { scaleA, scaleB, capacity, maxDim } = state;
  return addParams({ level, flags, scaleA, scaleB, capacity, maxDim, tally: tallyStart(state.levels) });
}

const whole = (role: string) => ({ role, offset: 0 });
/** Level `level`'s indirect dispatch arguments of one queue (the large queue's first, as in the level records). */
const argsOf = (level: number, queue: 'large' | 'small') => ({
  role: 'args',
  offset: 4 * (LEVEL_WORDS * level + (queue === 'large' ? 0 : 4)),
});

/** The kernels of one sweep: for the large queue (a workgroup per pair) and the small one (a thread per pair). */
interface SweepKernels {
  readonly large: KernelSpec;
  /** The leaf level's large pairs of two sparse lists (the large kernel skips them). */
  readonly merge: KernelSpec;
  readonly small: KernelSpec;
}

/**
 * One sweep over every level, top-down, as one recipe: per level the large and the small queue's
 * kernel through indirect dispatches; with `sizeLevels`, `levelArgsKernel` first sizes each level
 * below the root from the queue tails the level above left (the counting sweep); the fill sweep
 * reuses those sizes.
 */
function sweepRecipe(state: AddState, kernels: SweepKernels, sizeLevels: boolean, withPoolC: boolean): Recipe {
  const b = new RecipeBuilder();
  for (let level = 0; level < state.levels; level++) {
    const p = b.paramBlock(levelParams(state, level));
    if (sizeLevels && level > 0) b.dispatch(levelArgsKernel(), [p, whole('control'), whole('args')], 1);
    const bindings = [
      p,
      whole('poolA'),
      whole('poolB'),
      whole('items'),
      whole('control'),
      withPoolC ? whole('poolC') : undefined,
      whole('queues'),
    ];
    b.dispatchIndirect(kernels.large, bindings, argsOf(level, 'large'));
    if (level === state.levels - 1) b.dispatchIndirect(kernels.merge, bindings, argsOf(level, 'large'));
    b.dispatchIndirect(kernels.small, bindings, argsOf(level, 'small'));
  }
  return b.build();
}

/**
 * Options of {@link addOnGpu}.
 *
 * @example
 * ```ts
 * const options: AddOnGpuOptions = { nodes: totalNodes(censusA) + totalNodes(censusB) };
 * ```
 */
export interface AddOnGpuOptions {
  /**
   * How many nodes A and B reach together (from their censuses): the bound on the pairs the
   * traversal queues. Without it the bound comes from the pool words, several times larger.
   */
  readonly nodes?: number;
}

/**
 * What {@link addOnGpu} returns: C's parts (the caller owns `pool`) and C's census, tallied by the
 * sweeps themselves, so `HiSparseMatrix` need not count C's tree again.
 */
export interface AddResult extends GpuHiSparseParts {
  readonly census: Census;
}

/**
 * C's census from the control words after both sweeps (items.ts, `tallyStart`): each level's
 * copies summed, and the dense-leaf entries that cancelled to +0 taken off the leaves' entries.
 */
function censusFromTally(control: Uint32Array, levels: number): Census {
  const start = tallyStart(levels);
  const nodes: number[][] = [];
  const entries: number[][] = [];
  const words: number[][] = [];
  for (let level = 0; level < levels; level++) {
    const sum = new Array<number>(TALLY_WORDS).fill(0);
    for (let copy = 0; copy < TALLY_COPIES; copy++) {
      const at = start + 1 + (level * TALLY_COPIES + copy) * TALLY_WORDS;
      for (let w = 0; w < TALLY_WORDS; w++) sum[w] = (sum[w] as number) + (control[at + w] as number);
    }
    nodes.push(sum.slice(0, 4));
    entries.push(sum.slice(4, 8));
    words.push(sum.slice(8, 12));
  }
  const leaves = entries[levels - 1] as number[];
  leaves[0] = (leaves[0] as number) - (control[start] as number);
  return { nodes, entries, words };
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
 * al., ICS 2017, §6), level by level. The pairs of nodes to visit sit in two queues per level
 * (§6's queues per combination of node types and sizes, reduced to two bins): **small** pairs —
 * two sparse nodes, or one and nothing, with at most 16 entries together — are merged by one
 * thread each in registers; **large** pairs — a dense node on either side, or more entries — by one
 * workgroup each over the d×d slot grid in workgroup memory, which handles dense+dense,
 * dense+sparse and sparse+sparse alike. The phases:
 *
 * 1. **Union counting** (top-down, one submission): each pair — A's and B's node at the same place,
 *    or one of them alone — counts the union of its slot lists, adds its output node's size (type
 *    by the format's rule from the union count) to the pool total, and queues its children as the
 *    next level's pairs: common children to be traversed together, children only one side has to
 *    be copied. Between levels a one-invocation kernel sizes the next level's queues from their
 *    tails and writes their indirect dispatch arguments (the paper's GPU controller, §4.2), so the
 *    host reads back once, after the last level (the total words).
 * 2. **Pool allocation**: the output pool is created with exactly the words counted (so no upper
 *    bound is needed — a bound from the input pools would be about 3.6× their words in the worst
 *    case — and C's `poolWords` equals the canonical pool's size), zero-filled, with the header.
 * 3. **Fill** (top-down, one submission, the same indirect sizes): each pair takes its node's words
 *    from the pool with an atomic counter, links the node into its parent's slot, and writes
 *    coordinates and, at the leaves, the sums (common entries) or scaled copies.
 *
 * Operand state: C is built in A's stored orientation with scale 1, as the CPU `hisparseAdd`
 * builds it — B's slots are swapped (and each node re-sorted: by insertion in a small pair, by the
 * scatter into the slot grid in a large one) where B's transposed flag differs from A's, and each
 * side's scale is applied to its leaf values (f32; bits unchanged for a scale of exactly 1).
 * Subtrees only one side has are **always copied** into C's fresh pool rather than shared: C's
 * pool is a buffer the caller owns and may destroy independently of A's and B's, and sharing
 * across buffers is impossible (a pointer is an offset into one pool). Values: common leaf entries
 * are `sA·a + sB·b` in f32, which equals the CPU reference's f64 sum rounded once whenever the
 * products are exact (scales 1 or powers of two) and is otherwise within a rounding or two of it.
 * C's pool is valid but not canonical: nodes lie in the atomic counter's order.
 *
 * The pair items and queues are sized by `options.nodes` (A's and B's node counts together, which
 * `HiSparseMatrix.add` passes from the censuses) or else by the pool words.
 *
 * C's census (nodes, entries and words per level and type, what `takeCensus` would count) is
 * tallied by the counting sweep and corrected by the fill sweep (dense-leaf entries that cancelled
 * to +0 are no entries), and returned with the parts.
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
export async function addOnGpu(
  ctx: ScanContext,
  A: GpuHiSparseParts,
  B: GpuHiSparseParts,
  options: AddOnGpuOptions = {},
): Promise<AddResult> {
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
    return {
      ...state,
      root: NULL_POINTER,
      pool: emptyPool(ctx),
      poolWords: POOL_HEADER_WORDS,
      census: censusFromTally(new Uint32Array(controlWords(a.levels)), a.levels),
    };
  }
  // Every output node sits where A or B has a node: the queue never holds more pairs than their
  // nodes together — counted by their censuses when the caller has them, else bounded by the pool
  // words (every reachable node takes at least 4 words after the header; ten times more for
  // typical leaves, and the items are 24 bytes each).
  const byWords = Math.floor((a.poolWords + b.poolWords) / 4);
  const capacity = Math.max(1, Math.min(byWords, options.nodes ?? byWords));
  checkBindable(ctx, 4 * ITEM_WORDS * capacity, 'the pair items');
  const add: AddState = {
    d: a.nodeSize,
    levels: a.levels,
    swapB: a.transposed !== b.transposed,
    scaleA: a.scale,
    scaleB: b.scale,
    capacity,
    maxDim: ctx.caps.limits.maxComputeWorkgroupsPerDimension,
  };
  return runGuarded(ctx, 'hisparse add', async () => {
    const exec = new RecipeExecutor(ctx, 'hisparse add');
    const items = createStorageBuffer(ctx, 4 * ITEM_WORDS * capacity, 'hisparse add items');
    ctx.device.queue.writeBuffer(items, 0, Uint32Array.of(a.root, b.root, NO_PARENT, 0, 0, 0));
    // The root level is one pair, sized here; the GPU sizes the others.
    const control = new Uint32Array(controlWords(add.levels));
    control[CONTROL.items] = 1;
    control[CONTROL.total] = POOL_HEADER_WORDS;
    control[CONTROL.alloc] = POOL_HEADER_WORDS;
    control[CONTROL.largeTail] = 1;
    control.set([0, 1, 1, 0, 0, 0, 0, 0], CONTROL.levels);
    const controlBuffer = uploadArray(ctx, control, 'hisparse add control');
    const args = ctx.device.createBuffer({
      label: 'hisparse add dispatch args',
      size: 4 * LEVEL_WORDS * add.levels,
      usage: BufferUsage.STORAGE | BufferUsage.INDIRECT | BufferUsage.COPY_DST,
    });
    ctx.device.queue.writeBuffer(args, 0, Uint32Array.of(1, 1, 1, 0, 0, 0, 1, 0));
    // The root pair goes to the large queue (slot 0 of its half of the queue buffer).
    const queues = createStorageBuffer(ctx, 4 * 2 * capacity, 'hisparse add queues');
    ctx.device.queue.writeBuffer(queues, 4 * capacity, Uint32Array.of(0));
    const roles = { poolA: a.pool, poolB: b.pool, items, control: controlBuffer, args, queues };
    let pool: GPUBuffer | undefined;
    try {
      const counted = await runSweep(
        ctx,
        exec,
        'union counting',
        sweepRecipe(
          add,
          { large: unionCountKernel(add.d), merge: mergePairKernel(add.d, 'count'), small: smallUnionCountKernel(add.d) },
          true,
          false,
        ),
        roles,
      );
      if (counted[CONTROL.overflow] !== 0) {
        throw new ScanError(
          'INVALID_ARGUMENT',
          'A, B: the pools hold more nodes than their words (or options.nodes) allow (not valid HiSparse pools)',
          {
            argument: 'A',
          },
        );
      }
      const total = counted[CONTROL.total] as number;
      checkBindable(ctx, 4 * total, 'the output pool');
      pool = createStorageBuffer(ctx, 4 * total, 'hisparse pool');
      ctx.device.queue.writeBuffer(pool, 0, Uint32Array.of(POOL_MAGIC, FORMAT_VERSION, 0, 0));
      const filled = await runSweep(
        ctx,
        exec,
        'fill',
        sweepRecipe(add, { large: fillKernel(add.d), merge: mergePairKernel(add.d, 'fill'), small: smallFillKernel(add.d) }, false, true),
        { ...roles, poolC: pool },
      );
      if (filled[CONTROL.overflow] !== 0 || filled[CONTROL.alloc] !== total) {
        throw new ScanError('GPU_ERROR', `hisparse add: the fill allocated ${filled[CONTROL.alloc]} words of the ${total} counted`);
      }
      const census = censusFromTally(filled, add.levels);
      const result: AddResult = { ...state, root: filled[CONTROL.root] as number, pool, poolWords: total, census };
      pool = undefined;
      return result;
    } finally {
      pool?.destroy();
      exec.destroy();
      items.destroy();
      controlBuffer.destroy();
      args.destroy();
      queues.destroy();
    }
  });
}

/**
 * Records one sweep (all levels) in one submission and reads the control words back after it: the
 * one wait of each phase.
 */
async function runSweep(
  ctx: ScanContext,
  exec: RecipeExecutor,
  phase: string,
  recipe: Recipe,
  roles: Record<string, GPUBuffer>,
): Promise<Uint32Array> {
  const encoder = ctx.device.createCommandEncoder({ label: `hisparse add: ${phase}` });
  exec.encode(encoder, phase, () => recipe, roles);
  const control = roles['control'] as GPUBuffer;
  const read = encodeReadback(ctx, encoder, control, 0, control.size);
  ctx.device.queue.submit([encoder.finish()]);
  return new Uint32Array(await read());
}
