import { createStorageBuffer, encodeReadback, type ScanContext, ScanError } from '@scan/core';
import { assertUsable, checkOptions, invalidArgument, RecipeExecutor } from '@scan/core/kit';
import { MAX_NODE_SIZE, MIN_NODE_SIZE } from '../format/layout.js';
import { type AddState, addRecipe, addRoles, censusFromTally, createAddScratch } from './add/add-on-gpu.js';
import { checkAddOperands } from './add/args.js';
import { addBoundsFromCensus } from './add/bounds.js';
import { CONTROL, ITEM_ARRAY_BYTES, LARGE_PAIR_GRID, OVERFLOW, SMALL_PAIR_GRID } from './add/items.js';
import { type Census, refuseRegionLeaves } from './census.js';
import { HiSparseMatrix } from './matrix.js';

/**
 * Options of {@link createHiSparseAddPlan}: the operands' node size and levels (every A and B
 * encoded must have them), and the capacities, fixed when the plan is made. Size them with
 * {@link hisparseAddBounds} of the largest operands the plan will meet (with headroom if they
 * grow): `maxNodes` ≥ A's nodes plus B's (every node of C sits where A or B has one, and the
 * traversal queues one pair per node of C), `maxWords` ≥ A's pool words plus B's plus 4 per node
 * both have, plus the 4-word header (C's nodes are never larger). An add that needs more is not
 * written past the pool: it sets the status's overflow word, which `read()` reports.
 *
 * @example
 * ```ts
 * const options: HiSparseAddPlanOptions = { nodeSize: 64, levels: 3, maxNodes: 200_000, maxWords: 8_000_000 };
 * ```
 */
export interface HiSparseAddPlanOptions {
  /** The node size d of both operands. */
  readonly nodeSize: number;
  /** The levels of both operands' hierarchy (`A.levels`). */
  readonly levels: number;
  /** Most nodes of A and B together (the traversal's pairs). */
  readonly maxNodes: number;
  /** Most words of C's pool, its 4-word header included. */
  readonly maxWords: number;
  /**
   * Optional, per level: most nodes of A and B together there. Only each level's grid follows it
   * (the kernels stride over the pairs the GPU queued, so a smaller value is slower, never wrong);
   * by default every level's grid is sized for `maxNodes`, up to 4,096 workgroups a dispatch.
   */
  readonly maxLevelNodes?: readonly number[];
}

/**
 * The operands of one {@link HiSparseAddPlan.encode}: C = A + B of the logical matrices (views
 * made by `transpose()` and `scale()` included). Both on the plan's context, with its node size
 * and levels, of one logical shape.
 *
 * @example
 * ```ts
 * const args: HiSparseAddEncodeArgs = { A, B: A.transpose() };
 * ```
 */
export interface HiSparseAddEncodeArgs {
  readonly A: HiSparseMatrix;
  readonly B: HiSparseMatrix;
}

/**
 * What {@link HiSparseAddPlan.read} reads of the last add: C's root pointer and pool words (in the
 * plan's `pool`), its nonzeros, and C's stored shape and orientation (A's stored orientation,
 * scale 1).
 *
 * @example
 * ```ts
 * const { root, poolWords } = await plan.read();
 * ```
 */
export interface HiSparseAddResult {
  readonly root: number;
  readonly poolWords: number;
  /** C's stored entries (a dense leaf's entries that cancelled to +0 not counted). */
  readonly nnz: number;
  readonly storedRows: number;
  readonly storedCols: number;
  readonly transposed: boolean;
}

/**
 * Words of the plan's `status` buffer (u32) the caller may read or bind after an encode: C's pool
 * words used (`words`; past the pool when it overflowed), C's root pointer (`root`, 0 for an empty
 * C) and the overflow bits (`overflow`: 1 — more pairs than `maxNodes`, 2 — more words than
 * `maxWords`; 0 when C is whole).
 *
 * @example
 * ```ts
 * encoder.copyBufferToBuffer(plan.status, 4 * HISPARSE_ADD_STATUS.overflow, flags, 0, 4);
 * ```
 */
export const HISPARSE_ADD_STATUS = { words: CONTROL.total, root: CONTROL.root, overflow: CONTROL.overflow } as const;

