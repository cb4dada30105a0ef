import { type ScanContext, ScanError, uploadArray } from '@scan/core';
import { assertUsable, checkBoolean, checkOneOf, checkOptions, invalidArgument, withSession } from '@scan/core/kit';
import { type CooMatrix, type CsrMatrix, cooToCsr, csrToCoo, type GpuCsrMatrix } from '@scan/spmv';
import { f32Bits } from '../cpu/bits.js';
import type { HiSparseBuildOptions } from '../cpu/build.js';
import { checkEdit, type EditChange } from '../cpu/edit.js';
import { hisparseToCsr } from '../cpu/to-csr.js';
import { checkFinite, checkGpuBuildOptions, checkGpuCsr, checkHiSparse, checkVector } from '../format/args.js';
import type { HiSparseHost } from '../format/matrix.js';
import { checkGpuOperand } from './add/args.js';
import { addBoundsFromCensus } from './add/bounds.js';
import { addOnGpu } from './add/index.js';
import { buildOnGpu, checkBuildable } from './build/index.js';
import { type Census, refuseRegionLeaves, takeCensus } from './census.js';
import { editOnGpu, type GrowablePool } from './edit/index.js';
import type { LeafCombine } from './kernels/leaf-kernel.js';
import { downloadHiSparse, type GpuHiSparseParts, uploadHiSparse } from './parts.js';
import { createPoolSpmvPlan, type HiSparseSpmvEncodeArgs, type HiSparseSpmvPlan } from './spmv-plan.js';
import { type HiSparseStats, statsFromCensus } from './stats.js';

/** Options of {@link HiSparseMatrix.spmv}. */
export interface HiSparseMatrixSpmvOptions {
  /** Multiply by the transpose of the matrix (default false): the same traversal, the leaves read their blocks transposed. */
  transpose?: boolean;
  /**
   * How the leaves' sums are combined into y without float atomics (default `'atomic'`):
   * `'atomic'` adds them by compare-and-swap on the f32 bits of y; `'segmented'` writes them as
   * records (output index, partial) that a radix sort by key, a segmented scan and a scatter
   * reduce — no contention on one word of y (a full row of a skewed matrix), at the cost of
   * about 20 bytes of scratch per leaf entry and a few passes over the records.
   */
  combine?: LeafCombine;
}

/** Reads `transpose` and `combine` of product options (bad values are `INVALID_ARGUMENT` ScanErrors naming them). */
function spmvOptions(options: HiSparseMatrixSpmvOptions | undefined): { transpose: boolean; combine: LeafCombine } {
  const o = checkOptions(options, ['transpose', 'combine']);
  const transpose = checkBoolean(o['transpose'], 'options.transpose', false);
  const combine = checkOneOf(o['combine'], ['atomic', 'segmented'] as const, 'options.combine', 'atomic');
  return { transpose, combine };
}

/**
 * A pool buffer shared by every matrix that reads it — a matrix, its `transpose()` and `scale()`
 * views, and the matrices `insert` and `remove` made from them, which append their new paths to
 * the same pool — with the shape all of them have, and the root and census of the matrix the pool
 * was made for (edited matrices carry their own). The buffer is held mutably: when an edit needs
 * more room it is replaced by a larger copy (see `./edit/pool-append.ts`) and every sharer reads
 * the new one from here. It is freed when the last sharer is destroyed.
 *
 * @example
 * ```ts
 * const tree = new SharedTree({ storedRows: 4, storedCols: 4, nodeSize: 4, levels: 1 }, parts.pool, parts.poolWords, parts.root, census);
 * tree.retain(); // a second sharer
 * tree.release(); tree.release(); // the buffer is destroyed
 * ```
 */
