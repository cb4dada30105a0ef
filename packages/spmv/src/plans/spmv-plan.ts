import { type ScanContext, ScanError } from '@scan/core';
import { assertUsable, checkEncodeArgs, checkEncodeCall, checkOptions, describeValue } from '@scan/core/kit';
import { MAX_SEGMENT_LENGTH } from '../kernels/branchless-kernels.js';
import { csrStatsUnchecked } from '../stats.js';
import type { CsrMatrix, CsrStats, GpuCsrMatrix, SpmvAlgorithm, SpmvEncodeArgs, SpmvPlan, SpmvPlanOptions } from '../types.js';
import { checkCsr, checkPlanOptions, checkScale } from '../validate.js';
import { createBranchlessRunner } from './branchless-runner.js';
import { chooseAlgorithm } from './choose-algorithm.js';
import { type OwnedGpuCsr, transposeOnGpu, uploadCsr } from './gpu-matrix.js';
import { transposedStats } from './host-stats.js';
import { createMergeRunner } from './merge-runner.js';
import { createRowRunner } from './row-runner.js';
import type { SpmvRunner } from './runner.js';
import { createSegmentedRunner } from './segmented-runner.js';

const WHAT = 'spmv plan';

/** Internal options: tuning for the benchmark sweeps. */
interface InternalPlanOptions extends SpmvPlanOptions {
  /** Lanes per row of `'row'` (1…32, a power of two). */
  lanes?: number;
  /** Items per invocation of `'merge'`. */
  itemsPerThread?: number;
  /** Items per invocation of the merge fix-up (tests lower it to make it walk several rounds). */
  fixupItemsPerThread?: number;
  /** Segment vectors per workgroup of `'branchless'` (1, 2 or 4). */
  vectorsPerWorkgroup?: number;
}

/** The internal options beyond the public ones. */
const TUNING_KEYS = ['lanes', 'itemsPerThread', 'fixupItemsPerThread', 'vectorsPerWorkgroup'];

/** True for a matrix whose arrays are GPU buffers rather than typed arrays. */
function isGpuMatrix(A: unknown): A is GpuCsrMatrix {
  return typeof A === 'object' && A !== null && !ArrayBuffer.isView((A as { rowPtr?: unknown }).rowPtr);
}

function checkGpuMatrix(ctx: ScanContext, A: GpuCsrMatrix): void {
  for (const field of ['rows', 'cols', 'nnz'] as const) {
    const v = A[field];
    if (!(Number.isInteger(v) && v >= 0 && v <= 0xffffffff)) {
      throw new ScanError('INVALID_ARGUMENT', `A.${field} = ${describeValue(v)}: expected an integer from 0 to 2^32 − 1`, {
        argument: `A.${field}`,
      });
    }
  }
  const need = { rowPtr: 4 * (A.rows + 1), colIdx: 4 * A.nnz, values: 4 * A.nnz } as const;
  for (const [field, bytes] of Object.entries(need)) {
    const b = (A as unknown as Record<string, GPUBuffer | undefined>)[field];
    if (!b || typeof b.size !== 'number') {
      throw new ScanError(
        'INVALID_ARGUMENT',
        `A.${field} = ${describeValue(b)}: expected a GPUBuffer (or a Uint32Array/Float32Array for a host matrix)`,
        {
          argument: `A.${field}`,
        },
      );
    }
    if (b.size < bytes) {
      throw new ScanError('INVALID_ARGUMENT', `A.${field} has ${b.size} bytes, needs ${bytes} for rows = ${A.rows}, nnz = ${A.nnz}`, {
        argument: `A.${field}`,
      });
    }
  }
  if (4 * A.nnz > ctx.caps.limits.maxStorageBufferBindingSize) {
    throw new ScanError(
      'TOO_LARGE',
      `A.nnz = ${A.nnz} is past one storage binding (${ctx.caps.limits.maxStorageBufferBindingSize} bytes)`,
      {
        argument: 'A.nnz',
      },
    );
  }
}

function checkPowerOfTwo(value: unknown, argument: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!(typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max && (value & (value - 1)) === 0)) {
    throw new ScanError('INVALID_ARGUMENT', `${argument} = ${describeValue(value)}: expected a power of two from ${min} to ${max}`, {
      argument,
    });
  }
  return value;
}