/**
 * An addition plan: records C = A + B into the caller's encoder, into a pool it owns and reuses.
 *
 * @example
 * ```ts
 * const plan = createHiSparseAddPlan(ctx, hisparseAddBounds(A, B));
 * plan.encode(encoder, { A, B });
 * ```
 */
export interface HiSparseAddPlan {
  /** Resolves when the add's kernels are compiled. */
  readonly ready: Promise<void>;
  /** C's pool (`maxWords` words): valid after the recorded work ran, while the status shows no overflow. */
  readonly pool: GPUBuffer;
  /** The control words: see {@link HISPARSE_ADD_STATUS} for the ones a caller reads. */
  readonly status: GPUBuffer;
  /** Bytes of every GPU buffer the plan holds. */
  readonly memoryBytes: number;
  /** Records C = A + B (nothing read back, nothing created once warm). */
  encode(encoder: GPUCommandEncoder, args: HiSparseAddEncodeArgs): void;
  /**
   * Reads the status after the submitted work (one wait): C's root, words and nonzeros; a
   * `TOO_LARGE` ScanError naming `options.maxNodes` or `options.maxWords` if the add overflowed.
   */
  read(): Promise<HiSparseAddResult>;
  /** C copied into a new {@link HiSparseMatrix} of its own pool (after `read()`'s checks). */
  toMatrix(): Promise<HiSparseMatrix>;
  /** Frees the pool and the scratch (not the operands). */
  destroy(): void;
}

/**
 * Capacities for {@link createHiSparseAddPlan} that fit C = A + B, from the operands' censuses
 * (nodes per level and words per node type): `maxNodes` = A's nodes + B's, `maxWords` = 4 + A's
 * words + B's + 4 per node both could have. A's node size and levels come with them.
 *
 * Both are capped at what one storage binding of A's device holds: that worst case counts every
 * entry of A and of B apart, while a C whose entries mostly coincide (A + 2A, a small perturbation)
 * needs about one operand's words, so an add of two operands of more than a quarter of a binding
 * each still gets a plan. Where C does pass the cap, nothing is written out of place and `read()`
 * throws the `TOO_LARGE` ScanError naming the option.
 *
 * @example
 * ```ts
 * const plan = createHiSparseAddPlan(ctx, hisparseAddBounds(A, B));
 * ```
 */
export function hisparseAddBounds(A: HiSparseMatrix, B: HiSparseMatrix): HiSparseAddPlanOptions {
  if (!(A instanceof HiSparseMatrix)) invalidArgument('A', A, 'expected a HiSparseMatrix');
  if (!(B instanceof HiSparseMatrix)) invalidArgument('B', B, 'expected a HiSparseMatrix');
  const bounds = addBoundsFromCensus(A.census, B.census);
  const most = bindableCapacities(A.ctx);
  return {
    nodeSize: A.nodeSize,
    levels: A.levels,
    maxNodes: Math.max(1, Math.min(bounds.nodes, most.maxNodes)),
    maxWords: Math.min(bounds.words, most.maxWords),
    maxLevelNodes: bounds.levelNodes,
  };
}

/** The largest `maxNodes` and `maxWords` one storage binding of `ctx`'s device holds (each array is bound whole). */
function bindableCapacities(ctx: ScanContext): { maxNodes: number; maxWords: number } {
  const limit = ctx.caps.limits.maxStorageBufferBindingSize;
  return { maxNodes: Math.floor(limit / ITEM_ARRAY_BYTES), maxWords: Math.floor(limit / 4) };
}

/** Reads and checks the plan's options. */
function planOptions(ctx: ScanContext, options: unknown): HiSparseAddPlanOptions {
  const o = checkOptions(options, ['nodeSize', 'levels', 'maxNodes', 'maxWords', 'maxLevelNodes']);
  const d = o['nodeSize'];
  if (typeof d !== 'number' || !Number.isInteger(d) || d < MIN_NODE_SIZE || d > MAX_NODE_SIZE || (d & (d - 1)) !== 0) {
    invalidArgument('options.nodeSize', d, `expected a power of two from ${MIN_NODE_SIZE} to ${MAX_NODE_SIZE}`);
  }
  const positive = (name: string, max: number): number => {
    const v = o[name];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) invalidArgument(`options.${name}`, v, 'expected a positive integer');
    if (v > max) {
      throw new ScanError('TOO_LARGE', `options.${name} = ${v}: past the ${max} one storage binding holds`, {
        argument: `options.${name}`,
      });
    }
    return v;
  };
  const most = bindableCapacities(ctx);
  const levels = positive('levels', 32);
  const maxNodes = positive('maxNodes', most.maxNodes);
  const maxWords = positive('maxWords', most.maxWords);
  if (maxWords < 4) invalidArgument('options.maxWords', maxWords, 'expected at least the 4 words of the pool header');
  const perLevel = o['maxLevelNodes'];
  if (perLevel === undefined) return { nodeSize: d as number, levels, maxNodes, maxWords };
  if (!Array.isArray(perLevel) || perLevel.length !== levels || !perLevel.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    invalidArgument('options.maxLevelNodes', perLevel, `expected ${levels} non-negative integers (one per level)`);
  }
  return { nodeSize: d as number, levels, maxNodes, maxWords, maxLevelNodes: perLevel as number[] };
}