export class SharedTree implements GrowablePool {
  private refs = 1;
  constructor(
    readonly shape: Pick<GpuHiSparseParts, 'storedRows' | 'storedCols' | 'nodeSize' | 'levels'>,
    /** The pool buffer; replaced (grown) by edits. */
    public pool: GPUBuffer,
    /** Words written, header included; grows with every edit. */
    public poolWords: number,
    /** Root of the matrix the pool was made for. */
    readonly root: number,
    /** Census of the matrix the pool was made for. */
    readonly census: Census,
  ) {}
  retain(): this {
    this.refs++;
    return this;
  }
  release(): void {
    if (--this.refs === 0) this.pool.destroy();
  }
}

/**
 * The key that only this module holds: the constructor of {@link HiSparseMatrix} takes it first, so
 * `new HiSparseMatrix(…)` from outside (JavaScript ignores TypeScript's `private`) fails with a
 * ScanError that says how to make a matrix, instead of a TypeError deep inside.
 */
const CONSTRUCT: unique symbol = Symbol('HiSparseMatrix constructor');

/** Made in the class's static block, where the private constructor is reachable (see {@link viewOnContext}). */
let makeView: (ctx: ScanContext, A: HiSparseMatrix) => HiSparseMatrix;

/**
 * A HiSparse matrix on the GPU (Derler, Zayer, Seidel and Steinberger, ICS 2017): a tree of d×d
 * dense and COO1/COO2/COO4 nodes in one pool buffer, with the matrix state — the transposed flag
 * and the scale — kept outside it, so `transpose()` and `scale(s)` are O(1) views of the same pool.
 * Products traverse the tree level by level with per-type queues that the GPU fills and sizes
 * itself (no read-back between levels) and leaf kernels per node type; y = s·op(A)·x runs the
 * same traversal with or without `transpose` (the leaves read their blocks transposed).
 *
 * Made by the static methods `HiSparseMatrix.fromCsr`, `fromCoo`, `fromGpuCsr` or `fromHost`; the
 * constructor is not public (`new HiSparseMatrix()` throws an `INVALID_ARGUMENT` ScanError that
 * names them). Call `destroy()` when done: the pool is freed once no view of it is left.
 *
 * @example
 * ```ts
 * const A = await HiSparseMatrix.fromCsr(ctx, csr, { nodeSize: 32 });
 * const y = await A.spmv(x);                        // A·x
 * const z = await A.spmv(w, { transpose: true });   // Aᵀ·w, the same traversal
 * const B = A.transpose().scale(2);                 // 2·Aᵀ, O(1), shares A's pool
 * A.stats().leafNodes; // nodes per type
 * B.destroy(); A.destroy();
 * ```
 */
export class HiSparseMatrix {
  private destroyed = false;

  /** @internal The pool and its reference count, shared by every view and edit of one matrix. */
  readonly tree: SharedTree;
  /** @internal The root pointer (word offset | node type) of this matrix in the shared pool. */
  readonly root: number;
  /**
   * @internal Nodes, entries and words per level and type of what this matrix reaches, and its COO4
   * leaves per size class (the product plans size their queues and dispatches from it).
   */
  readonly census: Census;

  /** The context the matrix was made on. */
  readonly ctx: ScanContext;
  /** Whether the stored matrix is read transposed. */
  readonly transposed: boolean;
  /** The factor every stored value is multiplied by when read. */
  readonly scaleFactor: number;

  /**
   * Not public: make a matrix with {@link HiSparseMatrix.fromCsr}, {@link HiSparseMatrix.fromCoo},
   * {@link HiSparseMatrix.fromGpuCsr} or {@link HiSparseMatrix.fromHost}. The pool a matrix reads
   * is built by those (and shared by its views), so there is nothing a caller could pass here.
   *
   * @throws ScanError `INVALID_ARGUMENT` when called from outside this module.
   */
  private constructor(
    key: typeof CONSTRUCT,
    ctx: ScanContext,
    tree: SharedTree,
    transposed: boolean,
    scaleFactor: number,
    // Not defaults in the parameter list: those would read `tree` before the key is checked.
    root?: number,
    census?: Census,
  ) {
    if (key !== CONSTRUCT) {
      throw new ScanError(
        'INVALID_ARGUMENT',
        'new HiSparseMatrix(): the constructor is not public; make a matrix with HiSparseMatrix.fromCsr(ctx, A), ' +
          'fromCoo(ctx, coo), fromGpuCsr(ctx, A) or fromHost(ctx, H)',
        { argument: 'new HiSparseMatrix' },
      );
    }
    this.ctx = ctx;
    this.tree = tree;
    this.transposed = transposed;
    this.scaleFactor = scaleFactor;
    this.root = root ?? tree.root;
    this.census = census ?? tree.census;
  }

