import { createStorageBuffer, encodeReadback, type ScanContext, ScanError, uploadArray } from '@scan/core';
import { type Kernel, type ParamValues, type Recipe, RecipeBuilder, RecipeExecutor, runGuarded } from '@scan/core/kit';
import { FORMAT_VERSION, NULL_POINTER, POOL_HEADER_WORDS, POOL_MAGIC } from '../../format/layout.js';
import type { Census } from '../census.js';
import type { GpuHiSparseParts } from '../parts.js';
import { checkAddOperands, checkGpuOperand } from './args.js';
import {
  type ADD_PARAMS,
  addParams,
  CONTROL,
  controlWords,
  FLAG,
  ITEM_ARRAY_BYTES,
  LARGE_PAIR_GRID,
  NO_PARENT,
  SMALL_PAIR_GRID,
  SMALL_PAIR_GROUP,
  TALLY_COPIES,
  TALLY_WORDS,
  tallyStart,
} from './items.js';
import { fillKernel } from './kernels/fill-kernel.js';
import { addInitKernel, clearPoolKernel, INIT_GROUP } from './kernels/init-kernel.js';
import { levelRangeKernel } from './kernels/level-range-kernel.js';
import { mergePairKernel } from './kernels/merge-pair-kernels.js';
import { smallFillKernel, smallUnionCountKernel } from './kernels/small-pair-kernels.js';
import { unionCountKernel } from './kernels/union-count-kernel.js';

/** What every level's kernels need: the operands' state as flags and scales, and the bounds. */
export interface AddState {
  readonly d: number;
  readonly levels: number;
  readonly swapB: boolean;
  readonly scaleA: number;
  readonly scaleB: number;
  readonly capacity: number;
  /** Most pairs each level can hold: A's and B's nodes there together, at most the capacity. */
  readonly levelBounds: readonly number[];
  /** Most workgroups of a large-queue and of a small-queue dispatch. */
  readonly grid: { readonly large: number; readonly small: number };
}

/** The parameters of `level`'s kernels. */
function levelParams(state: AddState, level: number): ParamValues<typeof ADD_PARAMS> {
  const flags =
    (level === state.levels - 1 ? FLAG.leaf : 0) |
    (state.swapB ? FLAG.swapB : 0) |
    (state.scaleA === 1 ? FLAG.aScaleOne : 0) |
    (state.scaleB === 1 ? FLAG.bScaleOne : 0);
  const { scaleA, scaleB, capacity } = state;
  return addParams({ level, flags, scaleA, scaleB, capacity, tally: tallyStart(state.levels) });
}

const whole = (role: string) => ({ role, offset: 0 });

/** The kernels of one sweep: for the large queue (a workgroup per pair) and the small one (a thread per pair). */
interface SweepKernels {
  readonly large: AddKernel;
  /** The leaf level's large pairs of two sparse lists (the large kernel skips them). */
  readonly merge: AddKernel;
  readonly small: AddKernel;
}

/** An add kernel: the bindings of `addBindings`, the parameters {@link ADD_PARAMS}. */
type AddKernel = Kernel<'pool_a' | 'pool_b' | 'pairs' | 'ctl' | 'pool_c' | 'queues' | 'links' | 'outs', typeof ADD_PARAMS>;

/**
 * One sweep over every level, top-down, as one recipe: per level the large and the small queue's
 * kernels; with `sizeLevels`, `levelRangeKernel` first writes each level's ranges below the root
 * from the queue tails the level above left (the counting sweep); the fill sweep reuses them.
 *
 * Every dispatch is direct, its grid sized on the host from the level's bound (the censuses' nodes
 * there), and the kernels stride over the range the GPU wrote. The GPU still sizes each level
 * itself and nothing is read back between levels, but without `dispatchWorkgroupsIndirect`: on
 * the H100 each indirect dispatch cost about 0.6 ms outside the passes (Dawn validates its
 * arguments), which was most of an add's time (BENCHMARKS.md, "HiSparse third pass").
 */
function sweepRecipe(state: AddState, kernels: SweepKernels, sizeLevels: boolean, withPoolC: boolean): Recipe {
  const b = new RecipeBuilder();
  appendSweep(b, state, kernels, sizeLevels, withPoolC);
  return b.build();
}