/**
 * A plan for C = A + B of HiSparse matrices, to record every frame: the whole add — start state,
 * the counting sweep (union counts, C's nodes reserved from an atomic pool total), the zeroing of
 * the pool words used, the fill sweep — goes into the caller's encoder with nothing read back and
 * every count kept on the GPU (add-on-gpu.ts: each level sized by the GPU from the queue tails, the
 * grids strided). C lands in `plan.pool`, reused by the next encode; its root and size are in
 * `plan.status` ({@link HISPARSE_ADD_STATUS}), which `read()` reads and checks. Operands may be
 * views (`transpose()`, `scale()`); C is in A's stored orientation with scale 1, as `A.add(B)`.
 *
 * Capacities are fixed (see {@link HiSparseAddPlanOptions} and {@link hisparseAddBounds}): an add
 * past them is never written out of place — the overflow bits are set on the GPU and `read()`
 * throws a `TOO_LARGE` ScanError naming the option to raise. Memory: 4 bytes per `maxWords`, 32
 * per `maxNodes` (three item arrays of 8 bytes a pair and the two queues of 4), the control words
 * (about 1 KiB per level) and a parameter ring. Once warm (the first encode with a pair of
 * pools makes their bind groups) an encode creates nothing.
 *
 * Bad options or arguments are `INVALID_ARGUMENT` ScanErrors naming them (capacities past one
 * storage binding are `TOO_LARGE`; an operand holding region leaves is `UNSUPPORTED`).
 *
 * @example
 * ```ts
 * const A = await HiSparseMatrix.fromCsr(ctx, csr);
 * const B = A.scale(2);
 * const plan = createHiSparseAddPlan(ctx, hisparseAddBounds(A, B));
 * await plan.ready;
 * const encoder = device.createCommandEncoder();
 * plan.encode(encoder, { A, B }); // every frame: C = A + 2A into plan.pool
 * device.queue.submit([encoder.finish()]);
 * const C = await plan.toMatrix(); // or plan.read() for its root and words
 * C.destroy();
 * plan.destroy();
 * ```
 */