  static {
    makeView = (ctx, A) => new HiSparseMatrix(CONSTRUCT, ctx, A.tree.retain(), A.transposed, A.scaleFactor, A.root, A.census);
  }

  /** @internal Wraps freshly made parts (the matrix owns the pool) with their census, taken here unless `known`. */
  static async fromParts(ctx: ScanContext, parts: GpuHiSparseParts, known?: Census): Promise<HiSparseMatrix> {
    assertUsable(ctx);
    checkGpuOperand(parts, 'parts');
    let census: Census;
    try {
      census = known ?? (await takeCensus(ctx, parts));
    } catch (error) {
      // The matrix never came to be: its pool (made for it) goes with it.
      parts.pool.destroy();
      throw error;
    }
    const { storedRows, storedCols, nodeSize, levels } = parts;
    const tree = new SharedTree({ storedRows, storedCols, nodeSize, levels }, parts.pool, parts.poolWords, parts.root, census);
    return new HiSparseMatrix(CONSTRUCT, ctx, tree, parts.transposed, parts.scale);
  }

  /**
   * Uploads a matrix built on the host (`@scan/hisparse/cpu`), with its state, into a new pool
   * buffer, and takes the census the products are sized from. A matrix with region leaves
   * (`regionLeaves`, `nodeSize: 'auto'`) is uploaded as it is: its products and edits read them;
   * `add` on the GPU refuses it (`UNSUPPORTED`) until it does.
   *
   * @example
   * ```ts
   * const A = await HiSparseMatrix.fromHost(ctx, hisparseFromCsr(csr, { nodeSize: 16 }));
   * const R = await HiSparseMatrix.fromHost(ctx, hisparseFromCsr(csr, { nodeSize: 'auto' })); // region leaves where they pay
   * ```
   */
  static async fromHost(ctx: ScanContext, H: HiSparseHost): Promise<HiSparseMatrix> {
    assertUsable(ctx);
    return HiSparseMatrix.fromParts(ctx, uploadHiSparse(ctx, checkHiSparse(H, 'H')));
  }

  /**
   * Builds a matrix from CSR (Derler et al. §3.2): the entries are made canonical on the host
   * (`@scan/spmv`'s conversions validate A — a bad `rowPtr` or column index is an
   * `INVALID_ARGUMENT` ScanError naming the field — sort each row and sum duplicates), then binned
   * and laid out on the GPU. The pool is word for word what `hisparseFromCsr` makes. The GPU build
   * does not make region leaves yet: `regionLeaves: true` and `nodeSize: 'auto'` are `UNSUPPORTED`
   * ScanErrors (build them with `hisparseFromCsr` and upload with {@link HiSparseMatrix.fromHost}).
   *
   * @example
   * ```ts
   * const A = await HiSparseMatrix.fromCsr(ctx, poisson2d(64), { nodeSize: 32 });
   * ```
   */
  static async fromCsr(ctx: ScanContext, A: CsrMatrix, options?: HiSparseBuildOptions): Promise<HiSparseMatrix> {
    assertUsable(ctx);
    const canonical = cooToCsr(csrToCoo(A));
    const nodeSize = checkGpuBuildOptions(options);
    // Checked before the uploads, so that a matrix too large is refused in the caller's terms.
    checkBuildable(ctx, { rows: canonical.rows, cols: canonical.cols, nnz: canonical.colIdx.length }, nodeSize);
    const buffers = [
      uploadArray(ctx, canonical.rowPtr, 'hisparse build rowPtr'),
      uploadArray(ctx, canonical.colIdx.length > 0 ? canonical.colIdx : new Uint32Array(1), 'hisparse build colIdx'),
      uploadArray(ctx, canonical.values.length > 0 ? canonical.values : new Float32Array(1), 'hisparse build values'),
    ] as const;
    const [rowPtr, colIdx, values] = buffers;
    try {
      const gpu = { rows: canonical.rows, cols: canonical.cols, nnz: canonical.colIdx.length, rowPtr, colIdx, values };
      return await HiSparseMatrix.fromGpuCsr(ctx, gpu, { nodeSize });
    } finally {
      for (const b of buffers) b.destroy();
    }
  }