/**
 * Uploads a CSR matrix once (or binds one already on the GPU), analyses it, and returns a plan
 * that records `y ← alpha·op(A)·x + beta·y` into your encoder as often as you like — what an
 * iterative solver or a frame loop wants: the upload, the analysis (statistics; merge-path
 * partition, head flags or branchless indices; Aᵀ for `transpose`) are paid once. alpha and beta
 * are parameters written at every encode, so new scalars (and new x and y buffers) create no
 * buffer, bind group or pipeline once the plan is warm.
 *
 * Memory, fixed when the plan is made: the uploaded matrix (or Aᵀ; nothing for a
 * {@link GpuCsrMatrix} you pass), the algorithm's analysis and scratch — none for `'row'`; the
 * head flags, products and their scan (about 8 bytes per nonzero) for `'segmented'`; about one
 * byte per nonzero plus 12 bytes per segment vector and right-hand side for `'branchless'`; 8
 * bytes per tile plus the tiles' carries for `'merge'` — the inner segmented scan's small scratch,
 * and a 4-slot parameter ring per part. Bind groups are kept per pair of x and y buffers, in a
 * bounded cache. `await plan.ready` compiles every kernel it may run (both for beta = 0 and
 * beta ≠ 0) before the first frame.
 *
 * With `k` right-hand sides x and y are row-major blocks of k columns and one pass over A serves up
 * to 8 of them (`'row'`, `'branchless'` and `'merge'`; `'segmented'` takes k = 1 only). A host
 * matrix is validated in full; a {@link GpuCsrMatrix} only by its sizes (its contents are yours to
 * keep valid: a column index out of range reads outside x).
 *
 * @example
 * ```ts
 * const plan = createSpmvPlan(ctx, A, { algorithm: 'auto' });
 * await plan.ready;
 * const encoder = ctx.device.createCommandEncoder();
 * plan.encode(encoder, { x: xBuffer, y: yBuffer });
 * plan.encode(encoder, { x: yBuffer, y: zBuffer, alpha: 2, beta: 0.5 }); // another product, same plan
 * ctx.device.queue.submit([encoder.finish()]);
 * plan.destroy();
 * ```
 */