export function createHiSparseAddPlan(ctx: ScanContext, options: HiSparseAddPlanOptions): HiSparseAddPlan {
  assertUsable(ctx);
  const opts = planOptions(ctx, options);
  const { nodeSize, levels, maxNodes, maxWords } = opts;
  const levelBounds = Array.from({ length: levels }, (_, level) =>
    Math.max(1, Math.min(maxNodes, opts.maxLevelNodes?.[level] ?? maxNodes)),
  );
  const poolWords = Math.ceil(maxWords / 4) * 4;
  const exec = new RecipeExecutor(ctx, 'hisparse add plan');
  const scratch = createAddScratch(ctx, maxNodes, levels);
  const pool = createStorageBuffer(ctx, 4 * poolWords, 'hisparse add plan pool');
  const state = (A?: HiSparseMatrix, B?: HiSparseMatrix): AddState => ({
    d: nodeSize,
    levels,
    swapB: A !== undefined && B !== undefined && A.transposed !== B.transposed,
    scaleA: A?.scaleFactor ?? 1,
    scaleB: B?.scaleFactor ?? 1,
    capacity: maxNodes,
    levelBounds,
    grid: { large: LARGE_PAIR_GRID, small: SMALL_PAIR_GRID },
  });
  const recipe = (A?: HiSparseMatrix, B?: HiSparseMatrix) =>
    addRecipe(state(A, B), { a: A?.root ?? 0, b: B?.root ?? 0 }, { clearPool: true, poolWords });
  let last: { storedRows: number; storedCols: number; transposed: boolean } | undefined;
  let destroyed = false;
  const checkOperand = (X: unknown, name: string): HiSparseMatrix => {
    if (!(X instanceof HiSparseMatrix)) invalidArgument(name, X, 'expected a HiSparseMatrix');
    X.usable();
    if (X.ctx !== ctx) invalidArgument(name, X, "expected a matrix made on the plan's context (ctx)");
    if (X.nodeSize !== nodeSize) invalidArgument(`${name}.nodeSize`, X.nodeSize, `expected the plan's options.nodeSize = ${nodeSize}`);
    if (X.levels !== levels) invalidArgument(`${name}.levels`, X.levels, `expected the plan's options.levels = ${levels}`);
    refuseRegionLeaves(X.census, name, 'add');
    return X;
  };
  const read = async (): Promise<HiSparseAddResult & { census: Census }> => {
    if (destroyed) throw new ScanError('INVALID_ARGUMENT', 'hisparse add plan: the plan was destroyed', { argument: 'plan' });
    if (!last) throw new ScanError('INVALID_ARGUMENT', 'hisparse add plan: read() before any encode', { argument: 'plan' });
    const shape = last;
    const encoder = ctx.device.createCommandEncoder({ label: 'hisparse add plan: status' });
    const readback = encodeReadback(ctx, encoder, scratch.control, 0, scratch.control.size);
    ctx.device.queue.submit([encoder.finish()]);
    const control = new Uint32Array(await readback());
    const overflow = control[CONTROL.overflow] as number;
    if (overflow & OVERFLOW.items) {
      throw new ScanError('TOO_LARGE', `hisparse add plan: C = A + B needs more pairs than options.maxNodes = ${maxNodes}`, {
        argument: 'options.maxNodes',
      });
    }
    if (overflow !== 0) {
      throw new ScanError(
        'TOO_LARGE',
        `hisparse add plan: C = A + B needs ${control[CONTROL.total]} words, past options.maxWords = ${maxWords}`,
        { argument: 'options.maxWords' },
      );
    }
    const census = censusFromTally(control, levels);
    const nnz = (census.entries[levels - 1] ?? []).reduce((sum, n) => sum + n, 0);
    return { ...shape, root: control[CONTROL.root] as number, poolWords: control[CONTROL.total] as number, nnz, census };
  };
  return {
    ready: exec.load([recipe()]),
    pool,
    status: scratch.control,
    get memoryBytes() {
      return pool.size + scratch.pairs.size * 3 + scratch.queues.size + scratch.control.size + exec.memoryBytes;
    },
    encode(encoder: GPUCommandEncoder, args: HiSparseAddEncodeArgs) {
      if (destroyed) throw new ScanError('INVALID_ARGUMENT', 'hisparse add plan: the plan was destroyed', { argument: 'plan' });
      if (typeof args !== 'object' || args === null) invalidArgument('args', args, 'expected { A, B }');
      const A = checkOperand(args.A, 'args.A');
      const B = checkOperand(args.B, 'args.B');
      checkAddOperands(A.parts, B.parts);
      exec.encode(encoder, () => recipe(A, B), addRoles(A.parts.pool, B.parts.pool, pool, scratch));
      last = { storedRows: A.parts.storedRows, storedCols: A.parts.storedCols, transposed: A.transposed };
    },
    async read() {
      const { census: _, ...result } = await read();
      return result;
    },
    async toMatrix() {
      const r = await read();
      const copy = createStorageBuffer(ctx, 4 * r.poolWords, 'hisparse pool');
      const encoder = ctx.device.createCommandEncoder({ label: 'hisparse add plan: copy C' });
      encoder.copyBufferToBuffer(pool, 0, copy, 0, 4 * r.poolWords);
      ctx.device.queue.submit([encoder.finish()]);
      const parts = {
        pool: copy,
        poolWords: r.poolWords,
        root: r.root,
        storedRows: r.storedRows,
        storedCols: r.storedCols,
        nodeSize,
        levels,
        transposed: r.transposed,
        scale: 1,
      };
      return HiSparseMatrix.fromParts(ctx, parts, r.census);
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      exec.destroy();
      scratch.destroy();
      pool.destroy();
    },
  };
}