  /**
   * Builds a matrix from COO (any order; duplicates summed in f64 as `cooToCsr` does); otherwise as
   * {@link HiSparseMatrix.fromCsr}.
   *
   * @example
   * ```ts
   * const A = await HiSparseMatrix.fromCoo(ctx, readMatrixMarket(text));
   * ```
   */
  static async fromCoo(ctx: ScanContext, coo: CooMatrix, options?: HiSparseBuildOptions): Promise<HiSparseMatrix> {
    assertUsable(ctx);
    return HiSparseMatrix.fromCsr(ctx, cooToCsr(coo), options);
  }

  /**
   * Builds a matrix from a CSR matrix already on the GPU (buffer level: nothing of A is read back).
   * A must be canonical — rows sorted by column, no duplicates — as `@scan/spmv`'s generators and
   * `cooToCsr` make them; the buffers are not modified and stay the caller's. Its sizes are checked
   * (`rows`, `cols`, `nnz` integers, each buffer large enough for them: an `INVALID_ARGUMENT`
   * ScanError names the field); its contents, on the GPU, are not.
   *
   * @example
   * ```ts
   * const gpuA: GpuCsrMatrix = { rows, cols, nnz, rowPtr, colIdx, values }; // your buffers
   * const A = await HiSparseMatrix.fromGpuCsr(ctx, gpuA, { nodeSize: 16 });
   * ```
   */
  static async fromGpuCsr(ctx: ScanContext, A: GpuCsrMatrix, options?: HiSparseBuildOptions): Promise<HiSparseMatrix> {
    assertUsable(ctx);
    checkGpuCsr(A, 'A');
    const nodeSize = checkGpuBuildOptions(options);
    return HiSparseMatrix.fromParts(ctx, await buildOnGpu(ctx, A, nodeSize));
  }

  /** Rows of the logical matrix. */
  get rows(): number {
    return this.transposed ? this.tree.shape.storedCols : this.tree.shape.storedRows;
  }
  /** Columns of the logical matrix. */
  get cols(): number {
    return this.transposed ? this.tree.shape.storedRows : this.tree.shape.storedCols;
  }
  /** Node size d. */
  get nodeSize(): number {
    return this.tree.shape.nodeSize;
  }
  /** Levels of the tree. */
  get levels(): number {
    return this.tree.shape.levels;
  }
  /** The pool buffer, the root pointer and the state, for buffer-level use (plans). */
  get parts(): GpuHiSparseParts {
    const { pool, poolWords } = this.tree;
    return { ...this.tree.shape, root: this.root, pool, poolWords, transposed: this.transposed, scale: this.scaleFactor };
  }

  /** @internal Throws when the context is lost or this matrix was destroyed. */
  usable(): void {
    assertUsable(this.ctx);
    if (this.destroyed) throw new ScanError('INVALID_ARGUMENT', 'HiSparseMatrix: used after destroy()', { argument: 'this' });
  }