export function createSpmvPlan(ctx: ScanContext, A: CsrMatrix | GpuCsrMatrix, options: SpmvPlanOptions = {}): SpmvPlan {
  assertUsable(ctx);
  const checked = checkPlanOptions(options, TUNING_KEYS);
  const o = options as InternalPlanOptions;
  const { algorithm: requested, transpose, k } = checked;
  const segmentLength = checked.segmentLength ?? MAX_SEGMENT_LENGTH;
  const lanes = checkPowerOfTwo(o.lanes, 'options.lanes', 1, 32);
  const itemsPerThread = checkPowerOfTwo(o.itemsPerThread, 'options.itemsPerThread', 1, 16);
  const fixupItemsPerThread = checkPowerOfTwo(o.fixupItemsPerThread, 'options.fixupItemsPerThread', 1, 64);
  const vectorsPerWorkgroup = checkPowerOfTwo(o.vectorsPerWorkgroup, 'options.vectorsPerWorkgroup', 1, 4);

  // Refused before anything is uploaded: the 2007 method scans one column of products.
  if (k > 1 && requested === 'segmented') {
    throw new ScanError(
      'UNSUPPORTED',
      `options.algorithm = 'segmented' takes one right-hand side; with k = ${k} use 'row', 'branchless', 'merge' or 'auto'`,
      {
        argument: 'options.algorithm',
      },
    );
  }

  // The matrix on the GPU, and its statistics.
  let owned: OwnedGpuCsr | undefined;
  // Buffers made for the matrix: an upload, and a transposition's (its temporaries included).
  let matrixAllocations = 0;
  let base: GpuCsrMatrix;
  let stats: CsrStats | undefined;
  if (isGpuMatrix(A)) {
    checkGpuMatrix(ctx, A);
    base = A;
    stats = checked.stats;
  } else {
    const host = checkCsr(A, 'A');
    if (4 * host.colIdx.length > ctx.caps.limits.maxStorageBufferBindingSize) {
      throw new ScanError(
        'TOO_LARGE',
        `A has ${host.colIdx.length} nonzeros, past one storage binding (${ctx.caps.limits.maxStorageBufferBindingSize} bytes)`,
        {
          argument: 'A',
        },
      );
    }
    stats = transpose ? transposedStats(host) : csrStatsUnchecked(host);
    owned = uploadCsr(ctx, host);
    matrixAllocations += owned.allocations;
    base = owned;
  }
  let matrix: GpuCsrMatrix = base;
  if (transpose) {
    const t = transposeOnGpu(ctx, base);
    owned?.destroy(); // the recorded transpose keeps what it reads alive
    owned = t;
    matrixAllocations += t.allocations;
    matrix = t;
  }

  const algorithm = requested === 'auto' ? chooseAlgorithm(stats) : requested;
  const tuning = { lanes, itemsPerThread, fixupItemsPerThread, segmentLength, vectorsPerWorkgroup };
  const runner = createRunner(ctx, matrix, algorithm, k, stats, tuning);
  const outputLength = matrix.rows;
  const inputLength = matrix.cols;
  const planStats: CsrStats = stats ?? {
    rows: matrix.rows,
    cols: matrix.cols,
    nnz: matrix.nnz,
    meanRowLength: matrix.rows ? matrix.nnz / matrix.rows : 0,
    maxRowLength: NaN,
    rowLengthStdDev: NaN,
    emptyRows: NaN,
  };
  let destroyed = false;
  // Nobody has to await `ready`: a failed compilation must not surface as an unhandled rejection
  // (the encode that needs the kernel reports it); awaiting it still rejects.
  const ready = runner.ready;
  ready.catch(() => undefined);
  return {
    algorithm,
    stats: planStats,
    outputLength,
    inputLength,
    encode(encoder: GPUCommandEncoder, args: SpmvEncodeArgs) {
      if (destroyed) throw new ScanError('INVALID_ARGUMENT', `${WHAT}: the plan was destroyed`, { argument: 'plan' });
      assertUsable(ctx);
      checkEncodeCall(WHAT, encoder, args);
      const a = checkOptions(args, ['x', 'y', 'alpha', 'beta'], 'args') as unknown as SpmvEncodeArgs;
      checkEncodeArgs(WHAT, { x: a.x, y: a.y, count: 1 }, { x: { bytes: 4 * inputLength * k }, y: { bytes: 4 * outputLength * k } });
      const alpha = checkScale(a.alpha, 'args.alpha', 1);
      const beta = checkScale(a.beta, 'args.beta', 0);
      if (outputLength === 0) return;
      runner.encode(encoder, a.x, a.y, alpha, beta);
    },
    ready,
    get scratchBytes() {
      return runner.scratchBytes + (owned ? owned.rowPtr.size + owned.colIdx.size + owned.values.size : 0);
    },
    get memoryBytes() {
      return runner.memoryBytes + (owned ? owned.rowPtr.size + owned.colIdx.size + owned.values.size : 0);
    },
    get allocations() {
      return runner.allocations + matrixAllocations;
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      runner.destroy();
      owned?.destroy();
    },
  };
}

function createRunner(
  ctx: ScanContext,
  m: GpuCsrMatrix,
  algorithm: Exclude<SpmvAlgorithm, 'auto'>,
  k: number,
  stats: CsrStats | undefined,
  tuning: {
    lanes: number | undefined;
    itemsPerThread: number | undefined;
    fixupItemsPerThread: number | undefined;
    segmentLength: number;
    vectorsPerWorkgroup: number | undefined;
  },
): SpmvRunner {
  const rowStats = stats ?? { meanRowLength: m.rows ? m.nnz / m.rows : 0 };
  // No nonzeros: every algorithm's answer is beta·y, which the row kernel writes without scratch.
  if (m.nnz === 0 || algorithm === 'row') return createRowRunner(ctx, m, k, rowStats as CsrStats, tuning.lanes);
  if (algorithm === 'merge') return createMergeRunner(ctx, m, k, tuning);
  if (algorithm === 'segmented') return createSegmentedRunner(ctx, m);
  return createBranchlessRunner(ctx, m, k, tuning.segmentLength, tuning.vectorsPerWorkgroup);
}