/** {@link sweepRecipe}'s dispatches, appended to `b`. */
function appendSweep(b: RecipeBuilder, state: AddState, kernels: SweepKernels, sizeLevels: boolean, withPoolC: boolean): void {
  const bindings = {
    pool_a: whole('poolA'),
    pool_b: whole('poolB'),
    pairs: whole('pairs'),
    ctl: whole('control'),
    pool_c: withPoolC ? whole('poolC') : undefined,
    queues: whole('queues'),
    links: whole('links'),
    outs: whole('outs'),
  };
  // The merge kernels' counting phase queues no children, so it binds no links (an auto layout
  // holds only the bindings a kernel uses).
  const merge = withPoolC ? bindings : { ...bindings, links: undefined };
  for (let level = 0; level < state.levels; level++) {
    // One block per level, shared by the level's kernels.
    const p = b.paramsFor(kernels.large, levelParams(state, level));
    if (sizeLevels && level > 0) b.dispatch(levelRangeKernel(), { ctl: whole('control') }, 1, p);
    const bound = state.levelBounds[level] as number;
    const largeGroups = Math.min(bound, state.grid.large);
    const smallGroups = Math.min(Math.ceil(bound / SMALL_PAIR_GROUP), state.grid.small);
    b.dispatch(kernels.large, bindings, largeGroups, p);
    if (level === state.levels - 1) b.dispatch(kernels.merge, merge, largeGroups, p);
    b.dispatch(kernels.small, bindings, smallGroups, p);
  }
}

/** Most workgroups of the clear of a reused pool (each strides over 256 vec4s at a time). */
const CLEAR_GRID = 1024;

/**
 * A whole add as one recipe, nothing read back in between (the one-pass add and the plan): the
 * start state written on the GPU (`addInitKernel`: control words, root pair, C's header), the
 * counting sweep (which reserves every output node from the pool total as it counts), with
 * `clearPool` the zeroing of C's words up to that total (a reused pool; a fresh one is zero), and
 * the fill sweep into C's pool. Roles: `poolA`, `poolB`, `poolC`, `pairs`, `links`, `outs`,
 * `control`, `queues`. A node past C's pool is not written but flagged (`OVERFLOW.words`), as
 * are children past the items (`OVERFLOW.items`).
 *
 * @example
 * ```ts
 * exec.encode(encoder, () => addRecipe(state, { a: A.root, b: B.root }, { clearPool: true, poolWords }), roles);
 * ```
 */
export function addRecipe(
  state: AddState,
  roots: { readonly a: number; readonly b: number },
  pool: { readonly clearPool: boolean; readonly poolWords: number },
): Recipe {
  const b = new RecipeBuilder();
  const init = addInitKernel();
  b.dispatch(
    init,
    { ctl: whole('control'), pairs: whole('pairs'), links: whole('links'), queues: whole('queues'), pool_c: whole('poolC') },
    1,
    b.paramsFor(init, { root_a: roots.a, root_b: roots.b, capacity: state.capacity, words: controlWords(state.levels) }),
  );
  appendSweep(b, state, countKernels(state.d), true, false);
  if (pool.clearPool) {
    const groups = Math.max(1, Math.min(CLEAR_GRID, Math.ceil(pool.poolWords / (4 * INIT_GROUP))));
    b.dispatch(clearPoolKernel(), { ctl: whole('control'), pool_c: whole('poolC') }, groups);
  }
  appendSweep(b, state, fillKernels(state.d), false, true);
  return b.build();
}

/** The counting sweep's kernels for node size `d`. */
function countKernels(d: number): SweepKernels {
  return { large: unionCountKernel(d), merge: mergePairKernel(d, 'count'), small: smallUnionCountKernel(d) };
}

/** The fill sweep's kernels for node size `d`. */
function fillKernels(d: number): SweepKernels {
  return { large: fillKernel(d), merge: mergePairKernel(d, 'fill'), small: smallFillKernel(d) };
}

/**
 * Options of {@link addOnGpu}.
 *
 * @example
 * ```ts
 * const options: AddOnGpuOptions = { levelNodes: levelNodes(censusA).map((n, l) => n + (levelNodes(censusB)[l] ?? 0)) };
 * ```
 */
export interface AddOnGpuOptions {
  /**
   * How many nodes A and B reach together on each level (from their censuses): the bound on the
   * pairs the traversal queues there, which sizes the items and each level's grid. Without it
   * every level is bounded by the pool words, several times more than all nodes together.
   */
  readonly levelNodes?: readonly number[];
  /**
   * Most workgroups of each large-queue and small-queue dispatch (default {@link LARGE_PAIR_GRID}
   * and {@link SMALL_PAIR_GRID}). The tests make them tiny, so every workgroup strides over
   * several pairs.
   */
  readonly grid?: { readonly large: number; readonly small: number };
  /**
   * A bound on C's pool words (header included), from the censuses (`hisparseAddBounds`): the
   * pool of the one-submission add. Without it the bound comes from the pool words, about twice as
   * large; C's buffer is trimmed to the words used either way.
   */
  readonly poolWords?: number;
}

