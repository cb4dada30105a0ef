import type { ScanContext } from '@scan/core';
import { createSortPlan } from '@scan/sort';
import type { GpuCsrMatrix } from '@scan/spmv';
import { type CsrMatrix, cooToCsr } from '@scan/spmv/cpu';
import { hostSuiteMatrix, isHostFamily, matrixSeed } from '../spmv-host-matrix.js';
import { bandOf, type MatrixSpec, matrixShape, parseMatrixName } from '../spmv-suite.js';
import { type BufferPool, encodeKernel, readWords, submitAndWait } from './gpu.js';
import { CSR_GENERATORS, RMAT_EDGES_KERNEL, ROW_PTR_FROM_SORTED_KERNEL } from './kernels/spmv-generate.js';
import { readMatrixFile } from './matrix-file.js';

/**
 * The fields of a case over a sparse matrix (the SpMV and HiSparse cases): the matrix, a suite name
 * (`biased-1M`) or a `.mtx` file's base name, and for a file its absolute path (`--mtx`).
 */
export type MatrixFields = { readonly matrix: string; readonly matrixPath?: string };

/** Bytes per `writeBuffer` of a `.mtx` upload, and how many go out before the queue is drained. */
const UPLOAD_CHUNK = 8 << 20;
const CHUNKS_PER_WAIT = 8;

function csrBuffers(pool: BufferPool, rows: number, nnz: number): Pick<GpuCsrMatrix, 'rowPtr' | 'colIdx' | 'values'> {
  return {
    rowPtr: pool.storage(4 * (rows + 1), 'spmv rowPtr'),
    colIdx: pool.storage(4 * nnz, 'spmv colIdx'),
    values: pool.storage(4 * nnz, 'spmv values'),
  };
}

/**
 * R-MAT on the GPU: `rows·16` hashed edges (row, col), sorted by row with `@scan/sort` (a stable
 * key–value radix sort on the ⌈log2 rows⌉ bits rows need), rowPtr by binary search in the sorted
 * rows, values from the hash. The sorted columns are colIdx as they are: columns within a row stay
 * in draw order (CSR does not need them sorted) and duplicate (row, col) pairs stay as separate
 * nonzeros (CSR allows them; their products simply add), so nnz = rows·16 exactly.
 */
async function powerLaw(ctx: ScanContext, pool: BufferPool, spec: MatrixSpec, seed: number): Promise<GpuCsrMatrix> {
  const { rows, cols, nnz } = matrixShape(spec);
  const sortedRows = pool.storage(4 * nnz, 'spmv R-MAT rows');
  const colIdx = pool.storage(4 * nnz, 'spmv colIdx');
  const rowPtr = pool.storage(4 * (rows + 1), 'spmv rowPtr');
  const values = pool.storage(4 * nnz, 'spmv values');
  const draw = ctx.device.createCommandEncoder();
  const edgeParams = pool.params(RMAT_EDGES_KERNEL, { edges: nnz, seed, rows, cols });
  encodeKernel(ctx, draw, RMAT_EDGES_KERNEL, { rows_out: sortedRows, cols_out: colIdx, params: edgeParams }, { invocations: nnz });
  await submitAndWait(ctx, draw);
  const rowBits = Math.max(1, Math.ceil(Math.log2(rows)));
  const sort = createSortPlan(ctx, { keyType: 'u32', valueType: 'u32', maxCount: nnz, bits: [0, Math.min(32, rowBits)] });
  try {
    const encoder = ctx.device.createCommandEncoder();
    sort.encode(encoder, { keys: sortedRows, values: colIdx, count: nnz });
    const rowParams = pool.params(ROW_PTR_FROM_SORTED_KERNEL, { nnz, seed, rows });
    encodeKernel(
      ctx,
      encoder,
      ROW_PTR_FROM_SORTED_KERNEL,
      { sorted_rows: sortedRows, row_ptr: rowPtr, vals: values, params: rowParams },
      { invocations: Math.max(nnz, rows + 1) },
    );
    await submitAndWait(ctx, encoder);
  } finally {
    sort.destroy();
  }
  return { rows, cols, nnz, rowPtr, colIdx, values };
}

/**
 * Records the one-pass generator of `spec`'s family (see spmv-generate.ts) into `encoder`, with its
 * parameters and invocations.
 */
function encodeGenerator(
  ctx: ScanContext,
  pool: BufferPool,
  encoder: GPUCommandEncoder,
  spec: MatrixSpec,
  seed: number,
  buffers: Pick<GpuCsrMatrix, 'rowPtr' | 'colIdx' | 'values'>,
): void {
  const { rows, cols, nnz } = matrixShape(spec);
  const csr = { row_ptr: buffers.rowPtr, col_idx: buffers.colIdx, vals: buffers.values };
  switch (spec.family) {
    case 'poisson2d': {
      const kernel = CSR_GENERATORS.poisson2d;
      encodeKernel(ctx, encoder, kernel, { ...csr, params: pool.params(kernel, { rows, side: spec.size }) }, { invocations: rows + 1 });
      return;
    }
    case 'biased': {
      const kernel = CSR_GENERATORS.biased;
      encodeKernel(ctx, encoder, kernel, { ...csr, params: pool.params(kernel, { rows, seed }) }, { invocations: Math.max(nnz, rows + 1) });
      return;
    }
    case 'uniform': {
      const kernel = CSR_GENERATORS.uniform;
      const params = pool.params(kernel, { rows, seed, cols });
      encodeKernel(ctx, encoder, kernel, { ...csr, params }, { invocations: Math.max(nnz, rows + 1) });
      return;
    }
    case 'banded': {
      const { lower, upper } = bandOf(rows);
      const kernel = CSR_GENERATORS.banded;
      encodeKernel(ctx, encoder, kernel, { ...csr, params: pool.params(kernel, { rows, seed, lower, upper }) }, { invocations: rows + 1 });
      return;
    }
    case 'powerlaw':
      throw new Error('powerlaw: generated in two passes around a sort');
    case 'stencil27':
    case 'geometric':
    case 'rmat':
      throw new Error(`${spec.family}: generated on the host (spmv-host-matrix.ts)`);
  }
}