  /**
   * `y = s·op(A)·x` on the GPU (f32; s the scale, op(A) = A or Aᵀ), resolved as a new array.
   * `x` must have `cols` elements (`rows` with `transpose`). For repeated products, make a plan
   * with {@link createHiSparseSpmvPlan} and keep x and y on the GPU.
   *
   * @example
   * ```ts
   * await A.spmv(new Float32Array(A.cols).fill(1)); // row sums
   * await A.spmv(x, { combine: 'segmented' }); // sums reduced by sort and segmented scan
   * ```
   */
  async spmv(x: Float32Array, options?: HiSparseMatrixSpmvOptions): Promise<Float32Array> {
    this.usable();
    const { transpose, combine } = spmvOptions(options);
    const [inLength, inName] = transpose ? [this.rows, 'A.rows, transposed'] : [this.cols, 'A.cols'];
    checkVector(x, inLength, 'x', inName);
    const outLength = transpose ? this.cols : this.rows;
    if (outLength === 0) return new Float32Array(0);
    return withSession(this.ctx, 'hisparse spmv', async (s) => {
      const plan = await s.plan(createHiSparseSpmvPlan(this.ctx, this, { transpose, combine }));
      const xBuffer = x.length > 0 ? s.upload(x, 'x') : s.buffer(16, 'x');
      const y = s.buffer(4 * outLength, 'y');
      plan.encode(s.encoder, { x: xBuffer, y });
      const read = s.readback(y, 4 * outLength);
      s.submit();
      return new Float32Array(await read());
    });
  }

  /**
   * A new matrix equal to this one with entry (row, col) of the logical matrix set to `value`
   * (inserted, or replaced when present), copy-on-write on the GPU pool as `hisparseInsert` does on
   * the host: the nodes on the root-to-leaf path are read back (one small read per level), the new
   * path (at most `levels` nodes, node types chosen again for their entry counts) is built on the
   * host and **appended** to the same pool buffer — only those words are uploaded — and every other
   * node is shared. This matrix is unchanged and both stay usable (destroy both). The state
   * applies: coordinates are swapped for a transposed view and `value / scale` is stored (exact for
   * power-of-two scales); a matrix scaled by 0 cannot be edited, and storing +0 in a dense leaf
   * removes the entry. When the pool buffer is full it is replaced by one twice as large, for every
   * matrix sharing it. Bad `row`/`col` are `INVALID_ARGUMENT` ScanErrors naming the argument. Where
   * the path meets a region leaf (a matrix built with `regionLeaves`), that region is read back
   * whole (at most 4096 entries), rebuilt with the change by the build's rule as `hisparseInsert`
   * does, and appended with the path above it.
   *
   * @example
   * ```ts
   * const B = await A.insert(0, 1, 5); // B has 5 at (0, 1); A is unchanged and shares B's other nodes
   * const T = await A.transpose().insert(1, 0, 5); // the same stored entry, through the view
   * ```
   */
  async insert(row: number, col: number, value: number): Promise<HiSparseMatrix> {
    this.usable();
    checkEdit({ rows: this.rows, cols: this.cols, scale: this.scaleFactor }, row, col, 'A', { value });
    return this.edit(row, col, { bits: f32Bits(value / this.scaleFactor) });
  }

  /**
   * A new matrix equal to this one without entry (row, col) of the logical matrix, copy-on-write
   * as {@link HiSparseMatrix.insert} (`hisparseRemove` on the host): nodes left empty disappear
   * from their parents, a matrix whose last entry goes has no root, and removing an absent entry
   * reads the path but appends nothing (the result shares this matrix's root).
   *
   * @example
   * ```ts
   * const C = await B.remove(0, 1); // C equals A again; the pool holds both paths
   * ```
   */
  async remove(row: number, col: number): Promise<HiSparseMatrix> {
    this.usable();
    checkEdit({ rows: this.rows, cols: this.cols, scale: this.scaleFactor }, row, col, 'A');
    return this.edit(row, col, null);
  }

  /** The edit at logical (row, col): the new matrix shares the pool (held for the edit's duration). */
  private async edit(row: number, col: number, change: EditChange): Promise<HiSparseMatrix> {
    const [r, c] = this.transposed ? [col, row] : [row, col];
    const tree = this.tree.retain();
    try {
      const target = { shared: tree, nodeSize: this.nodeSize, levels: this.levels, root: this.root, census: this.census };
      const { root, census } = await editOnGpu(this.ctx, target, r, c, change);
      return new HiSparseMatrix(CONSTRUCT, this.ctx, tree.retain(), this.transposed, this.scaleFactor, root, census);
    } finally {
      tree.release();
    }
  }