/**
 * What {@link addOnGpu} returns: C's parts (the caller owns `pool`) and C's census, tallied by the
 * sweeps themselves, so `HiSparseMatrix` need not count C's tree again.
 */
export interface AddResult extends GpuHiSparseParts {
  readonly census: Census;
  /** Whether the add ran in one submission (false: the exact two-pass fallback, or no work). */
  readonly onePass: boolean;
}

/**
 * C's census from the control words after both sweeps (items.ts, `tallyStart`): each level's
 * copies summed (the leaf level's size classes are C's `coo4Classes`), and the dense-leaf entries
 * that cancelled to +0 taken off the leaves' entries.
 */
export function censusFromTally(control: Uint32Array, levels: number): Census {
  const start = tallyStart(levels);
  const nodes: number[][] = [];
  const entries: number[][] = [];
  const words: number[][] = [];
  let coo4Classes: number[] = [];
  for (let level = 0; level < levels; level++) {
    const sum = new Array<number>(TALLY_WORDS).fill(0);
    for (let copy = 0; copy < TALLY_COPIES; copy++) {
      const at = start + 1 + (level * TALLY_COPIES + copy) * TALLY_WORDS;
      for (let w = 0; w < TALLY_WORDS; w++) sum[w] = (sum[w] as number) + (control[at + w] as number);
    }
    nodes.push(sum.slice(0, 4));
    entries.push(sum.slice(4, 8));
    words.push(sum.slice(8, 12));
    coo4Classes = sum.slice(12, TALLY_WORDS);
  }
  const leaves = entries[levels - 1] as number[];
  leaves[0] = (leaves[0] as number) - (control[start] as number);
  return { nodes, entries, words, coo4Classes };
}

/**
 * Refuses buffers past one storage binding: each of these is bound whole. The caller of `A.add(B)`
 * passed B, so the error names it.
 */