/**
 * A suite matrix generated on the GPU (see `kernels/spmv-generate.ts`): nothing of it passes
 * through JavaScript.
 *
 * @example
 * ```ts
 * const A = await generateSuiteMatrix(ctx, pool, parseMatrixName('biased-1M'), 1);
 * ```
 */
export async function generateSuiteMatrix(ctx: ScanContext, pool: BufferPool, spec: MatrixSpec, caseSeed: number): Promise<GpuCsrMatrix> {
  if (isHostFamily(spec)) return uploadCsr(ctx, pool, hostSuiteMatrix(spec, caseSeed));
  const seed = matrixSeed(caseSeed);
  if (spec.family === 'powerlaw') return powerLaw(ctx, pool, spec, seed);
  const { rows, cols, nnz } = matrixShape(spec);
  const buffers = csrBuffers(pool, rows, nnz);
  const encoder = ctx.device.createCommandEncoder();
  encodeGenerator(ctx, pool, encoder, spec, seed, buffers);
  await submitAndWait(ctx, encoder);
  return { rows, cols, nnz, ...buffers };
}

/** Writes `data` into `buffer` in chunks, draining the queue now and then so staging stays bounded. */
async function upload(ctx: ScanContext, buffer: GPUBuffer, data: Uint32Array | Float32Array): Promise<void> {
  const bytes = data.byteLength;
  for (let offset = 0, chunk = 0; offset < bytes; offset += UPLOAD_CHUNK, chunk++) {
    const size = Math.min(UPLOAD_CHUNK, bytes - offset);
    ctx.device.queue.writeBuffer(buffer, offset, data.buffer, data.byteOffset + offset, size);
    if (chunk % CHUNKS_PER_WAIT === CHUNKS_PER_WAIT - 1) await ctx.device.queue.onSubmittedWorkDone();
  }
  await ctx.device.queue.onSubmittedWorkDone();
}

/**
 * A Matrix Market file read on the host (`readMatrixMarketFile`, which the CLI installs, then
 * `cooToCsr`, which sums duplicates and sorts each row) and uploaded in 8 MiB chunks. Besides the host-made suite families (spmv-host-matrix.ts), the one place the bench holds a
 * matrix on the JS heap: the file is the user's, there is no generator for it.
 *
 * @example
 * ```ts
 * const A = await uploadMatrixMarket(ctx, pool, '/data/bcsstk13.mtx');
 * ```
 */
export async function uploadMatrixMarket(ctx: ScanContext, pool: BufferPool, path: string): Promise<GpuCsrMatrix> {
  return uploadCsr(ctx, pool, cooToCsr(await readMatrixFile(path)));
}

/**
 * A host CSR matrix uploaded into pool buffers in 8 MiB chunks (the `.mtx` files, the host-made
 * suite families, hisparse-add's perturbed B).
 *
 * @example
 * ```ts
 * const A = await uploadCsr(ctx, pool, stencil27(16));
 * ```
 */
export async function uploadCsr(ctx: ScanContext, pool: BufferPool, host: CsrMatrix): Promise<GpuCsrMatrix> {
  const nnz = host.colIdx.length;
  const buffers = csrBuffers(pool, host.rows, nnz);
  await upload(ctx, buffers.rowPtr, host.rowPtr);
  await upload(ctx, buffers.colIdx, host.colIdx);
  await upload(ctx, buffers.values, host.values);
  return { rows: host.rows, cols: host.cols, nnz, ...buffers };
}

/**
 * The matrix of an SpMV case on the GPU: a `.mtx` file (`c.matrixPath`) or a suite name
 * (`c.matrix`), generated with the case's seed.
 *
 * @example
 * ```ts
 * const A = await caseMatrix(ctx, pool, c);
 * ```
 */
export async function caseMatrix(ctx: ScanContext, pool: BufferPool, c: MatrixFields & { readonly seed: number }): Promise<GpuCsrMatrix> {
  if (c.matrixPath !== undefined) return uploadMatrixMarket(ctx, pool, c.matrixPath);
  return generateSuiteMatrix(ctx, pool, parseMatrixName(c.matrix), c.seed);
}

/**
 * A GPU CSR matrix read back to the host (hisparse-add's perturbation of a GPU-generated A; untimed).
 *
 * @example
 * ```ts
 * const host = await downloadCsr(ctx, A);
 * ```
 */
export async function downloadCsr(ctx: ScanContext, A: GpuCsrMatrix): Promise<CsrMatrix> {
  const rowPtr = await readWords(ctx, A.rowPtr, A.rows + 1);
  const colIdx = await readWords(ctx, A.colIdx, A.nnz);
  const values = new Float32Array((await readWords(ctx, A.values, A.nnz)).buffer);
  return { rows: A.rows, cols: A.cols, rowPtr, colIdx, values };
}