  /**
   * C = A + B on the GPU (Derler et al. §6): a joint top-down traversal that counts the union of
   * every pair of nodes, allocates C's nodes from one pool with an atomic counter and fills them;
   * both operands' states (transposed, scale) apply. One submission, one wait: C's pool is bounded
   * from A's and B's censuses before anything is counted, every count stays on the GPU, and only
   * the final control words (root, size, census) are read back, after which the pool is trimmed.
   * C is a new matrix with its own pool (scale 1); A and B are unchanged. Shapes must match (an
   * `INVALID_ARGUMENT` ScanError names both); an operand holding region leaves is an `UNSUPPORTED`
   * one naming it (add those on the host). To add every frame, use `createHiSparseAddPlan`.
   *
   * @example
   * ```ts
   * const C = await A.add(A.scale(2)); // 3·A
   * const S = await A.add(A.transpose()); // A + Aᵀ (square A)
   * ```
   */
  async add(B: HiSparseMatrix): Promise<HiSparseMatrix> {
    this.usable();
    if (!(B instanceof HiSparseMatrix)) invalidArgument('B', B, 'expected a HiSparseMatrix');
    B.usable();
    if (B.ctx !== this.ctx) invalidArgument('B', B, 'expected a matrix of the same context');
    refuseRegionLeaves(this.census, 'A', 'add');
    refuseRegionLeaves(B.census, 'B', 'add');
    const bounds = addBoundsFromCensus(this.census, B.census);
    const {
      census,
      onePass: _,
      ...parts
    } = await addOnGpu(this.ctx, this.parts, B.parts, { levelNodes: bounds.levelNodes, poolWords: bounds.words });
    return HiSparseMatrix.fromParts(this.ctx, parts, census);
  }

  /**
   * Aᵀ in O(1): a view with the transposed flag flipped, sharing the pool (destroy it too).
   *
   * @example
   * ```ts
   * const T = A.transpose(); // T.rows === A.cols
   * ```
   */
  transpose(): HiSparseMatrix {
    this.usable();
    return new HiSparseMatrix(CONSTRUCT, this.ctx, this.tree.retain(), !this.transposed, this.scaleFactor, this.root, this.census);
  }

  /**
   * s·A in O(1): a view whose scale is multiplied by `s` (finite), sharing the pool.
   *
   * @example
   * ```ts
   * const twice = A.scale(2);
   * ```
   */
  scale(s: number): HiSparseMatrix {
    this.usable();
    const factor = checkFinite(s, 's');
    return new HiSparseMatrix(CONSTRUCT, this.ctx, this.tree.retain(), this.transposed, this.scaleFactor * factor, this.root, this.census);
  }

  /**
   * The matrix in host form: its pool read back, with the same state (what `@scan/hisparse/cpu` reads).
   *
   * @example
   * ```ts
   * const H = await A.toHost();
   * ```
   */
  async toHost(): Promise<HiSparseHost> {
    this.usable();
    return downloadHiSparse(this.ctx, this.parts);
  }

  /**
   * The logical matrix (state applied) as canonical CSR: sorted rows, values times the scale.
   *
   * @example
   * ```ts
   * const csr = await A.transpose().toCsr(); // Aᵀ in CSR
   * ```
   */
  async toCsr(): Promise<CsrMatrix> {
    return hisparseToCsr(await this.toHost());
  }

  /**
   * Bytes of the nodes this matrix reaches, plus the pool header (what the format costs; compare
   * `stats().csrBytes`). Views share these bytes.
   *
   * @example
   * ```ts
   * A.memoryBytes() / A.stats().csrBytes; // below 1 on structured matrices
   * ```
   */
  memoryBytes(): number {
    return this.stats().memoryBytes;
  }