function checkBindable(ctx: ScanContext, bytes: number, what: string): void {
  const limit = ctx.caps.limits.maxStorageBufferBindingSize;
  if (bytes > limit) {
    throw new ScanError(
      'TOO_LARGE',
      `HiSparseMatrix.add: adding B needs ${bytes} bytes for ${what}, past maxStorageBufferBindingSize (${limit})`,
      { argument: 'B' },
    );
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
 * 1. **Union counting** (top-down): each pair — A's and B's node at the same place, or one of
 *    them alone — counts the union of its slot lists, reserves its output node (its size, type by
 *    the format's rule from the union count, taken from the pool total with an atomic counter: the
 *    paper's allocator, run while counting), and queues its children as the next level's pairs:
 *    common children to be traversed together, children only one side has to be copied. Between
 *    levels a one-invocation kernel sizes the next level's queues from their tails (the paper's
 *    GPU controller, §4.2), and the next level's grid strides over them.
 * 2. **Fill** (top-down, the same level ranges): each pair writes its node where the counting
 *    sweep reserved it, links the node into its parent's slot, and writes coordinates and, at the
 *    leaves, the sums (common entries) or scaled copies.
 *
 * Both sweeps go into **one submission** (`addRecipe`, which also writes the start state on the
 * GPU): C's pool is allocated before anything is counted, at a bound — `options.poolWords`, which
 * `HiSparseMatrix.add` takes from the censuses (A's words + B's + 4 per node both have, see
 * `addBoundsFromCensus`), else A's pool words + B's + 4 per node the smaller could hold — so the
 * host waits once, for the control words after the fill (root, words used, census), and then
 * trims C's buffer to the words used with a copy it does not wait for. If that bound passes one
 * storage binding, or did not hold (an input pool with node types the format's rule would not
 * choose), the exact two-pass add runs instead: counting, a read-back of the words, C's pool
 * allocated at exactly that size, then the fill and a second read-back.
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
 * The pair items and queues are sized by `options.levelNodes` (A's and B's node counts per level
 * together, which `HiSparseMatrix.add` passes from the censuses) or else by the pool words; so is
 * each level's grid.
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
      onePass: false,
    };
  }
  // Every output node sits where A or B has a node: the queue never holds more pairs than their
  // nodes together — counted by their censuses when the caller has them, else bounded by the pool
  // words (every reachable node takes at least 4 words after the header; ten times more for
  // typical leaves). Each of the three item arrays and each half of the queues takes 8 bytes a pair.
  const byWords = Math.floor((a.poolWords + b.poolWords) / 4);
  const nodes = options.levelNodes?.reduce((sum, n) => sum + n, 0);
  const capacity = Math.max(1, Math.min(byWords, nodes ?? byWords));
  const levelBounds = Array.from({ length: a.levels }, (_, level) =>
    Math.max(1, Math.min(capacity, options.levelNodes?.[level] ?? capacity)),
  );
  checkBindable(ctx, ITEM_ARRAY_BYTES * capacity, 'each array of pair items');
  const add: AddState = {
    d: a.nodeSize,
    levels: a.levels,
    swapB: a.transposed !== b.transposed,
    scaleA: a.scale,
    scaleB: b.scale,
    capacity,
    levelBounds,
    grid: options.grid ?? { large: LARGE_PAIR_GRID, small: SMALL_PAIR_GRID },
  };
  // C's words are at most A's and B's together plus 4 per node both have (a union node of a + b
  // entries takes at most 4 words more than nodes of a and of b: hisparseAddBounds), so one
  // submission with a pool of that bound needs no count read back in between. Past one binding, or
  // if the bound did not hold (pools of non-canonical node types), the exact two-pass add runs.
  const boundWords = options.poolWords ?? a.poolWords + b.poolWords + (4 * Math.min(a.poolWords, b.poolWords)) / 4;
  const words = Math.ceil(boundWords / 4) * 4;
  if (4 * words <= ctx.caps.limits.maxStorageBufferBindingSize) {
    const result = await runGuarded(ctx, 'hisparse add', () => addOnePass(ctx, a, b, add, words));
    if (result) return { ...state, ...result, onePass: true };
  }
  return runGuarded(ctx, 'hisparse add', async () => {
    const exec = new RecipeExecutor(ctx, 'hisparse add', 'B');
    const pairs = createStorageBuffer(ctx, ITEM_ARRAY_BYTES * capacity, 'hisparse add pairs');
    const links = createStorageBuffer(ctx, ITEM_ARRAY_BYTES * capacity, 'hisparse add links');
    const outs = createStorageBuffer(ctx, ITEM_ARRAY_BYTES * capacity, 'hisparse add outs');
    ctx.device.queue.writeBuffer(pairs, 0, Uint32Array.of(a.root, b.root));
    ctx.device.queue.writeBuffer(links, 0, Uint32Array.of(NO_PARENT, 0));
    // The root level is one pair, sized here; the GPU sizes the others.
    const control = new Uint32Array(controlWords(add.levels));
    control[CONTROL.items] = 1;
    control[CONTROL.total] = POOL_HEADER_WORDS;
    control[CONTROL.largeTail] = 1;
    control.set([0, 1, 1, 0, 0, 0, 0, 0], CONTROL.levels);
    const controlBuffer = uploadArray(ctx, control, 'hisparse add control');
    // The root pair goes to the large queue (slot 0 of its half of the queue buffer).
    const queues = createStorageBuffer(ctx, 4 * 2 * capacity, 'hisparse add queues');
    ctx.device.queue.writeBuffer(queues, 4 * capacity, Uint32Array.of(0));
    const roles = { poolA: a.pool, poolB: b.pool, pairs, links, outs, control: controlBuffer, queues };
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
          'A, B: the pools hold more nodes than their words (or options.levelNodes) allow (not valid HiSparse pools)',
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
      if (filled[CONTROL.overflow] !== 0) {
        throw new ScanError('GPU_ERROR', `hisparse add: the fill found a node past the ${total} words counted`);
      }
      const census = censusFromTally(filled, add.levels);
      const result: AddResult = { ...state, root: filled[CONTROL.root] as number, pool, poolWords: total, census, onePass: false };
      pool = undefined;
      return result;
    } finally {
      pool?.destroy();
      exec.destroy();
      pairs.destroy();
      links.destroy();
      outs.destroy();
      controlBuffer.destroy();
      queues.destroy();
    }
  });
}

/** The item arrays, queues and control words of an add with `capacity` items over `levels` levels. */
export interface AddScratch {
  readonly pairs: GPUBuffer;
  readonly links: GPUBuffer;
  readonly outs: GPUBuffer;
  readonly queues: GPUBuffer;
  readonly control: GPUBuffer;
  destroy(): void;
}