  /**
   * Nodes per type of inner nodes and leaves, mean entries, levels, and the bytes of this matrix
   * beside those of the same matrix in CSR and COO (from the census taken when it was made).
   *
   * @example
   * ```ts
   * const { leafNodes, bytesPerNonzero } = A.stats();
   * ```
   */
  stats(): HiSparseStats {
    return statsFromCensus(this.census, { rows: this.rows, cols: this.cols, nodeSize: this.nodeSize, levels: this.levels });
  }

  /**
   * Releases this matrix; the pool is freed when no view of it is left. Idempotent.
   *
   * @example
   * ```ts
   * A.destroy();
   * ```
   */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.tree.release();
  }
}

/**
 * A product plan over `A` (buffer level): `encode(encoder, { x, y })` records `y = s·op(A)·x` with
 * no read-back; `destroy()` frees its queues (not `A`). Its memory is fixed when it is made (the
 * leaf queue, 12 bytes per leaf; the spill table or the records; parameter rings), and once warm an
 * encode with any x and y creates no buffer, bind group or pipeline — a frame loop may encode A·x
 * and Aᵀ·x every iteration. Only an edit that moves the shared pool to a larger buffer makes the
 * next encode build the plan again. `await plan.ready` compiles its kernels before the first frame.
 * `A` must have been made on `ctx`; bad options are `INVALID_ARGUMENT` ScanErrors naming them.
 *
 * @example
 * ```ts
 * const A = await HiSparseMatrix.fromCsr(ctx, csr);
 * const plan = createHiSparseSpmvPlan(ctx, A, { transpose: true, combine: 'segmented' });
 * await plan.ready;
 * plan.encode(encoder, { x, y }); // every frame
 * ```
 */
export function createHiSparseSpmvPlan(ctx: ScanContext, A: HiSparseMatrix, options?: HiSparseMatrixSpmvOptions): HiSparseSpmvPlan {
  assertUsable(ctx);
  if (!(A instanceof HiSparseMatrix)) invalidArgument('A', A, 'expected a HiSparseMatrix');
  if (A.ctx !== ctx) invalidArgument('A', A, 'expected a matrix made on this context (ctx)');
  A.usable();
  const { transpose, combine } = spmvOptions(options);
  // The plan binds the pool buffer it was made with; when an edit of any sharer grows the pool,
  // the next encode makes the plan again over the new buffer (same census, same root).
  const tree = A.tree;
  const make = () => createPoolSpmvPlan(ctx, A.parts, A.census, { transpose, combine });
  let inner = make();
  let bound = tree.pool;
  // Buffers made by the plans this one replaced (destroyed), beside the current one's.
  let replacedAllocations = 0;
  return {
    inLength: inner.inLength,
    outLength: inner.outLength,
    // The first plan's kernels: a plan made again after an edit runs the same ones.
    ready: inner.ready,
    get scratchBytes() {
      return inner.scratchBytes;
    },
    get memoryBytes() {
      return inner.memoryBytes;
    },
    get allocations() {
      return replacedAllocations + inner.allocations;
    },
    encode(encoder: GPUCommandEncoder, args: HiSparseSpmvEncodeArgs) {
      if (tree.pool !== bound) {
        replacedAllocations += inner.allocations;
        inner.destroy();
        inner = make();
        bound = tree.pool;
      }
      inner.encode(encoder, args);
    },
    destroy() {
      inner.destroy();
    },
  };
}

/**
 * @internal For tests: a view of `A` (same pool, state, root and census) that runs on `ctx` — the
 * same device seen through smaller limits, or a wrapped device that counts what it creates. Not
 * exported by the package.
 *
 * @example
 * ```ts
 * const tight = viewOnContext({ ...ctx, caps: smallerCaps }, A);
 * tight.destroy();
 * ```
 */
export function viewOnContext(ctx: ScanContext, A: HiSparseMatrix): HiSparseMatrix {
  return makeView(ctx, A);
}