/**
 * The scratch of an add with `capacity` items (8 bytes each in each of the three item arrays and
 * in each half of the queues) and the control words of `levels` levels. Nothing in it needs
 * initialising: `addInitKernel` writes what the sweeps read.
 *
 * @example
 * ```ts
 * const scratch = createAddScratch(ctx, 1024, 3);
 * scratch.destroy();
 * ```
 */
export function createAddScratch(ctx: ScanContext, capacity: number, levels: number): AddScratch {
  const pairs = createStorageBuffer(ctx, ITEM_ARRAY_BYTES * capacity, 'hisparse add pairs');
  const links = createStorageBuffer(ctx, ITEM_ARRAY_BYTES * capacity, 'hisparse add links');
  const outs = createStorageBuffer(ctx, ITEM_ARRAY_BYTES * capacity, 'hisparse add outs');
  const queues = createStorageBuffer(ctx, 4 * 2 * capacity, 'hisparse add queues');
  const control = createStorageBuffer(ctx, 4 * controlWords(levels), 'hisparse add control');
  return {
    pairs,
    links,
    outs,
    queues,
    control,
    destroy: () => [pairs, links, outs, queues, control].forEach((buffer) => buffer.destroy()),
  };
}

/**
 * The roles of {@link addRecipe}: A's, B's and C's pools and the scratch.
 *
 * @example
 * ```ts
 * exec.encode(encoder, () => recipe, addRoles(A.pool, B.pool, poolC, scratch));
 * ```
 */
export function addRoles(poolA: GPUBuffer, poolB: GPUBuffer, poolC: GPUBuffer, s: AddScratch): Record<string, GPUBuffer> {
  return { poolA, poolB, poolC, pairs: s.pairs, links: s.links, outs: s.outs, queues: s.queues, control: s.control };
}

/**
 * The add in one submission into a pool of `words` (a bound): `addRecipe` with the control words
 * read back after it — the one wait — then C's pool trimmed to the words used by a copy submitted
 * without waiting. Resolves to undefined (nothing kept) if the pool or the items overflowed.
 */
async function addOnePass(
  ctx: ScanContext,
  a: GpuHiSparseParts,
  b: GpuHiSparseParts,
  add: AddState,
  words: number,
): Promise<(Pick<GpuHiSparseParts, 'root' | 'pool' | 'poolWords'> & { census: Census }) | undefined> {
  const exec = new RecipeExecutor(ctx, 'hisparse add', 'B');
  const scratch = createAddScratch(ctx, add.capacity, add.levels);
  let pool: GPUBuffer | undefined = createStorageBuffer(ctx, 4 * words, 'hisparse pool');
  try {
    const roles = addRoles(a.pool, b.pool, pool, scratch);
    const encoder = ctx.device.createCommandEncoder({ label: 'hisparse add' });
    exec.encode(encoder, () => addRecipe(add, { a: a.root, b: b.root }, { clearPool: false, poolWords: words }), roles);
    const read = encodeReadback(ctx, encoder, scratch.control, 0, scratch.control.size);
    ctx.device.queue.submit([encoder.finish()]);
    const control = new Uint32Array(await read());
    if (control[CONTROL.overflow] !== 0) return undefined;
    const total = control[CONTROL.total] as number;
    const census = censusFromTally(control, add.levels);
    if (total < words) {
      // Trimmed: C's buffer holds its words only (what `poolWords` and the statistics say). The
      // copy is queued, not awaited; the bound pool is freed once it ran.
      const exact = createStorageBuffer(ctx, 4 * total, 'hisparse pool');
      const copy = ctx.device.createCommandEncoder({ label: 'hisparse add: trim' });
      copy.copyBufferToBuffer(pool, 0, exact, 0, 4 * total);
      ctx.device.queue.submit([copy.finish()]);
      pool.destroy();
      pool = exact;
    }
    const result = { root: control[CONTROL.root] as number, pool, poolWords: total, census };
    pool = undefined;
    return result;
  } finally {
    pool?.destroy();
    exec.destroy();
    scratch.destroy();
  }
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
  exec.encode(encoder, () => recipe, roles);
  const control = roles['control'] as GPUBuffer;
  const read = encodeReadback(ctx, encoder, control, 0, control.size);
  ctx.device.queue.submit([encoder.finish()]);
  return new Uint32Array(await read());
}
